"""Durable rooms: the SQL store, its queries and schema migrations.

The names below are imported when first used, so that the database process, which needs only
the queries, starts without loading the rules and the rooms.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from ..config import Config
    from ..runtime import Runtime
    from ..store import RoomStore
    from .store import SqlRoomStore
    from .worker import DbWorker, LocalDbWorker, LoopDbWorker

_LAZY = {"DbWorker": ".worker", "LocalDbWorker": ".worker", "LoopDbWorker": ".worker",
         "Runtime": "..runtime", "SqlRoomStore": ".store"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_store(config: Config, instance_path: str | Path, runtime: Runtime) -> RoomStore:
    """The store ``DATABASE_URL`` asks for, its schema brought up to date first."""
    from ..store import MemoryRoomStore
    from .database import MEMORY, database_url, make_engine, upgrade
    from .store import SqlRoomStore

    url = database_url(config.DATABASE_URL, instance_path)
    if url == MEMORY:
        return MemoryRoomStore()
    engine = make_engine(url, fsync=config.DATABASE_FSYNC)
    upgrade(engine)
    return SqlRoomStore(make_worker(engine, runtime, config.DATABASE_FSYNC))


def make_worker(engine: Engine, runtime: Runtime, fsync: bool = False
                ) -> DbWorker | LocalDbWorker | LoopDbWorker:
    """PostgreSQL's driver can wait cooperatively, so its work runs in this process. SQLite's
    cannot: its work runs in the database process, but for the saves of a green server
    (eventlet, gevent) that does not flush every commit to the disk, which are committed on
    its event loop (see :class:`~backend.db.worker.LoopDbWorker`)."""
    from .database import make_engine
    from .worker import DbWorker, LocalDbWorker, LoopDbWorker

    if engine.dialect.name == "postgresql":
        return LocalDbWorker(engine, runtime)
    process = DbWorker(engine, runtime, fsync=fsync)
    if fsync or not runtime.green:
        return process
    return LoopDbWorker(make_engine(process.url, on_loop=True), process)


__all__ = ["DbWorker", "LocalDbWorker", "LoopDbWorker", "Runtime", "SqlRoomStore", "make_worker",
           "open_store"]
