"""Building SQL stores and rooms for the store tests."""

from __future__ import annotations

import dataclasses
import uuid

from backend.db import Runtime, SqlRoomStore, make_worker
from backend.db.database import make_engine, upgrade
from backend.db.queries import Writes
from backend.lounge import Lounge
from backend.rooms import Room

OPENED: list[SqlRoomStore] = []


def open_sql_store(url: str, on_loop: bool = False) -> SqlRoomStore:
    """A store on the database at ``url``, its schema up to date, run on plain threads (its
    database process ends after the test: see ``close_stores``). ``on_loop``: with SQLite,
    the saves are committed by the store's own writer as a green server's are (on a thread
    here), not in the database process."""
    engine = make_engine(url)
    upgrade(engine)
    runtime = dataclasses.replace(Runtime.threads(), green=on_loop)
    store = SqlRoomStore(make_worker(engine, runtime))
    OPENED.append(store)
    return store


def close_stores() -> None:
    """End the database process of every store the test opened."""
    while OPENED:
        store = OPENED.pop()
        store.worker.close()
        store.worker.engine.dispose()


def new_user() -> str:
    return str(uuid.uuid4())


def started_room(lounge: Lounge, slug: str, players: int, seed: int = 7) -> Room:
    """A room of ``players`` humans whose game has started, saved."""
    room = lounge.create_room(new_user(), slug, "Host", public=False)
    with room.lock:
        for i in range(1, players):
            room.attach(f"conn-{i}", new_user(), f"Guest {i}", spectate=False)
            room.set_ready(room.seats[i].user_id, True)
        room.start(room.host, seed=seed)
        lounge.store.save(room)
    return room


def play(room: Room, store, moves: int) -> None:
    """The first legal move of the first active seat, ``moves`` times, saving after each."""
    for _ in range(moves):
        match = room.match
        if match.result is not None:
            return
        seat = match.active_seats[0]
        legal = match.legal_moves(seat)
        room.apply_seat(seat, legal[0]["move"], legal[0]["args"])
        store.save(room)


def new_room(room_id: str) -> Writes:
    """The save that creates a room (a lobby with no seats)."""
    writes = Writes(room_id)
    writes.add("insert_room", {
        "id": room_id, "code": room_id.upper(), "game": "tic-tac-toe", "public": False,
        "status": "lobby", "round": 0, "created": 0, "updated": 0, "turn_seconds": 0,
        "turn_deadline": None, "removed": "{}", "left_out": "[]", "host_came": True})
    return writes
