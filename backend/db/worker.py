"""Database work off the event loop, with group commit.

Every database call goes through one :class:`DbWorker`. Callers hand it a job (a function of a
SQLAlchemy connection) and wait for it cooperatively; a single writer task collects every job
waiting at that moment and runs them in one transaction on a native thread (eventlet's or
gevent's thread pool), so the event loop never blocks on the database, a batch of many rooms'
moves costs one commit, and the connection is only ever used by one thread at a time.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine

log = logging.getLogger(__name__)
Job = Callable[[Connection], Any]
MAX_BATCH = 256


@dataclass(frozen=True)
class Runtime:
    """How to start a task, make a queue and an event, and run a blocking call on a native
    thread, in the server's async mode."""

    spawn: Callable[..., Any]
    make_queue: Callable[[], Any]
    make_event: Callable[[], Any]
    offload: Callable[..., Any]

    @classmethod
    def of_socketio(cls, socketio: Any, mode: str) -> Runtime:
        from ..bots import offloader

        eio = socketio.server.eio
        return cls(socketio.start_background_task, eio.create_queue, eio.create_event,
                   offloader(mode))

    @classmethod
    def threads(cls) -> Runtime:
        """Plain threads: for the command line and tests outside a server."""

        def spawn(target: Callable[..., Any], *args: Any) -> threading.Thread:
            thread = threading.Thread(target=target, args=args, daemon=True)
            thread.start()
            return thread

        return cls(spawn, queue.Queue, threading.Event, lambda fn, *args: fn(*args))


class _Item:
    __slots__ = ("job", "done", "result", "error")

    def __init__(self, job: Job, done: Any) -> None:
        self.job = job
        self.done = done
        self.result: Any = None
        self.error: BaseException | None = None


def run_jobs(connection: Connection, jobs: list[Job]) -> list[Any]:
    """Run jobs in one transaction; their results. Jobs whose class has a ``run_many`` (the
    store's saves) are run together by it, after the others, sharing their statements."""
    results: list[Any] = [None] * len(jobs)
    together: dict[type, list[Job]] = {}
    for i, job in enumerate(jobs):
        if hasattr(type(job), "run_many"):
            together.setdefault(type(job), []).append(job)
        else:
            results[i] = job(connection)
    for kind, group in together.items():
        kind.run_many(connection, group)
    return results


class DbWorker:
    """Runs jobs against the engine in batches, one transaction per batch."""

    def __init__(self, engine: Engine, runtime: Runtime) -> None:
        self.engine = engine
        self.runtime = runtime
        self._queue = runtime.make_queue()
        self._started = False
        self._start_lock = threading.Lock()
        self._connection: Connection | None = None
        self.batches = 0
        self.jobs = 0

    def run(self, job: Job) -> Any:
        """Run one job in a committed transaction; its result, or its exception."""
        self._ensure_started()
        item = _Item(job, self.runtime.make_event())
        self._queue.put(item)
        item.done.wait()
        if item.error is not None:
            raise item.error
        return item.result

    def _ensure_started(self) -> None:
        if self._started:
            return
        with self._start_lock:
            if not self._started:
                self._started = True
                self.runtime.spawn(self._loop)

    def _loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < MAX_BATCH and self._queue.qsize():
                batch.append(self._queue.get())
            try:
                self.runtime.offload(self._execute, batch)
            except BaseException as exc:  # the worker must outlive any failure
                log.exception("database batch failed")
                for item in batch:
                    item.error = item.error or exc
            finally:
                for item in batch:
                    item.done.set()

    def _execute(self, batch: list[_Item]) -> None:
        """All jobs in one transaction; if that fails, each on its own so that only the
        faulty one fails."""
        self.batches += 1
        self.jobs += len(batch)
        if len(batch) == 1:
            self._execute_one(batch[0])
            return
        try:
            results = self._transaction([item.job for item in batch])
        except Exception:
            for item in batch:
                self._execute_one(item)
            return
        for item, result in zip(batch, results, strict=True):
            item.result = result

    def _execute_one(self, item: _Item) -> None:
        try:
            (item.result,) = self._transaction([item.job])
        except Exception as exc:
            item.error = exc

    def _transaction(self, jobs: list[Job]) -> list[Any]:
        """The jobs in one transaction on the worker's own connection, which is kept between
        batches (checking one out of the pool costs a rollback each time) and replaced after
        any failure."""
        if self._connection is None:
            self._connection = self.engine.connect()
        try:
            with self._connection.begin():
                return run_jobs(self._connection, jobs)
        except Exception:
            self._connection.close()
            self._connection = None
            raise
