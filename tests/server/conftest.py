"""The server tests' lounge server settings (short grace periods, quick bots) and player helpers."""

from __future__ import annotations

import pytest

from .harness import Player, Server, create_room

FAST = {
    "HOST_GRACE_SECONDS": 1.0, "PLAYER_GRACE_SECONDS": 1.0, "BOT_DELAY_SECONDS": 0.01,
    "BOT_SLAP_DELAY_SECONDS": 0.02,
    "BOT_HARD_SECONDS": 0.05, "LOUNGE_DEBUG_MATCHES": 1,
    "SOCKET_RATE_PER_SECOND": 100000, "SOCKET_RATE_BURST": 100000,
    "SESSION_RATE_PER_MINUTE": 1000000, "CONNECT_RATE_PER_MINUTE": 1000000,
    "REPLAY_RATE_PER_MINUTE": 1000000, "REST_RATE_PER_MINUTE": 1000000, "CORS_ORIGINS": "http://localhost:5173",
    "MAX_CONNECTIONS_PER_ADDRESS": 100000,
}


@pytest.fixture(scope="package")
def server_settings() -> dict:
    return FAST


@pytest.fixture(scope="package")
def url(server: Server) -> str:
    return server.url


@pytest.fixture
def players(url: str):
    """A factory of connected players; all are disconnected at the end of the test."""
    made: list[Player] = []

    def make(count: int = 1) -> list[Player]:
        new = [Player(url).connect() for _ in range(count)]
        made.extend(new)
        return new

    yield make
    for player in made:
        player.drop()


@pytest.fixture
def room_of(url: str):
    """Open a room hosted by a player: (room, host)."""

    def make(host: Player, game: str = "tic-tac-toe", public: bool = False) -> dict:
        room = create_room(url, host.token, game, public=public)
        host.ok("join", {"room": room["code"]})
        return room

    return make
