"""Limits per identity and per client address, against real servers with small limits: more
connections or more identities buy no more events, connections, rooms or replays."""

from __future__ import annotations

import time

import pytest
import requests
import socketio

from .conftest import FAST
from .harness import TIMEOUT, Player, Server, create_room

LIMITED = {**FAST, "SOCKET_RATE_PER_SECOND": 4, "SOCKET_RATE_BURST": 8,
           "MAX_CONNECTIONS_PER_USER": 3, "MAX_ROOMS_PER_USER": 2}


@pytest.fixture(scope="module")
def limited():
    server = Server(**LIMITED)
    yield server
    output = server.stop()
    assert "Traceback" not in output, output


def connect_error(url: str, token: str) -> dict | None:
    """The error data of a refused connection (None: it connected, and is closed again)."""
    client = socketio.Client(reconnection=False)
    errors: list = []
    client.on("connect_error", errors.append)
    try:
        client.connect(url, auth={"token": token}, transports=["websocket"],
                       wait_timeout=TIMEOUT)
    except socketio.exceptions.ConnectionError:
        return errors[0]["data"] if errors else {"code": "?"}
    client.disconnect()
    return None


def test_an_identity_may_open_only_so_many_connections(limited):
    first = Player(limited.url).connect()
    session = first.session
    others = [Player(limited.url, session).connect() for _ in range(2)]
    try:
        refused = connect_error(limited.url, first.token)
        assert refused is not None and refused["code"] == "forbidden", refused
        assert "close a tab" in refused["message"]
        others.pop().drop()
        time.sleep(0.2)
        assert connect_error(limited.url, first.token) is None  # one is free again
    finally:
        for player in (first, *others):
            player.drop()


def test_the_event_rate_is_per_identity_over_all_its_connections(limited):
    tabs = [Player(limited.url).connect()]
    tabs += [Player(limited.url, tabs[0].session).connect() for _ in range(2)]
    try:
        answered = [tab.call("chat", {"text": "hi"})["error"]["code"]
                    for _ in range(10) for tab in tabs]
        passed = len(answered) - answered.count("rate_limited")
        assert passed <= 8 + 4, answered  # one burst and what refills meanwhile, not three
        assert "rate_limited" in answered
    finally:
        for tab in tabs:
            tab.drop()


def test_an_identity_is_in_only_so_many_rooms_at_once(limited):
    hosts = [Player(limited.url).connect() for _ in range(3)]
    roamer = Player(limited.url).connect()
    second = Player(limited.url, roamer.session).connect()
    third = Player(limited.url, roamer.session).connect()
    try:
        rooms = [create_room(limited.url, h.token, "tic-tac-toe") for h in hosts]
        for host, room in zip(hosts, rooms, strict=True):
            host.ok("join", {"room": room["code"]})
        roamer.ok("join", {"room": rooms[0]["code"], "spectate": True})
        second.ok("join", {"room": rooms[1]["code"], "spectate": True})
        ack = third.call("join", {"room": rooms[2]["code"], "spectate": True})
        assert ack["error"]["code"] == "forbidden" and "leave one" in ack["error"]["message"]
        third.ok("join", {"room": rooms[0]["code"], "spectate": True})  # one already in: fine
        second.ok("leave")
        roamer_rooms = requests.get(f"{limited.url}/api/rooms/{rooms[2]['code']}",
                                    timeout=TIMEOUT).json()
        assert roamer_rooms["spectators"] == 0  # the refused join changed nothing
        third.ok("leave")
        third.ok("join", {"room": rooms[2]["code"], "spectate": True})
    finally:
        for player in (*hosts, roamer, second, third):
            player.drop()


def test_a_finished_games_replay_is_computed_once(limited):
    host, guest = Player(limited.url).connect(), Player(limited.url).connect()
    try:
        room = create_room(limited.url, host.token, "tic-tac-toe")
        host.ok("join", {"room": room["code"]})
        guest.ok("join", {"room": room["code"]})
        guest.ok("ready", {"ready": True})
        host.ok("start")
        for seat, player, cell in ((0, host, 0), (1, guest, 3), (0, host, 1), (1, guest, 4),
                                   (0, host, 2)):
            player.wait_for(lambda p=player, s=seat: p.states.get(s, {}).get(
                "legal_moves"))
            player.ok("move", {"move": "place", "args": [cell]})
        listed = requests.get(f"{limited.url}/api/matches?room={host.user_id}",
                              timeout=TIMEOUT).json()["matches"]
        health = f"{limited.url}/api/health"
        before = requests.get(health, timeout=TIMEOUT).json()["replays_computed"]
        bodies = [requests.get(f"{limited.url}/api/matches/{listed[0]['id']}",
                               timeout=TIMEOUT) for _ in range(5)]
        assert all(b.status_code == 200 for b in bodies)
        assert len({b.content for b in bodies}) == 1 and len(bodies[0].json()["steps"]) == 6
        assert requests.get(health, timeout=TIMEOUT).json()["replays_computed"] == before + 1
    finally:
        host.drop()
        guest.drop()


def test_new_identities_connections_and_replays_are_limited_per_address():
    server = Server(**{**FAST, "SESSION_RATE_PER_MINUTE": 4, "CONNECT_RATE_PER_MINUTE": 6,
                       "REPLAY_RATE_PER_MINUTE": 5})
    try:
        codes = [requests.post(f"{server.url}/api/session", timeout=TIMEOUT).status_code
                 for _ in range(8)]
        assert codes[:4] == [201] * 4 and codes[4:] == [429] * 4, codes
        body = requests.post(f"{server.url}/api/session", timeout=TIMEOUT).json()
        assert body["error"]["code"] == "rate_limited" and "minute" in body["error"]["message"]
        replays = [requests.get(f"{server.url}/api/matches/0123456789abcdef",
                                timeout=TIMEOUT).status_code for _ in range(8)]
        assert replays[:5] == [404] * 5 and replays[5:] == [429] * 3, replays
        refusals = [connect_error(server.url, "not-a-token") for _ in range(9)]
        codes = [r["code"] for r in refusals if r]
        assert codes[:6] == ["unauthorized"] * 6 and set(codes[6:]) == {"rate_limited"}, codes
    finally:
        output = server.stop()
    assert "Traceback" not in output


def test_an_address_may_hold_only_so_many_connections_open():
    server = Server(**{**FAST, "MAX_CONNECTIONS_PER_ADDRESS": 3})
    try:
        first = Player(server.url).connect()
        others = [Player(server.url).connect() for _ in range(2)]  # other identities
        refused = connect_error(server.url, first.token)
        assert refused is not None and refused["code"] == "forbidden", refused
        assert "your address" in refused["message"]
        others.pop().drop()
        time.sleep(0.2)
        assert connect_error(server.url, first.token) is None
        for player in (first, *others):
            player.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output
