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
from dataclasses import replace

import eventlet
import psutil
import pytest
import requests
from sqlalchemy import text

from backend.db import Runtime, make_worker
from backend.db.database import make_engine
from backend.db.process import Batches, FrameReader, answers
from backend.db.queries import Writes, count_rows
from backend.db.store import SqlRoomStore
from backend.db.worker import DbWorker, LoopDbWorker
from backend.errors import LoungeError
from backend.lounge import Lounge
from backend.runtime import _eventlet_events
from tests.server.harness import TIMEOUT, Player, Server, create_room, start_game

from .helpers import new_room, open_sql_store, play, started_room


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


def test_the_database_process_runs_this_trees_code_from_any_directory(sqlite_url, tmp_path,
                                                                     monkeypatch):
    decoy = tmp_path / "backend" / "db"  # another project's package of the same name
    decoy.mkdir(parents=True)
    (decoy.parent / "__init__.py").write_text("")
    (decoy / "__init__.py").write_text("")
    (decoy / "process.py").write_text("raise SystemExit('the wrong backend')\n")
    monkeypatch.chdir(tmp_path)
    store = open_sql_store(sqlite_url)
    assert store.finished_matches("nobody") == []


def test_a_faulty_save_in_a_batch_fails_alone(db_url):
    store = open_sql_store(db_url)  # its schema
    batches = Batches(store.worker.engine)
    room = {"id": "r1", "code": "ABCDEF", "game": "tic-tac-toe", "public": False,
            "status": "lobby", "round": 0, "created": 0, "updated": 0,
            "turn_seconds": 0, "turn_deadline": None, "removed": "{}", "left_out": "[]",
            "host_came": True}
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


# -- SQLite's saves committed on the event loop (LoopDbWorker) ---------------------------------


def test_a_green_server_commits_its_saves_itself_and_sends_the_rest_to_the_process(sqlite_url):
    assert isinstance(open_sql_store(sqlite_url).worker, DbWorker)  # plain threads
    assert isinstance(open_sql_store(sqlite_url, on_loop=True).worker, LoopDbWorker)
    fsync = make_worker(make_engine(sqlite_url), replace(Runtime.threads(), green=True), True)
    assert isinstance(fsync, DbWorker)  # a commit that flushes the disk never runs on the loop
    store = open_sql_store(sqlite_url, on_loop=True)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 9)
    assert store.worker.process.jobs == 0  # every save was committed by the loop's writer
    saves = 2 + room.match.version  # the room's creation, its start, and every move
    assert store.worker.jobs == saves and store.worker.handed_over == 0
    assert store.finished_matches(room.id)[0]["moves"] == room.match.version  # the process
    assert store.worker.process.jobs == 1
    assert open_sql_store(sqlite_url).load()[0].match.log == room.match.log


def test_a_save_that_meets_a_lock_waits_for_it_in_the_database_process(sqlite_url):
    store = open_sql_store(sqlite_url, on_loop=True)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    blocker = make_engine(sqlite_url).connect()
    blocker.exec_driver_sql("BEGIN EXCLUSIVE")
    done = threading.Event()

    def move() -> None:
        with room.lock:
            room.apply_seat(0, "place", [4])
            store.save(room)
        done.set()

    mover = threading.Thread(target=move)
    mover.start()
    wait_until(lambda: store.worker.handed_over == 1)
    assert not done.wait(0.3)  # the loop's connection did not wait: the process does
    blocker.rollback()
    blocker.close()
    assert done.wait(10)
    assert store.worker.process.jobs == 1
    with room.lock:
        play(room, store, 2)  # and the next saves are the loop's again
    assert store.worker.process.jobs == 1
    assert open_sql_store(sqlite_url).load()[0].match.log == room.match.log


def green_worker(url: str) -> DbWorker | LoopDbWorker:
    """The worker a server on eventlet makes for ``url``: its tasks are green threads."""
    runtime = Runtime(eventlet.spawn, eventlet.queue.LightQueue, _eventlet_events()[0],
                      eventlet.sleep, green=True)
    return make_worker(make_engine(url), runtime)


def test_saves_waited_for_in_one_turn_of_the_loop_are_committed_in_one_batch(sqlite_url):
    store = open_sql_store(sqlite_url)  # its schema
    worker = green_worker(sqlite_url)
    assert isinstance(worker, LoopDbWorker)

    def save(room_id: str) -> tuple[bool, object]:
        return worker.submit(new_room(room_id)).outcome()

    # The first waiter leads: it lets the loop turn once, and commits what joined meanwhile.
    waiters = [eventlet.spawn(save, f"room{i}") for i in range(5)]
    assert [waiter.wait() for waiter in waiters] == [(True, None)] * 5
    assert worker.batches == 1 and worker.jobs == 5
    assert save("room5") == (True, None) and worker.batches == 2  # alone, another batch
    assert store.worker.run(count_rows)["rooms"] == 6


def test_a_room_saving_alone_is_committed_without_a_turn_of_the_loop(sqlite_url):
    open_sql_store(sqlite_url)  # its schema
    store = SqlRoomStore(green_worker(sqlite_url))
    store.worker.GATHER_SECONDS = 0.05
    room = started_room(Lounge(store), "tic-tac-toe", 2)

    def batches_seen_by_a_task_ready_during_a_move() -> tuple[int, int]:
        """(batches before the move's save, batches the task saw): it runs if the loop
        turns during the save, else after it."""
        before, seen = store.worker.batches, []
        eventlet.spawn(lambda: seen.append(store.worker.batches))
        with room.lock:
            play(room, store, 1)
        eventlet.sleep(0)
        return before, seen[0]

    time.sleep(0.1)  # no other room has saved lately: the leader does not turn the loop
    before, seen = batches_seen_by_a_task_ready_during_a_move()
    assert seen == before + 1
    started_room(Lounge(store), "tic-tac-toe", 2)  # another room saves: now it turns
    before, seen = batches_seen_by_a_task_ready_during_a_move()
    assert seen == before
    assert store.worker.handed_over == 0
    assert open_sql_store(sqlite_url).load()[0].match.log == room.match.log


def test_a_faulty_save_fails_alone_when_its_batch_is_handed_over(sqlite_url):
    store = open_sql_store(sqlite_url)  # its schema
    first, again = new_room("r1"), new_room("r1")  # its key is taken once the first is written
    worker = open_sql_store(sqlite_url, on_loop=True).worker
    assert worker.run(first) is None
    with pytest.raises(Exception, match="(?i)unique"):
        worker.run(again)
    assert worker.handed_over == 1
    assert store.worker.run(count_rows)["rooms"] == 1  # written once, and only once


def test_the_write_ahead_log_is_checkpointed_as_saves_go_on(sqlite_url):
    store = open_sql_store(sqlite_url, on_loop=True)
    store.worker.CHECKPOINT_EVERY = 200  # the mechanism is tested, in fewer saves
    store.worker.run(count_rows)  # the database process is started, as a server's is
    lounge = Lounge(store)
    wal = sqlite_url.removeprefix("sqlite:///") + "-wal"
    sizes = []
    for seed in range(100):  # 900 saves: four checkpoints
        room = started_room(lounge, "tic-tac-toe", 2, seed=seed)
        with room.lock:
            play(room, store, 9)
        sizes.append(os.path.getsize(wal))
        wait_until(lambda: not store.worker.copying)  # as players pause between games
    assert store.worker.jobs > 3 * store.worker.CHECKPOINT_EVERY
    # Each checkpoint in two steps: the database process copies the log while the saves go
    # on, then the next leader copies what they added, and the log starts again (the last
    # copy's second step waits for a save after it).
    copies = store.worker.jobs // store.worker.CHECKPOINT_EVERY
    assert store.worker.log_restarts in (copies - 1, copies) and copies >= 4
    # Without checkpoints the log would grow by a room's pages with every room (as it does at
    # first); written from its start again after each, it stays at what one stretch between
    # two checkpoints needs.
    unchecked = sizes[0] + (len(sizes) - 1) * (sizes[1] - sizes[0])
    assert sizes[-1] < 0.4 * unchecked
    # The file keeps its longest stretch's size: a stretch a little longer in the second half (a
    # copy slowed by a busy machine) may grow it, but not by the doubling an unchecked log makes.
    assert sizes[-1] < 1.5 * sizes[len(sizes) // 2]
