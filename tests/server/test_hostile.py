"""Malformed and hostile input: every bad payload gets an error ack and changes nothing."""

from __future__ import annotations

import contextlib
import time

import pytest
import requests
import socketio

from .harness import CARD, TIMEOUT, Player, Server, create_room, start_game

BAD_PAYLOADS = [
    ("join", {}), ("join", {"room": 5}), ("join", {"room": ""}), ("join", {"room": "x" * 65}),
    ("join", {"room": "ABCDEF", "spectate": "yes"}), ("join", {"room": None}),
    ("join", {"room": "ABCDEF", "user_id": "someone"}),
    ("chat", {"text": ["a"]}), ("chat", {"text": {"$gt": ""}}), ("chat", "hello"),
    ("ready", {"ready": "true"}), ("ready", {"ready": 1}), ("ready", {}),
    ("add_bot", {"level": 3}), ("add_local", {"name": ""}), ("add_local", {"name": "x" * 40}),
    ("remove_seat", {"seat": "1"}), ("remove_seat", {"seat": -1}), ("remove_seat", {"seat": 1.5}),
    ("remove_seat", {"seat": True}),
    ("move", {}), ("move", {"move": 5}), ("move", {"move": "place", "args": 4}),
    ("move", {"move": "place", "args": [{"cell": 4}]}), ("move", {"move": "place", "args": [4.0]}),
    ("move", {"move": "place", "args": [True]}), ("move", {"move": "place", "args": [10**12]}),
    ("move", {"move": "place", "args": list(range(9))}),
    ("move", {"move": "place", "args": [4], "seat": "0"}),
    ("move", {"move": "place", "args": [4], "user_id": "host"}),
    ("undo", {"seat": [0]}), ("start", {"now": True}), ("leave", [1, 2]),
    ("move", 42), ("move", None), ("move", "place 4"), ("move", [["place", 4]]),
]


@pytest.fixture
def table(players, room_of):
    """A Tic-Tac-Toe game in progress: (host, guest)."""
    host, guest = players(2)
    start_game(room_of(host), host, [guest])
    return host, guest


def test_every_malformed_payload_gets_an_error_and_changes_nothing(table):
    host, guest = table
    before = guest.states[1]
    for event, payload in BAD_PAYLOADS:
        for player in (host, guest):
            ack = player.call(event, payload)
            assert ack["ok"] is False, (event, payload, ack)
            assert ack["error"]["code"] in ("bad_request", "forbidden", "invalid_move",
                                            "bad_state", "not_found"), (event, payload, ack)
            assert "Traceback" not in ack["error"]["message"]
    assert host.call("move", {"move": "place", "args": [4]})["ok"]
    guest.wait_for(lambda: guest.states[1]["version"] == before["version"] + 1)


def test_unknown_events_and_extra_arguments_are_refused(table):
    host, _ = table
    assert host.call("explode", {})["error"]["code"] == "unknown_event"
    assert host.call("__proto__")["error"]["code"] == "unknown_event"
    ack = host.sio.call("move", ({"move": "place", "args": [4]}, "extra"), timeout=TIMEOUT)
    assert ack["error"]["code"] == "bad_request"


def test_moves_out_of_turn_or_for_another_seat_are_refused(table):
    host, guest = table
    assert guest.call("move", {"move": "place", "args": [4]})["error"]["code"] == "invalid_move"
    assert guest.call("move", {"move": "place", "args": [4], "seat": 0})["error"]["code"] == (
        "forbidden")
    assert host.call("move", {"move": "fly", "args": []})["error"]["code"] == "invalid_move"
    assert host.call("move", {"move": "place", "args": [9]})["error"]["code"] == "invalid_move"
    assert host.states[0]["version"] == 0 and guest.states[1]["version"] == 0


def test_knowing_the_hosts_uuid_gives_none_of_the_hosts_powers(table, url):
    host, guest = table
    impostor = Player(url, {"user_id": host.user_id, "token": guest.token}).connect()
    try:
        ack = impostor.ok("join", {"room": host.user_id})
        assert ack["seats"] == [1]  # the token decides: this is the guest
        assert impostor.call("move", {"move": "place", "args": [4], "seat": 0})["error"][
            "code"] == "forbidden"
        assert impostor.call("rematch")["error"]["code"] == "forbidden"
    finally:
        impostor.drop()
    client = socketio.Client(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(url, auth={"token": host.user_id}, transports=["websocket"],
                       wait_timeout=TIMEOUT)
    response = requests.post(f"{url}/api/rooms", json={"game": "tic-tac-toe", "name": "X"},
                             headers={"Authorization": f"Bearer {host.user_id}"},
                             timeout=TIMEOUT)
    assert response.status_code == 401


def test_a_payload_over_the_size_cap_is_refused(table):
    host, _ = table
    ack = host.call("chat", {"text": "x" * 5000})
    assert ack["error"]["code"] == "payload_too_large"
    assert host.ok("chat", {"text": "still here"})


def test_a_message_over_the_transport_cap_closes_only_that_connection(table):
    host, guest = table
    with contextlib.suppress(socketio.exceptions.SocketIOError):
        guest.sio.emit("chat", {"text": "x" * 100_000})
    deadline = time.monotonic() + 5
    while guest.sio.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not guest.sio.connected
    assert host.ok("chat", {"text": "the server is fine"})


def test_joining_a_second_room_needs_leaving_the_first(players, room_of, url):
    host, other_host = players(2)
    room_of(host)
    other = create_room(url, other_host.token, "tic-tac-toe")
    assert host.call("join", {"room": other["code"]})["error"]["code"] == "already_in_room"
    assert host.call("join", {"room": "NOPE22"})["error"]["code"] == "not_found"


def test_room_events_before_joining_are_refused(players):
    (lonely,) = players(1)
    for event in ("leave", "chat", "ready", "start", "move", "undo"):
        payload = {"chat": {"text": "hi"}, "ready": {"ready": True},
                   "move": {"move": "place", "args": [1]}}.get(event, {})
        assert lonely.call(event, payload)["error"]["code"] == "not_in_room", event


def test_a_flood_is_rate_limited_and_the_connection_recovers():
    server = Server(SOCKET_RATE_PER_SECOND=5, SOCKET_RATE_BURST=10, REST_RATE_PER_MINUTE=6)
    try:
        player = Player(server.url).connect()
        codes = [player.call("chat", {"text": "spam"})["error"]["code"] for _ in range(30)]
        assert codes.count("rate_limited") >= 15
        time.sleep(0.5)  # the bucket refills at 5 a second
        assert player.call("chat", {"text": "calm again"})["error"]["code"] == "not_in_room"
        rest = [requests.post(f"{server.url}/api/session", timeout=TIMEOUT).status_code
                for _ in range(10)]
        assert 429 in rest and rest[0] == 201
        token = player.token
        body = requests.post(f"{server.url}/api/rooms", json={"game": "tic-tac-toe", "name": "A"},
                             headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
        assert body.json()["error"]["code"] == "rate_limited"
        player.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output


def test_the_rooms_api_never_shows_a_card(url, players):
    (host,) = players(1)
    room = create_room(url, host.token, "nine-locks")
    host.ok("join", {"room": room["code"]})
    host.ok("add_bot", {"level": "easy"})
    host.ok("start")
    body = requests.get(f"{url}/api/rooms/{room['code']}", timeout=TIMEOUT).text
    assert '"status":"playing"' in body.replace(" ", "")
    assert not CARD.search(body)


def test_raw_malformed_packets_leave_the_connection_working(table):
    host, guest = table
    for raw in ('2["chat",{"text":"x"', '2["chat",{"text":' + "9" * 5000 + "}]", "2", "2[]",
                "2[5]", "2[null]", '2{"a":1}', "9zz", '21["move"', "2" + "[" * 3000):
        guest.sio.eio.send(raw)
    assert guest.ok("chat", {"text": "still talking"})
    assert host.wait_for(lambda: host.last("chat"))["text"] == "still talking"


@pytest.mark.parametrize("name", ["connect", "disconnect", "connect_error", "*"])
def test_reserved_event_names_are_unknown_events_with_no_side_effect(table, name):
    host, guest = table
    args = ({}, {"token": host.token})  # what the server's own connect handler would take
    ack = guest.sio.call(name, args, timeout=TIMEOUT)
    assert ack["ok"] is False and ack["error"]["code"] == "unknown_event", ack
    assert name in ack["error"]["message"]
    # the connection is still the guest's, still in the room, and shown connected
    assert guest.ok("chat", {"text": "still me"})
    said = host.wait_for(lambda: [m for m in host.received("chat") if m["text"] == "still me"])
    assert said[0]["user_id"] == guest.user_id
    assert guest.call("start")["error"]["code"] == "forbidden"  # not the host's powers
    summary = requests.get(f"{guest.url}/api/rooms/{host.user_id}", timeout=TIMEOUT).json()
    assert all(seat["connected"] for seat in summary["seats"])
