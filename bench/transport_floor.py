"""The floor of the lounge's own transport: a bare python-socketio server on eventlet that
speaks the lounge's protocol to the shared load generator (``--target lounge``) with nothing
else a move does in the lounge.

It sends what the lounge sends for a move, the way the lounge sends it: one state to each of
the two players (about 690 bytes, a lounge state's size), then the mover's acknowledgement;
each state written straight to its Engine.IO session, JSON by orjson, WebSockets uncompressed,
handlers in the connection's reader, Engine.IO's writer waits without timers, the garbage
collector set as the lounge's, TCP_NODELAY. What it leaves out is everything else: Flask,
marshmallow, the rate limits, the rules engine (a few lines of Tic-Tac-Toe), the game log, the
store. What the lounge spends on a move beyond this server is the lounge's own work; what this
server spends is the stack's and the protocol's, which the lounge cannot go under.

    .venv/bin/python bench/transport_floor.py PORT [DATABASE_FILE]

With a database file, every move and every new game is committed to SQLite before anyone is
told (write-ahead log, ``synchronous=NORMAL``, as the lounge's default store): one
transaction a move, on the event loop, with SQLite's own checkpoints. That is the floor of
write before tell; the lounge batches the saves that are waiting, which costs it less a save
under load, and plans them from the room, which costs it more.

``bench/floor.sh`` runs it beside boardgame.io and the lounge under the load generator.
"""

from __future__ import annotations

import eventlet

eventlet.monkey_patch()

import itertools  # noqa: E402
import socket  # noqa: E402
import sqlite3  # noqa: E402
import sys  # noqa: E402
from typing import Any  # noqa: E402

import eventlet.wsgi  # noqa: E402
import orjson  # noqa: E402
import socketio  # noqa: E402

from backend.edge import Edge  # noqa: E402
from backend.serve import settle_garbage_collector  # noqa: E402
from backend.speedups import untimed_writer_waits  # noqa: E402
from backend.wire import TextPacket, event_packet  # noqa: E402

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
PAD = "x" * 520  # brings a state to about 690 bytes of JSON, as the lounge's are


class Table:
    """One room: two seats, a board, a version and a round."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.users: list[str] = []  # the seats' users, in join order
        self.sids: dict[str, str] = {}  # user -> connection
        self.round = 0
        self.new_game()

    def new_game(self) -> None:
        self.round += 1
        self.cells: list[str | None] = [None] * 9
        self.version = 0
        self.current = 0
        self.result: dict | None = None

    def move(self, seat: int, cell: Any) -> None:
        if self.result is not None or seat != self.current or type(cell) is not int \
                or not 0 <= cell < 9 or self.cells[cell] is not None:
            raise ValueError("That move is not allowed now")
        self.cells[cell] = "XO"[seat]
        self.version += 1
        self.current = 1 - seat
        if any(self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]
               for a, b, c in LINES):
            self.result = {"winner": seat}
        elif None not in self.cells:
            self.result = {"draw": True}

    def state(self, seat: int) -> dict:
        legal = [] if self.result is not None or seat != self.current else [
            {"move": "place", "args": [i]} for i, c in enumerate(self.cells) if c is None]
        return {"round": self.round, "seat": seat, "version": self.version,
                "view": {"cells": list(self.cells), "current": self.current, "pad": PAD},
                "legal_moves": legal, "result": self.result, "log": []}


sio = socketio.Server(async_mode="eventlet", async_handlers=False, cors_allowed_origins=[],
                      serializer=TextPacket)
untimed_writer_waits(sio)
tables: dict[str, Table] = {}
users: dict[str, str] = {}  # connection -> user
seated: dict[str, Table] = {}  # connection -> its table
ids = itertools.count(1)
database: sqlite3.Connection | None = None


def open_database(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("CREATE TABLE IF NOT EXISTS games (room TEXT, round INTEGER, "
               "PRIMARY KEY (room, round))")
    db.execute("CREATE TABLE IF NOT EXISTS moves (room TEXT, round INTEGER, version INTEGER, "
               "cell INTEGER, PRIMARY KEY (room, round, version))")
    return db


def save(sql: str, row: tuple) -> None:
    """Commit one row before anyone hears of it (nothing, without a database)."""
    if database is not None:
        database.execute("BEGIN IMMEDIATE")
        database.execute(sql, row)
        database.execute("COMMIT")


def send_states(table: Table) -> None:
    for seat, user in enumerate(table.users):
        sid = table.sids.get(user)
        eio_sid = sid and sio.manager.eio_sid_from_sid(sid, "/")
        if eio_sid:
            sio.eio.send(eio_sid, event_packet("state", table.state(seat)))


@sio.on("connect")
def on_connect(sid: str, environ: dict, auth: dict | None) -> bool:
    users[sid] = (auth or {}).get("token", "")
    return True


@sio.on("join")
def on_join(sid: str, data: dict) -> dict:
    table = tables[data["room"]]
    user = users[sid]
    if user not in table.users:
        table.users.append(user)
    table.sids[user] = sid
    seated[sid] = table
    return {"ok": True}


@sio.on("ready")
def on_ready(sid: str, data: dict) -> dict:
    return {"ok": True}


@sio.on("start")
def on_start(sid: str, data: dict) -> dict:
    table = seated[sid]
    save("INSERT INTO games VALUES (?, ?)", (table.code, table.round))
    send_states(table)
    return {"ok": True}


@sio.on("move")
def on_move(sid: str, data: dict) -> dict:
    table = seated[sid]
    try:
        table.move(table.users.index(users[sid]), data["args"][0])
    except (ValueError, IndexError, KeyError):
        return {"ok": False, "error": {"code": "illegal_move"}}
    save("INSERT INTO moves VALUES (?, ?, ?, ?)",
         (table.code, table.round, table.version, data["args"][0]))
    send_states(table)
    return {"ok": True, "version": table.version}


@sio.on("rematch")
def on_rematch(sid: str, data: dict) -> dict:
    table = seated[sid]
    table.new_game()
    save("INSERT INTO games VALUES (?, ?)", (table.code, table.round))
    send_states(table)
    return {"ok": True}


def rest(environ: dict, start_response: Any) -> list[bytes]:
    """``POST /api/session`` and ``POST /api/rooms``, as the load generator uses them."""
    path = environ["PATH_INFO"]
    if path == "/api/session":
        token = f"u{next(ids)}"
        body = {"user_id": token, "token": token}
    elif path == "/api/rooms":
        code = f"R{next(ids)}"
        tables[code] = Table(code)
        body = {"code": code}
    else:
        start_response("404 Not Found", [("Content-Type", "application/json")])
        return [b'{"error": "not_found"}']
    start_response("201 Created", [("Content-Type", "application/json")])
    return [orjson.dumps(body)]


def main() -> None:
    global database
    if len(sys.argv) > 2:
        database = open_database(sys.argv[2])
    listener = eventlet.listen(("127.0.0.1", int(sys.argv[1])))
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # The lounge's own edge, as it serves by default: the WebSocket uncompressed, no access log.
    app = Edge(socketio.WSGIApp(sio, rest), log=False, compression=False)
    settle_garbage_collector()  # the lounge's collector settings
    eventlet.wsgi.server(listener, app, log_output=False)


if __name__ == "__main__":
    main()
