"""The lounge's rooms in a SQL database (SQLAlchemy 2), behind the same interface as the
in-memory store, and their finished games (:class:`backend.store.HistoryStore`).

Live rooms are kept in an in-memory store as well, so reading never waits on the database;
every change is written before anyone is told about it (``save`` returns only once the change
is committed). If a write fails, the room is put back as the database has it and the caller
gets an error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial

from shared_rules import GAMES

from ..closing import ClosedNote
from ..errors import LoungeError
from ..rooms import PLAYING, Room, now_ms
from ..store import CHAT_HISTORY, MemoryRoomStore
from . import queries
from .queries import StoredRoom, Writes
from .records import Saved, dumps, new_match_id, players_of, rebuild, room_fields, seat_records
from .worker import DbWorker, LocalDbWorker

log = logging.getLogger(__name__)
ACTIVITY_STEP_MS = 60_000  # a room's last-activity time is rewritten at most once a minute
SAVE_FAILED = "The lounge could not save that just now: try again"
WITHDRAWN = "game_withdrawn"  # the closing reason of a room whose game is no longer offered
FENCED = "lounge_fenced"  # the error of a save whose lease epoch is no longer the room's


class SqlRoomStore:
    """Rooms, seats, matches and chat in a database, through a worker (see
    :mod:`backend.db.worker`). Live rooms are read from ``memory``, an in-memory store; every
    change is written through to the database before the memory copy is updated."""

    def __init__(self, worker: DbWorker | LocalDbWorker, history: int = CHAT_HISTORY) -> None:
        self.memory = MemoryRoomStore(history)
        self.history = history  # chat messages kept per room
        self.worker = worker
        self._saved: dict[str, Saved] = {}
        self.leases: Leasing | None = None  # cluster mode: the rooms' lease epochs

    def lease(self, owner: str) -> None:
        """Cluster mode: every room this store saves is leased; its writes are fenced."""
        self.leases = Leasing(owner)

    def last_active(self, room_id: str) -> int | None:
        """When the room last changed (milliseconds), as far as the database knows."""
        saved = self._saved.get(room_id)
        return None if saved is None else saved.updated

    # -- reading (from memory) ---------------------------------------------------------------

    def get(self, room_id: str) -> Room | None:
        return self.memory.get(room_id)

    def by_code(self, code: str) -> Room | None:
        return self.memory.by_code(code)

    def rooms(self) -> Iterator[Room]:
        return self.memory.rooms()

    def count(self) -> int:
        return self.memory.count()

    def chat_history(self, room_id: str) -> list[dict]:
        return self.memory.chat_history(room_id)

    def closed_note(self, code: str) -> ClosedNote | None:
        """Why the room that had this code closed, as the database has it (any process may
        have closed it), if within a day."""
        try:
            row = self.worker.run(partial(queries.read_closed, code.upper()))
        except Exception:  # the plain "no such room" will do
            log.exception("reading why room %s closed failed", code)
            return None
        note = None if row is None else ClosedNote(**row)
        return note if note is not None and note.current() else None

    # -- writing -----------------------------------------------------------------------------

    def save(self, room: Room) -> None:
        """Write whatever changed in the room since it was last saved; returns once it is
        committed. On failure the room is put back as it was saved and LoungeError raised."""
        self.start_save(room)()

    def start_save(self, room: Room) -> Callable[[], None]:
        """Send the room's changes to the database; the function returned waits for the
        commit (see :meth:`save`). Meanwhile the caller may prepare what it will tell, but
        must not tell it nor change the room."""
        if room.closed:
            return _nothing  # a late message about a closed room must not bring it back
        saved = self._saved.get(room.id)
        after, writes = _plan(room, saved, self.leases)
        if not writes:
            return _nothing
        commit = self.worker.submit(writes)

        def finish() -> None:
            try:
                commit.result()
            except Exception as exc:
                if FENCED in str(exc):  # cluster mode: another process has taken the room
                    log.warning("room %s: not saved, another process owns it now", room.code)
                else:
                    log.exception("saving room %s failed", room.code)
                if saved is not None:
                    saved.restore(room)
                raise LoungeError("internal", SAVE_FAILED) from None
            self._saved[room.id] = after
            if "lease" in writes.steps:  # held from now on, not before: see ClusterNode.tick
                self.leases.epochs[room.id] = 1
            self.memory.save(room)

        return finish

    def delete(self, room_id: str, note: ClosedNote | None = None) -> None:
        """Forget a closed room; its finished games stay in the database for their history,
        and so does a game the closing cut short, as abandoned. ``note``: why it closed, kept
        with the deletion."""
        saved, epoch = self._saved.get(room_id), self._epoch(room_id)
        self.forget(room_id)
        abandon = None
        if saved is not None and saved.match is not None and saved.match_id is not None \
                and saved.match.result is None:
            abandon = {"match": saved.match_id, "moves": saved.match.version,
                       "finished": now_ms()}
        try:
            self.worker.run(partial(queries.delete_room, room_id, epoch, abandon=abandon,
                                    note=None if note is None else asdict(note)))
        except Exception:  # it comes back at the next start, and closes after its grace period
            log.exception("deleting room %s failed", room_id)

    def append_chat(self, room_id: str, message: dict) -> None:
        """Save a chat message (before it is sent to anyone); the oldest beyond the history
        length go."""
        if self.memory.get(room_id) is None:
            raise KeyError(room_id)
        row = {"room_id": room_id, "seq": message["id"], "user_id": message["user_id"],
               "name": message["name"], "text": message["text"], "ts": message["ts"]}
        saved = self._saved.get(room_id)
        # chat is activity: a lobby that only chats is not abandoned (rewritten once a minute)
        touch = (message["ts"] if saved is not None
                 and message["ts"] - saved.updated >= ACTIVITY_STEP_MS else None)
        try:
            self.worker.run(partial(queries.add_chat, row, message["id"] - self.history,
                                    self._epoch(room_id), touch=touch))
        except Exception:
            log.exception("saving a chat message in room %s failed", room_id)
            raise LoungeError("internal", SAVE_FAILED) from None
        if touch is not None:
            saved.updated = touch
        self.memory.append_chat(room_id, message)

    # -- starting up -------------------------------------------------------------------------

    def load(self, hard_seconds: float = 1.0, ids: list[str] | None = None,
             closed: Callable[[str, str], None] | None = None) -> list[Room]:
        """Every room of the database (or those with these ids) back in memory, its match
        replayed; the rooms. A room closed instead (its game is no longer offered) is passed
        to ``closed`` with the reason, for its players to be told."""
        loaded = []
        for stored in self.worker.run(partial(queries.read_rooms, ids)):
            if stored.row.game not in GAMES:
                if self._close_withdrawn(stored) and closed is not None:
                    closed(stored.row.id, WITHDRAWN)
                continue
            try:
                room = rebuild(stored, hard_seconds)
            except Exception:
                log.exception("room %s could not be rebuilt: left out", stored.row.code)
                continue
            match_id = stored.match.id if stored.match is not None else None
            self._saved[room.id] = Saved.of(room, match_id, stored.row.updated)
            self.memory.save(room)
            for message in stored.chat:
                self.memory.append_chat(room.id, message)
            loaded.append(room)
        return loaded

    def _close_withdrawn(self, stored: StoredRoom) -> bool:
        """A room whose game this lounge no longer offers (an update removed or renamed it):
        closed as any room is, so that its code and its host are free again and a game cut
        short stays in its history as abandoned; whoever comes back to its code is told why.
        Whether it closed."""
        row, match = stored.row, stored.match
        abandon = None
        if row.status == PLAYING and match is not None and match.finished is None:
            abandon = {"match": match.id, "moves": len(stored.moves), "finished": now_ms()}
        note = asdict(ClosedNote.of(row.code, WITHDRAWN, row.game))
        try:
            self.worker.run(partial(queries.delete_room, row.id, None, abandon=abandon,
                                    note=note))
        except Exception:  # it stays in the database: closed at the next start
            log.exception("closing room %s, whose game %r is no longer offered, failed",
                          row.code, row.game)
            return False
        log.warning("room %s closed: its game %r is no longer offered", row.code, row.game)
        return True

    def forget(self, room_id: str) -> Room | None:
        """Drop a room from memory, the database untouched (in cluster mode: a room this
        process no longer owns); the room dropped."""
        room = self.memory.get(room_id)
        self.memory.delete(room_id)
        self._saved.pop(room_id, None)
        if self.leases is not None:
            self.leases.epochs.pop(room_id, None)
        return room

    def _epoch(self, room_id: str) -> int | None:
        return None if self.leases is None else self.leases.epochs.get(room_id)

    # -- history -----------------------------------------------------------------------------

    def finished_match(self, match_id: str) -> dict | None:
        """A finished match as stored: its row and its log; None if there is none."""
        return self.worker.run(partial(queries.read_match, match_id))

    def finished_matches(self, room_id: str, limit: int = 50, since: int = 0) -> list[dict]:
        """The finished matches played in a room (its host's id; ``since``: those started then
        or later, as one of its rooms' games), newest first; none without a move, and none of
        a game the lounge no longer offers (they cannot be watched again)."""
        return self.worker.run(partial(queries.list_matches, room_id, limit, since,
                                       sorted(GAMES)))

    def purge(self, matches_before: int, users_before: int, notes_before: int = 0
              ) -> dict[str, int]:
        """Remove finished matches older than ``matches_before``, matches whose room is gone,
        users with no seat not seen since ``users_before``, and closed rooms' notes older than
        ``notes_before`` (milliseconds)."""
        return self.worker.run(partial(queries.purge, matches_before, users_before,
                                       notes_before=notes_before))


def _nothing() -> None:
    """A save with nothing to write."""


@dataclass
class Leasing:
    """Cluster mode: this process's name as a lease owner, and the epoch of each room it
    holds."""

    owner: str
    epochs: dict[str, int] = field(default_factory=dict)


def _plan(room: Room, saved: Saved | None, leases: Leasing | None = None
          ) -> tuple[Saved, Writes]:
    """What the database will hold of the room, and the writes that take it there (none when
    it already has it all). The writes are plain rows: the room may change again before they
    run."""
    now = now_ms()
    fields, seats = room_fields(room), seat_records(room)
    new_round = room.match is not None and (saved is None or saved.round != room.round)
    match_id = new_match_id() if new_round else (saved.match_id if saved else None)
    after = Saved(fields, seats, room.round, room.match, match_id, dict(room.bots), now)
    writes = Writes(room.id)
    if saved is None:
        writes.add("insert_room", _room_row(room, fields, now))
        writes.add("new_code", {"code": room.code})  # a closed room's note of it is over
    elif saved.fields != fields or now - saved.updated >= ACTIVITY_STEP_MS:
        row = _room_row(room, fields, now)
        writes.add("update_room", {"room": row.pop("id"), **row})
    else:
        after.updated = saved.updated
    if saved is None or saved.seats != seats:
        writes.add("clear_seats", {"room": room.id})
        writes.add("seats", *[
            {"room_id": room.id, "position": i, "kind": kind, "name": name, "user_id": user_id,
             "level": level, "ready": ready, "left": left, "away": away, "colour": colour}
            for i, (kind, name, user_id, level, ready, left, away, colour) in enumerate(seats)])
        writes.add("users", *[{"id": s[2], "name": s[1], "created": now, "seen": now}
                              for s in seats if s[0] == "human" and s[2]])
    _plan_match(writes, room, saved, new_round, match_id, now)
    if leases is not None and writes:
        _plan_lease(writes, room, saved, leases)
    return after, writes


def _room_row(room: Room, fields: tuple, now: int) -> dict:
    return {"id": room.id, "code": room.code, "game": room.game.slug, "public": room.public,
            "status": room.status, "round": room.round, "created": room.created, "updated": now,
            "turn_seconds": room.turn_seconds, "turn_deadline": room.turn_deadline,
            "removed": fields[8], "left_out": fields[9], "host_came": fields[10]}


def _plan_lease(writes: Writes, room: Room, saved: Saved | None, leases: Leasing) -> None:
    """A new room's lease (its creator holds it once the save commits), or the fence of a
    leased one (which runs before the other writes: see WRITES)."""
    if saved is None and room.id not in leases.epochs:
        writes.add("lease", {"room": room.id, "owner": leases.owner, "epoch": 1})
    else:
        writes.add("fence", {"room": room.id, "epoch": leases.epochs.get(room.id, -1)})


def _plan_match(writes: Writes, room: Room, saved: Saved | None, new_round: bool,
                match_id: str | None, now: int) -> None:
    match = room.match
    if match is None or match_id is None:
        return
    if new_round:
        writes.add("insert_match", {
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
        writes.add("moves", *[
            {"match_id": match_id, "version": done + i + 1, "seat": entry["seat"],
             "move": entry["move"], "args": dumps(entry["args"]),
             "actor": room.stand_ins.get(done + i + 1)}
            for i, entry in enumerate(fresh)])
    was_over = not new_round and saved.match.result is not None
    if match.result is not None and not was_over:
        writes.add("finish_match", {"match": match_id, "result": dumps(match.result),
                                    "moves": match.version, "finished": now})
