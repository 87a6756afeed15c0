"""Kill -9 the real server in the middle of games of every game, start it again on the same
database, and check that nothing anyone was told about is lost."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import requests
from sqlalchemy import create_engine, text

from backend.db.records import GAME_LOST
from tests.server.conftest import FAST
from tests.server.harness import (
    TIMEOUT,
    Player,
    Server,
    create_room,
    play_out,
    start_game,
)

GRACE = 3.0
TABLES = [("tic-tac-toe", 2), ("nine-locks", 3), ("poker99", 3), ("slapjack", 2),
          ("crazy-eights", 3)]


def start_server(db_url: str, **settings) -> Server:
    return Server(**{**FAST, "HOST_GRACE_SECONDS": GRACE, "PLAYER_GRACE_SECONDS": GRACE,
                     "DATABASE_URL": db_url, **settings})


def kill(server: Server) -> None:
    server.kill()
    server.stop()


def open_table(url: str, slug: str, count: int) -> tuple[dict, list[Player]]:
    """A started game of ``count`` connected players; the room and the players, host first."""
    host, *guests = [Player(url).connect() for _ in range(count)]
    room = create_room(url, host.token, slug)
    host.ok("join", {"room": room["code"]})
    return room, start_game(room, host, guests)


def play_some(players: list[Player], moves: int, rng: random.Random) -> int:
    """Up to ``moves`` moves on their players' turns, each seen by everyone before the next;
    the version everyone has seen."""
    for _ in range(moves):
        state = next((s for p in players for s in p.states.values()
                      if s["seat"] in s["active_seats"] and s["result"] is None
                      and s["view"].get("current") in (s["seat"], None)), None)
        if state is None or not state["legal_moves"]:
            break
        owner = next(p for p in players if state["seat"] in p.states)
        move = rng.choice([m for m in state["legal_moves"] if m["move"] != "slap"]
                          or state["legal_moves"])
        ack = owner.ok("move", {**move, "seat": state["seat"]})
        for player in players:
            player.wait_for(lambda p=player, v=ack["version"]: p.version() >= v)
    return max(p.version() for p in players)


def rejoin(url: str, room: dict, players: list[Player]) -> list[Player]:
    """Every player back with its own token on the restarted server; each gets its seat and
    exactly the view it last saw."""
    back = []
    for old in players:
        new = Player(url, old.session).connect()
        ack = new.ok("join", {"room": room["code"]})
        assert ack["seats"] == sorted(s for s in old.states if s is not None)
        assert [m["text"] for m in ack["chat"]] == [m["text"] for m in old.received("chat")]
        for seat, before in old.states.items():
            now = new.wait_for(lambda n=new, s=seat: n.states.get(s))
            assert now["view"] == before["view"], (room["game"], seat)
            assert now["legal_moves"] == before["legal_moves"]
            assert (now["round"], now["version"]) == (before["round"], before["version"])
        back.append(new)
    return back


def test_every_game_survives_a_kill_and_plays_to_its_end(db_url):
    rng = random.Random(5)
    server = start_server(db_url)
    tables = []
    try:
        for slug, count in TABLES:
            room, players = open_table(server.url, slug, count)
            players[0].ok("chat", {"text": f"good luck at {slug}"})
            players[-1].wait_for(lambda p=players[-1]: p.received("chat"))
            play_some(players, rng.randint(3, 8), rng)
            tables.append((room, players))
        abandoned, left_behind = open_table(server.url, "tic-tac-toe", 2)
    finally:
        kill(server)
    for _, players in [*tables, (abandoned, left_behind)]:
        for player in players:
            player.drop()
    time.sleep(GRACE + 0.5)  # longer than any grace period: they must start over
    server = start_server(db_url)
    try:
        assert requests.get(f"{server.url}/api/rooms/{abandoned['code']}", timeout=TIMEOUT).ok
        rejoined = [(room, rejoin(server.url, room, players)) for room, players in tables]
        for room, back in rejoined:
            result = play_out(back, seed=len(room["game"]))
            assert result.get("winner") in range(len(back)) or result == {"draw": True}
            history = requests.get(f"{server.url}/api/matches", params={"room": room["id"]},
                                   timeout=TIMEOUT).json()["matches"]
            assert [m["result"] for m in history] == [result]
            assert history[0]["moves"] == max(p.version() for p in back)
            for player in back:
                player.drop()
        time.sleep(GRACE + 1.0)
        gone = requests.get(f"{server.url}/api/rooms/{abandoned['code']}", timeout=TIMEOUT)
        assert gone.status_code == 404
    finally:
        output = server.stop()
    assert "Traceback" not in output, output


def test_a_hosts_second_room_comes_back_after_a_kill(db_url):
    """A room's id is its host's: the matches of the host's earlier room (closed, kept for
    the history) have the same room id and rounds, and must not be taken for this room's."""
    rng = random.Random(8)
    server = start_server(db_url)
    try:
        first, players = open_table(server.url, "tic-tac-toe", 2)
        play_out(players)
        players[0].ok("leave")  # the host leaves: the room closes, its finished game stays
        players[1].wait_for(lambda: players[1].received("closed"))
        for player in players:
            player.drop()
        host = Player(server.url, players[0].session).connect()
        room = create_room(server.url, host.token, "nine-locks")
        assert room["id"] == first["id"] and room["code"] != first["code"]
        host.ok("join", {"room": room["code"]})
        players = start_game(room, host, [Player(server.url).connect()])
        play_some(players, 6, rng)
    finally:
        kill(server)
    server = start_server(db_url)
    try:
        back = rejoin(server.url, room, players)
        result = play_out(back, seed=3)
        assert result.get("winner") in range(2) or result == {"draw": True}
        gone = requests.get(f"{server.url}/api/rooms/{first['code']}", timeout=TIMEOUT)
        assert gone.status_code == 404
        for player in back:
            player.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output and "could not be rebuilt" not in output, output


def killed_mid_game(db_url: str, *updates: str) -> tuple[dict, list[Player]]:
    """A Tic-Tac-Toe room three moves in (the guest has said "my move next"), its server killed
    and then its database changed by ``updates``, as an update of the lounge might: the room
    and its two players."""
    server = start_server(db_url)
    try:
        room, players = open_table(server.url, "tic-tac-toe", 2)
        players[1].ok("chat", {"text": "my move next"})
        play_some(players, 3, random.Random(2))
    finally:
        kill(server)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        for update in updates:
            conn.execute(text(update))
    engine.dispose()
    return room, players


def test_a_game_that_does_not_replay_leaves_its_room_in_the_lobby(db_url):
    """An update that changes a game's rules under a game being played (here: a stored move
    the rules do not know): the room comes back in its lobby with its players and chat, says
    why, and plays on from there; it neither disappears nor keeps its host from hosting."""
    room, players = killed_mid_game(
        db_url, "UPDATE match_moves SET move = 'teleport' WHERE version = 2")
    server = start_server(db_url)
    try:
        host, guest = [Player(server.url, p.session).connect() for p in players]
        for player in (host, guest):
            ack = player.ok("join", {"room": room["code"]})
            assert ack["room"]["status"] == "waiting" and ack["room"]["notice"] == GAME_LOST
            assert [m["text"] for m in ack["chat"]] == ["my move next"]
            assert [s["name"] for s in ack["room"]["seats"]] == ["Host", "Guest"]
        assert requests.get(f"{server.url}/api/rooms/{room['code']}",
                            timeout=TIMEOUT).json()["status"] == "waiting"
        guest.ok("ready", {"ready": True})
        host.ok("start")
        started = host.wait_for(lambda: host.last("room")["status"] == "playing"
                                and host.last("room"))
        assert started["notice"] is None and started["round"] == 2
        result = play_out([host, guest], seed=4)
        history = requests.get(f"{server.url}/api/matches", params={"room": room["id"]},
                               timeout=TIMEOUT).json()["matches"]
        assert [m["result"] for m in history] == [result]
    finally:
        output = server.stop()
    assert "its game does not replay (InvalidMove: " in output, output
    assert "Traceback" not in output, output


def test_a_player_the_rematch_left_out_is_still_told_why_after_a_restart(db_url):
    """A rematch started while a player's connection was lost: back after a restart, they
    read why they only watch this game, not the plain spectator's note."""
    server = start_server(db_url, AWAY_PAUSE_SECONDS=0.01)  # the bot plays the gone seat
    try:
        host, guest = Player(server.url).connect(), Player(server.url).connect()
        room = create_room(server.url, host.token, "crazy-eights")
        host.ok("join", {"room": room["code"]})
        host.ok("add_bot", {"level": "easy"})
        start_game(room, host, [guest])
        guest.drop()
        host.wait_for(lambda: host.last("room")["seats"][2]["away"], GRACE + TIMEOUT)
        play_out([host], seed=6)
        host.ok("rematch")
        host.wait_for(lambda: host.last("room")["round"] == 2)
    finally:
        kill(server)
    host.drop()
    server = start_server(db_url)
    try:
        back = Player(server.url, guest.session).connect()
        ack = back.ok("join", {"room": room["code"]})
        assert (ack["my_seats"], ack["left_game"], ack["left_out"]) == ([], True, True)
        host = Player(server.url, host.session).connect()
        assert host.ok("join", {"room": room["code"]})["left_out"] is False
        back.drop()
        host.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output, output


def test_a_room_whose_host_never_came_still_says_so_after_a_restart(db_url):
    """Two rooms with a guest each are cut off by a restart: the one whose host never joined
    waits for its host as a new room does and closes as ``host_never_came``; the one whose host
    came and went gets the host grace period and closes as ``host_disconnected``."""
    unclaimed = GRACE + 2  # longer than the host grace period, so that the reasons tell apart
    server = start_server(db_url, UNCLAIMED_ROOM_SECONDS=unclaimed)
    try:
        absent, came = Player(server.url).connect(), Player(server.url).connect()
        never = create_room(server.url, absent.token, "tic-tac-toe")
        went = create_room(server.url, came.token, "tic-tac-toe")
        came.ok("join", {"room": went["code"]})
        guests = [Player(server.url).connect() for _ in range(2)]
        for guest, room in zip(guests, (never, went), strict=True):
            guest.ok("join", {"room": room["code"], "name": "Linus"})
    finally:
        kill(server)
    for player in (absent, came, *guests):
        player.drop()
    server = start_server(db_url, UNCLAIMED_ROOM_SECONDS=unclaimed)
    try:
        back = [Player(server.url, guest.session).connect() for guest in guests]
        for guest, room in zip(back, (never, went), strict=True):
            guest.ok("join", {"room": room["code"]})
        waited = TIMEOUT + unclaimed
        back[1].wait_for(lambda: back[1].received("closed"), waited)
        back[0].wait_for(lambda: back[0].received("closed"), waited)
        assert back[1].received("closed") == [{"reason": "host_disconnected"}]
        assert back[0].received("closed") == [{"reason": "host_never_came"}]
        looked_up = requests.get(f"{server.url}/api/rooms/{never['code']}", timeout=TIMEOUT)
        assert looked_up.json()["error"]["message"] == (
            f"Room {never['code']} has closed: the host never came.")
        for guest in back:
            guest.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output, output


def test_a_room_whose_game_is_no_longer_offered_closes_and_says_why(db_url):
    """An update removed (or renamed) the game of a room being played: at the restart the room
    is closed, its players following the old code are told why, its host may open another
    room, and the game cut short stays in the history as abandoned."""
    room, players = killed_mid_game(db_url, "UPDATE rooms SET game = 'pirate-poker'",
                                    "UPDATE matches SET game = 'pirate-poker'")
    server = start_server(db_url)
    why = (f"Room {room['code']} has closed: its game (pirate-poker) is no longer offered "
           "here. The host can open a new room with another game.")
    try:
        looked_up = requests.get(f"{server.url}/api/rooms/{room['code']}", timeout=TIMEOUT)
        assert looked_up.status_code == 404 and looked_up.json()["error"]["message"] == why
        guest = Player(server.url, players[1].session).connect()
        assert guest.call("join", {"room": room["code"]})["error"] == {
            "code": "not_found", "message": why}
        history = requests.get(f"{server.url}/api/matches", params={"room": room["id"]},
                               timeout=TIMEOUT).json()["matches"]
        assert history == []  # kept, as abandoned, but it cannot be watched again
        engine = create_engine(db_url)
        with engine.connect() as conn:
            kept = conn.execute(text("SELECT id, result, moves FROM matches")).one()
        engine.dispose()
        assert (kept.result, kept.moves) == ('{"abandoned":true}', 3)
        replay = requests.get(f"{server.url}/api/matches/{kept.id}", timeout=TIMEOUT)
        assert replay.status_code == 404 and "no longer offers" in replay.text
        terminal = subprocess.run(
            [sys.executable, "-m", "backend.terminal", "--server", server.url, "--join",
             room["code"].lower(), "--name", "Eve"], capture_output=True, text=True, timeout=30)
        assert (terminal.returncode, terminal.stderr) == (1, why + "\n")
        again = create_room(server.url, players[0].token, "tic-tac-toe")
        assert again["id"] == room["id"]
        guest.drop()
    finally:
        output = server.stop()
    assert f"room {room['code']} closed: its game 'pirate-poker' is no longer offered" in output
    assert "Traceback" not in output, output


def fire(player: Player, seat: int, stop: threading.Event, acked: list) -> None:
    """Move as fast as the server answers, never waiting to see the result."""
    rng = random.Random(seat)
    while not stop.is_set():
        state = player.states.get(seat)
        if state is None or state["result"] is not None:
            return
        legal = state["legal_moves"]
        if not legal:
            time.sleep(0.001)
            continue
        move = rng.choice(legal)
        try:
            ack = player.call("move", {**move, "seat": seat})
        except Exception:  # the server is gone
            return
        if ack.get("ok"):
            acked.append((ack["version"], seat, move["move"], move["args"]))


def test_no_acknowledged_move_is_lost_when_killed_mid_flight(sqlite_url):
    server = start_server(sqlite_url)
    tables = [open_table(server.url, slug, count) for slug, count in TABLES]
    stop = threading.Event()
    acked: dict[str, list] = {room["id"]: [] for room, _ in tables}
    threads = [threading.Thread(target=fire, args=(p, i, stop, acked[room["id"]]), daemon=True)
               for room, players in tables for i, p in enumerate(players)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while sum(map(len, acked.values())) < 80 and time.monotonic() < deadline:
        time.sleep(0.005)
    kill(server)  # while moves are in flight
    stop.set()
    for thread in threads:
        thread.join(5)
    for _, players in tables:
        for player in players:
            player.drop()
    assert sum(map(len, acked.values())) >= 80, "too few moves before the kill"
    server = start_server(sqlite_url)
    try:
        for room_id, moves in acked.items():
            log = requests.get(f"{server.url}/api/debug/rooms/{room_id}/match",
                               timeout=TIMEOUT).json()["log"]
            for version, seat, move, args in moves:
                assert version <= len(log), "an acknowledged move was lost"
                assert log[version - 1] == {"seat": seat, "move": move, "args": args}
            assert len({version for version, *_ in moves}) == len(moves)
    finally:
        output = server.stop()
    assert "Traceback" not in output, output
