"""``lounge serve``: monkey-patch for the async mode first, then build and serve the app.

Production runs eventlet's own server (gunicorn 26+ has no eventlet worker), guarded against
clients that never finish a request (:mod:`backend.wsgi_guard`). The listening socket sets
TCP_NODELAY, which accepted connections inherit: without it Nagle's algorithm holds back the small
frames of a move's update for tens of milliseconds. The port is taken before the app is built,
so that a port in use stops the server before it starts anything, and listened on once the app
is ready, so that a connection is refused, not left waiting, until the server can answer it.
"""

from __future__ import annotations

import argparse
import gc
import os
import socket
import sys
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

from .config import ASYNC_MODES

if TYPE_CHECKING:
    from flask import Flask

GC_THRESHOLDS = (20_000, 20, 100)  # Python's defaults: (700, 10, 10)
BACKLOG = 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``lounge serve``."""
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 5000))
    parser.add_argument("--async-mode", choices=ASYNC_MODES,
                        default=os.environ.get("ASYNC_MODE") or "eventlet")


def monkey_patch(mode: str) -> None:
    """Make the standard library cooperative; must run before Flask is imported."""
    if mode == "eventlet":
        warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
        import eventlet

        eventlet.monkey_patch()
        # psycopg waits for PostgreSQL in C unless told otherwise; its select-based wait goes
        # through eventlet's green select, so database calls let the loop run meanwhile.
        # (Under gevent, psycopg sees the patching itself.)
        os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_select")
    elif mode == "gevent":
        from gevent import monkey

        monkey.patch_all()


def run(args: argparse.Namespace) -> int:
    """Patch for the async mode, build the app, serve until stopped."""
    monkey_patch(args.async_mode)
    from .app import create_app
    from .config import from_env

    try:
        config = from_env().with_overrides(HOST=args.host, PORT=args.port,
                                           ASYNC_MODE=args.async_mode)
    except ValueError as exc:  # a setting that cannot work: say which, refuse to start
        print(f"lounge serve: {exc}", file=sys.stderr, flush=True)
        return 2
    # Before the app: a process that cannot serve must not start anything (in a cluster it
    # would join, and take rooms it can never serve). It listens once the app is built.
    try:
        sock = bound_socket(args.host, args.port)
    except OSError as exc:
        print(f"lounge serve: cannot listen on {args.host}:{args.port} ({exc.strerror or exc}): "
              "choose another --port (or PORT)", file=sys.stderr, flush=True)
        return 2
    app = create_app(config)
    cluster = app.extensions["lounge"].cluster
    if cluster is not None:
        from .cluster import stop_on_sigterm

        stop_on_sigterm(cluster, app.extensions["socketio"].start_background_task)
        print(f"Cluster {config.CLUSTER_NAME!r}: this process is {cluster.node}", flush=True)
    if not os.environ.get("SECRET_KEY"):
        print("SECRET_KEY is not set: using a random key, so tokens end with this process",
              flush=True)
    settle_garbage_collector()
    print(f"Lounge serving on http://{args.host}:{args.port} ({args.async_mode})", flush=True)
    SERVERS[args.async_mode](app, sock)
    return 0


def settle_garbage_collector() -> None:
    """Leave what start-up built out of every collection, and collect less often: a move makes
    a few hundred short-lived objects, and at the default thresholds the collector ran every
    few moves, about a tenth of the server's CPU under load (docs/performance.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def bound_socket(host: str, port: int, sock_module: ModuleType = socket) -> socket.socket:
    """A TCP socket bound to the address, not yet listening (connections are refused until it
    does), with TCP_NODELAY, which the sockets it accepts inherit."""
    family = sock_module.AF_INET6 if ":" in host else sock_module.AF_INET
    sock = sock_module.socket(family, sock_module.SOCK_STREAM)
    try:
        sock.setsockopt(sock_module.SOL_SOCKET, sock_module.SO_REUSEADDR, 1)
        sock.setsockopt(sock_module.IPPROTO_TCP, sock_module.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def serve_eventlet(app: Flask, sock: socket.socket) -> None:
    """Serve with eventlet's own WSGI server (production)."""
    import eventlet.wsgi

    from .edge import READ_URL_BYTES
    from .wsgi_guard import server_options

    timeout = app.extensions["lounge"].config.REQUEST_TIMEOUT_SECONDS
    # debug=False: a crash outside Flask answers an empty 500, never a traceback.
    sock.listen(BACKLOG)
    eventlet.wsgi.server(sock, app, log_output=False, debug=False, url_length_limit=READ_URL_BYTES,
                         **server_options(timeout, max_connections=10_000))


def serve_gevent(app: Flask, sock: socket.socket) -> None:
    """Serve with gevent's WSGI server and its WebSocket handler."""
    from gevent import pywsgi
    from geventwebsocket.handler import WebSocketHandler

    sock.listen(BACKLOG)
    server = pywsgi.WSGIServer(sock, app, handler_class=WebSocketHandler, log=None)
    server.serve_forever()


def serve_threading(app: Flask, sock: socket.socket) -> None:
    """Serve with Werkzeug's threaded server (development only), which listens itself: on the
    address ``sock`` held until now."""
    host, port = sock.getsockname()[:2]
    sock.close()
    socketio = app.extensions["socketio"]
    socketio.run(app, host=host, port=port, allow_unsafe_werkzeug=True, log_output=False)


SERVERS = {"eventlet": serve_eventlet, "gevent": serve_gevent, "threading": serve_threading}
