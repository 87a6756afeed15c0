"""Random mixes of honest and hostile events (:mod:`tests.server.random_events`), in every
game, on one process: every answer is ``ok`` or one of the protocol's error codes, never
``internal``; the server logs no traceback; and every state each seat received is the truth
for that seat, with no card anywhere it may not see."""

from __future__ import annotations

import random

import pytest

from shared_rules import GAMES
from tests.live_server import Server
from tests.server.random_events import Table, play_randomly

ACTIONS = 300  # events a game, from the four players together


@pytest.fixture(scope="module")
def server():
    srv = Server(LOUNGE_DEBUG_MATCHES=1, BOT_DELAY_SECONDS=0, ACCESS_LOG=0,
                 SOCKET_RATE_PER_SECOND=100000, SOCKET_RATE_BURST=100000,
                 REST_RATE_PER_MINUTE=1000000, SESSION_RATE_PER_MINUTE=1000,
                 CONNECT_RATE_PER_MINUTE=100000)
    yield srv
    output = srv.stop()
    assert "Traceback" not in output, output[-3000:]
    assert "failed" not in output, output[-3000:]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_honest_and_hostile_events_get_documented_answers_and_leak_nothing(server, game):
    play_randomly(Table(server.url, game, random.Random(f"{game}-1")), ACTIONS)
