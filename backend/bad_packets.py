"""Packets no client of the lounge sends, met before Engine.IO or python-socketio mishandle
them (holding a connection for ever, or logging a traceback).

Binary packets, which the lounge never uses, close the connection before anything is kept; so
do WebSocket frames and long-polling POSTs that are no Engine.IO packets, or too long. Socket.IO
packets of a type no client sends are ignored. See docs/security.md.
"""

from __future__ import annotations

import contextlib
import io
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from engineio import packet as eio_packet
from engineio import payload as eio_payload
from greenlet import getcurrent
from socketio.packet import ACK, BINARY_ACK, BINARY_EVENT, CONNECT, DISCONNECT, EVENT

from .speedups import adjust_websockets


def guard(server: Any) -> None:
    """Put every guard of this module on a python-socketio server."""
    refuse_bad_packets(server)
    guard_polling_posts(server)
    end_on_unreadable_frames(server)


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
            return handle(environ, start_response)  # a GET finds a closed session itself
        _forget_closed_session(eio, environ)
        try:
            body = _body(environ, eio.max_http_buffer_size)
        except (OSError, ValueError):  # a chunked body that breaks off, or is no chunks
            return _refuse_post(eio, environ, start_response, "400 Bad Request")
        if body is None:
            return _refuse_post(eio, environ, start_response, "413 Content Too Large")
        if not _readable_payload(body):
            return _refuse_post(eio, environ, start_response, "400 Bad Request")
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return handle(environ, start_response)

    eio.handle_request = handle_request


def _forget_closed_session(eio: Any, environ: dict) -> None:
    """Drop a session that was closed but is still listed (a refused POST, or the client's own
    close packet): Engine.IO's POST would raise at it, an empty 500, where an unknown session
    gets its 400."""
    sid = _sid(environ)
    session = eio.sockets.get(sid)
    if session is not None and session.closed:
        eio.sockets.pop(sid, None)


def _body(environ: dict, limit: int) -> bytes | None:
    """A POST's body, or None when it is longer than ``limit`` (or says no length it has). A
    chunked body (no Content-Length) is read up to one byte past ``limit``."""
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        body = environ["wsgi.input"].read(limit + 1)
        return body if len(body) <= limit else None
    text = environ.get("CONTENT_LENGTH") or "0"
    if not text.isdigit() or int(text) > limit:
        return None
    return environ["wsgi.input"].read(int(text))


def _sid(environ: dict) -> str:
    return parse_qs(environ.get("QUERY_STRING", "")).get("sid", [""])[0]


def _readable_payload(body: bytes) -> bool:
    try:
        packets = eio_payload.Payload(encoded_payload=body.decode("utf-8")).packets
    except (ValueError, IndexError, KeyError):  # bad UTF-8, base64, type or JSONP form
        return False
    return all(p.packet_type in CLIENT_EIO_PACKETS for p in packets)


def _refuse_post(eio: Any, environ: dict, start_response: Callable, status: str) -> list[bytes]:
    session = eio.sockets.get(_sid(environ))
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

    adjust_websockets(server, guard)


def hang_up() -> None:
    """Shut down the TCP connection this green thread serves (known under eventlet, see
    :class:`backend.wsgi_guard.GuardedProtocol`): Engine.IO's own close leaves a WebSocket's
    reader reading whatever the client keeps sending."""
    connection = getattr(getcurrent(), "lounge_connection", None)
    if connection is not None:
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RDWR)
