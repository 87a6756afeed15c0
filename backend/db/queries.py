"""The SQL the lounge runs: every read and write as a job for the database process.

A job is a picklable callable of a SQLAlchemy connection (a module-level function, or a
``functools.partial`` of one, or :class:`Writes`), because it is sent to the database process
(see :mod:`backend.db.worker`) and run there. Results are plain data for the same reason. This
module needs only SQLAlchemy and the models, so that the database process starts quickly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from operator import itemgetter
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite

from .models import ChatRow, ClosedRoomRow, MatchRow, MoveRow, RoomLease, RoomRow, SeatRow, User

ROOMS, SEATS, MATCHES = RoomRow.__table__, SeatRow.__table__, MatchRow.__table__
MOVES, CHAT, USERS = MoveRow.__table__, ChatRow.__table__, User.__table__
LEASES, CLOSED = RoomLease.__table__, ClosedRoomRow.__table__


# -- writing a room's changes ------------------------------------------------------------------


class Writes:
    """The rows one save of a room writes, by kind of write (see WRITES). Saves that wait
    together are written together: one statement per kind of write for all of them."""

    def __init__(self, room_id: str | None = None) -> None:
        self.room_id = room_id  # whose changes: saves of other rooms may be written with them
        self.steps: dict[str, list] = {}

    def add(self, step: str, *rows: Any) -> None:
        """Rows for one kind of write."""
        self.steps.setdefault(step, []).extend(rows)

    def __bool__(self) -> bool:
        return bool(self.steps)

    def __call__(self, conn: Connection) -> None:
        cursor = conn.connection.driver_connection.cursor()
        Writes.run_many(cursor, conn.dialect, [self])
        cursor.close()

    @staticmethod
    def run_many(cursor: Any, dialect: Any, saves: list[Writes]) -> None:
        """Write several saves with one statement per kind of write, on a cursor of the
        driver's (in its connection's transaction). The statements are compiled by SQLAlchemy
        once per dialect: SQLAlchemy's work for each execution was most of a save's cost."""
        for statement, rows in _by_statement(dialect, saves):
            if len(rows) == 1:  # cheaper than executemany of one row (psycopg pipelines it)
                cursor.execute(statement.sql, statement.params(rows[0]))
            else:
                cursor.executemany(statement.sql, [statement.params(row) for row in rows])

    @staticmethod
    def commit_many(conn: Connection, saves: list[Writes]) -> bool:
        """On PostgreSQL, write and commit several saves in one round trip to the server:
        one SQL text, ``BEGIN``, every statement, ``COMMIT``, with the values bound by psycopg
        on the client side. (A transaction otherwise costs a round trip for its BEGIN, one
        per statement and one for its COMMIT: most of a save's time.) False, having done
        nothing, on other databases."""
        if conn.dialect.name != "postgresql":
            return False
        from psycopg import ClientCursor

        driver = conn.connection.driver_connection
        cursor = ClientCursor(driver)
        parts = ["BEGIN"]
        for statement, rows in _by_statement(conn.dialect, saves):
            parts += [cursor.mogrify(statement.sql, statement.params(row)) for row in rows]
        driver.autocommit = True  # the text holds its own transaction
        try:
            cursor.execute(";\n".join([*parts, "COMMIT"]))
        except Exception:
            with suppress(Exception):
                cursor.execute("ROLLBACK")  # the text's transaction, aborted by the failure
            raise
        finally:
            cursor.close()
            driver.autocommit = False
        return True


def _by_statement(dialect: Any, saves: list[Writes]) -> Iterator[tuple[_Statement, list]]:
    """Each kind of write the saves need, in the order of WRITES (rows before their
    children), with the rows of all the saves for it."""
    compiled = _compiled(dialect)
    if len(saves) == 1:
        rows_of = saves[0].steps
    else:
        rows_of = {}
        for save in saves:
            for step, rows in save.steps.items():
                rows_of.setdefault(step, []).extend(rows)
    for step in sorted(rows_of, key=POSITION.__getitem__):
        rows = rows_of[step]
        if step == "users":
            rows = list({row["id"]: row for row in rows}.values())  # one row per user
        if rows:
            yield compiled[step], rows


def _statements() -> dict[str, Callable[[Any], Any]]:
    """Each kind of write of a save, in the order they must run, as a statement for a
    dialect; its bound parameters are named as the keys of the rows it is given."""

    def update_room(_dialect: Any) -> Any:
        columns = [c.name for c in ROOMS.columns if c.name != "id"]
        return update(ROOMS).where(ROOMS.c.id == bindparam("room")).values(
            {name: bindparam(name) for name in columns})

    def upsert_users(dialect: Any) -> Any:
        statement = (postgresql if dialect.name == "postgresql" else sqlite).insert(USERS)
        return statement.on_conflict_do_update(
            index_elements=["id"], set_={"name": statement.excluded.name,
                                         "seen": statement.excluded.seen})

    return {
        "fence": lambda _d: FENCE,
        "insert_room": lambda _d: ROOMS.insert(),
        "new_code": lambda _d: delete(CLOSED).where(CLOSED.c.code == bindparam("code")),
        "lease": lambda _d: NEW_LEASE,
        "update_room": update_room,
        "clear_seats": lambda _d: delete(SEATS).where(SEATS.c.room_id == bindparam("room")),
        "seats": lambda _d: SEATS.insert(),
        "users": upsert_users,
        "insert_match": lambda _d: MATCHES.insert(),
        "moves": lambda _d: MOVES.insert(),
        "finish_match": lambda _d: update(MATCHES).where(
            MATCHES.c.id == bindparam("match")).values(
            result=bindparam("result"), moves=bindparam("moves"),
            finished=bindparam("finished")),
    }


# Cluster mode: a save of a leased room first checks that this process's epoch is still the
# room's (see the migration 0002), and a new room is leased to its creator in its first save.
FENCE = text("SELECT lounge_fence(:room, :epoch)")
NEW_LEASE = text("INSERT INTO room_leases (room_id, owner, epoch, expires) "
                 "VALUES (:room, :owner, :epoch, 'infinity')")  # held while its owner lives
WRITES = _statements()
POSITION = {step: i for i, step in enumerate(WRITES)}  # each kind of write's place in WRITES
PURGE_LOCK = 0x6C6F756E6766  # the advisory lock of housekeeping's purge


class _Statement:
    """A statement compiled for one dialect: its SQL, and how to turn a row into the
    driver's parameters (a tuple in order for positional styles, the row itself otherwise)."""

    __slots__ = ("params", "sql")

    def __init__(self, sql: str, order: tuple[str, ...] | None) -> None:
        self.sql = sql
        self.params: Callable[[dict], Any] = (
            _same if order is None else  # itemgetter of one name gives the value, not a tuple
            itemgetter(*order) if len(order) > 1 else lambda row: (row[order[0]],))


def _same(row: dict) -> dict:
    return row


_COMPILED: dict[str, dict[str, _Statement]] = {}


def _compiled(dialect: Any) -> dict[str, _Statement]:
    key = f"{dialect.name}+{dialect.driver}"
    if key not in _COMPILED:
        statements = {}
        for step, build in WRITES.items():
            compiled = build(dialect).compile(dialect=dialect)
            order = compiled.positiontup
            statements[step] = _Statement(str(compiled), tuple(order) if order else None)
        _COMPILED[key] = statements
    return _COMPILED[key]


# -- other writes --------------------------------------------------------------------------------


def fence(room_id: str, epoch: int | None, conn: Connection) -> None:
    """Cluster mode: fail unless ``epoch`` is still the room's lease epoch (None: no lease)."""
    if epoch is not None:
        conn.execute(FENCE, {"room": room_id, "epoch": epoch})


def add_chat(row: dict, oldest_kept: int, epoch: int | None, conn: Connection,
             touch: int | None = None) -> None:
    """Store a chat message and drop the room's messages up to ``oldest_kept``; ``touch``: also
    the room's last-activity time (chat keeps a room alive)."""
    fence(row["room_id"], epoch, conn)
    conn.execute(CHAT.insert(), row)
    if touch is not None:
        conn.execute(update(ROOMS).where(ROOMS.c.id == row["room_id"]).values(updated=touch))
    conn.execute(delete(CHAT).where(CHAT.c.room_id == row["room_id"],
                                    CHAT.c.seq <= oldest_kept))


def checkpoint(conn: Connection) -> None:
    """SQLite: copy what the write-ahead log holds into the database, without waiting for
    anyone (the log is then written from its start again)."""
    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")


ABANDONED = '{"abandoned":true}'


def delete_room(room_id: str, epoch: int | None, conn: Connection,
                abandon: dict | None = None, note: dict | None = None) -> None:
    """The room, its seats and chat; its finished matches stay, for their history. A game
    cut short by the closing (``abandon``: its match id, moves and time) is kept as finished
    with the result ``{"abandoned": true}``; any other unfinished match goes. ``note``: why it
    closed (a row of closed_rooms), which replaces any earlier note of its code."""
    fence(room_id, epoch, conn)
    if note is not None:
        conn.execute(delete(CLOSED).where(CLOSED.c.code == note["code"]))
        conn.execute(CLOSED.insert(), note)
    if abandon is not None:
        conn.execute(update(MATCHES).where(MATCHES.c.id == abandon["match"],
                                           MATCHES.c.finished.is_(None))
                     .values(result=ABANDONED, moves=abandon["moves"],
                             finished=abandon["finished"]))
    unfinished = select(MATCHES.c.id).where(MATCHES.c.room_id == room_id,
                                            MATCHES.c.finished.is_(None))
    conn.execute(delete(MOVES).where(MOVES.c.match_id.in_(unfinished)))
    conn.execute(delete(MATCHES).where(MATCHES.c.room_id == room_id,
                                       MATCHES.c.finished.is_(None)))
    conn.execute(delete(CHAT).where(CHAT.c.room_id == room_id))
    conn.execute(delete(SEATS).where(SEATS.c.room_id == room_id))
    conn.execute(delete(ROOMS).where(ROOMS.c.id == room_id))
    if epoch is not None:
        conn.execute(delete(LEASES).where(LEASES.c.room_id == room_id))


def purge(matches_before: int, users_before: int, conn: Connection,
          notes_before: int = 0) -> dict[str, int]:
    """Remove finished matches older than ``matches_before``, matches whose room is gone,
    users with no seat not seen since ``users_before``, and closed rooms' notes older than
    ``notes_before``; how many matches and users went. On PostgreSQL one process at a time
    does it (a cluster's others find the lock taken)."""
    if conn.dialect.name == "postgresql" and not conn.execute(
            text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": PURGE_LOCK}).scalar():
        return {"matches": 0, "users": 0}
    conn.execute(delete(CLOSED).where(CLOSED.c.closed < notes_before))
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


# -- reading -------------------------------------------------------------------------------------


@dataclass
class StoredRoom:
    """One room as read back from the database (rows as plain namespaces)."""

    row: Any
    seats: list[Any]
    match: Any | None = None
    moves: list[Any] = field(default_factory=list)
    chat: list[dict] = field(default_factory=list)


def _plain(row: Any) -> SimpleNamespace:
    return SimpleNamespace(**row._mapping)


def read_rooms(ids: list[str] | None, conn: Connection) -> list[StoredRoom]:
    """The rooms with these ids (None: every room) that have seats, each with its current
    match, that match's moves and its chat."""
    query = select(ROOMS) if ids is None else select(ROOMS).where(ROOMS.c.id.in_(ids))
    rooms = {row.id: StoredRoom(_plain(row), []) for row in conn.execute(query)}
    if not rooms:
        return []
    seats = select(SEATS) if ids is None else select(SEATS).where(SEATS.c.room_id.in_(list(rooms)))
    for seat in conn.execute(seats.order_by(SEATS.c.room_id, SEATS.c.position)):
        if seat.room_id in rooms:
            rooms[seat.room_id].seats.append(_plain(seat))
    # A room's id is its host's, and matches outlive their room: a host's earlier rooms have
    # matches with the same ids and rounds, older than this room.
    current = (select(MATCHES).join(ROOMS, (ROOMS.c.id == MATCHES.c.room_id)
                                    & (ROOMS.c.round == MATCHES.c.round)
                                    & (MATCHES.c.started >= ROOMS.c.created)))
    if ids is not None:
        current = current.where(ROOMS.c.id.in_(list(rooms)))
    by_match = {}
    for match in conn.execute(current):
        rooms[match.room_id].match = _plain(match)
        by_match[match.id] = rooms[match.room_id]
    if by_match:
        moves = (select(MOVES).where(MOVES.c.match_id.in_(list(by_match)))
                 .order_by(MOVES.c.match_id, MOVES.c.version))
        for move in conn.execute(moves):
            by_match[move.match_id].moves.append(_plain(move))
    chat = select(CHAT) if ids is None else select(CHAT).where(CHAT.c.room_id.in_(list(rooms)))
    for row in conn.execute(chat.order_by(CHAT.c.room_id, CHAT.c.seq)):
        if row.room_id in rooms:
            rooms[row.room_id].chat.append(chat_message(row))
    return [stored for stored in rooms.values() if stored.seats]


def chat_message(row: Any) -> dict:
    """A chat row as the protocol's chat message."""
    return {"id": row.seq, "user_id": row.user_id, "name": row.name, "text": row.text,
            "ts": row.ts}


def _match_summary(row: Any) -> dict:
    return {"id": row.id, "room_id": row.room_id, "round": row.round, "game": row.game,
            "num_players": row.num_players, "players": json.loads(row.players),
            "result": json.loads(row.result) if row.result else None, "moves": row.moves,
            "started": row.started, "finished": row.finished}


def read_match(match_id: str, conn: Connection) -> dict | None:
    """A finished match: its row and its log; None if there is none."""
    row = conn.execute(select(MATCHES).where(MATCHES.c.id == match_id,
                                             MATCHES.c.finished.is_not(None))).first()
    if row is None:
        return None
    moves = conn.execute(select(MOVES).where(MOVES.c.match_id == match_id)
                         .order_by(MOVES.c.version))
    return {**_match_summary(row), "seed": json.loads(row.seed),
            "log": [{"seat": m.seat, "move": m.move, "args": json.loads(m.args),
                     **({"actor": m.actor} if m.actor else {})} for m in moves]}


def read_closed(code: str, conn: Connection) -> dict | None:
    """Why the room that had this code closed (its closed_rooms row), if that was noted."""
    row = conn.execute(select(CLOSED).where(CLOSED.c.code == code)).first()
    return None if row is None else dict(row._mapping)


def list_matches(room_id: str, limit: int, since: int, games: list[str],
                 conn: Connection) -> list[dict]:
    """The finished matches of a room that started at ``since`` or later, had a move and are
    of one of these ``games``, newest first (of two that ended in the same millisecond, the
    later round)."""
    rows = conn.execute(select(MATCHES).where(MATCHES.c.room_id == room_id,
                                              MATCHES.c.finished.is_not(None),
                                              MATCHES.c.started >= since,
                                              MATCHES.c.moves > 0,
                                              MATCHES.c.game.in_(games))
                        .order_by(MATCHES.c.finished.desc(), MATCHES.c.round.desc())
                        .limit(limit))
    return [_match_summary(row) for row in rows]


def count_rows(conn: Connection) -> dict[str, int]:
    """How many rows each table holds (for ``lounge db status`` and the tests)."""
    tables = {"users": USERS, "rooms": ROOMS, "seats": SEATS, "matches": MATCHES,
              "match_moves": MOVES, "chat_messages": CHAT, "closed_rooms": CLOSED}
    return {name: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for name, table in tables.items()}
