"""Packets no client sends are ignored, and what is no Engine.IO packet at all, or a long-polling
POST that is too long, closes the connection at once: no traceback in the log, no connection
held open, nothing changed."""

from __future__ import annotations

import json
import socket
import time

import psutil
import pytest
import requests
import websocket

from tests.server.harness import Player, create_room, new_session

from .helpers import lenient_server
from .test_binary import assert_closed_for_good, closed_within, polling_session, signed_in

TOO_LONG = 33_000  # over MAX_MESSAGE_BYTES (32 KiB)


@pytest.fixture(scope="module")
def server():
    yield from lenient_server()


def still_answers(ws: websocket.WebSocket) -> bool:
    """Whether the connection still answers an event (here: a chat before any join)."""
    ws.send('421["chat",{"text":"still here"}]')
    ws.settimeout(5)
    while not (answer := ws.recv()).startswith("431"):
        pass
    return json.loads(answer[3:])[0]["error"]["code"] == "not_in_room"


# Socket.IO messages of no type a client sends (empty, CONNECT_ERROR, unknown types) and
# Engine.IO packets of no type a client sends.
@pytest.mark.parametrize("frame", ["4", "44", "44{}", "47", "49", "4x", "0", "6", "7"])
def test_a_packet_no_client_sends_is_ignored(server, frame):
    ws = signed_in(server)
    try:
        ws.send(frame)
        assert still_answers(ws)
    finally:
        ws.close()


@pytest.mark.parametrize("frame", ["", "x", "b!!"])
def test_a_frame_that_is_no_engineio_packet_ends_the_websocket(server, frame):
    ws = signed_in(server)
    try:
        ws.send(frame)
        assert closed_within(ws, 3)
    finally:
        ws.close()


@pytest.mark.parametrize("body", [b"\x1e\x1e", b"\xff\xfe", b"0", b"7", b"x", b"d=",
                                  b"42[]" + b"\x1e42[]" * 20])
def test_a_polling_post_that_is_no_engineio_payload_is_refused_and_ends_the_session(server, body):
    poll = polling_session(server)
    answer = requests.post(poll, data=body, timeout=5)
    assert answer.status_code == 400 and "Traceback" not in answer.text
    assert requests.post(poll, data=b"40{}", timeout=5).status_code == 400  # was an empty 500
    assert requests.get(poll, timeout=5).status_code == 400  # the session is gone


def test_a_post_after_the_clients_own_close_packet_is_a_400(server):
    poll = polling_session(server)
    assert requests.post(poll, data=b"1", timeout=5).text == "OK"
    for _ in range(2):  # Engine.IO raised at the closed session: an empty 500
        assert requests.post(poll, data=b"40{}", timeout=5).status_code == 400


def chunks(text: str):
    """A body sent in chunks (requests then sends no Content-Length)."""
    data = text.encode()
    yield from (data[i:i + 7] for i in range(0, len(data), 7))


def test_a_chunked_polling_post_is_read_whole_or_refused_when_too_long(server):
    poll = polling_session(server, signed=False)
    token = new_session(server.url)["token"]
    signed = requests.post(poll, data=chunks("40" + json.dumps({"token": token})), timeout=5)
    assert signed.text == "OK"  # it was taken for an empty body, and the packet lost
    assert requests.get(poll, timeout=5).text.startswith("40{")
    answer = requests.post(poll, data=chunks("x" * TOO_LONG), timeout=5)
    assert answer.status_code == 413
    assert requests.get(poll, timeout=5).status_code == 400  # the session is gone


@pytest.mark.parametrize("body", [b"4", b"44", b"47", b"d=4"])
def test_a_socketio_packet_no_client_sends_over_long_polling_is_ignored(server, body):
    poll = polling_session(server)
    assert requests.post(poll, data=body, timeout=5).text == "OK"
    assert requests.post(poll, data='421["chat",{"text":"x"}]', timeout=5).text == "OK"
    assert '431[{"ok":false' in requests.get(poll, timeout=5).text  # answered as ever


@pytest.mark.parametrize("signed", [True, False], ids=["connected", "handshake only"])
def test_a_polling_post_too_long_is_answered_at_once_and_frees_its_connection(server, signed):
    """The review's find: Engine.IO waited for a poll that never came, holding the POST's
    connection (and a server slot) for ever, with no token needed."""
    process = psutil.Process(server.process.pid)
    before = len(process.net_connections())
    for _ in range(10):
        poll = polling_session(server, signed)
        start = time.monotonic()
        answer = requests.post(poll, data=b"x" * TOO_LONG, timeout=5)
        assert answer.status_code == 413 and time.monotonic() - start < 2
        assert requests.get(poll, timeout=5).status_code == 400  # the session is gone
    time.sleep(0.5)
    assert len(process.net_connections()) <= before + 2


def test_a_raw_post_too_long_gets_its_answer_without_sending_the_body(server):
    poll = polling_session(server, signed=False)
    path = poll.split(str(server.port), 1)[1]
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
        raw.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                    f"Content-Length: {TOO_LONG}\r\n\r\n".encode())
        assert raw.recv(200).startswith(b"HTTP/1.1 413")


def test_an_honest_player_is_unaffected(server):
    host, guest = Player(server.url).connect(), Player(server.url).connect()
    try:
        room = create_room(server.url, host.token, "tic-tac-toe")
        host.ok("join", {"room": room["code"]})
        guest.ok("join", {"room": room["code"], "name": "Guest"})
        guest.ok("chat", {"text": "x" * 500})
        host.wait_for(lambda: host.received("chat"))
    finally:
        host.drop()
        guest.drop()


def test_a_websocket_closed_for_a_bad_frame_is_closed_for_good(server):
    ws = signed_in(server)
    ws.send("x")
    assert closed_within(ws, 3)
    assert_closed_for_good(ws)
