"""An honest Tic-Tac-Toe table that keeps playing while an attack runs, and latency figures."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import requests

from tests.live_server import Server
from tests.server.harness import Player, create_room

HONEST_TIMEOUT = 5.0


def own(player: Player) -> dict | None:
    """The latest state of a player who plays one seat (the harness keeps the last round's)."""
    return next(iter(player.states.values()), None)


class HonestTable:
    """Two players in a Tic-Tac-Toe room: each :meth:`move` plays the next free cell for the
    player whose turn it is (a rematch when a game ends) and returns its acknowledgement time."""

    def __init__(self, url: str) -> None:
        self.host, self.guest = Player(url).connect(), Player(url).connect()
        room = create_room(url, self.host.token, "tic-tac-toe")
        self.host.ok("join", {"room": room["code"]})
        self.guest.ok("join", {"room": room["code"], "name": "Guest"})
        self.guest.ok("ready", {"ready": True})
        self.host.ok("start")
        self.host.wait_for(lambda: own(self.host))
        self.latencies: list[float] = []

    def move(self) -> float:
        """One move (or a rematch at the end of a game); its round trip in seconds. A rematch
        moves the seats round, so who plays which seat is read from the states."""
        state = self.host.wait_for(lambda: own(self.host))
        start = time.perf_counter()
        if state["result"] is not None:
            self.host.ok("rematch")
            self.host.wait_for(lambda: own(self.host)["round"] > state["round"])
            return self.move()
        seat = state["view"]["current"]
        mover = self.host if seat == state["seat"] else self.guest
        move = mover.wait_for(lambda: (mine := mover.states.get(seat)) is not None
                              and mine["version"] == state["version"] and mine["legal_moves"])[0]
        mover.ok("move", move)
        elapsed = time.perf_counter() - start
        self.host.wait_for(lambda: (own(self.host)["round"], own(self.host)["version"])
                           > (state["round"], state["version"]))
        self.latencies.append(elapsed)
        return elapsed

    def close(self) -> None:
        self.host.drop()
        self.guest.drop()


def honest_request(url: str) -> float:
    """One GET /api/health on a new connection; its time in seconds."""
    start = time.perf_counter()
    response = requests.get(f"{url}/api/health", timeout=HONEST_TIMEOUT,
                            headers={"Connection": "close"})
    assert response.status_code == 200
    return time.perf_counter() - start


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def lenient_server() -> Iterator[Server]:
    """A server whose rate limits let a test send what it likes; once stopped, its output must
    hold no traceback (yield from it in a module's fixture)."""
    srv = Server(SOCKET_RATE_PER_SECOND=1000, SOCKET_RATE_BURST=1000, ACCESS_LOG=0,
                 SESSION_RATE_PER_MINUTE=100000, CONNECT_RATE_PER_MINUTE=100000)
    yield srv
    output = srv.stop()
    assert "Traceback" not in output and "handler error" not in output, output[-3000:]
