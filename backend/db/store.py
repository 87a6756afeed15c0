"""The lounge's rooms in a SQL database (SQLAlchemy 2), behind the same interface as the
in-memory store.

Live rooms are kept in memory as well, so reading never waits on the database; every change is
written before anyone is told about it (``save`` returns only once the change is committed).
If a write fails, the room is put back as the database has it and the caller gets an error.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from ..errors import LoungeError
from ..rooms import Room, now_ms
from ..store import CHAT_HISTORY, MemoryRoomStore
from .models import ChatRow, MatchRow, MoveRow, RoomRow, SeatRow, User
from .records import (
    Saved,
    StoredRoom,
    chat_message,
    dumps,
    new_match_id,
    players_of,
    rebuild,
    seat_records,
)
from .worker import DbWorker

log = logging.getLogger(__name__)
ROOMS, SEATS, MATCHES = RoomRow.__table__, SeatRow.__table__, MatchRow.__table__
MOVES, CHAT, USERS = MoveRow.__table__, ChatRow.__table__, User.__table__
ACTIVITY_STEP_MS = 60_000  # a room's last-activity time is rewritten at most once a minute
SAVE_FAILED = "The lounge could not save that just now: try again"


class SqlRoomStore(MemoryRoomStore):
    """Rooms, seats, matches and chat in a database, through a :class:`DbWorker`. Live rooms
    are read from memory (the in-memory store this extends); every change is written through
    to the database before the memory copy is updated."""

    def __init__(self, worker: DbWorker, history: int = CHAT_HISTORY) -> None:
        super().__init__(history)
        self.worker = worker
        self._saved: dict[str, Saved] = {}

    def last_active(self, room_id: str) -> int | None:
        """When the room last changed (milliseconds), as far as the database knows."""
        saved = self._saved.get(room_id)
        return None if saved is None else saved.updated

    # -- writing -----------------------------------------------------------------------------

    def save(self, room: Room) -> None:
        """Write whatever changed in the room since it was last saved; returns once it is
        committed. On failure the room is put back as it was saved and LoungeError raised."""
        if room.closed:
            return  # a late message about a closed room must not bring it back
        saved = self._saved.get(room.id)
        plan = _plan(room, saved)
        if plan is None:
            return
        try:
            self.worker.run(plan)
        except Exception:
            log.exception("saving room %s failed", room.code)
            if saved is not None:
                saved.restore(room)
            raise LoungeError("internal", SAVE_FAILED) from None
        self._saved[room.id] = plan.after
        super().save(room)

    def delete(self, room_id: str) -> None:
        """Forget a closed room; its finished games stay in the database for their history."""
        super().delete(room_id)
        self._saved.pop(room_id, None)
        try:
            self.worker.run(lambda conn: _delete_room(conn, room_id))
        except Exception:  # it comes back at the next start, and closes after its grace period
            log.exception("deleting room %s failed", room_id)

    def append_chat(self, room_id: str, message: dict) -> None:
        """Save a chat message (before it is sent to anyone); the oldest beyond the history
        length go."""
        if room_id not in self._rooms:
            raise KeyError(room_id)
        row = {"room_id": room_id, "seq": message["id"], "user_id": message["user_id"],
               "name": message["name"], "text": message["text"], "ts": message["ts"]}
        oldest_kept = message["id"] - self._history

        def write(conn: Connection) -> None:
            conn.execute(CHAT.insert(), row)
            conn.execute(delete(CHAT).where(CHAT.c.room_id == room_id,
                                            CHAT.c.seq <= oldest_kept))

        try:
            self.worker.run(write)
        except Exception:
            log.exception("saving a chat message in room %s failed", room_id)
            raise LoungeError("internal", SAVE_FAILED) from None
        super().append_chat(room_id, message)

    # -- starting up -------------------------------------------------------------------------

    def load(self, hard_seconds: float = 1.0) -> list[Room]:
        """Every room of the database back in memory, its match replayed; the rooms."""
        loaded = []
        for stored in self.worker.run(_read_rooms):
            try:
                room = rebuild(stored, hard_seconds)
            except Exception:
                log.exception("room %s could not be rebuilt: left out", stored.row.code)
                continue
            match_id = stored.match.id if stored.match is not None else None
            self._saved[room.id] = Saved.of(room, match_id, stored.row.updated)
            super().save(room)
            self._chat[room.id] = deque(stored.chat, maxlen=self._history)
            loaded.append(room)
        return loaded

    # -- history -----------------------------------------------------------------------------

    def finished_match(self, match_id: str) -> dict | None:
        """A finished match as stored: its row and its log; None if there is none."""
        return self.worker.run(lambda conn: _read_match(conn, match_id))

    def finished_matches(self, room_id: str, limit: int = 50) -> list[dict]:
        """The finished matches played in a room (its host's id), newest first."""
        return self.worker.run(lambda conn: _list_matches(conn, room_id, limit))

    def purge(self, matches_before: int, users_before: int) -> dict[str, int]:
        """Remove finished matches older than ``matches_before``, matches whose room is gone,
        and users with no seat not seen since ``users_before`` (milliseconds)."""
        return self.worker.run(lambda conn: _purge(conn, matches_before, users_before))


class _Plan:
    """The writes one save needs, prepared from the room (the job must not read the room,
    which may change again before the job runs). Plans that wait together are written
    together: one statement per kind of write for all of them (see :meth:`run_many`)."""

    def __init__(self, after: Saved) -> None:
        self.after = after
        self.steps: dict[str, list] = {}

    def add(self, step: str, *rows: Any) -> None:
        """Rows for one kind of write (see WRITERS)."""
        self.steps.setdefault(step, []).extend(rows)

    def __call__(self, conn: Connection) -> None:
        _Plan.run_many(conn, [self])

    @staticmethod
    def run_many(conn: Connection, plans: list[_Plan]) -> None:
        """Write several plans with one statement per kind of write."""
        for step, write in WRITERS.items():  # in this order: rows exist before their children
            rows = [row for plan in plans for row in plan.steps.get(step, ())]
            if rows:
                write(conn, rows)


def _plan(room: Room, saved: Saved | None) -> _Plan | None:
    """What to write for this room, or None when the database already has it all."""
    now = now_ms()
    fields, seats = (room.code, room.game.slug, room.public, room.status, room.round,
                     room.created), seat_records(room)
    new_round = room.match is not None and (saved is None or saved.round != room.round)
    match_id = new_match_id() if new_round else (saved.match_id if saved else None)
    after = Saved(fields, seats, room.round, room.match, match_id, dict(room.bots), now)
    plan = _Plan(after)
    row = {"id": room.id, "code": room.code, "game": room.game.slug, "public": room.public,
           "status": room.status, "round": room.round, "created": room.created, "updated": now}
    if saved is None:
        plan.add("insert_room", row)
    elif saved.fields != fields or now - saved.updated >= ACTIVITY_STEP_MS:
        plan.add("update_room", {"room": room.id, **{k: v for k, v in row.items() if k != "id"}})
    else:
        after.updated = saved.updated
    if saved is None or saved.seats != seats:
        plan.add("clear_seats", {"room": room.id})
        plan.add("seats", *[
            {"room_id": room.id, "position": i, "kind": kind, "name": name, "user_id": user_id,
             "level": level, "ready": ready, "left": left}
            for i, (kind, name, user_id, level, ready, left) in enumerate(seats)])
        plan.add("users", *[{"id": s[2], "name": s[1], "created": now, "seen": now}
                            for s in seats if s[0] == "human" and s[2]])
    _plan_match(plan, room, saved, new_round, match_id, now)
    return plan if plan.steps else None


def _plan_match(plan: _Plan, room: Room, saved: Saved | None, new_round: bool,
                match_id: str | None, now: int) -> None:
    match = room.match
    if match is None or match_id is None:
        return
    if new_round:
        plan.add("insert_match", {
            "id": match_id, "room_id": room.id, "round": room.round, "game": room.game.slug,
            "num_players": match.num_players, "seed": dumps(match.seed),
            "players": dumps(players_of(room)), "result": None, "moves": 0,
            "started": now, "finished": None})
        done = 0
    else:
        if match is saved.match:
            return
        done = saved.match.version
    fresh = match.log_tail(match.version - done)
    if fresh:
        plan.add("moves", *[
            {"match_id": match_id, "version": done + i + 1, "seat": entry["seat"],
             "move": entry["move"], "args": dumps(entry["args"])}
            for i, entry in enumerate(fresh)])
    was_over = not new_round and saved.match.result is not None
    if match.result is not None and not was_over:
        plan.add("finish_match", {"match": match_id, "result": dumps(match.result),
                                  "moves": match.version, "finished": now})


# -- the writes ---------------------------------------------------------------------------------


def _insert_room(conn: Connection, rows: list[dict]) -> None:
    conn.execute(ROOMS.insert(), rows)


def _update_room(conn: Connection, rows: list[dict]) -> None:
    columns = {name: bindparam(name) for name in rows[0] if name != "room"}
    conn.execute(update(ROOMS).where(ROOMS.c.id == bindparam("room")).values(columns), rows)


def _clear_seats(conn: Connection, rows: list[dict]) -> None:
    conn.execute(delete(SEATS).where(SEATS.c.room_id.in_([row["room"] for row in rows])))


def _insert_seats(conn: Connection, rows: list[dict]) -> None:
    conn.execute(SEATS.insert(), rows)


def _upsert_users(conn: Connection, rows: list[dict]) -> None:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(USERS)
    statement = statement.on_conflict_do_update(
        index_elements=["id"], set_={"name": statement.excluded.name,
                                     "seen": statement.excluded.seen})
    latest = {row["id"]: row for row in rows}  # one row per user, or PostgreSQL refuses
    conn.execute(statement, list(latest.values()))


def _insert_matches(conn: Connection, rows: list[dict]) -> None:
    conn.execute(MATCHES.insert(), rows)


def _insert_moves(conn: Connection, rows: list[dict]) -> None:
    conn.execute(MOVES.insert(), rows)


def _finish_matches(conn: Connection, rows: list[dict]) -> None:
    conn.execute(update(MATCHES).where(MATCHES.c.id == bindparam("match")).values(
        result=bindparam("result"), moves=bindparam("moves"),
        finished=bindparam("finished")), rows)


WRITERS = {"insert_room": _insert_room, "update_room": _update_room,
           "clear_seats": _clear_seats, "seats": _insert_seats, "users": _upsert_users,
           "insert_match": _insert_matches, "moves": _insert_moves,
           "finish_match": _finish_matches}


def _delete_room(conn: Connection, room_id: str) -> None:
    """The room, its seats and chat, and its unfinished match (which can never finish now);
    its finished matches stay, for their history."""
    unfinished = select(MATCHES.c.id).where(MATCHES.c.room_id == room_id,
                                            MATCHES.c.finished.is_(None))
    conn.execute(delete(MOVES).where(MOVES.c.match_id.in_(unfinished)))
    conn.execute(delete(MATCHES).where(MATCHES.c.room_id == room_id,
                                       MATCHES.c.finished.is_(None)))
    conn.execute(delete(CHAT).where(CHAT.c.room_id == room_id))
    conn.execute(delete(SEATS).where(SEATS.c.room_id == room_id))
    conn.execute(delete(ROOMS).where(ROOMS.c.id == room_id))


# -- the reads ----------------------------------------------------------------------------------


def _read_rooms(conn: Connection) -> list[StoredRoom]:
    rooms = {row.id: StoredRoom(row, []) for row in conn.execute(select(ROOMS))}
    for seat in conn.execute(select(SEATS).order_by(SEATS.c.room_id, SEATS.c.position)):
        if seat.room_id in rooms:
            rooms[seat.room_id].seats.append(seat)
    current = (select(MATCHES).join(ROOMS, (ROOMS.c.id == MATCHES.c.room_id)
                                    & (ROOMS.c.round == MATCHES.c.round)))
    by_match = {}
    for match in conn.execute(current):
        rooms[match.room_id].match = match
        by_match[match.id] = rooms[match.room_id]
    if by_match:
        moves = (select(MOVES).where(MOVES.c.match_id.in_(list(by_match)))
                 .order_by(MOVES.c.match_id, MOVES.c.version))
        for move in conn.execute(moves):
            by_match[move.match_id].moves.append(move)
    for row in conn.execute(select(CHAT).order_by(CHAT.c.room_id, CHAT.c.seq)):
        if row.room_id in rooms:
            rooms[row.room_id].chat.append(chat_message(row))
    return [stored for stored in rooms.values() if stored.seats]


def _match_summary(row: Any) -> dict:
    return {"id": row.id, "room_id": row.room_id, "round": row.round, "game": row.game,
            "num_players": row.num_players, "players": json.loads(row.players),
            "result": json.loads(row.result) if row.result else None, "moves": row.moves,
            "started": row.started, "finished": row.finished}


def _read_match(conn: Connection, match_id: str) -> dict | None:
    row = conn.execute(select(MATCHES).where(MATCHES.c.id == match_id,
                                             MATCHES.c.finished.is_not(None))).first()
    if row is None:
        return None
    moves = conn.execute(select(MOVES).where(MOVES.c.match_id == match_id)
                         .order_by(MOVES.c.version))
    return {**_match_summary(row), "seed": json.loads(row.seed),
            "log": [{"seat": m.seat, "move": m.move, "args": json.loads(m.args)}
                    for m in moves]}


def _list_matches(conn: Connection, room_id: str, limit: int) -> list[dict]:
    rows = conn.execute(select(MATCHES).where(MATCHES.c.room_id == room_id,
                                              MATCHES.c.finished.is_not(None))
                        .order_by(MATCHES.c.finished.desc()).limit(limit))
    return [_match_summary(row) for row in rows]


def _purge(conn: Connection, matches_before: int, users_before: int) -> dict[str, int]:
    old = select(MATCHES.c.id).where(MATCHES.c.finished < matches_before)
    orphans = (select(MATCHES.c.id).where(MATCHES.c.finished.is_(None))
               .where(~select(ROOMS.c.id).where(ROOMS.c.id == MATCHES.c.room_id).exists()))
    doomed = [row.id for row in conn.execute(old.union(orphans))]
    for start in range(0, len(doomed), 500):
        chunk = doomed[start:start + 500]
        conn.execute(delete(MOVES).where(MOVES.c.match_id.in_(chunk)))
        conn.execute(delete(MATCHES).where(MATCHES.c.id.in_(chunk)))
    seated = select(SEATS.c.user_id).where(SEATS.c.user_id.is_not(None))
    users = conn.execute(delete(USERS).where(USERS.c.seen < users_before,
                                             USERS.c.id.not_in(seated)))
    return {"matches": len(doomed), "users": users.rowcount or 0}


def count_rows(conn: Connection) -> dict[str, int]:
    """How many rows each table holds (for ``lounge db status`` and the tests)."""
    tables = {"users": USERS, "rooms": ROOMS, "seats": SEATS, "matches": MATCHES,
              "match_moves": MOVES, "chat_messages": CHAT}
    return {name: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for name, table in tables.items()}
