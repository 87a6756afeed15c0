"""What every HTTP request meets first, Socket.IO included: a bound on the address's length,
the forwarded headers of trusted proxies, the security headers, the access log, and whether a
WebSocket may be compressed.

Werkzeug's ``ProxyFix`` believes a fixed number of hops whoever sent the request, so it is only
applied when the peer (``REMOTE_ADDR``) is one of ``FORWARDED_ALLOW_IPS``: anyone else's
``X-Forwarded-*`` headers change nothing.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote, urlsplit

from werkzeug.middleware.proxy_fix import ProxyFix

from .errors import SERVER_FAULT, error_body

WSGIApp = Callable[[dict, Callable], Iterable[bytes]]

# The built client is one script and one stylesheet from our own origin: no inline script, no
# eval, nothing from elsewhere. ``connect-src 'self'`` covers the Socket.IO WebSocket (ws: and
# wss: of the same host, in CSP level 3).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),  # frame-ancestors for browsers that predate it
    ("Referrer-Policy", "no-referrer"),
)
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

#: The longest address (path and query, as sent: percent-escapes count as written) answered.
#: eventlet's server lets longer request lines through (``READ_URL_BYTES``) so that this answer
#: is a JSON error, not its own empty 414.
MAX_URL_LENGTH = 8192
READ_URL_BYTES = 65536
TOO_LONG = json.dumps(error_body(
    "bad_request", f"That address is too long: at most {MAX_URL_LENGTH:,} characters")).encode()


def too_long(environ: dict, start_response: Callable) -> list[bytes]:
    """The answer to an address longer than :data:`MAX_URL_LENGTH`."""
    return _json_answer(start_response, "414 URI Too Long", TOO_LONG)


#: The answer to a header line or headers longer than eventlet's server reads (8 KiB a line,
#: 64 KiB in all), written by :class:`~backend.wsgi_guard.GuardedProtocol` before any app runs.
HEADERS_TOO_LONG = json.dumps(error_body(
    "bad_request", "That request's headers are too long: at most 8 KiB a line")).encode()


def raw_answer(status: str, body: bytes) -> bytes:
    """A whole HTTP answer with a JSON body and the security headers, for a request refused
    before the app could run; the connection closes after it."""
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json",
            f"Content-Length: {len(body)}", "Connection: close",
            *(f"{name}: {value}" for name, value in SECURITY_HEADERS)]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


INTERNAL = json.dumps(error_body("internal", SERVER_FAULT)).encode()
#: Printable ASCII but the space and ``%``: what a log line shows of a client's text unescaped.
LOGGED_AS_IS = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) != "%")

access_log = logging.getLogger("lounge.access")
HEALTH_PATH = "/api/health"
log = logging.getLogger(__name__)


def _networks(addresses: Iterable[str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network,
                                                   ...]:
    try:
        return tuple(ipaddress.ip_network(a, strict=False) for a in addresses if a != "*")
    except ValueError as exc:
        raise ValueError(f"FORWARDED_ALLOW_IPS: {exc}") from None


class Edge:
    """WSGI middleware around the whole app (Flask and Socket.IO)."""

    def __init__(self, app: WSGIApp, trusted: Iterable[str] = (), log: bool = True,
                 compression: bool = True) -> None:
        trusted = tuple(trusted)
        self.compression = compression
        self.app = app
        # One hop: the platform's router (Heroku's appends the peer it saw to X-Forwarded-For,
        # so the last entry is the client's address whatever the client sent).
        self.proxied = ProxyFix(app, x_for=1, x_proto=1, x_host=1, x_port=1)
        self.proxied_too_long = ProxyFix(too_long, x_for=1, x_proto=1, x_host=1, x_port=1)
        self.trust_any = "*" in trusted
        self.networks = _networks(trusted)
        self.log = log
        if log:
            _log_to_stdout()

    def trusts(self, peer: str) -> bool:
        """Whether ``peer`` is a proxy whose forwarded headers are believed."""
        if self.trust_any:
            return True
        if not self.networks or not peer:
            return False
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        started = time.monotonic()
        if not self.compression:  # a WebSocket offered no extension is not compressed
            environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        trusted = self.trusts(environ.get("REMOTE_ADDR", ""))
        if _url_length(environ) > MAX_URL_LENGTH:
            inner = self.proxied_too_long if trusted else too_long
        else:
            inner = self.proxied if trusted else self.app
        answered: list[str] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            present = {name.lower() for name, _ in headers}
            headers.extend(h for h in SECURITY_HEADERS if h[0].lower() not in present)
            if not answered:
                answered.append(status)
                if self.log:
                    self._line(environ, status.split(" ", 1)[0], started)
            return start_response(status, headers, exc_info)

        try:
            result = inner(environ, start)
        except OSError:  # the connection ended (a WebSocket's, under Werkzeug): the server's
            raise
        except Exception:  # what no handler caught (Flask's own answer its errors)
            log.exception("%s %s failed", environ.get("REQUEST_METHOD"),
                          _printable(environ.get("PATH_INFO", "")))
            if answered:  # too late for an answer of ours: the server closes the connection
                raise
            return internal_error(start)
        if self.log and not answered:  # a WebSocket: the app wrote "101" itself, now closed
            self._line(environ, "101", started)
        return result

    @staticmethod
    def _line(environ: dict, status: str, started: float) -> None:
        if status == "200" and environ.get("PATH_INFO") == HEALTH_PATH:
            return  # a balancer's or platform's check, every second or so: only failures tell
        # ProxyFix changed REMOTE_ADDR in this same environ: this is the client's address.
        access_log.info("%s %s %s %s %.1fms", _printable(environ.get("REMOTE_ADDR", "-")),
                        _printable(environ.get("REQUEST_METHOD", "-")),
                        _printable(environ.get("PATH_INFO", "-"))[:200],
                        status, (time.monotonic() - started) * 1000)


def internal_error(start_response: Callable) -> list[bytes]:
    """The answer to a request whose handler raised: the lounge's JSON error, no traceback."""
    return _json_answer(start_response, "500 Internal Server Error", INTERNAL)


def _json_answer(start_response: Callable, status: str, body: bytes) -> list[bytes]:
    start_response(status, [("Content-Type", "application/json"),
                            ("Content-Length", str(len(body)))])
    return [body]


def _printable(text: str) -> str:
    """``text`` for a log line: spaces, controls (a line break, a terminal's escape) and
    anything not ASCII percent-escaped, so that no client can write a line of its own."""
    return quote(text, safe=LOGGED_AS_IS)


def _url_length(environ: dict) -> int:
    path = environ.get("RAW_PATH_INFO", environ.get("PATH_INFO", ""))  # eventlet's, undecoded
    return len(path) + len(environ.get("QUERY_STRING", ""))


def _log_to_stdout() -> None:
    if not access_log.handlers:
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(logging.Formatter("access: %(message)s"))
        access_log.addHandler(handler)
        access_log.setLevel(logging.INFO)
        access_log.propagate = False


def _origin_parts(url: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if not parts.hostname or scheme not in DEFAULT_PORTS:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def is_own_origin(origin: str, environ: dict) -> bool:
    """Whether ``origin`` is the site's own (scheme, host and port; default ports are implied),
    as seen through trusted proxies when there are any."""
    scheme = environ.get("wsgi.url_scheme", "http")
    own = _origin_parts(f"{scheme}://{environ.get('HTTP_HOST', '')}")
    return own is not None and _origin_parts(origin) == own
