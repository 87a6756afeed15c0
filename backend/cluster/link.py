"""A plain socket to Redis, as a ``REDIS_URL`` names it, for the connections the cluster reads
and writes itself (the subscription and the outbox; see :mod:`backend.cluster.resp`).

The URL means what it means to redis-py, which the room directory's commands still use:
``redis://`` or ``rediss://`` (TLS), a user and password, and redis-py's ``ssl_cert_reqs``,
``ssl_ca_certs``, ``ssl_check_hostname``, ``ssl_certfile`` and ``ssl_keyfile`` options (a
platform's self-signed certificate needs ``?ssl_cert_reqs=none``).
"""

from __future__ import annotations

import socket
import ssl
from typing import Any

from redis.connection import parse_url

from ..config import REDIS_SCHEMES
from .resp import RedisError, Replies, pack

CONNECT_SECONDS = 2.0
VERIFY = {"none": ssl.CERT_NONE, "optional": ssl.CERT_OPTIONAL, "required": ssl.CERT_REQUIRED}


def open_connection(url: str, timeout: float | None) -> socket.socket:
    """A connection to the Redis of ``url``, signed in if the URL has a password; every read
    and write on it then waits at most ``timeout`` seconds (None: for ever)."""
    if not url.startswith(REDIS_SCHEMES):
        raise ValueError("REDIS_URL must start with redis:// or rediss://")
    options = parse_url(url)
    host = options.get("host", "localhost")
    sock: Any = socket.create_connection((host, options.get("port", 6379)), CONNECT_SECONDS)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if url.startswith("rediss://"):
            sock = _tls(options).wrap_socket(sock, server_hostname=host)
        if options.get("password"):
            user = [options["username"]] if options.get("username") else []
            request(sock, "AUTH", *user, options["password"])
        sock.settimeout(timeout)
        return sock
    except BaseException:
        sock.close()
        raise


def request(sock: socket.socket, *command: str) -> object:
    """Send one command and read its reply (before anything else is under way on ``sock``)."""
    sock.sendall(pack(*command))
    replies = Replies()
    while True:
        data = sock.recv(4096)
        if not data:
            raise ConnectionError("Redis closed the connection")
        got = replies.feed(data)
        if got:
            if isinstance(got[0], RedisError):
                raise got[0]
            return got[0]


def _tls(options: dict) -> ssl.SSLContext:
    verify = options.get("ssl_cert_reqs", "required")
    verify = VERIFY.get(verify, verify) if verify is not None else ssl.CERT_NONE
    context = ssl.create_default_context(cafile=options.get("ssl_ca_certs"))
    context.check_hostname = verify != ssl.CERT_NONE and options.get("ssl_check_hostname", True)
    context.verify_mode = verify
    if options.get("ssl_certfile"):
        context.load_cert_chain(options["ssl_certfile"], options.get("ssl_keyfile"))
    return context
