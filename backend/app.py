"""The app factory: Flask, Socket.IO, the lounge and its handlers, wired together.

The transports are handed a :class:`~backend.router.Router`: in one process a
:class:`~backend.router.LocalRouter` on this process's service, in cluster mode a
:class:`~backend.cluster.ClusterRouter` that sends each event to its room's owner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask
from flask_cors import CORS
from flask_socketio import SocketIO

from . import bad_packets, speedups
from .api import api, register_error_handlers
from .auth import TokenSigner
from .cluster import (
    ClusterBus,
    ClusterNode,
    ClusterNotifier,
    ClusterRouter,
    Directory,
    LeaseBook,
    new_node_id,
)
from .config import Config, from_env
from .db import open_store
from .db.store import SqlRoomStore
from .edge import Edge, is_own_origin
from .history import ReplayCache, history
from .housekeeping import Housekeeper
from .lounge import Lounge
from .ratelimit import KeyedLimiter
from .router import LocalRouter, Router
from .runtime import Runtime
from .service import LoungeService
from .sockets import LoungeSockets, SocketNotifier
from .store import HistoryStore
from .web import web
from .wire import LoungeJSONProvider, TextPacket


@dataclass
class LoungeContext:
    """The parts of one running lounge, kept in ``app.extensions["lounge"]``."""

    config: Config
    lounge: Lounge
    signer: TokenSigner
    socketio: SocketIO
    sockets: LoungeSockets
    service: LoungeService
    router: Router  # where REST's questions about rooms go, as the sockets' events do
    rest_limiter: KeyedLimiter
    cluster: ClusterNode | None = None
    session_limiter: KeyedLimiter | None = None  # new identities per client address
    replay_limiter: KeyedLimiter | None = None  # history reads per client address
    replays: ReplayCache | None = None
    history: HistoryStore | None = None  # finished games, when the store keeps them


def origin_check(allowed: tuple[str, ...]) -> Callable[[str | None, dict | None], bool]:
    """Socket.IO origin check: the configured origins, plus the server's own origin (its scheme
    and host as trusted proxies forwarded them, e.g. ``https://`` behind TLS termination)."""

    def check(origin: str | None, environ: dict | None = None) -> bool:
        """Whether a Socket.IO connection from ``origin`` is allowed."""
        if origin is None or origin in allowed or "*" in allowed:
            return True
        return is_own_origin(origin, environ or {})

    return check


def create_app(config: Config | None = None) -> Flask:
    """A new lounge app; its Socket.IO server is ``app.extensions["socketio"]``."""
    config = config or from_env()
    app = Flask(__name__, static_folder=None)
    app.json = LoungeJSONProvider(app)
    app.json.sort_keys = False
    app.config.update(SECRET_KEY=config.SECRET_KEY, MAX_CONTENT_LENGTH=64 * 1024)
    CORS(app, resources={r"/api/*": {"origins": list(config.CORS_ORIGINS)}})
    node_id = new_node_id() if config.clustered else None
    bus = ClusterBus(config.REDIS_URL, config.CLUSTER_NAME, node_id, _ignore) if node_id else None
    socketio = _socketio(app, config, bus)
    # Outside Flask-SocketIO's middleware, so that Socket.IO sees the forwarded scheme and host.
    app.wsgi_app = Edge(app.wsgi_app, config.FORWARDED_ALLOW_IPS,  # type: ignore[method-assign]
                        log=config.ACCESS_LOG, compression=config.WEBSOCKET_COMPRESSION)
    runtime = Runtime.of_socketio(socketio)
    store = open_store(config, app.instance_path, runtime)
    lounge = Lounge(store, hard_seconds=config.BOT_HARD_SECONDS)
    signer = TokenSigner(config.SECRET_KEY, config.TOKEN_MAX_AGE_SECONDS)
    sockets = LoungeSockets(socketio, signer, config,
                            KeyedLimiter.per_minute(config.CONNECT_RATE_PER_MINUTE), node=node_id)
    cluster: ClusterNode | None = None
    router: Router
    if bus is None:
        service, router = _run_alone(config, sockets, lounge, runtime)
    else:
        service, router = _join_cluster(config, sockets, bus, lounge, runtime)
        cluster = router.node
    app.extensions["lounge"] = LoungeContext(
        config, lounge, signer, socketio, sockets, service, router,
        KeyedLimiter.per_minute(config.REST_RATE_PER_MINUTE), cluster,
        session_limiter=KeyedLimiter.per_minute(config.SESSION_RATE_PER_MINUTE),
        replay_limiter=KeyedLimiter.per_minute(config.REPLAY_RATE_PER_MINUTE),
        replays=ReplayCache(config.REPLAY_CACHE_ENTRIES, config.REPLAY_CACHE_BYTES),
        history=store if isinstance(store, HistoryStore) else None)
    app.register_blueprint(history)
    app.register_blueprint(api)
    app.register_blueprint(web)
    register_error_handlers(app)
    return app


def _socketio(app: Flask, config: Config, bus: ClusterBus | None) -> SocketIO:
    """The app's Socket.IO server (on the cluster's bus, if any), with the lounge's changes to
    what its transport reads and writes (:mod:`backend.wire`, :mod:`backend.bad_packets`,
    :mod:`backend.speedups`)."""
    # async_handlers=False: a connection's events run in its own reader greenlet, one after the
    # other in arrival order, instead of spawning a task per event (which cost a third of a move).
    socketio = SocketIO(
        app, async_mode=config.ASYNC_MODE, cors_allowed_origins=origin_check(config.CORS_ORIGINS),
        max_http_buffer_size=config.MAX_MESSAGE_BYTES, logger=False, engineio_logger=False,
        serializer=TextPacket, manage_session=False, async_handlers=False,
        **({"client_manager": bus} if bus else {}))
    bad_packets.guard(socketio.server)
    speedups.speed_up(socketio.server)
    return socketio


def _run_alone(config: Config, sockets: LoungeSockets, lounge: Lounge,
               runtime: Runtime) -> tuple[LoungeService, LocalRouter]:
    """One process: the service tells this process's connections, every event runs here, and
    every room of the store is back at once."""
    service = LoungeService(lounge, SocketNotifier(sockets), runtime, config)
    router = LocalRouter(service)
    sockets.register(router)
    service.recover()
    if isinstance(lounge.store, HistoryStore):
        Housekeeper(service, lounge.store).start()
    return service, router


def _join_cluster(config: Config, sockets: LoungeSockets, bus: ClusterBus, lounge: Lounge,
                  runtime: Runtime) -> tuple[LoungeService, ClusterRouter]:
    """Cluster mode: the service tells connections on any process, events go to the room's
    owner, and this process starts taking rooms (instead of loading them all)."""
    store = lounge.store
    if not isinstance(store, SqlRoomStore):
        raise ValueError("cluster mode needs a PostgreSQL DATABASE_URL")
    node_id = bus.node
    store.lease(node_id)
    directory = Directory(bus, config.CLUSTER_NAME)
    notifier = ClusterNotifier(node_id, sockets, bus, directory)
    service = LoungeService(lounge, notifier, runtime, config)
    url = store.worker.engine.url.render_as_string(hide_password=False)
    node = ClusterNode(service, notifier, sockets, bus, LeaseBook(url, node_id,
                                                                  config.LEASE_SECONDS))
    router = ClusterRouter(node, directory)
    sockets.register(router)
    router.start()
    Housekeeper(service, store).start()
    return service, router


def _ignore(*_: object) -> None:
    """No cluster messages are handled before the router starts listening."""
