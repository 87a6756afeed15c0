"""gevent and threading must start and serve a game too (eventlet is the session server)."""

from __future__ import annotations

import pytest

from .harness import Player, Server, create_room


@pytest.mark.parametrize("mode", ["gevent", "threading"])
def test_the_other_async_modes_serve_a_move(mode):
    server = Server(mode=mode, BOT_DELAY_SECONDS=0.01, BOT_HARD_SECONDS=0.05)
    try:
        host = Player(server.url).connect()
        room = create_room(server.url, host.token, "tic-tac-toe")
        host.ok("join", {"room": room["code"]})
        host.ok("add_bot", {"level": "hard"})  # its search runs on a native thread
        host.ok("start")
        host.wait_for(lambda: host.states.get(0))
        host.ok("move", {"move": "place", "args": [4]})
        host.wait_for(lambda: host.version() >= 2)
        assert host.states[0]["view"]["cells"].count("O") == 1
        assert host.call("nope")["error"]["code"] == "unknown_event"
        host.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output, output
