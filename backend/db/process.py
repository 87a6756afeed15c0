"""The database process: it runs the jobs the server sends it, in batches, and answers each.

The server (see :mod:`backend.db.worker`) starts it with one end of a socket pair and sends its
settings, then jobs. Whatever jobs have arrived while the last batch ran make the next batch,
run in one transaction (group commit); each job is answered once its transaction is committed.
If the batch fails, its jobs run again one by one, so only a faulty job fails. The process ends
when the server's end of the socket closes, which includes the server being killed.

Messages both ways are frames: a 4-byte big-endian length, then a pickle. Pickles are fine
here: both ends are the lounge's own code, and the socket pair is private to the two processes.
"""

from __future__ import annotations

import contextlib
import logging
import pickle
import socket
import struct
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sqlalchemy import Connection, Engine

log = logging.getLogger(__name__)
Job = Callable[[Connection], Any]
HEADER = struct.Struct(">I")
MAX_BATCH = 512
CHUNK = 65536  # a larger recv buffer is a fresh mmap for every call


class DatabaseError(Exception):
    """A job failed with an exception that could not be sent back as it was."""


def frame(message: Any) -> bytes:
    """One message, framed."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


class FrameReader:
    """Reads frames from a socket: every complete one that has arrived, at least one."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    def read(self) -> list[bytes] | None:
        """The frames that have arrived, waiting for at least one; None at the end."""
        while True:
            frames = self.take()
            if frames:
                return frames
            chunk = self.sock.recv(CHUNK)
            if not chunk:
                return None
            self.buffer += chunk

    def drain(self) -> None:
        """Take in whatever else has already arrived, without waiting."""
        while True:
            try:
                chunk = self.sock.recv(CHUNK, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return
            if not chunk:
                return
            self.buffer += chunk

    def take(self) -> list[bytes]:
        """The complete frames in the buffer, without waiting."""
        frames, at, size = [], 0, len(self.buffer)
        while size - at >= HEADER.size:
            (length,) = HEADER.unpack_from(self.buffer, at)
            if size - at - HEADER.size < length:
                break
            at += HEADER.size
            frames.append(bytes(self.buffer[at:at + length]))
            at += length
        del self.buffer[:at]
        return frames


def run_jobs(connection: Connection, jobs: list[Job], cursor: Any = None) -> list[Any]:
    """Run jobs in one transaction; their results. Jobs whose class has a ``run_many`` (the
    store's saves) are run together by it, after the others, sharing their statements, on the
    driver's ``cursor`` (one of the connection's, made and closed here if none is given)."""
    results: list[Any] = [None] * len(jobs)
    together: dict[type, list[Job]] = {}
    for i, job in enumerate(jobs):
        if run_together(job):
            together.setdefault(type(job), []).append(job)
        else:
            results[i] = job(connection)
    if together:
        own = cursor is None
        if own:
            cursor = connection.connection.driver_connection.cursor()
        try:
            for kind, group in together.items():
                kind.run_many(cursor, connection.dialect, group)
        finally:
            if own:
                cursor.close()
    return results


def run_together(job: Job) -> bool:
    """Whether the job's class runs a batch's jobs of its kind together (a ``run_many``: the
    store's saves)."""
    return hasattr(type(job), "run_many")


class Batches:
    """Runs batches of jobs on one connection, kept between batches (checking one out of the
    pool costs a rollback each time) and replaced after any failure."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.connection: Connection | None = None
        self.cursor: Any = None  # the driver's own cursor on it, for run_at_once
        self.count = 0

    def run(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """(ok, result or exception) for each job: all in one transaction, or, if that fails,
        each in its own."""
        self.count += 1
        if len(jobs) > 1:
            try:
                return [(True, result) for result in self._transaction(jobs)]
            except Exception:
                log.debug("a batch of %d jobs failed: running them one by one", len(jobs))
        return [self._one(job) for job in jobs]

    def run_at_once(self, jobs: list[Job]) -> list[tuple[bool, Any]]:
        """(True, result) for each job, all in one transaction; or the exception, with
        nothing written. For SQLite's saves on the event loop (jobs that :func:`run_together`):
        the transaction is the driver's own, begun IMMEDIATE, so that a lock held by another
        connection is met at once, before any statement (SQLAlchemy's own begin and commit
        cost a fifth of such a save), run on a cursor kept with the connection."""
        if self.connection is None:
            self._open()
        cursor = self.cursor
        try:
            cursor.execute("BEGIN IMMEDIATE")
            results = run_jobs(self.connection, jobs, cursor)
            cursor.execute("COMMIT")
        except Exception:
            self._close()
            raise
        self.count += 1
        return [(True, result) for result in results]

    def checkpoint(self) -> tuple[int, int, int]:
        """SQLite: copy the write-ahead log into the database on this connection, without
        waiting for anyone: (1 if it could not finish, the log's pages, the pages copied)."""
        with self._connected():
            self.cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
            return tuple(self.cursor.fetchone())

    def _one(self, job: Job) -> tuple[bool, Any]:
        try:
            return True, self._transaction([job])[0]
        except Exception as exc:
            return False, exc

    def _transaction(self, jobs: list[Job]) -> list[Any]:
        with self._connected() as connection:
            kind = type(jobs[0])
            if (all(type(job) is kind for job in jobs) and hasattr(kind, "commit_many")
                    and kind.commit_many(connection, jobs)):
                return [None] * len(jobs)
            with connection.begin():
                return run_jobs(connection, jobs)

    @contextlib.contextmanager
    def _connected(self) -> Iterator[Connection]:
        """The kept connection (opened if there is none), closed and dropped if what is done
        with it fails."""
        if self.connection is None:
            self._open()
        try:
            yield self.connection
        except Exception:
            self._close()
            raise

    def _open(self) -> None:
        self.connection = self.engine.connect()
        self.cursor = self.connection.connection.driver_connection.cursor()

    def _close(self) -> None:
        """Drop the connection (which rolls back what it had begun)."""
        connection, self.connection, self.cursor = self.connection, None, None
        if connection is not None:
            connection.close()


def answers(batch: int, ids: Iterable[int], outcomes: Iterable[tuple[bool, Any]]) -> bytes:
    """The frame that answers a batch's jobs: (batch number, [(job id, ok, result or error)]).
    A result or an error that will not travel is replaced by a DatabaseError saying why.
    Errors are checked one by one (some exceptions pickle but cannot be rebuilt from it);
    results only if the batch will not pickle, so that a large one is pickled once."""
    out = [(job_id, ok, value) if ok else _travelling(job_id, ok, value)
           for job_id, (ok, value) in zip(ids, outcomes, strict=True)]
    try:
        return frame((batch, out))
    except Exception:  # a result that will not pickle: only its own job is refused
        return frame((batch, [_travelling(*answer) for answer in out]))


def _travelling(job_id: int, ok: bool, value: Any) -> tuple[int, bool, Any]:
    """A job's answer as it is if its value pickles and can be rebuilt; otherwise refused
    with a DatabaseError saying why."""
    try:
        pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        return job_id, ok, value
    except Exception as exc:
        reason = f"{type(value).__name__}: {value}" if not ok else f"unsendable: {exc!r}"
        return job_id, False, DatabaseError(reason)


def serve(sock: socket.socket) -> None:
    """Answer the server's jobs until it closes its end."""
    from .database import make_engine

    reader = FrameReader(sock)
    first = reader.read()
    if first is None:
        return
    settings = pickle.loads(first[0])
    batches = Batches(make_engine(settings["url"], fsync=settings["fsync"]))
    pending = first[1:]
    while True:
        if not pending:
            pending = reader.read() or []
            if not pending:
                return
        reader.drain()
        pending += reader.take()
        taken, pending = pending[:MAX_BATCH], pending[MAX_BATCH:]
        ids, jobs, refused = [], [], []
        for raw in taken:
            job_id, job = _unpickle(raw)
            if isinstance(job, BaseException):
                refused.append((job_id, job))
            else:
                ids.append(job_id)
                jobs.append(job)
        outcomes = batches.run(jobs) if jobs else []
        sock.sendall(answers(batches.count, ids + [i for i, _ in refused],
                             outcomes + [(False, e) for _, e in refused]))


def _unpickle(raw: bytes) -> tuple[int, Any]:
    """A job frame: its id, and the job or why it could not be read. The job is pickled on
    its own inside the frame, so that its id is known even when the job cannot be read."""
    job_id, body = pickle.loads(raw)
    try:
        return job_id, pickle.loads(body)
    except Exception as exc:
        return job_id, DatabaseError(f"a job could not be read: {exc!r}")


def job_frame(job_id: int, job: Job) -> bytes:
    """The frame that sends a job (see :func:`_unpickle`)."""
    return frame((job_id, pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)))


def main(argv: list[str] | None = None) -> None:
    """``python -m backend.db.process FD``: serve the socket inherited as FD."""
    argv = sys.argv[1:] if argv is None else argv
    logging.basicConfig(level=logging.WARNING, format="database process: %(message)s")
    sock = socket.socket(fileno=int(argv[0]))
    sock.setblocking(True)  # the server's event loop made the pair non-blocking
    try:
        serve(sock)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server is gone: nobody is left to answer
    finally:
        sock.close()


if __name__ == "__main__":
    main()
