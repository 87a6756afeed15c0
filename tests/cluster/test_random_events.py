"""Random mixes of honest and hostile events (:mod:`tests.server.random_events`) across two
processes: the host on the room's owner, the guest, the spectator and the stranger on the other
process, so that every event of theirs, wrong ones included, is forwarded to the owner and its
answer comes back. Every answer is ``ok`` or one of the protocol's error codes, never
``internal``; no process logs a traceback (the ``cluster_of`` fixture checks); no card leaks.
The same goes on when the owner is killed (or stopped with SIGTERM) halfway and the other
process takes the room over."""

from __future__ import annotations

import random
import signal

import pytest

from shared_rules import GAMES
from tests.server.random_events import Table, Tally, check, play_randomly, send_events

from .nodes import call

ACTIONS = 300  # events a game, from the four players together


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_events_from_another_process_get_the_owners_answers_and_leak_nothing(
        cluster_of, game):
    cluster = cluster_of(2)
    table = Table(cluster.url(0), game, random.Random(f"cluster-{game}-1"), cluster.url(1))
    owner = cluster.owner(table.room["id"])
    assert owner[0] == cluster.node_id(0)
    play_randomly(table, ACTIONS)
    assert cluster.owner(table.room["id"]) == owner  # every event of theirs was forwarded
    for index in (0, 1):
        assert cluster.health(index)["cluster"]["lost_messages"] == 0


# Each game once, killed and stopped in turn: test_failover.py already kills and stops the owner
# in every game; here the point is the hostile events on both sides of a takeover.
TAKEOVERS = [(game, (signal.SIGKILL, signal.SIGTERM)[i % 2])
             for i, game in enumerate(sorted(GAMES))]


@pytest.mark.parametrize(("game", "stop"), TAKEOVERS,
                         ids=[f"{game}-{'kill' if stop == signal.SIGKILL else 'term'}"
                              for game, stop in TAKEOVERS])
def test_random_events_go_on_after_the_owner_is_killed_or_stopped(cluster_of, game, stop):
    cluster = cluster_of(2)
    table = Table(cluster.url(0), game, random.Random(f"takeover-{game}-1"), cluster.url(1))
    tally = Tally()
    try:
        send_events(table, ACTIONS // 2, tally)
        cluster.signal(0, stop)
        # The host's tab reconnects to the survivor and joins again: answered "try again"
        # until the survivor owns the room, then as before.
        table.host.url = cluster.url(1)
        table.host.reconnect()
        assert call(table.host, "join", {"room": table.room["code"]})["ok"]
        assert cluster.owner(table.room["id"])[0] == cluster.node_id(1)
        send_events(table, ACTIONS // 2, tally)
        check(table, tally, cluster.url(1))
        if stop == signal.SIGTERM:
            assert cluster.nodes[0].process.wait(10) == 0  # it handed the room over and exited
    finally:
        table.leave()
