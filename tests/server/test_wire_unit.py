"""Engine.IO's connection queues under eventlet (:func:`backend.wire.untimed_writer_waits`), and
the quick unmasking of its WebSockets (:func:`backend.wire.unmask_quickly`)."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import eventlet
import socketio
import websocket
from eventlet.hubs import get_hub

from backend.wire import unmask, unmask_quickly, untimed_writer_waits


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


def test_the_servers_websockets_unmask_with_the_quick_unmask():
    """The hook takes effect with the Engine.IO installed: a WebSocket made by the server's
    driver table unmasks with :func:`backend.wire.unmask`, and reads a client's frame whole."""
    server = socketio.Server(async_mode="eventlet")
    unmask_quickly(server)
    ours, theirs = socket.socketpair()
    environ = {"eventlet.input": SimpleNamespace(get_socket=lambda: ours),
               "HTTP_SEC_WEBSOCKET_VERSION": "13", "HTTP_HOST": "127.0.0.1",
               "HTTP_SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ=="}
    app = server.eio._async["websocket"](lambda ws: None, server.eio)
    ws = app._handle_hybi_request(environ)
    assert ws._apply_mask is unmask
    theirs.sendall(websocket.ABNF.create_frame("42[\"move\",{\"args\":[4]}]",
                                               websocket.ABNF.OPCODE_TEXT).format())
    assert ws.wait() == "42[\"move\",{\"args\":[4]}]"
    ours.close()
    theirs.close()
