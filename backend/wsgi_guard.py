"""Eventlet's WSGI server, guarded against clients that connect and never finish a request.

Two documented hooks of ``eventlet.wsgi.server`` are used, nothing is copied from it:

- ``protocol``: a subclass of its ``HttpProtocol`` that gives every request a deadline
  (``REQUEST_TIMEOUT_SECONDS``, 10 s) to send its request line, headers and body. The clock
  starts when the server starts waiting for the request (on a kept-alive connection: after the
  previous answer), so idle keep-alive connections are closed too. A connection past its
  deadline is closed; the app never runs for it. Only reads are interrupted, never the app.
- ``custom_pool``: a green pool that, when every slot is taken, closes the connection that has
  waited longest for its request instead of making new clients queue behind it. Connections
  serving a request (an API call, a long poll, a WebSocket) are never closed this way.

Without these, about 10,000 connections that never finish their headers fill the pool and the
server stops answering anyone, with no token needed.
"""

from __future__ import annotations

import resource
import time
from collections import OrderedDict
from typing import Any

import eventlet
import eventlet.wsgi
from eventlet.greenthread import kill
from greenlet import getcurrent

from .edge import HEADERS_TOO_LONG, raw_answer

# File descriptors kept for everything that is not a client connection: the listening socket,
# the database and its helper process, log files, the event hub.
RESERVED_FDS = 256


class RequestTimeout(BaseException):
    """A client took too long to send its request. A BaseException, so that neither Flask nor
    eventlet's response code takes it for an error of the app: only the protocol catches it."""


class Waiting:
    """The connections waiting for (the rest of) a request, oldest first."""

    def __init__(self) -> None:
        self._greenlets: OrderedDict[int, Any] = OrderedDict()

    def __len__(self) -> int:
        return len(self._greenlets)

    def add(self, key: int, greenlet: Any) -> None:
        """``greenlet`` now waits for a request."""
        self._greenlets[key] = greenlet
        self._greenlets.move_to_end(key)

    def discard(self, key: int) -> None:
        """The connection ``key`` has its request, or is gone."""
        self._greenlets.pop(key, None)

    def evict_oldest(self) -> bool:
        """Close the connection that has waited longest; whether there was one."""
        while self._greenlets:
            _, greenlet = self._greenlets.popitem(last=False)
            if not greenlet.dead:
                kill(greenlet, RequestTimeout())  # runs it to its end before returning
                return True
        return False


class RoomyPool(eventlet.GreenPool):
    """A green pool that makes room for a new connection by closing the one that has waited
    longest for its request; it only queues new connections when every slot is serving one."""

    def __init__(self, size: int, waiting: Waiting) -> None:
        super().__init__(size)
        self.waiting = waiting

    def spawn(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run ``function`` in a new green thread, evicting a waiting connection if full."""
        if self.free() <= 0:
            self.waiting.evict_oldest()
        return super().spawn(function, *args, **kwargs)


class _DeadlineReader:
    """The connection's buffered reader, each read bounded by the request's deadline."""

    def __init__(self, raw: Any, protocol: GuardedProtocol) -> None:
        self._raw = raw
        self._protocol = protocol

    def _bounded(self, method: str, *args: Any) -> Any:
        # Past the deadline, what has already arrived may still be read, but nothing waited for.
        left = max(0.0, self._protocol.deadline - time.monotonic())
        with eventlet.Timeout(left, RequestTimeout()):
            return getattr(self._raw, method)(*args)

    def read(self, *args: Any) -> bytes:
        """``read`` before the deadline."""
        return self._bounded("read", *args)

    def readline(self, *args: Any) -> bytes:
        """``readline`` before the deadline."""
        return self._bounded("readline", *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class GuardedProtocol(eventlet.wsgi.HttpProtocol):
    """HttpProtocol with a deadline on each request; see the module's docstring."""

    timeout: float = 10.0
    waiting: Waiting = Waiting()
    deadline: float = 0.0

    def setup(self) -> None:
        """Buffers for the connection; its green thread knows its socket (see
        :func:`backend.bad_packets.refuse_bad_packets`, which hangs up on a client)."""
        super().setup()
        getcurrent().lounge_connection = self.connection

    def handle_one_request(self) -> None:
        """One request, which must arrive whole within ``timeout`` seconds."""
        self.deadline = time.monotonic() + self.timeout
        key = id(self)
        self.waiting.add(key, getcurrent())
        self._header_timer = eventlet.Timeout(self.timeout, RequestTimeout())
        try:
            super().handle_one_request()
        except RequestTimeout:
            self.close_connection = 1
        finally:
            self._header_timer.cancel()
            self.waiting.discard(key)

    def parse_request(self) -> bool:
        """Read the headers; a line or all of them too long get a JSON error (eventlet's own
        answer has an empty body), as an address too long does."""
        try:
            return super().parse_request()
        except (eventlet.wsgi.HeaderLineTooLong, eventlet.wsgi.HeadersTooLarge):
            self.wfile.write(raw_answer("431 Request Header Fields Too Large", HEADERS_TOO_LONG))
            self.close_connection = 1
            return False

    def get_environ(self) -> dict:
        """The request's environ; the request line and headers are in, so the app may run: from
        here only reads of the body are bounded by the deadline."""
        self._header_timer.cancel()
        self.waiting.discard(id(self))
        plain = self.rfile
        self.rfile = _DeadlineReader(plain, self)  # what the body (wsgi.input) is read from
        try:
            environ = super().get_environ()
        finally:
            self.rfile = plain
        # A chunked body ends where its last chunk says: Werkzeug reads one only when told so
        # (without it, a chunked JSON body reads as empty).
        if getattr(environ.get("wsgi.input"), "chunked_input", False):
            environ["wsgi.input_terminated"] = True
        return environ


def descriptor_budget(wanted: int) -> int:
    """Raise the soft limit on open files towards the hard one, and return how many client
    connections fit under it (at most ``wanted``): a full pool must never make ``accept`` fail
    with EMFILE, which would stop eventlet's server."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted + RESERVED_FDS
    if soft != resource.RLIM_INFINITY and soft < target:
        new_soft = target if hard == resource.RLIM_INFINITY else min(hard, target)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new_soft, hard))
            soft = new_soft
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(16, min(wanted, soft - RESERVED_FDS))


def server_options(timeout: float, max_connections: int) -> dict[str, Any]:
    """Keyword arguments for ``eventlet.wsgi.server``: the guarded protocol and pool."""
    waiting = Waiting()
    protocol = type("LoungeProtocol", (GuardedProtocol,), {"timeout": timeout,
                                                           "waiting": waiting})
    return {"protocol": protocol,
            "custom_pool": RoomyPool(descriptor_budget(max_connections), waiting)}
