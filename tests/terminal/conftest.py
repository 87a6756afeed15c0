"""The terminal tests' lounge server settings (quick bots, short grace periods) and clients."""

from __future__ import annotations

import pytest

from .harness import Term

FAST = {
    "HOST_GRACE_SECONDS": 2.0, "PLAYER_GRACE_SECONDS": 10.0, "BOT_DELAY_SECONDS": 0.05,
    "BOT_SLAP_DELAY_SECONDS": 0.2, "SOCKET_RATE_PER_SECOND": 1000, "SOCKET_RATE_BURST": 1000,
    "SESSION_RATE_PER_MINUTE": 1000000, "CONNECT_RATE_PER_MINUTE": 1000000,
    "REPLAY_RATE_PER_MINUTE": 1000000, "REST_RATE_PER_MINUTE": 100000,
    "TURN_TIMES": "1,30,60,120", "AWAY_PAUSE_SECONDS": 0.3,  # a player goes away in seconds
}


@pytest.fixture(scope="package")
def server_settings() -> dict:
    return FAST


@pytest.fixture
def terms():
    """A factory of terminal clients; any still running are ended after the test."""
    made: list[Term] = []

    def make(*args: str, color: bool = False, sigint_ignored: bool = False) -> Term:
        term = Term(*args, color=color, sigint_ignored=sigint_ignored)
        made.append(term)
        return term

    yield make
    for term in made:
        term.close()
