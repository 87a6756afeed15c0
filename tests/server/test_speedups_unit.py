"""Engine.IO's connection queues under eventlet (:func:`backend.speedups.untimed_writer_waits`), the
quick unmasking of its WebSockets (:func:`backend.speedups.unmask_quickly`) and their batches sent
in one write (:func:`backend.speedups.send_batches_whole`)."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import eventlet
import socketio
import websocket
from engineio.packet import MESSAGE, Packet
from engineio.socket import Socket
from eventlet.green import socket as green_socket
from eventlet.hubs import get_hub
from eventlet.websocket import RFC6455WebSocket

from backend.speedups import (
    send_batches_whole,
    text_frame,
    unmask,
    unmask_quickly,
    untimed_writer_waits,
)


def _pending_timers() -> list[float]:
    hub = get_hub()
    return [timer.seconds for _, timer in [*hub.next_timers, *hub.timers] if not timer.called]


def test_a_writer_waiting_for_its_next_packet_sets_no_timer():
    server = socketio.Server(async_mode="eventlet")
    untimed_writer_waits(server)
    queue = server.eio.create_queue()
    got: list[str] = []
    waiter = eventlet.spawn(lambda: got.append(queue.get(timeout=45)))
    eventlet.sleep(0)  # the getter is waiting now
    assert 45 not in _pending_timers()
    queue.put("packet")
    waiter.wait()
    assert got == ["packet"]
    queue.task_done()
    queue.join()  # Engine.IO's close(wait=True) joins the queue: still there


def test_other_async_modes_keep_their_own_queues():
    server = socketio.Server(async_mode="threading")
    make = server.eio.create_queue
    untimed_writer_waits(server)
    assert server.eio.create_queue == make


def _handshake(sock: object) -> dict:
    """The WSGI environ of a client's WebSocket handshake on ``sock``."""
    return {"eventlet.input": SimpleNamespace(get_socket=lambda: sock),
            "HTTP_SEC_WEBSOCKET_VERSION": "13", "HTTP_HOST": "127.0.0.1",
            "HTTP_SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ=="}


def test_the_servers_websockets_unmask_with_the_quick_unmask():
    """The hook takes effect with the Engine.IO installed: a WebSocket made by the server's
    driver table unmasks with :func:`backend.speedups.unmask`, and reads a client's frame whole."""
    server = socketio.Server(async_mode="eventlet")
    unmask_quickly(server)
    ours, theirs = socket.socketpair()
    app = server.eio._async["websocket"](lambda ws: None, server.eio)
    ws = app._handle_hybi_request(_handshake(ours))
    assert ws._apply_mask is unmask
    theirs.sendall(websocket.ABNF.create_frame("42[\"move\",{\"args\":[4]}]",
                                               websocket.ABNF.OPCODE_TEXT).format())
    assert ws.wait() == "42[\"move\",{\"args\":[4]}]"
    ours.close()
    theirs.close()


class CountedSocket:
    """A real socket whose writes are counted (what the WebSocket is given to write on)."""

    def __init__(self, sock: socket.socket, fail: bool = False) -> None:
        self.sock, self.fail, self.writes = sock, fail, []

    def sendall(self, data: bytes) -> None:
        if self.fail:
            raise BrokenPipeError("the client is gone")
        self.writes.append(data)
        self.sock.sendall(data)

    def __getattr__(self, name: str):
        return getattr(self.sock, name)


def _connection(fail: bool = False) -> tuple[Socket, CountedSocket, socket.socket, object]:
    """A real Engine.IO connection on a WebSocket of the server's driver table, its handler
    running (reader and writer tasks), and the client's end of it."""
    server = socketio.Server(async_mode="eventlet")
    untimed_writer_waits(server)
    unmask_quickly(server)
    send_batches_whole(server)
    ours, theirs = green_socket.socketpair()
    counted = CountedSocket(ours)
    connection = Socket(server.eio, "sid")
    app = server.eio._async["websocket"](connection._websocket_handler, server.eio)
    ws = app._handle_hybi_request(_handshake(counted))
    theirs.recv(4096)  # the handshake's answer
    counted.writes.clear()
    counted.fail = fail
    handler = eventlet.spawn(connection._websocket_handler, ws)
    eventlet.sleep(0.01)
    return connection, counted, theirs, handler


def _frames(data: bytes) -> list[str]:
    """The texts of the unmasked WebSocket text frames (short ones) in ``data``."""
    out = []
    while data:
        length = data[1] & 0x7F
        out.append(data[2:2 + length].decode())
        data = data[2 + length:]
    return out


def test_a_batch_of_packets_is_written_at_once():
    connection, counted, theirs, handler = _connection()
    connection.queue.put(Packet(MESSAGE, data="2[\"state\"]"))
    connection.queue.put(Packet(MESSAGE, data="30[{\"ok\":true}]"))
    eventlet.sleep(0.01)
    assert [_frames(w) for w in counted.writes] == [["42[\"state\"]", "430[{\"ok\":true}]"]]
    connection.queue.put(Packet(MESSAGE, data="2[\"chat\"]"))  # a batch of one: as it was
    eventlet.sleep(0.01)
    assert [_frames(w) for w in counted.writes[1:]] == [["42[\"chat\"]"]]
    received = theirs.recv(4096)
    assert _frames(received) == ["42[\"state\"]", "430[{\"ok\":true}]", "42[\"chat\"]"]
    theirs.close()  # the client goes: the reader stops, the writer closes the WebSocket
    handler.wait()
    assert connection.closed


def test_a_failed_write_ends_the_connection_as_a_failed_send_did():
    connection, counted, theirs, handler = _connection(fail=True)
    connection.queue.put(Packet(MESSAGE, data="2[\"state\"]"))
    connection.queue.put(Packet(MESSAGE, data="30[{\"ok\":true}]"))
    theirs.close()
    with eventlet.Timeout(5):
        handler.wait()
    assert connection.closed and counted.writes == []


def test_other_async_modes_keep_their_own_websockets():
    server = socketio.Server(async_mode="threading")
    table = server.eio._async
    send_batches_whole(server)
    assert server.eio._async is table


def test_a_text_frame_is_the_frame_eventlet_makes():
    ws = RFC6455WebSocket(None, {}, extensions={})
    for length in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        text = "x" * length
        assert text_frame(text) == ws._pack_message(text)
    assert text_frame("42[\"chat\",\"é ♠\"]") == ws._pack_message("42[\"chat\",\"é ♠\"]")
