"""An honest Tic-Tac-Toe table that keeps playing while an attack runs, and latency figures."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator

import requests

from tests.live_server import Server
from tests.server.harness import Player, create_room

HONEST_TIMEOUT = 5.0


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
        self.host.wait_for(lambda: self.host.states.get(0))
        self.latencies: list[float] = []

    def move(self) -> float:
        """One move (or a rematch at the end of a game); its round trip in seconds."""
        state = self.host.wait_for(lambda: self.host.states.get(0))
        start = time.perf_counter()
        if state["result"] is not None:
            self.host.ok("rematch")
            self.host.wait_for(lambda: self.host.states[0]["round"] > state["round"])
            return self.move()
        mover = self.host if state["view"]["current"] == 0 else self.guest
        seat = 0 if mover is self.host else 1
        move = mover.wait_for(lambda: mover.states[seat]["version"] == state["version"]
                              and mover.states[seat]["legal_moves"])[0]
        mover.ok("move", move)
        elapsed = time.perf_counter() - start
        self.host.wait_for(lambda: self.host.states[0]["version"] > state["version"]
                           or self.host.states[0]["round"] > state["round"])
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
