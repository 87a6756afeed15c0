"""Database work off the event loop, with group commit.

Every database call goes through one worker. Callers hand it a job (a picklable function of a
SQLAlchemy connection, see :mod:`backend.db.queries`) and wait for it cooperatively; the jobs
waiting at one moment run together in one transaction, so a batch of many rooms' moves costs
one commit. Three workers, one interface:

- :class:`DbWorker` (SQLite, whose driver blocks) sends the jobs to the database process
  (:mod:`backend.db.process`), which answers a batch once it is committed: a job alone goes at
  once, and jobs that come while others are in flight leave together in one write. Not a
  native thread: a thread shares this process's GIL with the event loop, and under load each
  of its database calls waited for the loop to let go of it (a batch of two saves took 4 ms
  against 0.35 ms on its own). If the process dies, the jobs in flight fail (their saves are
  rolled back in memory and refused) and the next job starts a new one.
- :class:`LoopDbWorker` (SQLite under a green server, without ``DATABASE_FSYNC``) commits the
  rooms' saves on the event loop itself, the first of a batch's waiters committing them all,
  and sends everything else (reads, chat, the bulk of each checkpoint) to the database
  process. A save is a few rows written to the write-ahead log, which is in the OS's hands
  once written (no flush): shorter than the two processes' wake-ups a hop to the database
  process costs. What could make it wait is kept off the loop: its connection never waits
  for a lock (a batch that meets one goes to the database process, which waits for it), and
  of a checkpoint it does only the short last step (see :meth:`LoopDbWorker.lead`).
- :class:`LocalDbWorker` (PostgreSQL) runs the batches in this process on a writer task:
  psycopg waits for the network through the green ``select`` (see :func:`backend.serve.
  monkey_patch`), so the loop serves everyone else meanwhile, and a save costs no extra hop.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import pickle
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from ..runtime import Runtime
from .process import Batches, FrameReader, Job, frame, job_frame, run_together
from .queries import checkpoint

log = logging.getLogger(__name__)
PROJECT = Path(__file__).resolve().parents[2]


class DatabaseGone(Exception):
    """The database process ended before it answered."""


class Pending:
    """A job handed to a worker: :meth:`result` waits for its answer."""

    __slots__ = ("done", "ok", "value")

    def __init__(self, done: Any) -> None:
        self.done = done
        self.ok = False
        self.value: Any = None

    def finish(self, ok: bool, value: Any) -> None:
        self.ok, self.value = ok, value
        self.done.set()

    def outcome(self) -> tuple[bool, Any]:
        """(ok, result or exception), once the job has run."""
        self.done.wait()
        return self.ok, self.value

    def result(self) -> Any:
        """The job's result once its transaction is committed, or its exception."""
        ok, value = self.outcome()
        if not ok:
            raise value
        return value


class _Link:
    """One database process, and the jobs sent to it and not yet answered."""

    def __init__(self, url: str, fsync: bool, runtime: Runtime) -> None:
        ours, theirs = socket.socketpair()
        path = os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))
        # -P: not the working directory first, so this process runs this tree's code, not
        # whichever tree the server was started from (bench/pairs.sh runs a base beside it).
        self.process = subprocess.Popen(
            [sys.executable, "-P", "-m", "backend.db.process", str(theirs.fileno())],
            pass_fds=[theirs.fileno()], env={**os.environ, "PYTHONPATH": path},
            stdin=subprocess.DEVNULL)
        theirs.close()
        self.sock = ours
        self.pending: dict[int, Pending] = {}
        self.lock = threading.Lock()  # green under eventlet and gevent
        self.dead = False
        self.outgoing = runtime.make_queue()
        self.sending = threading.Lock()  # held by whoever writes to the socket
        self.sock.sendall(frame({"url": url, "fsync": fsync}))

    def send(self, job_id: int, data: bytes, item: Pending) -> None:
        """Send one job; if the process is gone it fails at once. A job sent while others
        are in flight is queued for the writer, and leaves with those queued with it in one
        write: the database process reads them together and commits them in one transaction.
        (Sent one by one, the jobs of a busy server each cost both processes a wake-up and a
        commit of their own.) A job alone goes at once, without the writer's wake-up."""
        with self.lock:
            if self.dead:
                item.finish(False, DatabaseGone("the database process has ended"))
                return
            alone = not self.pending
            self.pending[job_id] = item
        if alone and not self.outgoing.qsize() and self.sending.acquire(blocking=False):
            try:
                self._sendall(data)
            finally:
                self.sending.release()
        else:
            self.outgoing.put(data)

    def write(self) -> None:
        """Send the queued jobs; ends at :meth:`close`, once everything before it is sent."""
        while True:
            chunks = [self.outgoing.get()]
            while self.outgoing.qsize():
                chunks.append(self.outgoing.get())
            with self.sending:  # whole frames only
                if not self._sendall(b"".join(filter(None, chunks))):
                    return
                if chunks[-1] is None:
                    with contextlib.suppress(OSError):
                        self.sock.shutdown(socket.SHUT_WR)
                    return

    def _sendall(self, data: bytes) -> bool:
        try:
            self.sock.sendall(data)
            return True
        except OSError:  # the reader sees the end and fails what was pending
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            return False

    def read(self, worker: DbWorker) -> None:
        """Hand each answer to its job until the process ends; then fail the rest."""
        reader = FrameReader(self.sock)
        try:
            while (frames := reader.read()) is not None:
                for raw in frames:
                    batch, outcomes = pickle.loads(raw)
                    worker.batches = max(worker.batches, batch)
                    for job_id, ok, value in outcomes:
                        item = self.pending.pop(job_id, None)
                        if item is not None:
                            item.finish(ok, value)
        except OSError:
            pass
        finally:
            self._end()

    def close(self) -> None:
        """No more jobs: the process answers those sent, then ends (and the reader too)."""
        self.outgoing.put(None)

    def _end(self) -> None:
        with self.lock:
            self.dead = True
            left, self.pending = self.pending, {}
        self.outgoing.put(None)  # the writer ends too
        for item in left.values():
            item.finish(False, DatabaseGone("the database process ended before answering"))
        self.sock.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if left:
            log.error("the database process ended with %d jobs unanswered", len(left))


class DbWorker:
    """Runs jobs against the database in batches, one transaction per batch, in the database
    process. ``engine`` is this process's own engine on the same database: for migrations
    and for looking at the tables directly (tests, the command line)."""

    def __init__(self, engine: Engine, runtime: Runtime, fsync: bool = False) -> None:
        self.engine = engine
        self.runtime = runtime
        self.url = engine.url.render_as_string(hide_password=False)
        self.fsync = fsync
        self._link: _Link | None = None
        self._start_lock = threading.Lock()
        self._ids = itertools.count(1)
        self.batches = 0
        self.jobs = 0

    def run(self, job: Job) -> Any:
        """Run one job in a committed transaction; its result, or its exception."""
        return self.submit(job).result()

    def submit(self, job: Job) -> Pending:
        """Send one job to run in a committed transaction, without waiting for it."""
        job_id = next(self._ids)
        data = job_frame(job_id, job)  # a job that cannot be sent fails here, alone
        pending = Pending(self.runtime.make_quick_event())
        self.jobs += 1
        self._current().send(job_id, data, pending)
        return pending

    @property
    def pid(self) -> int | None:
        """The database process's id; None before the first job, or once it has ended."""
        link = self._link
        return None if link is None or link.dead else link.process.pid

    def close(self) -> None:
        """End the database process (it answers the jobs it has first)."""
        if self._link is not None:
            self._link.close()

    def _current(self) -> _Link:
        """The running database process, started if there is none."""
        with self._start_lock:
            if self._link is None or self._link.dead:
                self._link = _Link(self.url, self.fsync, self.runtime)
                self.runtime.spawn(self._link.read, self)
                self.runtime.spawn(self._link.write)
            return self._link


class LocalDbWorker:
    """The same as :class:`DbWorker`, but the batches run in this process, in a writer task:
    for PostgreSQL, whose driver waits for the network cooperatively (psycopg through the
    green ``select``), so that a save costs no hop to another process. Only the writer task
    uses the connection."""

    MAX_BATCH = 256
    pid = None

    def __init__(self, engine: Engine, runtime: Runtime) -> None:
        self.engine = engine
        self.runtime = runtime
        self._batches = Batches(engine)
        self._queue = runtime.make_queue()
        self._start_lock = threading.Lock()
        self._started = False
        self.jobs = 0

    @property
    def batches(self) -> int:
        """How many batches have run."""
        return self._batches.count

    def run(self, job: Job) -> Any:
        """Run one job in a committed transaction; its result, or its exception."""
        return self.submit(job).result()

    def submit(self, job: Job) -> Pending:
        """Queue one job to run in a committed transaction, without waiting for it."""
        with self._start_lock:
            if not self._started:
                self._started = True
                self.runtime.spawn(self._write)
        pending = Pending(self.runtime.make_quick_event())
        self.jobs += 1
        self._queue.put((job, pending))
        return pending

    def close(self) -> None:
        """Nothing to end: the connection goes with the engine."""

    def _write(self) -> None:
        while True:
            waiting = _take(self._queue, self.MAX_BATCH)
            try:
                outcomes = self._batches.run([job for job, _ in waiting])
            except Exception as exc:  # the writer must outlive any failure
                log.exception("a database batch failed")
                outcomes = [(False, exc)] * len(waiting)
            for (_, pending), (ok, value) in zip(waiting, outcomes, strict=True):
                pending.finish(ok, value)


def _take(queue: Any, limit: int) -> list:
    """What is queued, up to ``limit`` items, waiting for the first."""
    taken = [queue.get()]
    while len(taken) < limit and queue.qsize():
        taken.append(queue.get())
    return taken


class LoopDbWorker:
    """SQLite's saves (the jobs that :func:`~backend.db.process.run_together`) committed
    on the event loop in batches, each by the first of its waiters (see :meth:`lead`); every
    other job, and any batch that cannot be written at once, in the database process
    (``process``). ``loop_engine`` is an engine whose connections neither wait for a lock
    nor checkpoint unasked (see :func:`backend.db.database.make_engine`).

    Every CHECKPOINT_EVERY saves the database process copies the write-ahead log into the
    database while the saves go on (:meth:`_copy_log`); the next leader then copies what they
    added meanwhile (:meth:`_restart_log`), after which the log is written from its start
    again."""

    MAX_BATCH = 256
    # A leader lets the loop turn for other rooms' saves to join only if another room has
    # saved this recently: a room's own saves never meet (each waits under the room's lock
    # for the one before), so a room saving alone would turn the loop for nothing.
    GATHER_SECONDS = 0.1
    # saves: a log of 1,000 to 2,700 pages (a page a save in a busy server's large batches,
    # about three for a save alone); every 200 made a busy server pause for a checkpoint
    # after each batch (see docs/performance.md)
    CHECKPOINT_EVERY = 1000

    def __init__(self, loop_engine: Engine, process: DbWorker) -> None:
        self.engine = process.engine
        self.process = process
        self.runtime = process.runtime
        self._batches = Batches(loop_engine)
        self._waiting: deque[tuple[Job, Pending]] = deque()
        self._leading = threading.Lock()  # held by whoever commits the saves waiting
        self._last_room: str | None = None  # whose save came last
        self._rooms_changed = time.monotonic()  # when a save last came from another room
        self._since_checkpoint = 0
        self._copying = self._log_copied = False  # the two steps of a checkpoint, see lead
        self.log_restarts = 0  # checkpoints finished on the loop
        self.jobs = 0
        self.handed_over = 0  # batches the loop could not write at once

    @property
    def batches(self) -> int:
        """How many batches have been committed, here and in the database process."""
        return self._batches.count + self.process.batches

    @property
    def pid(self) -> int | None:
        """The database process's id (see :attr:`DbWorker.pid`)."""
        return self.process.pid

    @property
    def copying(self) -> bool:
        """Whether the database process is copying the log into the database now."""
        return self._copying

    def run(self, job: Job) -> Any:
        """Run one job in a committed transaction; its result, or its exception."""
        return self.submit(job).result()

    def submit(self, job: Job) -> Pending:
        """Send one job to run in a committed transaction, without waiting for it."""
        if not run_together(job):
            return self.process.submit(job)
        pending = _Queued(self.runtime.make_event(), self)
        self.jobs += 1
        room = getattr(job, "room_id", None)
        if room != self._last_room:
            self._last_room, self._rooms_changed = room, time.monotonic()
        self._waiting.append((job, pending))
        return pending

    def close(self) -> None:
        """End the database process (the loop's connection goes with its engine)."""
        self.process.close()

    def lead(self) -> None:
        """Commit the saves waiting, unless someone else is at it: called by each save's
        waiter, so that the first to wait commits its own batch and everyone's who joined it
        (no writer task to wake and come back from: a turn of the loop less a save)."""
        while self._waiting and self._leading.acquire(blocking=False):
            try:
                if time.monotonic() - self._rooms_changed < self.GATHER_SECONDS:
                    self.runtime.sleep(0)  # other rooms' saves sent in this turn join the batch
                while self._waiting:
                    self._write(self._take())
            except BaseException:
                self._step_down()
                raise
            if self._log_copied:
                self._restart_log()
            if self._since_checkpoint >= self.CHECKPOINT_EVERY and not self._copying:
                self._since_checkpoint, self._copying = 0, True
                self.runtime.spawn(self._copy_log)
            self._leading.release()

    def _take(self) -> list[tuple[Job, Pending]]:
        """The oldest saves waiting, a batch's worth (only the leader takes)."""
        count = min(len(self._waiting), self.MAX_BATCH)
        return [self._waiting.popleft() for _ in range(count)]

    def _write(self, waiting: list[tuple[Job, Pending]]) -> None:
        outcomes = self._commit([job for job, _ in waiting])
        for (_, pending), (ok, value) in zip(waiting, outcomes, strict=True):
            pending.finish(ok, value)
        self._since_checkpoint += len(waiting)

    def _step_down(self) -> None:
        """Stop leading; a task takes over the saves still waiting, if any."""
        self._leading.release()
        if self._waiting:
            self.runtime.spawn(self.lead)

    def _commit(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """(ok, result or exception) of each job: committed here in one transaction, or, if
        that fails (a lock, a faulty job), each in the database process, which waits for a
        lock and fails only a faulty job."""
        try:
            return self._batches.run_at_once(jobs)
        except Exception:
            self.handed_over += 1
        return [self._in_process(job).outcome() for job in jobs]

    def _in_process(self, job: Job) -> Pending:
        try:
            return self.process.submit(job)
        except Exception as exc:  # the leader must outlive any failure
            failed = Pending(self.runtime.make_event())
            failed.finish(False, exc)
            return failed

    def _copy_log(self) -> None:
        """Have the database process copy the write-ahead log into the database while the
        saves go on: the long part of a checkpoint (most of the log, and the flushes of the
        log and of the database file). What is saved meanwhile is left to the next leader's
        :meth:`_restart_log` (not after a failed copy, which would leave the loop all of it)."""
        ok = False
        try:
            ok, error = self._in_process(checkpoint).outcome()
            if not ok:
                log.warning("a checkpoint of the database failed: %s", error)
        finally:
            self._copying, self._log_copied = False, ok

    def _restart_log(self) -> None:
        """Copy, here on the loop and still leading, the little that the log took in while
        the database process copied the rest: with no commit meanwhile, the copy reaches the
        log's end, and the log is written from its start again instead of growing. A few
        milliseconds, where the same copy sent to the database process held every save for
        10 to 65 (its answer waited for the busy loop's turns)."""
        self._log_copied = False
        try:
            self._batches.checkpoint()
            self.log_restarts += 1
        except Exception as exc:  # the leader must outlive any failure
            log.warning("a checkpoint of the database failed: %s", exc)


class _Queued(Pending):
    """A save waiting for a :class:`LoopDbWorker`'s batch: its first waiter leads it."""

    __slots__ = ("worker",)

    def __init__(self, done: Any, worker: LoopDbWorker) -> None:
        super().__init__(done)
        self.worker = worker

    def outcome(self) -> tuple[bool, Any]:
        self.worker.lead()
        return super().outcome()
