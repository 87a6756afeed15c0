"""Engine.IO sessions that never sign in (no Socket.IO CONNECT, so no token checked): an address
may hold only as many as it may hold connections, each for REQUEST_TIMEOUT_SECONDS, so that they
cannot fill the server's pool of connections. Signed-in connections are not touched."""

from __future__ import annotations

import json
import time

import pytest
import requests
import websocket

from tests.live_server import Server
from tests.server.harness import new_session

from .test_bad_packets import still_answers
from .test_binary import closed_within, signed_in

PER_ADDRESS = 5
DEADLINE = 2.0


@pytest.fixture(scope="module")
def server():
    srv = Server(MAX_CONNECTIONS_PER_ADDRESS=PER_ADDRESS, REQUEST_TIMEOUT_SECONDS=DEADLINE,
                 ACCESS_LOG=0)
    yield srv
    output = srv.stop()
    assert "Traceback" not in output, output[-3000:]


def unsigned(server: Server) -> websocket.WebSocket:
    """A WebSocket that opens its Engine.IO session and sends nothing more."""
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket", timeout=5)
    assert ws.recv().startswith("0{")
    return ws


def test_sessions_that_never_sign_in_are_capped_per_address_and_closed_in_time(server):
    players = [signed_in(server) for _ in range(2)]  # signed in: not counted among the pending
    idle = [unsigned(server) for _ in range(PER_ADDRESS)]
    refused = requests.get(f"{server.url}/socket.io/?EIO=4&transport=polling", timeout=5)
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "signing in" in refused.json()["error"]["message"]
    with pytest.raises(websocket.WebSocketBadStatusException):
        unsigned(server)
    started = time.monotonic()
    assert all(closed_within(ws, DEADLINE + 3) for ws in idle)
    assert DEADLINE - 0.5 < time.monotonic() - started < DEADLINE + 3
    assert all(still_answers(ws) for ws in players)  # well past the deadline
    # The pending ones gone, new sessions are let in, and may sign in as always.
    late = unsigned(server)
    late.send("40" + json.dumps({"token": new_session(server.url)["token"]}))
    assert late.recv().startswith("40{")
    assert not closed_within(late, DEADLINE + 1) and still_answers(late)
    for ws in [*players, late]:
        ws.close()

