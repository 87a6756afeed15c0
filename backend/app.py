"""The app factory: Flask, Socket.IO, the lounge and its handlers, wired together."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from flask import Flask
from flask_cors import CORS
from flask_socketio import SocketIO

from . import bad_packets, speedups
from .api import api, register_error_handlers
from .auth import TokenSigner
from .cluster import ClusterBus, ClusterNode, ClusterNotifier, Directory, LeaseBook, new_node_id
from .config import Config, from_env
from .db import open_store
from .db.store import SqlRoomStore
from .edge import Edge, is_own_origin
from .history import ReplayCache, history
from .housekeeping import Housekeeper
from .ratelimit import KeyedLimiter
from .rooms import Lounge
from .runtime import Runtime
from .service import LoungeService
from .sockets import LoungeSockets, SocketNotifier
from .store import HistoryStore
from .web import web
from .wire import LoungeJSONProvider, TextPacket


class Rooms(Protocol):
    """What REST asks about rooms."""

    def create_room(self, user_id: str, slug: str, name: str, public: bool) -> dict: ...

    def room_summary(self, key: str) -> dict: ...

    def public_rooms(self, waiting: bool = True) -> list[dict]: ...


@dataclass
class LoungeContext:
    """The parts of one running lounge, kept in ``app.extensions["lounge"]``."""

    config: Config
    lounge: Lounge
    signer: TokenSigner
    socketio: SocketIO
    sockets: LoungeSockets
    service: LoungeService
    rooms: Rooms  # the service, or in cluster mode the cluster node (REST's view of rooms)
    rest_limiter: KeyedLimiter
    cluster: ClusterNode | None = None
    session_limiter: KeyedLimiter | None = None  # new identities per client address
    replay_limiter: KeyedLimiter | None = None  # history reads per client address
    replays: ReplayCache | None = None
    history: HistoryStore | None = None  # finished games, when the store keeps them


def origin_check(allowed: tuple[str, ...]):
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
    bus = (ClusterBus(config.REDIS_URL, config.CLUSTER_NAME, new_node_id(), _ignore)
           if config.clustered else None)
    socketio = _socketio(app, config, bus)
    # Outside Flask-SocketIO's middleware, so that Socket.IO sees the forwarded scheme and host.
    app.wsgi_app = Edge(app.wsgi_app, config.FORWARDED_ALLOW_IPS,  # type: ignore[method-assign]
                        log=config.ACCESS_LOG, compression=config.WEBSOCKET_COMPRESSION)
    runtime = Runtime.of_socketio(socketio)
    store = open_store(config, app.instance_path, runtime)
    lounge = Lounge(store, hard_seconds=config.BOT_HARD_SECONDS)
    signer = TokenSigner(config.SECRET_KEY, config.TOKEN_MAX_AGE_SECONDS)
    sockets = LoungeSockets(socketio, signer, config)
    cluster: ClusterNode | None = None
    if bus is None:
        service = _run_alone(config, sockets, lounge, runtime)
        rooms: Rooms = service
    else:
        service, cluster = _join_cluster(config, sockets, bus, lounge, runtime)
        rooms = cluster
    app.extensions["lounge"] = LoungeContext(
        config, lounge, signer, socketio, sockets, service, rooms,
        _per_minute(config.REST_RATE_PER_MINUTE), cluster,
        session_limiter=_per_minute(config.SESSION_RATE_PER_MINUTE),
        replay_limiter=_per_minute(config.REPLAY_RATE_PER_MINUTE),
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
               runtime: Runtime) -> LoungeService:
    """One process: the service tells this process's connections, every event runs here, and
    every room of the store is back at once."""
    service = LoungeService(lounge, SocketNotifier(sockets), runtime, config)
    sockets.resolve = service.resolve
    sockets.dispatch = lambda name, caller, data: service.operation(name)(caller, data)
    sockets.register()
    service.recover()
    if isinstance(lounge.store, HistoryStore):
        Housekeeper(service, lounge.store).start()
    return service


def _join_cluster(config: Config, sockets: LoungeSockets, bus: ClusterBus, lounge: Lounge,
                  runtime: Runtime) -> tuple[LoungeService, ClusterNode]:
    """Cluster mode: the service tells connections on any process, events go to the room's
    owner, and this process starts taking rooms (instead of loading them all)."""
    store = lounge.store
    if not isinstance(store, SqlRoomStore):
        raise ValueError("cluster mode needs a PostgreSQL DATABASE_URL")
    node_id = bus.own.rsplit(":", 1)[1]
    store.lease(node_id)
    sockets.node = node_id
    directory = Directory(bus, config.CLUSTER_NAME)
    service = LoungeService(lounge, ClusterNotifier(node_id, sockets, bus, directory), runtime,
                            config)
    url = store.worker.engine.url.render_as_string(hide_password=False)
    node = ClusterNode(service, sockets, bus, LeaseBook(url, node_id, config.LEASE_SECONDS),
                       directory)
    bus.on_message = node.on_message
    sockets.resolve = node.resolve
    sockets.dispatch = node.dispatch
    sockets.register()
    node.start()
    Housekeeper(service, store).start()
    return service, node


def _per_minute(per_minute: float) -> KeyedLimiter:
    """A limiter per client address: ``per_minute`` a minute, as many at once."""
    return KeyedLimiter(per_minute / 60.0, max(1.0, per_minute))


def _ignore(*_: object) -> None:
    """No cluster messages are handled before the node is up."""
