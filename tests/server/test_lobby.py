"""Rooms over Socket.IO: seats, readiness, spectators, chat, bots, hot seat, rematch, undo."""

from __future__ import annotations

import requests
import socketio

from .harness import TIMEOUT, Player, assert_no_leaks, play_out


def test_no_valid_token_no_connection(url):
    for auth in (None, {}, {"token": "forged.token.value"}, {"token": 5}):
        client = socketio.Client(reconnection=False)
        errors: list = []
        client.on("connect_error", errors.append)
        try:
            client.connect(url, auth=auth, transports=["websocket"], wait_timeout=5)
        except socketio.exceptions.ConnectionError:
            assert errors[0]["data"]["code"] == "unauthorized", auth
            assert "not valid" in errors[0]["message"]
        else:
            client.disconnect()
            raise AssertionError(f"connected with {auth!r}")


def test_seats_ready_and_start(players, room_of):
    host, guest = players(2)
    room = room_of(host)
    ack = guest.ok("join", {"room": room["code"], "name": "Linus"})
    assert ack["seats"] == [1] and ack["room"]["seats"][1]["name"] == "Linus"
    host.wait_for(lambda: len((host.last("room") or {}).get("seats", [])) == 2)
    refused = host.call("start")
    assert refused["error"]["code"] == "not_ready" and "Linus" in refused["error"]["message"]
    assert guest.call("start")["error"]["code"] == "forbidden"
    guest.ok("ready", {"ready": True})
    host.ok("start")
    guest.wait_for(lambda: guest.states.get(1))
    state = guest.states[1]
    assert state["legal_moves"] == [] and state["active_seats"] == [0]
    assert host.states[0]["legal_moves"] and not host.states[0]["can_undo"]
    assert guest.call("ready", {"ready": False})["error"]["code"] == "bad_state"


def test_a_full_or_playing_room_makes_you_a_spectator(players, room_of):
    host, guest, late = players(3)
    room = room_of(host)
    guest.ok("join", {"room": room["code"]})
    ack = late.ok("join", {"room": room["code"], "name": "Late"})
    assert ack["spectator"] and ack["seats"] == []
    assert ack["room"]["spectators"] == 1
    guest.ok("ready", {"ready": True})
    host.ok("start")
    late.wait_for(lambda: None in late.states)
    assert late.states[None]["legal_moves"] == []
    denied = late.call("move", {"move": "place", "args": [4]})
    assert denied["error"]["code"] == "forbidden"
    assert late.call("ready", {"ready": True})["error"]["code"] == "bad_state"


def test_chat_is_trimmed_shared_and_kept_for_joiners(players, room_of):
    host, guest = players(2)
    room = room_of(host)
    guest.ok("join", {"room": room["code"], "name": "Linus"})
    ack = guest.ok("chat", {"text": "  hello <b>there</b>  "})
    message = host.wait_for(lambda: host.last("chat"))
    assert message["id"] == ack["id"] and message["text"] == "hello <b>there</b>"
    assert message["name"] == "Linus" and message["user_id"] == guest.user_id
    for bad in ("", "   ", "x" * 501, 5, None):
        assert guest.call("chat", {"text": bad})["error"]["code"] == "bad_request"
    for i in range(105):
        host.ok("chat", {"text": f"line {i}"})
    newcomer = players(1)[0]
    history = newcomer.ok("join", {"room": room["code"], "spectate": True})["chat"]
    assert len(history) == 100 and history[-1]["text"] == "line 104"
    assert history[0]["text"] == "line 5"


def test_bots_and_a_hot_seat_player_finish_a_game(players, room_of, url):
    host, guest = players(2)
    room = room_of(host, "nine-locks")
    guest.ok("join", {"room": room["code"], "name": "Guest"})
    guest.ok("ready", {"ready": True})
    assert host.ok("add_local", {"name": "Sofa"})["seat"] == 2
    assert host.ok("add_bot", {"level": "normal"})["seat"] == 3
    assert host.call("add_bot", {"level": "genius"})["error"]["code"] == "bad_request"
    assert guest.call("add_bot", {"level": "easy"})["error"]["code"] == "forbidden"
    host.ok("start")
    host.wait_for(lambda: {0, 2} <= set(host.states))
    assert set(host.states) == {0, 2}
    result = play_out([host, guest], seed=3)
    assert result
    host.wait_for(lambda: host.last("room")["status"] == "finished")
    log_seats = {s["seat"] for p in (host, guest) for s in p.received("state")}
    assert log_seats == {0, 1, 2}
    assert_no_leaks(url, room["id"], [host, guest])


def test_a_bot_moves_after_its_pause(players, room_of):
    (host,) = players(1)
    room_of(host)
    host.ok("add_bot", {"level": "easy"})
    host.ok("start")
    host.wait_for(lambda: host.states.get(0))
    host.ok("move", {"move": "place", "args": [0]})
    host.wait_for(lambda: host.version() >= 2 and host.states[0]["legal_moves"])
    assert host.states[0]["view"]["cells"].count("O") == 1


def test_moving_for_a_hot_seat_needs_the_seat_when_both_could_act(players, room_of):
    (host,) = players(1)
    room_of(host)
    assert host.ok("add_local", {"name": "Sofa"})["seat"] == 1
    host.ok("start")
    host.wait_for(lambda: set(host.states) == {0, 1})
    host.ok("move", {"move": "place", "args": [4]})  # only seat 0 may act: no seat needed
    host.wait_for(lambda: host.version() == 1)
    assert host.call("move", {"move": "place", "args": [0], "seat": 0})["error"]["code"] == (
        "invalid_move")
    host.ok("move", {"move": "place", "args": [0], "seat": 1})


def test_undo_takes_back_the_last_move_until_the_opponent_moves(players, room_of):
    host, guest = players(2)
    room = room_of(host)
    guest.ok("join", {"room": room["code"]})
    guest.ok("ready", {"ready": True})
    host.ok("start")
    host.wait_for(lambda: host.states.get(0))
    host.ok("move", {"move": "place", "args": [4]})
    host.wait_for(lambda: host.states[0]["version"] == 1)
    assert host.states[0]["can_undo"] and not guest.wait_for(lambda: guest.states.get(1))[
        "can_undo"]
    assert guest.call("undo")["error"]["code"] == "invalid_move"
    assert host.ok("undo")["version"] == 2
    host.wait_for(lambda: host.states[0]["version"] == 2)
    assert host.states[0]["view"]["cells"][4] is None and host.states[0]["legal_moves"]
    host.ok("move", {"move": "place", "args": [0]})
    guest.wait_for(lambda: guest.states[1]["version"] == 3)
    guest.ok("move", {"move": "place", "args": [4]})
    assert host.call("undo")["error"]["code"] == "invalid_move"


def test_rematch_starts_a_new_game_with_the_seats_moved_round(players, room_of):
    """The first seat goes last, so that who starts (X in Tic-Tac-Toe) takes turns; each
    player is told their new seat before the new game's state."""
    host, guest = players(2)
    room = room_of(host)
    guest.ok("join", {"room": room["code"]})
    guest.ok("ready", {"ready": True})
    assert host.call("rematch")["error"]["code"] == "bad_state"
    host.ok("start")
    host.wait_for(lambda: host.states.get(0))
    play_out([host, guest])
    host.wait_for(lambda: host.last("room")["status"] == "finished")
    assert guest.call("rematch")["error"]["code"] == "forbidden"
    host.ok("rematch")
    guest.wait_for(lambda: 0 in guest.states and guest.states[0]["round"] == 2)
    assert guest.last("room")["status"] == "playing"
    assert [s["user_id"] for s in guest.last("room")["seats"]] == [guest.user_id, host.user_id]
    assert guest.last("seats")["my_seats"] == [0] and list(guest.states) == [0]
    assert guest.states[0]["view"]["current"] == 0 and guest.states[0]["legal_moves"]
    name = guest.last("room")["seats"][0]["name"]
    assert [line["text"] for line in guest.states[0]["log"]] == [
        f"Game 2 begins: everyone moved one seat round, so {name} starts"]
    host.wait_for(lambda: 1 in host.states)
    assert host.last("seats")["my_seats"] == [1] and list(host.states) == [1]
    assert host.last("room")["host"] == host.user_id
    assert host.call("move", {"move": "place", "args": [4]})["error"]["code"] == "invalid_move"
    guest.ok("move", {"move": "place", "args": [4]})
    host.wait_for(lambda: host.states[1]["view"]["cells"][4] == "X")


def test_remove_seat_makes_the_player_a_spectator(players, room_of):
    host, guest = players(2)
    room = room_of(host)
    guest.ok("join", {"room": room["code"]})
    assert host.call("remove_seat", {"seat": 0})["error"]["code"] == "forbidden"
    assert host.call("remove_seat", {"seat": 5})["error"]["code"] == "not_found"
    host.ok("remove_seat", {"seat": 1})
    room_now = guest.wait_for(lambda: len(guest.last("room")["seats"]) == 1 and guest.last("room"))
    assert room_now["spectators"] == 1


def test_a_second_tab_with_another_token_is_another_player(url, players, room_of):
    host, tab = players(2)
    room = room_of(host)
    assert tab.ok("join", {"room": room["code"]})["seats"] == [1]
    same = Player(url, host.session).connect()
    try:
        assert same.ok("join", {"room": room["code"]})["seats"] == [0]
    finally:
        same.drop()


def test_slapjack_bots_slap_and_play_against_a_human(players, room_of, url):
    (host,) = players(1)
    room = room_of(host, "slapjack")
    for level in ("normal", "easy", "hard"):
        host.ok("add_bot", {"level": level})
    host.ok("start")
    host.wait_for(lambda: host.states.get(0))
    result = play_out([host], seed=7, seconds=120)
    assert result
    slappers = {e["seat"] for s in host.received("state") for e in s["view"]["events"]}
    assert slappers - {0}, "no bot ever slapped"
    assert_no_leaks(url, room["id"], [host])


def test_a_removed_player_may_only_watch_until_the_host_lets_them_back(players, room_of, url):
    host, guest, other = players(3)
    room = room_of(host, "nine-locks")
    guest.ok("join", {"room": room["code"], "name": "Linus"})
    host.ok("remove_seat", {"seat": 1})
    again = guest.ok("join", {"room": room["code"]})  # asking for a seat again: no
    assert again["spectator"] is True and again["seats"] == []
    guest.reconnect()
    assert guest.ok("join", {"room": room["code"], "name": "Linus"})["spectator"] is True
    summary = requests.get(f"{url}/api/rooms/{room['code']}", timeout=TIMEOUT).json()
    assert summary["removed"] == [{"user_id": guest.user_id, "name": "Linus"}]
    assert summary["spectators"] == 1 and len(summary["seats"]) == 1
    other.ok("join", {"room": room["code"]})
    assert other.call("allow", {"user_id": guest.user_id})["error"]["code"] == "forbidden"
    assert host.call("allow", {"user_id": other.user_id})["error"]["code"] == "not_found"
    assert host.call("allow", {})["error"]["code"] == "bad_request"
    host.ok("allow", {"user_id": guest.user_id})
    assert host.wait_for(lambda: host.last("room")["removed"] == [])
    back = guest.ok("join", {"room": room["code"]})  # no name: the one they watched under
    assert back["seats"] == [2] and back["room"]["seats"][2]["name"] == "Linus"


def test_names_are_unique_within_a_room(players, room_of):
    host, ada, other_ada, watcher = players(4)
    room = room_of(host, "nine-locks")  # the host is "Host"
    assert ada.ok("join", {"room": room["code"], "name": "Ada"})["room"]["seats"][1]["name"] == (
        "Ada")
    ack = other_ada.ok("join", {"room": room["code"], "name": "ada"})
    assert ack["room"]["seats"][2]["name"] == "ada (2)"
    seat = host.ok("add_local", {"name": "Ada"})["seat"]
    assert host.wait_for(lambda: len(host.last("room")["seats"]) == 4)
    assert host.last("room")["seats"][seat]["name"] == "Ada (3)"
    watcher.ok("join", {"room": room["code"], "name": "host", "spectate": True})
    watcher.ok("chat", {"text": "hello"})
    said = host.wait_for(lambda: [m for m in host.received("chat") if m["text"] == "hello"])
    assert said[0]["name"] == "host (2)"


def test_bidi_and_zero_width_characters_are_stripped_from_names_and_chat(players, room_of):
    host, guest = players(2)
    room = room_of(host)
    sneaky = "\u202eLi\u200bnus\u2066\u200d\u00ad\ufeff\u2069\u200e"
    ack = guest.ok("join", {"room": room["code"], "name": sneaky})
    assert ack["room"]["seats"][1]["name"] == "Linus"
    guest.ok("chat", {"text": "gg\u202e \u2067wp\u2069\u200f\u3164\nnext?"})
    said = host.wait_for(lambda: host.last("chat"))
    assert said["text"] == "gg wp\nnext?" and said["name"] == "Linus"
    assert guest.call("chat", {"text": "\u200b\u202e\u2066"})["error"]["code"] == "bad_request"
    blank = players(1)[0]
    assert blank.call("join", {"room": room["code"], "name": " \u2800 "})["error"]["code"] == (
        "bad_request")
    tower, vietnamese = "a" + "\u0301" * 499, "Nguye\u0302\u0303n"  # kept: two marks on one e
    guest.ok("chat", {"text": f"{tower} {vietnamese}"})
    said = host.wait_for(lambda: host.last("chat")["text"] != "gg wp\nnext?" and host.last("chat"))
    assert said["text"] == "a" + "\u0301" * 4 + " " + vietnamese
