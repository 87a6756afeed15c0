"""The forwarding protocol itself, spoken by hand to a real owner over Redis: a retried request
is applied once, a late one not at all; and what a process hears of rooms, heard beside it."""

from __future__ import annotations

import time
import uuid

import orjson
import redis

from backend.cluster.bus import HEARTBEAT
from tests.server.harness import start_game

from .nodes import REDIS, connect, hosted, match_log


def ask(client: redis.Redis, cluster: str, owner: str, request: str, caller: list,
        op: str, data: dict, until: float) -> None:
    message = {"k": "call", "id": request, "from": "tester", "op": op, "c": caller, "d": data,
               "until": until}
    assert client.publish(f"{cluster}:node:{owner}", orjson.dumps(message)) == 1


def heard(pubsub, seconds: float) -> list[dict]:
    """What arrived on the subscribed channels within ``seconds``, but the heartbeats."""
    got, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.1)
        if message and message["type"] == "message" and message["data"] != HEARTBEAT:
            got.append({"channel": message["channel"].decode(), "data": message["data"]})
    return got


def replies(pubsub, seconds: float) -> list[dict]:
    """The messages that arrived on the tester's channel within ``seconds``."""
    return [orjson.loads(m["data"]) for m in heard(pubsub, seconds)]


def test_a_retried_request_is_applied_once_and_a_late_one_never(cluster_of):
    cluster = cluster_of(1)
    owner = cluster.node_id(0)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")
    guest = connect(cluster.url(0))
    start_game(room, host, [guest])
    client = redis.Redis.from_url(REDIS)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(f"{cluster.name}:node:tester")
    caller = [f"tester.{uuid.uuid4().hex}", host.user_id, room["id"]]
    request = uuid.uuid4().hex
    move = {"move": "place", "args": [4], "seat": 0}
    for _ in range(3):  # the first send and two retries of the same request
        ask(client, cluster.name, owner, request, caller, "move", move, time.time() + 5)
    answers = [m for m in replies(pubsub, 1.0) if m["k"] == "reply"]
    assert [m["a"] for m in answers] == [{"ack": {"version": 1}}] * 3
    assert len(match_log(cluster.url(0), room["id"])["log"]) == 1

    late = {"move": "place", "args": [0], "seat": 1}
    caller = [f"tester.{uuid.uuid4().hex}", guest.user_id, room["id"]]
    ask(client, cluster.name, owner, uuid.uuid4().hex, caller, "move", late, time.time() - 0.1)
    assert replies(pubsub, 0.5) == []
    assert len(match_log(cluster.url(0), room["id"])["log"]) == 1
    assert guest.ok("move", {"move": "place", "args": [0]})["version"] == 2
    pubsub.close()


def test_a_process_hears_only_of_the_rooms_it_has_connections_in(cluster_of):
    cluster = cluster_of(3)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")
    guest = connect(cluster.url(1))
    start_game(room, host, [guest])
    client = redis.Redis.from_url(REDIS)
    third = client.pubsub(ignore_subscribe_messages=True)  # beside process 2, on its channel
    third.subscribe(f"{cluster.name}:node:{cluster.node_id(2)}", f"{cluster.name}:socketio")
    second = client.pubsub(ignore_subscribe_messages=True)
    second.subscribe(f"{cluster.name}:node:{cluster.node_id(1)}")
    heard(third, 0.3)

    host.ok("move", {"move": "place", "args": [4]})  # a move, and chat from either process
    host.ok("chat", {"text": "from the owner's process"})
    guest.ok("chat", {"text": "from the other one"})
    assert heard(third, 1.0) == []  # nobody there: neither a message nor a queue broadcast
    to_guest = heard(second, 0.5)
    assert to_guest and all(m["channel"].endswith(cluster.node_id(1)) for m in to_guest)

    watcher = connect(cluster.url(2))
    watcher.ok("join", {"room": room["code"], "spectate": True})
    heard(third, 0.5)
    host.ok("chat", {"text": "now someone is watching there"})
    said = heard(third, 1.0)
    assert len(said) == 1 and b"now someone is watching there" in said[0]["data"], said
    watcher.wait_for(lambda: any(c["text"] == "now someone is watching there"
                                 for c in watcher.received("chat")))
    third.close()
    second.close()
