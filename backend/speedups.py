"""Engine.IO under eventlet, made cheaper where a move pays for it: incoming frames unmasked
with one XOR, a batch of outgoing frames written at once, writer waits without a timer.

Each is measured in docs/performance.md ("What was changed, and what each bought"); each
leaves the other async modes as Engine.IO made them. :func:`adjust_websockets`, the hook they
use on each new WebSocket, serves :mod:`backend.bad_packets` too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def speed_up(server: Any) -> None:
    """Make every change of this module to a python-socketio server (under eventlet)."""
    untimed_writer_waits(server)
    unmask_quickly(server)
    send_batches_whole(server)


def unmask_quickly(server: Any) -> None:
    """Under eventlet, unmask what clients send with one integer XOR per frame.

    eventlet's WebSocket unmasks each incoming frame a byte at a time in Python, making a
    tuple and a bytes object per byte: a tenth of a whole server's instructions a move
    (``bench/server_instructions.py``), about 5 % of its CPU under load. Each new WebSocket
    of the server gets :func:`unmask` instead (see :func:`adjust_websockets`; a test checks
    that the hook still takes effect)."""

    def quick_unmask(ws: Any, handler: Any) -> None:
        ws._apply_mask = unmask  # looked up on the instance first, as self._apply_mask

    adjust_websockets(server, quick_unmask)


def send_batches_whole(server: Any) -> None:
    """Under eventlet, send each batch of a connection's packets in one write.

    Engine.IO's writer task takes every packet waiting for a connection (a move's mover has
    two: its state and the acknowledgement) and sends each as a WebSocket frame of its own,
    one system call and one TCP segment each. Each new connection of the server gets a
    :class:`BatchWriter`, which holds a batch's frames and writes them together."""

    def batch_writer(ws: Any, handler: Any) -> None:
        engineio_socket = getattr(handler, "__self__", None)
        if engineio_socket is not None:  # the handler is a connection's (always, today)
            BatchWriter(ws, engineio_socket)

    adjust_websockets(server, batch_writer)


def adjust_websockets(server: Any, adjust: Callable[[Any, Any], None]) -> None:
    """Under eventlet, call ``adjust(ws, handler)`` on each new WebSocket of the server, with
    the Engine.IO handler it is for, before that handler runs.

    Engine.IO's eventlet driver takes its WebSocket application from the server's driver
    table (``_async``, which has no public setter); its entry becomes a subclass of whatever
    is there, so that each call adds one adjustment to those made before."""
    eio = server.eio
    if eio.async_mode != "eventlet":
        return
    base = eio._async["websocket"]

    class AdjustedWSGI(base):  # type: ignore[misc, valid-type]
        def _handle_hybi_request(self, environ: dict) -> Any:
            ws = super()._handle_hybi_request(environ)
            adjust(ws, self.handler)
            return ws

    eio._async = {**eio._async, "websocket": AdjustedWSGI}


class BatchWriter:
    """One WebSocket's frames, held while Engine.IO's writer task sends a batch of packets and
    written together when it asks for the next batch (before it waits for one).

    It takes the place of the WebSocket's ``_send`` (every frame, control frames included,
    goes through it) and of the Engine.IO socket's ``poll`` (the writer's way to its next
    batch), both as instance attributes. Frames are held only while a batch of more than one
    packet is being sent on an upgraded connection, so everything else (the upgrade's probe,
    a long poll still answered during the upgrade, the closing frame after the writer has
    stopped) is written at once, as before. A write that fails ends the writer as a failed
    send did: the next batch is empty, and the writer closes the WebSocket.

    Where the WebSocket compresses nothing (the lounge's default), it also takes the place of
    the WebSocket's ``send``, to frame Engine.IO's text packets with :func:`text_frame`: a
    move's three frames cost eventlet's general framing about 3 % of a whole server's
    instructions."""

    def __init__(self, ws: Any, engineio_socket: Any) -> None:
        self.write, self.poll = ws._send, engineio_socket.poll
        self.connection = engineio_socket
        self.held: list[bytes] | None = None  # None: frames are written at once
        self.send_message = ws.send
        ws._send = self.send
        engineio_socket.poll = self.next_batch
        if not ws.client and not ws.extensions:  # no compression: text frames are plain
            ws.send = self.send_text

    def send_text(self, message: Any, **options: Any) -> None:
        """The WebSocket's ``send``: a text message (what Engine.IO sends) framed by
        :func:`text_frame`, anything else by the WebSocket itself."""
        if options or type(message) is not str:
            self.send_message(message, **options)
        else:
            self.send(text_frame(message))

    def send(self, frame: bytes) -> None:
        """Hold the frame if a batch is being sent, else write it."""
        if self.held is None:
            self.write(frame)
        else:
            self.held.append(frame)

    def next_batch(self) -> list:
        """Write the last batch's frames, then wait for the next batch."""
        held, self.held = self.held, None
        if held:
            try:
                self.write(b"".join(held))
            except OSError:
                return []
        packets = self.poll()
        if len(packets) > 1 and self.connection.upgraded:
            self.held = []
        return packets


def text_frame(text: str) -> bytes:
    """``text`` as one final, unmasked, uncompressed WebSocket text frame (RFC 6455, 5.2), the
    frame eventlet's WebSocket makes of it, without its pass over every option."""
    data = text.encode()
    length = len(data)
    if length < 126:
        return bytes((0x81, length)) + data
    if length < 65536:
        return b"\x81\x7e" + length.to_bytes(2, "big") + data
    return b"\x81\x7f" + length.to_bytes(8, "big") + data


def unmask(data: bytes, mask: Any, length: int | None = None, offset: int = 0) -> bytes:
    """The first ``length`` bytes of ``data`` XORed with the 4-byte ``mask``, which starts at
    ``offset`` bytes into the frame (eventlet's ``RFC6455WebSocket._apply_mask``)."""
    length = len(data) if length is None else length
    turn, mask = offset % 4, bytes(mask)
    key = (mask[turn:] + mask[:turn]) * (length // 4 + 1)
    value = int.from_bytes(data[:length], "little") ^ int.from_bytes(key[:length], "little")
    return value.to_bytes(length, "little")


def untimed_writer_waits(server: Any) -> None:
    """Under eventlet, give every Engine.IO connection a queue whose blocking ``get`` sets no
    timer (``create_queue`` is how Engine.IO makes each connection's queue of outgoing packets).

    Engine.IO's writer task waits on that queue with a timeout of ``ping_interval +
    ping_timeout`` before every batch it sends, and eventlet makes a timer for each such wait
    and cancels it: a few microseconds every message. The timeout never fires on a live
    connection, since the server puts a ping in its queue every ``ping_interval``; a connection
    that misses its pong is closed, which puts the writer's ``None`` in the queue.

    The service's queues come from the same ``create_queue`` (:meth:`Runtime.of_socketio
    <backend.runtime.Runtime.of_socketio>`): they are these too, so a timeout given to their
    ``get`` is ignored (none is given today)."""
    eio = server.eio
    if eio.async_mode != "eventlet":
        return
    from eventlet.queue import Queue

    class UntimedQueue(Queue):
        def get(self, block: bool = True, timeout: float | None = None) -> Any:
            return super().get(block, None)

    eio.create_queue = UntimedQueue
