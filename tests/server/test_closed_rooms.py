"""Someone who comes to a closed room's code late (a friend following the invite, a player
reloading) is told why it closed, by REST, by ``join`` and by the terminal client, also after
a restart of the server (here on its SQLite database)."""

from __future__ import annotations

import subprocess
import sys

import requests

from .conftest import FAST
from .harness import TIMEOUT, Player, Server, create_room


def told_at(url: str, code: str) -> tuple[str, str]:
    """What a late arrival is told at the code: by REST, then by ``join``."""
    looked_up = requests.get(f"{url}/api/rooms/{code.lower()}", timeout=TIMEOUT)
    assert looked_up.status_code == 404
    late = Player(url).connect()
    try:
        error = late.call("join", {"room": code})["error"]
    finally:
        late.drop()
    assert looked_up.json()["error"]["code"] == error["code"] == "not_found"
    return looked_up.json()["error"]["message"], error["message"]


def test_a_late_arrival_is_told_the_host_left_also_after_a_restart():
    server = Server(**FAST)
    try:
        host, guest = Player(server.url).connect(), Player(server.url).connect()
        room = create_room(server.url, host.token, "tic-tac-toe")
        host.ok("join", {"room": room["code"]})
        guest.ok("join", {"room": room["code"], "name": "Linus"})
        host.ok("leave")
        guest.wait_for(lambda: guest.received("closed") == [{"reason": "host_left"}])
        why = f"Room {room['code']} has closed: the host closed it."
        assert told_at(server.url, room["code"]) == (why, why)
        host.drop()
        guest.drop()
        server.kill()
        server.restart()
        assert told_at(server.url, room["code"]) == (why, why)
        terminal = subprocess.run(
            [sys.executable, "-m", "backend.terminal", "--server", server.url, "--join",
             room["code"], "--name", "Eve"], capture_output=True, text=True, timeout=30)
        assert (terminal.returncode, terminal.stderr) == (1, why + "\n")
    finally:
        output = server.stop()
    assert "Traceback" not in output, output[-4000:]


def test_a_room_whose_host_never_came_says_so():
    server = Server(**FAST, UNCLAIMED_ROOM_SECONDS=0.5)
    try:
        host, guest = Player(server.url).connect(), Player(server.url).connect()
        room = create_room(server.url, host.token, "tic-tac-toe")
        guest.ok("join", {"room": room["code"], "name": "Linus"})
        guest.wait_for(lambda: guest.received("closed") == [{"reason": "host_never_came"}])
        why = f"Room {room['code']} has closed: the host never came."
        assert told_at(server.url, room["code"]) == (why, why)
        host.drop()
        guest.drop()
    finally:
        output = server.stop()
    assert "Traceback" not in output, output[-4000:]
