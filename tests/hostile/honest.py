"""An honest Tic-Tac-Toe game in a process of its own, timed while an attack runs.

``python -m tests.hostile.honest URL SECONDS MAX_MOVES``: two players (two identities, two
connections) open a room and play drawn games one after the other, a move every
``PACE`` seconds (a quick human), with a rematch after each. It prints ``ready`` once both
are seated (the attack may start then), then stops after SECONDS or MAX_MOVES moves, whichever
comes first, and prints one JSON line: every move's acknowledgement time in milliseconds and
every error. A process of its own, so that the attack's client work never delays its clock.
"""

from __future__ import annotations

import json
import sys
import time

import requests
import socketio

DRAW = (0, 1, 2, 4, 3, 5, 7, 6, 8)  # X, O, X, ...: nine moves and no line
PACE = 0.05
TIMEOUT = 5.0


def player(url: str) -> tuple[socketio.Client, dict]:
    session = requests.post(f"{url}/api/session", timeout=TIMEOUT)
    session.raise_for_status()
    sio = socketio.Client(reconnection=False)
    sio.connect(url, auth={"token": session.json()["token"]}, transports=["websocket"],
                wait_timeout=TIMEOUT)
    return sio, session.json()


def main(url: str, seconds: float, max_moves: int) -> dict:
    host, host_session = player(url)
    guest, _ = player(url)
    room = requests.post(f"{url}/api/rooms", json={"game": "tic-tac-toe", "name": "Honest"},
                         headers={"Authorization": f"Bearer {host_session['token']}"},
                         timeout=TIMEOUT).json()
    assert host.call("join", {"room": room["code"]}, timeout=TIMEOUT)["ok"]
    assert guest.call("join", {"room": room["code"], "name": "Guest"}, timeout=TIMEOUT)["ok"]
    assert guest.call("ready", {"ready": True}, timeout=TIMEOUT)["ok"]
    assert host.call("start", {}, timeout=TIMEOUT)["ok"]
    print("ready", flush=True)
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + seconds
    first, second = host, guest
    while time.monotonic() < deadline and len(latencies) < max_moves:
        for i, cell in enumerate(DRAW):
            sio = first if i % 2 == 0 else second
            time.sleep(PACE)
            started = time.perf_counter()
            try:
                ack = sio.call("move", {"move": "place", "args": [cell]}, timeout=TIMEOUT)
            except socketio.exceptions.TimeoutError:
                ack = {"ok": False, "error": {"code": "timeout"}}
            latencies.append((time.perf_counter() - started) * 1000)
            if not ack["ok"]:
                errors.append(ack["error"]["code"])
                break
        ack = host.call("rematch", {}, timeout=TIMEOUT)
        if not ack["ok"]:
            errors.append(f"rematch {ack['error']['code']}")
            break
        first, second = second, first  # a rematch moves the seats round: the other starts
    host.disconnect()
    guest.disconnect()
    return {"latencies": latencies, "errors": errors}


if __name__ == "__main__":
    result = main(sys.argv[1], float(sys.argv[2]), int(sys.argv[3]))
    print(json.dumps(result), flush=True)
