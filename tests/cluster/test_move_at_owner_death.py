"""A player on a surviving process who moves the moment the room's owner dies (kill -9) is not
refused: with the shipped timings the event waits for the takeover (within LEASE_SECONDS and a
heartbeat) instead of being answered "try again" an instant before it. The owner is killed just
after a heartbeat, the worst case: its lease then lasts a whole LEASE_SECONDS."""

from __future__ import annotations

import random

from backend.config import Config
from tests.server.harness import choose, start_game

from .nodes import connect, hosted, wait_until


def test_a_move_sent_as_the_owner_dies_waits_for_the_takeover(cluster_of):
    cluster = cluster_of(2, LEASE_SECONDS=Config.LEASE_SECONDS,
                         FORWARD_SECONDS=Config.FORWARD_SECONDS)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")  # process 0 owns the room
    guest = connect(cluster.url(1))
    start_game(room, host, [guest])
    rng = random.Random(1)
    host.ok("move", {**choose(host.states[0], rng), "seat": 0})
    guest.wait_for(lambda: guest.version() >= 1, 10)
    move = {**choose(guest.states[1], rng), "seat": 1}

    node = cluster.node_id(0)

    def beat() -> object:
        return cluster.schema.query("SELECT expires FROM lounge_nodes WHERE id = :n",
                                    n=node)[0].expires

    last = beat()
    wait_until(lambda: beat() != last, 3, 0.005, what="a heartbeat")
    cluster.kill(0)
    ack = guest.sio.call("move", move, timeout=15)
    assert ack["ok"], ack
    assert ack["version"] == 2
