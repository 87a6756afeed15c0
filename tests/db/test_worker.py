"""The workers behind the SQL store. SQLite's database process: a crash of it costs only the
saves in flight (refused, and the room put back), the next job starts a new one, a bad job
fails alone, and the process never outlives the server. On both databases, a locked database
holds up only the moves waiting for it, never the server's event loop."""

from __future__ import annotations

import os
import pickle
import signal
import socket
import threading
import time

import psutil
import pytest
import requests
from sqlalchemy import text

from backend.db.database import make_engine
from backend.db.process import Batches, FrameReader, answers
from backend.db.queries import Writes
from backend.errors import LoungeError
from backend.rooms import Lounge
from tests.server.harness import TIMEOUT, Player, Server, create_room, start_game

from .helpers import open_sql_store, play, started_room


def wait_until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_save_in_flight_when_the_database_process_dies_is_refused(sqlite_url):
    store = open_sql_store(sqlite_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    pid = store.worker.pid
    os.kill(pid, signal.SIGSTOP)  # the save below is sent, and never answered
    outcome: list[object] = []

    def move() -> None:
        with room.lock:
            room.apply_seat(0, "place", [4])
            try:
                store.save(room)
                outcome.append("saved")
            except LoungeError as exc:
                outcome.append(exc.code)

    mover = threading.Thread(target=move)
    mover.start()
    wait_until(lambda: store.worker._link.pending)
    os.kill(pid, signal.SIGKILL)
    mover.join(10)
    assert outcome == ["internal"]
    assert room.match.version == 0  # put back as the database has it
    with room.lock:
        play(room, store, 2)  # a new database process takes over
    assert store.worker.pid not in (None, pid)
    assert open_sql_store(sqlite_url).load()[0].match.log == room.match.log


def test_a_job_that_cannot_be_sent_fails_alone(sqlite_url):
    store = open_sql_store(sqlite_url)
    with pytest.raises(Exception, match="pickle"):
        store.worker.run(lambda conn: 1)  # a lambda cannot reach another process
    assert store.finished_matches("nobody") == []


def test_closing_the_store_ends_its_database_process(sqlite_url):
    store = open_sql_store(sqlite_url)
    assert store.finished_matches("nobody") == []
    process = psutil.Process(store.worker.pid)
    store.worker.close()
    process.wait(10)
    wait_until(lambda: store.worker.pid is None)


def test_a_faulty_save_in_a_batch_fails_alone(db_url):
    store = open_sql_store(db_url)  # its schema
    batches = Batches(store.worker.engine)
    room = {"id": "r1", "code": "ABCDEF", "game": "tic-tac-toe", "public": False,
            "status": "lobby", "round": 0, "created": 0, "updated": 0,
            "turn_seconds": 0, "turn_deadline": None, "removed": "{}"}
    first, again, other = Writes(), Writes(), Writes()
    first.add("insert_room", room)
    again.add("insert_room", room)  # the same room twice: its key is taken
    other.add("insert_room", {**room, "id": "r2", "code": "GHIJKL"})
    outcomes = batches.run([first, again, other])
    assert [ok for ok, _ in outcomes] == [True, False, True]
    assert "UNIQUE" in str(outcomes[1][1]).upper()
    assert [ok for ok, _ in batches.run([other])] == [False]  # written once, and only once


def test_the_database_process_dies_with_the_server(tmp_path):
    server = Server(DATABASE_URL=f"sqlite:///{tmp_path / 'lounge.db'}")
    try:
        host = Player(server.url).connect()
        create_room(server.url, host.token, "tic-tac-toe")
        assert requests.get(f"{server.url}/api/health", timeout=TIMEOUT).ok
        children = psutil.Process(server.process.pid).children()
        assert ["backend.db.process" in c.cmdline() for c in children] == [True]
        host.drop()
    finally:
        server.kill()
        output = server.stop()
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert not alive, output


def test_a_locked_database_holds_up_the_move_not_the_server(db_url):
    server = Server(DATABASE_URL=db_url)
    blocker = make_engine(db_url).connect()
    try:
        host, guest = Player(server.url).connect(), Player(server.url).connect()
        room = create_room(server.url, host.token, "tic-tac-toe")
        host.ok("join", {"room": room["code"]})
        start_game(room, host, [guest])
        if blocker.dialect.name == "sqlite":
            blocker.exec_driver_sql("BEGIN EXCLUSIVE")
        else:
            blocker.execute(text("LOCK TABLE match_moves IN ACCESS EXCLUSIVE MODE"))
        acks: list[dict] = []
        host.sio.emit("move", {"move": "place", "args": [4], "seat": 0}, callback=acks.append)
        time.sleep(0.5)
        started = time.monotonic()
        assert requests.get(f"{server.url}/api/health", timeout=TIMEOUT).ok
        assert time.monotonic() - started < 1.0  # the loop serves others meanwhile
        assert acks == [] and guest.version() == 0  # nobody is told before the commit
        blocker.rollback()
        wait_until(lambda: acks)
        assert acks[0]["ok"] and acks[0]["version"] == 1
        guest.wait_for(lambda: guest.version() == 1)
        host.drop()
        guest.drop()
    finally:
        blocker.close()
        output = server.stop()
    assert "Traceback" not in output, output



class Unbuildable(Exception):
    """An exception that pickles but cannot be rebuilt from its pickle."""

    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"{a} and {b}")


def decoded(raw: bytes) -> list:
    """The messages in a run of frames, read back as the server reads them."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        ours.sendall(raw)
        return [pickle.loads(frame) for frame in FrameReader(theirs).read()]


def test_an_error_that_cannot_travel_back_still_answers_its_job():
    [(batch, outcomes)] = decoded(answers(7, [1, 2, 3], [
        (False, Unbuildable(1, 2)), (True, 5), (True, threading.Lock())]))
    assert batch == 7
    (job_id, ok, error), second, (third_id, third_ok, unsendable) = outcomes
    assert (job_id, ok) == (1, False)
    assert "Unbuildable: 1 and 2" in str(error)
    assert second == (2, True, 5)  # the rest of the batch is answered as it was
    assert (third_id, third_ok) == (3, False) and "unsendable" in str(unsendable)
