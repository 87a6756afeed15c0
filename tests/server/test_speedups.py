"""What clients send over a WebSocket is unmasked by :func:`backend.speedups.unmask` under eventlet:
the same bytes as eventlet's own byte-at-a-time unmasking, for any frame, however the network
splits it."""

from __future__ import annotations

import json
import time
import warnings

import websocket
from hypothesis import given
from hypothesis import strategies as st

from backend.speedups import unmask

from .harness import create_room, new_session

with warnings.catch_warnings():  # eventlet warns on import that it is in maintenance mode
    warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
    from eventlet.websocket import RFC6455WebSocket


@given(st.binary(max_size=600), st.binary(min_size=4, max_size=4), st.integers(0, 1000),
       st.data())
def test_unmask_gives_what_eventlets_own_unmasking_gives(data, mask, offset, draw):
    length = draw.draw(st.integers(0, len(data)))
    key = tuple(mask)  # eventlet reads the mask as four integers
    assert unmask(data, key, length, offset) == RFC6455WebSocket._apply_mask(
        data, key, length, offset)
    assert unmask(data, list(key)) == RFC6455WebSocket._apply_mask(data, list(key))


def events(ws: websocket.WebSocket, name: str, seconds: float = 5.0) -> dict:
    """The data of the next Socket.IO event called ``name`` (answering pings meanwhile)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = ws.recv()
        if message == "2":
            ws.send("3")
        elif message.startswith("42"):
            event, data = json.loads(message[2:])
            if event == name:
                return data
    raise AssertionError(f"no {name} event")


def test_a_frame_split_at_odd_places_arrives_whole(url):
    """A masked chat message (as long as one may be), written three bytes at a time: the server
    reads it in pieces that start anywhere in the mask, and the room hears it unchanged."""
    session = new_session(url)
    room = create_room(url, session["token"], "tic-tac-toe")
    ws = websocket.create_connection(
        url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket", timeout=5)
    try:
        assert ws.recv().startswith("0{")
        ws.send("40" + json.dumps({"token": session["token"]}))
        assert ws.recv().startswith("40{")
        ws.send("421" + json.dumps(["join", {"room": room["code"]}]))
        text = "".join(chr(0x41 + i % 26) for i in range(497)) + "é✓"
        frame = websocket.ABNF.create_frame(
            "422" + json.dumps(["chat", {"text": text}]), websocket.ABNF.OPCODE_TEXT).format()
        for at in range(0, len(frame), 3):
            ws.sock.sendall(frame[at:at + 3])
            if at % 30 == 0:
                time.sleep(0.001)  # let the server read what has come so far
        assert events(ws, "chat")["text"] == text
    finally:
        ws.close()
