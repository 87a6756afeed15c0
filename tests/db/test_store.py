"""The SQL room store, on SQLite and on PostgreSQL: what is saved comes back exactly, only
changes are written, a failed write leaves the room as the database has it, and concurrent
saves are grouped into few commits."""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from backend import views
from backend.closing import NOTE_MS
from backend.db.database import (
    current_revision,
    database_url,
    downgrade,
    head_revision,
    make_engine,
    upgrade,
)
from backend.db.process import Batches
from backend.db.queries import Writes, count_rows
from backend.db.records import new_match_id
from backend.errors import LoungeError
from backend.history import MATCH_ID
from backend.lounge import Lounge
from backend.rooms import FINISHED, PLAYING, Room, now_ms
from backend.store import HistoryStore, MemoryRoomStore
from shared_rules import GAMES

from .helpers import new_room, new_user, open_sql_store, play, started_room


def reopen(url: str):
    """A second store on the same database, as after a restart, with its rooms loaded."""
    store = open_sql_store(url)
    store.load()
    return store


def without_connections(summary: dict) -> dict:
    """A room object without who is connected: connections do not outlive a restart."""
    seats = [{k: v for k, v in seat.items() if k != "connected"} for seat in summary["seats"]]
    return {**summary, "seats": seats}


def test_a_room_comes_back_exactly_after_a_restart(db_url):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    room = started_room(lounge, "nine-locks", 3)
    with room.lock:
        play(room, store, 12)
        room.leave(room.seats[2].user_id)
        store.save(room)
        lounge.chat(room, room.host, "still here")
    again = reopen(db_url)
    back = again.by_code(room.code.lower())
    assert back is not None and back is not room
    assert back.match == room.match and back.match.log == room.match.log
    assert without_connections(views.summary(back)) == without_connections(views.summary(room))
    assert again.chat_history(room.id) == store.chat_history(room.id)
    assert back.chat_seq == room.chat_seq == 1


def test_seats_saved_before_they_had_colours_take_the_free_ones(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "nine-locks", 3)
    with make_engine(db_url).begin() as conn:
        conn.execute(text("UPDATE seats SET colour = NULL WHERE position <> 1"))
    back = reopen(db_url).get(room.id)
    assert [s.colour for s in back.seats] == [0, 1, 2]
    assert [s.colour for s in room.seats] == [0, 1, 2]


def test_the_sql_store_keeps_history_and_the_memory_store_does_not(sqlite_url):
    store = open_sql_store(sqlite_url)
    assert isinstance(store, HistoryStore) and not isinstance(store, MemoryRoomStore)
    assert not isinstance(MemoryRoomStore(), HistoryStore)


@pytest.mark.parametrize("name", ["Robert'); DROP TABLE rooms;--", "back\\slash %(id)s %s",
                                  "Zoë 🂡 \"quoted\""])
def test_names_are_stored_as_they_are(db_url, name):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    room = lounge.create_room(new_user(), "tic-tac-toe", name, public=False)
    with room.lock:
        room.attach("conn-1", new_user(), name[::-1], spectate=False)
        store.save(room)
    back = reopen(db_url).get(room.id)
    assert [seat.name for seat in back.seats] == [name, name[::-1]]


def test_an_undoable_game_keeps_its_undo_after_a_restart(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 1)
    back = reopen(db_url).get(room.id)
    assert back.match.can_undo(0)
    back.undo(back.host)
    assert back.match.version == 2


def test_bots_are_back_for_their_seats(db_url):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    room = lounge.create_room(new_user(), "poker99", "Host", public=False)
    with room.lock:
        room.add_bot(room.host, "normal")
        room.start(room.host)
        store.save(room)
    back = reopen(db_url).get(room.id)
    assert back.status == PLAYING and set(back.bots) == {1}


def test_a_save_with_nothing_new_writes_nothing(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    jobs = store.worker.jobs
    with room.lock:
        store.save(room)
        store.save(room)
        assert store.worker.jobs == jobs
        play(room, store, 1)
    assert store.worker.jobs == jobs + 1


def test_a_failed_write_puts_the_room_back_as_saved(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    saved_match = room.match
    match_id = store._saved[room.id].match_id
    with store.worker.engine.begin() as conn:  # a row in the way of the next move's
        conn.execute(text("INSERT INTO match_moves (match_id, version, seat, move, args) "
                          "VALUES (:m, 1, 0, 'place', '[8]')"), {"m": match_id})
    with room.lock:
        room.apply_seat(0, "place", [4])
        room.left_out = {new_user()}
        with pytest.raises(LoungeError) as caught:
            store.save(room)
    assert caught.value.code == "internal"
    assert room.match is saved_match and room.match.version == 0
    assert room.left_out == set()


def test_a_room_whose_game_is_no_longer_offered_is_closed_at_load(db_url, caplog):
    """An update removed or renamed the game of a stored room: the room is closed as any
    room is (its host may open another, its game cut short is kept as abandoned), and its
    code says why it closed."""
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 3)
    with store.worker.engine.begin() as conn:
        conn.execute(text("UPDATE rooms SET game = 'pirate-poker'"))
        conn.execute(text("UPDATE matches SET game = 'pirate-poker'"))
    store, closed = open_sql_store(db_url), []
    assert store.load(closed=lambda *told: closed.append(told)) == []
    assert closed == [(room.id, "game_withdrawn")]
    assert f"room {room.code} closed: its game 'pirate-poker' is no longer offered" in caplog.text
    with store.worker.engine.connect() as conn:
        assert {k: v for k, v in count_rows(conn).items() if k != "users"} == {
            "rooms": 0, "seats": 0, "matches": 1, "match_moves": 3, "chat_messages": 0,
            "closed_rooms": 1}
        kept = conn.execute(text("SELECT result, moves FROM matches")).one()
    assert tuple(kept) == ('{"abandoned":true}', 3)
    assert store.finished_matches(room.id) == []  # it cannot be watched again: not listed
    lounge = Lounge(open_sql_store(db_url))  # another process of the cluster says it too
    with pytest.raises(LoungeError) as caught:
        lounge.find(room.code.lower())
    assert caught.value.code == "not_found"
    assert caught.value.message == (f"Room {room.code} has closed: its game (pirate-poker) is "
                                    "no longer offered here. The host can open a new room with "
                                    "another game.")
    assert lounge.create_room(room.host, "tic-tac-toe", "Host", public=False).id == room.id


def test_two_moves_at_once_for_one_room_apply_once(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    outcomes: list[object] = []
    gate = threading.Barrier(2)

    def move(cell: int) -> None:
        gate.wait()
        with room.lock:
            try:
                room.apply_seat(0, "place", [cell])
                store.save(room)
                outcomes.append(room.match.version)
            except LoungeError as exc:
                outcomes.append(exc.code)

    threads = [threading.Thread(target=move, args=(cell,)) for cell in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sorted(outcomes, key=str) == [1, "invalid_move"]
    back = reopen(db_url).get(room.id)
    assert back.match.version == 1 and back.match.log == room.match.log


def test_concurrent_saves_of_many_rooms_share_commits(db_url):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    rooms = [started_room(lounge, "tic-tac-toe", 2, seed=i) for i in range(8)]
    batches = store.worker.batches

    def finish(room) -> None:
        with room.lock:
            play(room, store, 9)

    threads = [threading.Thread(target=finish, args=(room,)) for room in rooms]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    moves = sum(room.match.version for room in rooms)
    assert all(room.status == FINISHED for room in rooms)
    assert store.worker.batches - batches < moves  # grouped into fewer commits
    again = reopen(db_url)
    assert [again.get(r.id).match.log for r in rooms] == [r.match.log for r in rooms]
    listed = again.finished_matches(rooms[0].id)
    assert [m["result"] for m in listed] == [rooms[0].match.result]


def closed_in_a_rematch(db_url: str, moves: int):
    """A room whose first game was played to the end, closed after ``moves`` of the rematch;
    its store and the room."""
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 9)
        room.rematch(room.host)
        store.save(room)
        play(room, store, moves)
        Lounge(store).close(room, "host_left")
    return store, room


def test_closing_a_room_keeps_its_games_the_cut_one_as_abandoned(db_url):
    store, room = closed_in_a_rematch(db_url, 2)
    assert store.get(room.id) is None
    with store.worker.engine.connect() as conn:
        rows = count_rows(conn)
    assert rows["rooms"] == rows["seats"] == rows["chat_messages"] == 0
    # Issue 13: the game cut short by the closing stays, as abandoned, to watch again.
    cut, finished = store.finished_matches(room.id)
    assert cut["result"] == {"abandoned": True} and cut["moves"] == 2
    assert store.finished_matches(room.id, since=cut["started"]) == [cut]
    assert rows["matches"] == 2 and rows["match_moves"] == finished["moves"] + 2
    assert store.finished_match(finished["id"])["log"][-1]["move"] == "place"
    assert reopen(db_url).count() == 0


def test_a_game_nobody_moved_in_is_not_listed(db_url):
    store, room = closed_in_a_rematch(db_url, 0)
    (finished,) = store.finished_matches(room.id)
    assert finished["round"] == 1 and finished["result"] != {"abandoned": True}


def test_chat_keeps_the_last_hundred_messages(db_url):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    room = lounge.create_room(new_user(), "tic-tac-toe", "Host", public=False)
    for i in range(105):
        lounge.chat(room, room.host, f"message {i}")
    with store.worker.engine.connect() as conn:
        assert count_rows(conn)["chat_messages"] == 100
    history = reopen(db_url).chat_history(room.id)
    assert [m["text"] for m in history] == [f"message {i}" for i in range(5, 105)]


def test_a_closed_rooms_code_says_why_after_a_restart_until_a_new_room_takes_it(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        Lounge(store).close(room, "host_disconnected")
    again = reopen(db_url)
    note = again.closed_note(room.code.lower())
    assert (note.code, note.reason, note.game) == (room.code, "host_disconnected", "tic-tac-toe")
    with pytest.raises(LoungeError) as err:
        Lounge(again).find(room.code)
    assert (err.value.code, err.value.message) == (
        "not_found", f"Room {room.code} has closed: the host lost their connection and did "
                     "not come back in time.")
    taken = Room(new_user(), room.code, GAMES["poker99"], "Zoe", public=False)
    again.save(taken)
    assert reopen(db_url).closed_note(room.code) is None
    with taken.lock:
        Lounge(again).close(taken, "abandoned")
    assert reopen(db_url).closed_note(room.code).reason == "abandoned"


def test_a_note_past_its_day_is_not_told_and_purge_removes_it(db_url):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    old, recent = (lounge.create_room(new_user(), "tic-tac-toe", "Ada", public=False)
                   for _ in range(2))
    lounge.close(old, "host_left")
    lounge.close(recent, "host_left")
    day_old = now_ms() - NOTE_MS
    with store.worker.engine.begin() as conn:
        conn.execute(text("UPDATE closed_rooms SET closed = :t WHERE code = :c"),
                     {"t": day_old, "c": old.code})
    assert store.closed_note(old.code) is None and store.closed_note(recent.code) is not None
    store.purge(matches_before=0, users_before=0, notes_before=day_old + 1)
    with store.worker.engine.connect() as conn:
        assert count_rows(conn)["closed_rooms"] == 1


def test_the_games_of_a_game_no_longer_offered_are_not_listed(db_url):
    store = open_sql_store(db_url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 9)
    assert len(store.finished_matches(room.id)) == 1
    with store.worker.engine.begin() as conn:
        conn.execute(text("UPDATE matches SET game = 'pirate-poker'"))
    assert store.finished_matches(room.id) == []


def test_purge_removes_old_games_and_users_with_no_seat(db_url):
    store = open_sql_store(db_url)
    lounge = Lounge(store)
    room = started_room(lounge, "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 9)
    assert store.purge(matches_before=0, users_before=0) == {"matches": 0, "users": 0}
    with room.lock:
        lounge.close(room, "host_left")
    far = 2 ** 62
    assert store.purge(matches_before=far, users_before=far) == {"matches": 1, "users": 2}
    assert store.closed_note(room.code) is not None  # notes_before not given: kept
    store.purge(matches_before=0, users_before=0, notes_before=far)
    with store.worker.engine.connect() as conn:
        assert set(count_rows(conn).values()) == {0}


def test_migrations_go_down_and_up_again(db_url):
    engine = make_engine(db_url)
    upgrade(engine)
    assert current_revision(engine) == head_revision(engine) == "0009"
    downgrade(engine, "base")
    assert current_revision(engine) is None
    upgrade(engine)
    with engine.connect() as conn:
        assert set(count_rows(conn).values()) == {0}


def test_a_migration_cut_short_leaves_the_schema_as_it_was(db_url):
    """A start killed while migrating (or a migration that fails) must not leave half a
    migration behind, which the next start would trip over ("duplicate column"): every
    migration of an upgrade is one transaction, on SQLite too."""
    engine = make_engine(db_url)
    upgrade(engine, "0002")
    with engine.begin() as conn:  # 0003's last step will fail, after its first ones ran
        conn.exec_driver_sql("ALTER TABLE match_moves ADD COLUMN actor VARCHAR(16)")
    with pytest.raises(Exception, match="actor"):
        upgrade(engine)
    assert current_revision(engine) == "0002"
    with engine.connect() as conn:
        columns = list(conn.exec_driver_sql("SELECT * FROM rooms").keys())
    assert "turn_seconds" not in columns
    with engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE match_moves DROP COLUMN actor")
    upgrade(engine)
    assert current_revision(engine) == "0009"


def test_moves_saved_before_the_table_lost_its_rowid_are_kept(sqlite_url):
    engine = make_engine(sqlite_url)
    upgrade(engine, "0004")
    with engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO matches (id, room_id, round, game, num_players, seed, players, "
            "moves, started) VALUES ('m1', 'r1', 1, 'tic-tac-toe', 2, '1', '[]', 2, 0)")
        conn.exec_driver_sql(
            "INSERT INTO match_moves (match_id, version, seat, move, args, actor) VALUES "
            "('m1', 1, 0, 'place', '[4]', NULL), ('m1', 2, 1, 'place', '[0]', 'stand_in')")
    upgrade(engine)

    def table() -> tuple[str, list]:
        with engine.connect() as conn:
            sql = conn.exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE name = 'match_moves'").scalar()
            return sql, conn.exec_driver_sql(
                "SELECT * FROM match_moves ORDER BY version").fetchall()

    moves = [("m1", 1, 0, "place", "[4]", None), ("m1", 2, 1, "place", "[0]", "stand_in")]
    sql, rows = table()
    assert "WITHOUT ROWID" in sql and "ON DELETE CASCADE" in sql and rows == moves
    downgrade(engine, "0004")
    sql, rows = table()
    assert "WITHOUT ROWID" not in sql and rows == moves


def test_database_urls(tmp_path):
    assert database_url("", tmp_path) == f"sqlite:///{tmp_path / 'lounge.db'}"
    assert database_url(" memory ", tmp_path) == "memory"
    assert database_url("postgres://u:p@db.example:5432/x", tmp_path) == \
        "postgresql+psycopg://u:p@db.example:5432/x"
    assert database_url("postgresql://h/x", tmp_path) == "postgresql+psycopg://h/x"
    assert database_url("sqlite:////var/lounge.db", tmp_path) == "sqlite:////var/lounge.db"
    with pytest.raises(ValueError, match="not a database URL"):
        database_url("lounge.db", tmp_path)


def test_match_ids_are_16_hex_digits_in_the_order_they_were_made():
    made = [new_match_id() for _ in range(10_000)]
    assert len(set(made)) == len(made)
    assert all(MATCH_ID.fullmatch(match_id) for match_id in made)
    time.sleep(0.07)  # more than a step of the time in them
    later = new_match_id()
    assert all(later > match_id for match_id in made)


def test_match_ids_rise_when_the_clock_is_set_back_or_the_start_is_high(monkeypatch):
    ids = type(new_match_id)()  # a maker of its own, so the patched clock stays in this test
    now = [time.time_ns()]
    monkeypatch.setattr(time, "time_ns", lambda: now[0])
    monkeypatch.setattr(secrets, "randbits", lambda bits: (1 << bits) - 1)  # the highest start
    made = [ids() for _ in range(1_000)]
    now[0] -= 10 * 10**9  # the clock is set back 10 s: the ids go on rising, none repeats
    made += [ids() for _ in range(1_000)]
    now[0] += 3_600 * 10**9  # an hour on: a new step
    made += [ids() for _ in range(1_000)]
    assert made == sorted(made) and len(set(made)) == len(made)
    assert all(MATCH_ID.fullmatch(match_id) for match_id in made)


def test_a_batch_of_moves_of_many_games_writes_a_few_pages_not_one_a_game(sqlite_url):
    """The games being played have ids made close together in time, so their rows sit
    together in the moves' table, after those of older games (random ids here, as the lounge
    made them once): one move of each of 100 games writes a few pages of the write-ahead log."""
    engine = open_sql_store(sqlite_url).worker.engine
    batches = Batches(engine)
    older = [secrets.token_hex(8) for _ in range(2_000)]
    batches.run_at_once([room_and_matches(older, moves=9)])
    playing = [new_match_id() for _ in range(100)]
    batches.run_at_once([room_and_matches(playing, moves=1, room="host-2")])
    wal_frames(engine, reset=True)
    saves = []
    for match_id in playing:
        save = Writes()
        save.add("moves", move_row(match_id, 2))
        saves.append(save)
    batches.run_at_once(saves)
    assert wal_frames(engine) <= 24  # 15 here (of 1 KiB); with random ids, 137


def room_and_matches(match_ids: list[str], moves: int, room: str = "host-1") -> Writes:
    """One save: a room, and a game for each id with its first ``moves`` moves."""
    writes = new_room(room)
    writes.add("insert_match", *[
        {"id": match_id, "room_id": room, "round": 1, "game": "tic-tac-toe", "num_players": 2,
         "seed": "7", "players": "[]", "result": None, "moves": 0, "started": 0,
         "finished": None} for match_id in match_ids])
    writes.add("moves", *[move_row(match_id, version) for match_id in match_ids
                          for version in range(1, moves + 1)])
    return writes


def move_row(match_id: str, version: int) -> dict:
    return {"match_id": match_id, "version": version, "seat": version % 2, "move": "place",
            "args": f"[{version}]", "actor": None}


def wal_frames(engine, reset: bool = False) -> int:
    """The frames the write-ahead log holds (``reset``: copied out first, and the log
    emptied)."""
    with engine.connect() as conn:
        mode = "TRUNCATE" if reset else "PASSIVE"
        return conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})").one()[1]


def test_a_move_on_a_new_sqlite_database_logs_a_few_small_pages(sqlite_url):
    """A new SQLite database has 1 KiB pages: a commit copies each page it changed whole into
    the write-ahead log (and checksums it), and a move changes a few bytes of one or two."""
    store = open_sql_store(sqlite_url)
    engine = store.worker.engine
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA page_size").scalar() == 1024
    lounge = Lounge(store)
    room = started_room(lounge, "nine-locks", 2)
    with room.lock:
        play(room, store, 3)
        wal_frames(engine, reset=True)
        play(room, store, 1)
    log = Path(sqlite_url.removeprefix("sqlite:///") + "-wal").stat().st_size
    # the log's header and a frame or two of 1 KiB (one frame of 4 KiB would not fit: 4,152)
    assert 0 < log <= 32 + 2 * (24 + 1024)


def test_an_existing_sqlite_database_keeps_its_page_size(tmp_path):
    """The page size is chosen when a database is made: one made with 4 KiB pages opens and
    saves as before."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA page_size=4096")
        conn.execute("VACUUM")
    url = f"sqlite:///{path}"
    store = open_sql_store(url)
    room = started_room(Lounge(store), "tic-tac-toe", 2)
    with room.lock:
        play(room, store, 2)
    with store.worker.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA page_size").scalar() == 4096
    assert reopen(url).get(room.id).match.version == 2
