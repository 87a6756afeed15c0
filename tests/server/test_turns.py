"""Turn timers and stand-ins (issue 13), on a server of their own with short times: the host
sets a turn time; when it runs out the easy bot plays that turn and the log says so; two in a
row mark the seat away, whose turns a bot then plays after a short pause, unless the player
moves first or says they are back; the host may hand an away or disconnected seat to a bot.
The clock is the server's, saved with the room: a restart keeps the deadline."""

from __future__ import annotations

import pytest
import requests

from .conftest import FAST
from .harness import TIMEOUT, Player, Server, assert_no_leaks, create_room, start_game

TURN = {**FAST, "TURN_TIMES": "1,60,120", "AWAY_PAUSE_SECONDS": 0.4,
        "PLAYER_GRACE_SECONDS": 30.0}


@pytest.fixture(scope="module")
def turn_url():
    srv = Server(**TURN)
    yield srv.url
    output = srv.stop()
    assert "Traceback" not in output, output


def table(url: str, seconds: int = 1, game: str = "tic-tac-toe") -> tuple[dict, Player, Player]:
    host, guest = Player(url).connect(), Player(url).connect()
    room = create_room(url, host.token, game)
    host.ok("join", {"room": room["code"]})
    if seconds:
        host.ok("set_turn_time", {"seconds": seconds})
    start_game(room, host, [guest])
    return room, host, guest


def lines(player: Player, seat: int) -> list[str]:
    return [line["text"] for _, data in list(player.messages) if _ == "state"
            and data["seat"] == seat for line in data["log"]]


def test_only_the_host_sets_a_turn_time_from_the_offered_ones(turn_url):
    assert requests.get(f"{turn_url}/api/games", timeout=TIMEOUT).json()["turn_times"] == [
        1, 60, 120]
    room, host, guest = table(turn_url, seconds=0)
    try:
        assert host.call("set_turn_time", {"seconds": 45})["error"]["code"] == "bad_request"
        assert guest.call("set_turn_time", {"seconds": 60})["error"]["code"] == "forbidden"
        assert host.states[0]["turn_timer"] is None  # off by default
        host.ok("set_turn_time", {"seconds": 60})
        assert host.wait_for(lambda: host.last("room")["turn_seconds"] == 60)
        timer = host.wait_for(lambda: host.states[0]["turn_timer"])
        assert timer["seat"] == 0 and 58_000 < timer["ms_left"] <= 60_000
        seen = guest.wait_for(lambda: guest.states[1]["turn_timer"])  # shown to everyone
        assert (seen["seat"], seen["ends_at"], seen["away"]) == (0, timer["ends_at"], False)
    finally:
        host.drop()
        guest.drop()


def test_a_turn_that_runs_out_is_played_by_a_bot_and_two_make_the_seat_away(turn_url):
    room, host, guest = table(turn_url)
    try:
        # Host lets the first turn run out: the easy bot plays it, and the log says so.
        guest.wait_for(lambda: guest.states[1]["version"] == 1, seconds=4)
        assert "Host’s time ran out: a bot played for them" in lines(guest, 1)
        assert not guest.last("room")["seats"][0]["away"]
        # Every state of that action says a bot made it, so no client says "you played".
        assert guest.states[1]["stand_in"] == "timeout"
        assert host.wait_for(lambda: host.states[0]["version"] == 1)
        assert host.states[0]["stand_in"] == "timeout"
        # Not the host's own move to take back: that would give them the turn's time again.
        assert not host.states[0]["can_undo"]
        refused = host.call("undo", {})["error"]
        assert refused == {"code": "invalid_move",
                           "message": "A bot made that move for you: it cannot be taken back"}
        # A move of theirs sent as the bot played: told why, not "It is not your turn".
        free = host.states[0]["view"]["cells"].index(None)
        late = host.call("move", {"move": "place", "args": [free]})["error"]
        assert late == {"code": "invalid_move",
                        "message": "Too late: a bot has just played that turn for you"}
        free = next(m for m in guest.states[1]["legal_moves"])
        guest.ok("move", free)
        assert host.wait_for(lambda: host.states[0]["version"] == 2)
        assert host.states[0]["stand_in"] is None  # a person's move
        guest.wait_for(lambda: guest.states[1]["version"] == 3, seconds=4)  # the second one
        away = guest.wait_for(lambda: guest.last("room")["seats"][0]["away"])
        assert away
        guest.ok("move", guest.states[1]["legal_moves"][0])
        # Away: the next turn's clock is the short pause, then the bot plays it.
        timer = host.wait_for(lambda: host.states[0]["version"] == 4
                              and host.states[0]["turn_timer"])
        assert timer["away"] and timer["ms_left"] <= 400
        guest.wait_for(lambda: guest.states[1]["version"] == 5, seconds=3)
        assert "A bot played for Host, who is away" in lines(guest, 1)
        assert guest.states[1]["stand_in"] == "away"
        host.ok("back")
        assert guest.wait_for(lambda: not guest.last("room")["seats"][0]["away"])
        match = requests.get(f"{turn_url}/api/debug/rooms/{room['id']}/match",
                             timeout=TIMEOUT).json()
        assert [e["seat"] for e in match["log"]] == [0, 1, 0, 1, 0]
        assert_no_leaks(turn_url, room["id"], [host, guest])
    finally:
        host.drop()
        guest.drop()


def test_a_turn_of_several_steps_has_one_clock_and_the_bot_plays_it_all(turn_url):
    """Nine Locks' turn is a pick-up, then an unlock: one clock for both, and when it runs out
    the bot plays every step, said once; one turn run out does not make the seat away."""
    room, host, guest = table(turn_url, game="nine-locks")
    try:
        first = host.states[0]["turn_timer"]
        assert first["seat"] == 0
        host.ok("move", {"move": "pick_up", "args": []})  # the host picks up, then waits
        assert host.wait_for(lambda: host.states[0]["version"] == 1)
        assert host.states[0]["turn_timer"]["ends_at"] == first["ends_at"]  # the same clock
        guest.wait_for(lambda: guest.states[1]["view"]["current"] == 1, seconds=4)
        said = lines(guest, 1)
        assert said.count("Host’s time ran out: a bot played for them") == 1, said
        assert not guest.last("room")["seats"][0]["away"]
        match = requests.get(f"{turn_url}/api/debug/rooms/{room['id']}/match",
                             timeout=TIMEOUT).json()
        assert len(match["log"]) >= 2 and {e["seat"] for e in match["log"]} == {0}
    finally:
        host.drop()
        guest.drop()


def test_a_take_back_gives_the_turn_back_with_its_clock_as_it_was(turn_url):
    """A move taken back returns the turn it ended, against the deadline it had: not a new
    one (moving and taking back three times in a row would make a turn four times longer)."""
    room, host, guest = table(turn_url, seconds=60)
    try:
        first = host.states[0]["turn_timer"]
        host.ok("move", {"move": "place", "args": [4]})
        assert host.wait_for(lambda: host.states[0]["turn_timer"]["seat"] == 1)
        version = host.ok("undo")["version"]
        back = host.wait_for(lambda: host.states[0]["version"] == version
                             and host.states[0]["turn_timer"])
        assert (back["seat"], back["ends_at"]) == (0, first["ends_at"])
        host.ok("move", {"move": "place", "args": [0]})
        theirs = guest.wait_for(lambda: guest.states[1]["turn_timer"]["seat"] == 1
                                and guest.states[1]["turn_timer"])
        assert theirs["ms_left"] > 58_000  # the next player's turn has its whole time
    finally:
        host.drop()
        guest.drop()


def test_a_player_away_moving_first_is_back(turn_url):
    room, host, guest = table(turn_url, seconds=0)
    try:
        guest.drop()  # gone: the host hands the seat to a bot
        host.wait_for(lambda: not host.last("room")["seats"][1]["connected"])
        assert host.call("stand_in", {"seat": 0})["error"]["code"] == "bad_state"  # here
        host.ok("stand_in", {"seat": 1})
        assert host.wait_for(lambda: host.last("room")["seats"][1]["away"])
        host.ok("move", {"move": "place", "args": [4]})
        played = host.wait_for(lambda: host.states[0]["version"] == 2 and host.states[0],
                               seconds=3)
        assert "A bot played for Guest, who is away" in [x["text"] for x in played["log"]]
        guest.reconnect()
        guest.ok("join", {"room": room["code"]})
        assert guest.call("stand_in", {"seat": 0})["error"]["code"] == "forbidden"
        host.ok("move", host.states[0]["legal_moves"][0])
        # The guest moves within the pause: no bot plays, and the seat is no longer away.
        guest.wait_for(lambda: guest.states[1]["version"] == 3)
        guest.ok("move", guest.states[1]["legal_moves"][0])
        assert host.wait_for(lambda: not host.last("room")["seats"][1]["away"])
        host.wait_for(lambda: host.states[0]["version"] == 4)
        assert host.states[0]["turn_timer"] is None
    finally:
        host.drop()
        guest.drop()


def test_the_deadline_survives_a_restart_and_the_replay_shows_who_acted(tmp_path):
    db = f"sqlite:///{tmp_path / 'lounge.db'}"
    server = Server(**{**TURN, "TURN_TIMES": "10,60", "HOST_GRACE_SECONDS": 20,
                       "DATABASE_URL": db})
    try:
        # A restart takes 3 s on a busy machine, more beside a heavy job: the turn outlasts it,
        # and the host's grace period the turn.
        room, host, guest = table(server.url, seconds=10)
        deadline = host.states[0]["turn_timer"]["ends_at"]
        server.kill()
        server.stop()
        server = Server(**{**TURN, "TURN_TIMES": "10,60", "HOST_GRACE_SECONDS": 20,
                           "DATABASE_URL": db})
        back = Player(server.url, guest.session).connect()
        back.ok("join", {"room": room["code"]})
        state = back.wait_for(lambda: back.states.get(1))
        assert state["turn_timer"]["ends_at"] == deadline  # the same turn, the same clock
        back.wait_for(lambda: back.states[1]["version"] == 1, seconds=14)
        host_back = Player(server.url, host.session).connect()
        host_back.ok("join", {"room": room["code"]})
        host_back.ok("leave")  # the room closes: the cut game is kept, to watch again
        games = requests.get(f"{server.url}/api/matches", params={"room": room["id"]},
                             timeout=TIMEOUT).json()["matches"]
        replay = requests.get(f"{server.url}/api/matches/{games[0]['id']}",
                              timeout=TIMEOUT).json()
        assert [s.get("actor") for s in replay["steps"]] == [None, "timeout"]
        assert replay["steps"][1]["log"][0] == "Host’s time ran out: a bot played for them"
        back.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output, output
