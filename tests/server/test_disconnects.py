"""Reconnecting, leaving, and the grace periods (1 s on the test server)."""

from __future__ import annotations

import requests

from .harness import TIMEOUT, start_game


def started(players, room_of, game: str = "tic-tac-toe", count: int = 2):
    host, *guests = players(count)
    room = room_of(host, game)
    return room, start_game(room, host, guests)


def seat_info(player, seat: int) -> dict:
    return player.last("room")["seats"][seat]


def test_a_reconnect_gets_the_seat_view_and_chat_back(players, room_of):
    room, (host, guest) = started(players, room_of)
    host.ok("move", {"move": "place", "args": [4]})
    guest.ok("chat", {"text": "brb"})
    guest.wait_for(lambda: guest.states[1]["version"] == 1)
    guest.drop()
    host.wait_for(lambda: seat_info(host, 1)["connected"] is False)
    guest.reconnect()
    ack = guest.ok("join", {"room": room["code"]})
    assert ack["seats"] == [1] and ack["chat"][-1]["text"] == "brb"
    guest.wait_for(lambda: guest.states[1]["version"] == 1)
    assert guest.states[1]["legal_moves"]
    host.wait_for(lambda: seat_info(host, 1)["connected"] is True)
    guest.ok("move", {"move": "place", "args": [0]})


def test_another_player_leaving_lets_the_game_go_on(players, room_of):
    room, (host, a, b) = started(players, room_of, "nine-locks", 3)
    a.ok("leave")
    host.wait_for(lambda: seat_info(host, 1)["left"])
    state = host.wait_for(lambda: 1 in host.states[0]["view"]["left"] and host.states[0])
    assert state["result"] is None and host.last("room")["status"] == "playing"
    assert a.call("move", {"move": "pick_up"})["error"]["code"] == "not_in_room"


def test_a_player_gone_past_the_grace_period_keeps_the_seat_and_a_bot_plays_for_them(
        players, room_of):
    """A phone put away a minute must not cost its player the game: past the grace period the
    seat is away (a bot plays its turns), and its player takes it back when they return."""
    room, (host, guest) = started(players, room_of)
    guest.drop()
    host.wait_for(lambda: seat_info(host, 1)["away"], seconds=4)
    assert not seat_info(host, 1)["left"] and host.last("room")["status"] == "playing"
    host.ok("move", {"move": "place", "args": [4]})
    host.wait_for(lambda: host.states[0]["version"] == 2, seconds=8)
    assert "A bot played for Guest, who lost their connection" in [
        line["text"] for line in host.received("state")[-1]["log"]]
    guest.reconnect()
    ack = guest.ok("join", {"room": room["code"]})
    assert ack["my_seats"] == [1] and ack["left_game"] is False
    guest.ok("back")
    # The bot's cell was its own choice: the next moves take cells still free.
    host.ok("move", host.states[0]["legal_moves"][0])
    guest.wait_for(lambda: guest.states[1]["version"] == 3)
    guest.ok("move", guest.states[1]["legal_moves"][0])


def test_a_waiting_seat_is_freed_when_its_player_stays_away(players, room_of):
    host, guest = players(2)
    room = room_of(host)
    guest.ok("join", {"room": room["code"]})
    guest.drop()
    host.wait_for(lambda: len(host.last("room")["seats"]) == 1, seconds=4)


def test_the_host_coming_back_in_time_keeps_the_room(players, room_of, url):
    room, (host, guest) = started(players, room_of)
    host.drop()
    guest.wait_for(lambda: seat_info(guest, 0)["connected"] is False)
    host.reconnect()
    assert host.ok("join", {"room": room["code"]})["seats"] == [0]
    guest.wait_for(lambda: seat_info(guest, 0)["connected"] is True)
    requests_ok = requests.get(f"{url}/api/rooms/{room['code']}", timeout=TIMEOUT)
    assert requests_ok.status_code == 200


def test_the_host_gone_past_the_grace_period_disbands_the_room(players, room_of, url):
    room, (host, guest, watcher) = started(players, room_of, "nine-locks", 3)
    host.drop()
    closed = guest.wait_for(lambda: guest.last("closed"), seconds=4)
    assert closed == {"reason": "host_disconnected"}
    assert watcher.wait_for(lambda: watcher.last("closed"))
    gone = requests.get(f"{url}/api/rooms/{room['code']}", timeout=TIMEOUT)
    assert gone.status_code == 404
    assert guest.call("chat", {"text": "anyone?"})["error"]["code"] == "not_in_room"


def test_the_host_leaving_closes_the_room_at_once(players, room_of, url):
    host, guest = players(2)
    room = room_of(host)
    guest.ok("join", {"room": room["code"], "spectate": True})
    host.ok("leave")
    assert guest.wait_for(lambda: guest.last("closed")) == {"reason": "host_left"}
    assert requests.get(f"{url}/api/rooms/{room['id']}", timeout=TIMEOUT).status_code == 404
    again = guest.call("join", {"room": room["code"]})
    assert again["error"]["code"] == "not_found"


def test_the_guests_see_when_the_room_closes_while_the_host_is_away(players, room_of, url):
    """Issue 13: the host's grace is visible (the room says when it closes), and a game the
    closing cut short is kept in the history as abandoned."""
    room, (host, guest) = started(players, room_of)
    host.ok("move", {"move": "place", "args": [4]})
    host.drop()
    away = guest.wait_for(lambda: seat_info(guest, 0)["connected"] is False and guest.last("room"))
    assert 0 < away["closes_in_ms"] <= 1000 and away["closes_at"] > 0
    host.reconnect()
    host.ok("join", {"room": room["code"]})
    back = guest.wait_for(lambda: seat_info(guest, 0)["connected"] and guest.last("room"))
    assert back["closes_at"] is None and back["closes_in_ms"] is None
    host.drop()
    assert guest.wait_for(lambda: guest.last("closed"), seconds=4) == {
        "reason": "host_disconnected"}
    games = requests.get(f"{url}/api/matches", params={"room": room["id"]}, timeout=TIMEOUT)
    (game,) = games.json()["matches"]
    assert game["result"] == {"abandoned": True} and game["moves"] == 1
    replay = requests.get(f"{url}/api/matches/{game['id']}", timeout=TIMEOUT).json()
    assert [step["move"] for step in replay["steps"]] == [None, "place"]
