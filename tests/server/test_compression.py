"""WebSockets are not compressed unless WEBSOCKET_COMPRESSION is on: a state is a few hundred
bytes, and deflating each one for each connection cost more CPU than the rest of a move."""

from __future__ import annotations

import base64
import os
import socket

import pytest

from tests.live_server import Server

OFFER = "permessage-deflate; client_max_window_bits"


def upgrade_headers(port: int) -> dict[str, str]:
    """The answer's headers to a browser-like WebSocket upgrade that offers compression."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
               f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: http://127.0.0.1:{port}\r\nSec-WebSocket-Extensions: {OFFER}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request.encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            assert chunk, answer
            answer += chunk
    status, *lines = answer.split(b"\r\n\r\n")[0].decode().split("\r\n")
    assert " 101 " in status, status
    return {name.lower(): value.strip() for name, _, value in (h.partition(":") for h in lines)}


@pytest.mark.parametrize("setting, compressed", [(None, False), ("1", True)])
def test_websockets_are_compressed_only_when_the_setting_says_so(setting, compressed):
    server = Server(**({"WEBSOCKET_COMPRESSION": setting} if setting else {}))
    try:
        headers = upgrade_headers(server.port)
    finally:
        output = server.stop()
    assert "Traceback" not in output, output[-3000:]
    extensions = headers.get("sec-websocket-extensions", "")
    assert ("permessage-deflate" in extensions) == compressed, headers
