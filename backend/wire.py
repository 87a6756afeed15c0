"""How Socket.IO packets are encoded: plain JSON through orjson, no binary scan, and malformed
JSON from a client turned into an event that gets an error answer instead of a traceback.

JSON from clients, REST bodies included, is parsed by orjson: nesting deeper than 1,024 levels
and integers beyond 64 bits are malformed JSON (a ``ValueError``), never a ``RecursionError``.
Binary packets, which the lounge never uses, close the connection before anything is kept; so
do WebSocket frames and long-polling POSTs that are no Engine.IO packets, or too long. Packets
of a type no client sends are ignored.
"""

from __future__ import annotations

import contextlib
import io
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import orjson
from engineio import packet as eio_packet
from engineio import payload as eio_payload
from flask.json.provider import DefaultJSONProvider
from greenlet import getcurrent
from socketio.base_client import BaseClient
from socketio.base_server import BaseServer
from socketio.packet import ACK, BINARY_ACK, BINARY_EVENT, CONNECT, DISCONNECT, EVENT, Packet

MALFORMED = " malformed"  # no client can name an event like this: it would be an unknown event
#: Event names python-socketio treats specially: its connection handlers (a client that sends
#: one as an event would run the server's own ``connect``/``disconnect`` handler) and ``*``,
#: the key of the catch-all handler (which it would call with the arguments shifted).
RESERVED = frozenset({*BaseServer.reserved_events, *BaseClient.reserved_events, "*"})
RESERVED_MARK = " reserved:"  # a reserved name sent by a client, renamed: an unknown event


class OrjsonCodec:
    """The ``json`` interface python-socketio needs, backed by orjson (several times faster than
    the standard library for our state messages; integers beyond 64 bits are refused)."""

    @staticmethod
    def dumps(obj: Any, **_: Any) -> str:
        """JSON text of ``obj``."""
        return orjson.dumps(obj).decode()

    @staticmethod
    def loads(text: str | bytes, **_: Any) -> Any:
        """The value of JSON text."""
        return orjson.loads(text)


EVENT_PACKET = str(EVENT)  # a Socket.IO event on the default namespace, with no ack id


def event_packet(event: str, data: Any) -> str:
    """The text of a Socket.IO event packet on the default namespace, as :class:`TextPacket`
    encodes it: for Engine.IO's ``send`` to one connection, without python-socketio's
    ``emit``."""
    return EVENT_PACKET + OrjsonCodec.dumps([event, data])


class TextPacket(Packet):
    """Our messages are plain JSON: skip python-socketio's recursive scan for binary data on
    every packet (a large share of the cost of sending a state).

    Incoming events named like python-socketio's own (``connect``, ``disconnect``...) are
    renamed here, before the server looks up their handler, so that they reach the catch-all
    handler as unknown events instead of the connection handlers."""

    uses_binary_events = False
    json = OrjsonCodec

    def decode(self, encoded_packet: Any) -> int:
        """Parse a packet; malformed ones become the MALFORMED event."""
        try:
            attachments = super().decode(encoded_packet)
        except ValueError:
            attachments = 0
            self.packet_type, self.data = EVENT, None
        if self.packet_type in (BINARY_EVENT, BINARY_ACK):  # never wait for attachments
            attachments = 0
            self.packet_type, self.data = EVENT, None
        if self.packet_type == EVENT:
            if not _names_an_event(self.data):
                self.data = [MALFORMED]
            elif self.data[0] in RESERVED:
                self.data = [RESERVED_MARK + self.data[0], *self.data[1:]]
        return attachments


def _names_an_event(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and isinstance(data[0], str)


class LoungeJSONProvider(DefaultJSONProvider):
    """Flask's JSON, parsed by orjson: deep nesting and huge numbers are a ValueError, which
    ``request.get_json(silent=True)`` turns into None (a ``bad_request``)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """The value of JSON text."""
        return orjson.loads(s)


BINARY_PREFIXES = (str(BINARY_EVENT), str(BINARY_ACK))
#: The Socket.IO packets a client may send: CONNECT, DISCONNECT, EVENT and ACK (binary ones
#: are refused). python-socketio raises at any other (CONNECT_ERROR, an empty message, an
#: unknown type), which logs a traceback: they are ignored, as malformed JSON changes nothing.
CLIENT_PACKETS = frozenset({str(CONNECT), str(DISCONNECT), str(EVENT), str(ACK)})


def refuse_bad_packets(server: Any) -> None:
    """Close any Engine.IO connection that sends a binary message or a binary Socket.IO packet
    (whose attachments python-socketio would otherwise keep until they all arrived), and ignore
    Socket.IO packets that no client sends (see :data:`CLIENT_PACKETS`)."""
    eio = server.eio
    handle: Callable[[str, Any], Any] = eio.handlers["message"]

    def on_message(eio_sid: str, data: Any) -> Any:
        if not isinstance(data, str) or data.startswith(BINARY_PREFIXES):
            session = eio.sockets.get(eio_sid)
            if session is not None:
                # Without waiting for the close packet to be sent: over long polling that
                # would wait for the client's next poll, in the middle of its POST.
                session.close(wait=False)
            hang_up()
            return None
        if data[:1] not in CLIENT_PACKETS:
            return None
        return handle(eio_sid, data)

    eio.on("message", on_message)


#: The Engine.IO packets a client may POST: CLOSE, PONG, MESSAGE and UPGRADE. Engine.IO meets
#: any other with an error that it answers by closing the session and waiting for the client's
#: next poll, which never comes while the POST waits for its answer.
CLIENT_EIO_PACKETS = frozenset({eio_packet.CLOSE, eio_packet.PONG, eio_packet.MESSAGE,
                                eio_packet.UPGRADE})


def guard_polling_posts(server: Any) -> None:
    """Answer at once, and close its session, a long-polling POST that Engine.IO would
    mishandle: one longer than ``max_http_buffer_size`` (Engine.IO would hold the connection
    for ever, see :data:`CLIENT_EIO_PACKETS`), or one it cannot decode (a traceback in the
    log, and its session left open)."""
    eio = server.eio
    handle: Callable[[dict, Callable], Any] = eio.handle_request

    def handle_request(environ: dict, start_response: Callable) -> Any:
        if environ.get("REQUEST_METHOD") != "POST":
            return handle(environ, start_response)
        length = _content_length(environ)
        if length is None or length > eio.max_http_buffer_size:
            return _refuse_post(eio, environ, start_response, "413 Content Too Large")
        body = environ["wsgi.input"].read(length)
        if not _readable_payload(body):
            return _refuse_post(eio, environ, start_response, "400 Bad Request")
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return handle(environ, start_response)

    eio.handle_request = handle_request


def _content_length(environ: dict) -> int | None:
    text = environ.get("CONTENT_LENGTH") or "0"
    return int(text) if text.isdigit() else None


def _readable_payload(body: bytes) -> bool:
    try:
        packets = eio_payload.Payload(encoded_payload=body.decode("utf-8")).packets
    except (ValueError, IndexError, KeyError):  # bad UTF-8, base64, type or JSONP form
        return False
    return all(p.packet_type in CLIENT_EIO_PACKETS for p in packets)


def _refuse_post(eio: Any, environ: dict, start_response: Callable, status: str) -> list[bytes]:
    sid = parse_qs(environ.get("QUERY_STRING", "")).get("sid", [""])[0]
    session = eio.sockets.get(sid)
    if session is not None:
        session.close(wait=False)  # not waiting for a poll: the client is waiting for this POST
    start_response(status, [("Content-Type", "text/plain"), ("Connection", "close")])
    return [status.split(" ", 1)[1].encode()]


#: What an Engine.IO text packet may start with: its type, a digit. Engine.IO decodes a
#: WebSocket's frames where nothing catches what it raises (an empty frame, a letter), and the
#: web server then writes an error page into the WebSocket, with a traceback in the log.
PACKET_TYPES = frozenset("0123456789")


def end_on_unreadable_frames(server: Any) -> None:
    """Under eventlet, end a WebSocket whose client sends a text frame that is no Engine.IO
    packet, as if it had closed: Engine.IO's reader gets None for it."""

    def guard(ws: Any, handler: Any) -> None:
        wait = ws.wait

        def checked_wait() -> Any:
            message = wait()
            if isinstance(message, str) and message[:1] not in PACKET_TYPES:
                hang_up()
                return None
            return message

        ws.wait = checked_wait

    _adjust_websockets(server, guard)


def unmask_quickly(server: Any) -> None:
    """Under eventlet, unmask what clients send with one integer XOR per frame.

    eventlet's WebSocket unmasks each incoming frame a byte at a time in Python, making a
    tuple and a bytes object per byte: a tenth of a whole server's instructions a move
    (``bench/server_instructions.py``), about 5 % of its CPU under load. Each new WebSocket
    of the server gets :func:`unmask` instead (see :func:`_adjust_websockets`; a test checks
    that the hook still takes effect)."""

    def quick_unmask(ws: Any, handler: Any) -> None:
        ws._apply_mask = unmask  # looked up on the instance first, as self._apply_mask

    _adjust_websockets(server, quick_unmask)


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

    _adjust_websockets(server, batch_writer)


def _adjust_websockets(server: Any, adjust: Callable[[Any, Any], None]) -> None:
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


def hang_up() -> None:
    """Shut down the TCP connection this green thread serves (known under eventlet, see
    :class:`backend.connections.GuardedProtocol`): Engine.IO's own close leaves a WebSocket's
    reader reading whatever the client keeps sending."""
    connection = getattr(getcurrent(), "lounge_connection", None)
    if connection is not None:
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RDWR)


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
