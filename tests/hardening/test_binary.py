"""Binary Socket.IO packets, which the lounge never uses, close the connection before anything
is kept."""

from __future__ import annotations

import base64
import json
import time

import psutil
import pytest
import requests
import websocket

from tests.live_server import Server
from tests.server.harness import Player, create_room, new_session

from .helpers import HonestTable, lenient_server, median_ms

FRAME = b"\x00" * 32 * 1024  # the largest message the server reads (MAX_MESSAGE_BYTES)


@pytest.fixture(scope="module")
def server():
    yield from lenient_server()


def signed_in(server: Server) -> websocket.WebSocket:
    """A raw WebSocket that has done the Engine.IO and Socket.IO handshakes."""
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket", timeout=5)
    assert ws.recv().startswith("0{")
    ws.send("40" + json.dumps({"token": new_session(server.url)["token"]}))
    assert ws.recv().startswith("40{")
    return ws


def polling_session(server: Server, signed: bool = True) -> str:
    """A long-polling Engine.IO session (Socket.IO-connected with a token if ``signed``)."""
    url = f"{server.url}/socket.io/?EIO=4&transport=polling"
    opened = requests.get(url, timeout=5)
    sid = json.loads(opened.text[1:])["sid"]
    if signed:
        token = new_session(server.url)["token"]
        assert requests.post(f"{url}&sid={sid}", data="40" + json.dumps({"token": token}),
                             timeout=5).text == "OK"
        assert requests.get(f"{url}&sid={sid}", timeout=5).text.startswith("40{")
    return f"{url}&sid={sid}"


def closed_within(ws: websocket.WebSocket, seconds: float) -> bool:
    """Whether the server closes ``ws`` within ``seconds`` (replying to its pings meanwhile)."""
    ws.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            message = ws.recv()
            if message in ("", "1"):  # a close frame, or Engine.IO's close packet
                return True
    except websocket.WebSocketTimeoutException:
        return False
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        return True
    return False


def assert_closed_for_good(ws: websocket.WebSocket) -> None:
    """Nothing more goes through ``ws``: the server closed it for good."""
    with pytest.raises((websocket.WebSocketConnectionClosedException, OSError)):
        for _ in range(3):
            ws.send('42["chat",{"text":"still here?"}]')
            ws.recv()


@pytest.mark.parametrize("attack", ["binary frame", "binary event", "binary ack"])
def test_a_binary_packet_closes_the_connection(server, attack):
    ws = signed_in(server)
    try:
        if attack == "binary frame":
            ws.send_binary(b"4" + FRAME)
        elif attack == "binary event":
            ws.send('451-["chat",{"_placeholder":true,"num":0}]')
        else:
            ws.send('461-0[{"_placeholder":true,"num":0}]')
        assert closed_within(ws, 3)
        assert_closed_for_good(ws)
    finally:
        ws.close()


def test_attachments_are_never_buffered(server):
    """The attack the review found: a binary event's header, then 3,000 attachments of 32 KiB
    (90 MiB kept by one connection before). Now the connection ends at the header, and the
    server's memory does not grow."""
    process = psutil.Process(server.process.pid)
    table = HonestTable(server.url)
    rss_before = process.memory_info().rss
    attempts, closed, sent = 20, 0, 0
    try:
        for _ in range(attempts):  # 20 connections, each trying 3,000 attachments
            ws = signed_in(server)
            try:
                ws.send('453000-["chat",{"_placeholder":true,"num":0}]')
                deadline = time.monotonic() + 5
                for _ in range(3000):
                    if time.monotonic() > deadline:
                        break
                    ws.send_binary(FRAME)
                    sent += 1
            except (websocket.WebSocketConnectionClosedException, OSError):
                closed += 1
            finally:
                ws.close()
            table.move()
    finally:
        table.close()
    time.sleep(0.5)
    grown = (process.memory_info().rss - rss_before) / 2**20
    print(f"\n{attempts} connections each sent a binary event announcing 3,000 attachments: "
          f"{closed} hung up on, {sent / attempts:.0f} frames each on average before the reset; "
          f"server memory grew by {grown:.1f} MiB; move median "
          f"{median_ms(table.latencies):.1f} ms meanwhile")
    assert closed == attempts
    assert sent / attempts < 1000  # what the kernel buffers took before the reset
    assert grown < 16
    assert median_ms(table.latencies) < 50


def test_a_binary_message_over_long_polling_closes_the_session(server):
    poll = polling_session(server)
    binary = "b" + base64.b64encode(b"4" + b"\x00" * 100).decode()
    with pytest.raises(requests.ConnectionError):  # the server hangs up at once
        requests.post(poll, data=binary, timeout=5)
    answer = requests.get(poll, timeout=5)  # and the session is gone
    assert answer.status_code == 400, answer.text


def test_an_honest_player_is_unaffected(server):
    ws = signed_in(server)
    ws.send_binary(FRAME)
    host, guest = Player(server.url).connect(), Player(server.url).connect()
    try:
        room = create_room(server.url, host.token, "tic-tac-toe")
        host.ok("join", {"room": room["code"]})
        guest.ok("join", {"room": room["code"], "name": "Guest"})
        host.ok("chat", {"text": "hello"})
        guest.wait_for(lambda: guest.received("chat"))
    finally:
        host.drop()
        guest.drop()
        ws.close()
