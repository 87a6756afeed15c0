"""Durable rooms: the SQL store, its schema migrations, restart recovery and housekeeping."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..store import MemoryRoomStore, RoomStore
from .database import MEMORY, database_url, make_engine, upgrade
from .store import SqlRoomStore
from .worker import DbWorker, Runtime

if TYPE_CHECKING:
    from ..config import Config
    from ..rooms import Room
    from ..sockets import LoungeSockets


def open_store(config: Config, instance_path: str | Path, runtime: Runtime) -> RoomStore:
    """The store ``DATABASE_URL`` asks for, its schema brought up to date first."""
    url = database_url(config.DATABASE_URL, instance_path)
    if url == MEMORY:
        return MemoryRoomStore()
    engine = make_engine(url, fsync=config.DATABASE_FSYNC)
    upgrade(engine)
    return SqlRoomStore(DbWorker(engine, runtime))


def recover(sockets: LoungeSockets) -> list[Room]:
    """After a start: every room of a durable store back, each seated player's grace period
    starting now, bots playing on, and housekeeping running. The rooms recovered."""
    store = sockets.lounge.store
    if not isinstance(store, SqlRoomStore):
        return []
    from .housekeeping import Housekeeper

    rooms = store.load(sockets.lounge.hard_seconds)
    for room in rooms:
        with room.lock:
            sockets.resume(room)
    Housekeeper(sockets, store).start()
    return rooms


__all__ = ["DbWorker", "Runtime", "SqlRoomStore", "open_store", "recover"]
