"""The app factory: Flask, Socket.IO, the lounge and its handlers, wired together."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask
from flask_cors import CORS
from flask_socketio import SocketIO

from .api import api
from .auth import TokenSigner
from .config import Config, from_env
from .db import Runtime, open_store, recover
from .edge import Edge, is_own_origin
from .errors import register_error_handlers
from .history import history
from .ratelimit import KeyedLimiter
from .rooms import Lounge
from .sockets import LoungeSockets
from .web import web
from .wire import LoungeJSONProvider, TextPacket, refuse_binary


@dataclass
class LoungeContext:
    """The parts of one running lounge, kept in ``app.extensions["lounge"]``."""

    config: Config
    lounge: Lounge
    signer: TokenSigner
    socketio: SocketIO
    sockets: LoungeSockets
    rest_limiter: KeyedLimiter


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
    app.config.update(SECRET_KEY=config.SECRET_KEY, MAX_CONTENT_LENGTH=64 * 1024)
    app.json.sort_keys = False
    CORS(app, resources={r"/api/*": {"origins": list(config.CORS_ORIGINS)}})
    # async_handlers=False: a connection's events run in its own reader greenlet, one after the
    # other in arrival order, instead of spawning a task per event (which cost a third of a move).
    socketio = SocketIO(
        app, async_mode=config.ASYNC_MODE, cors_allowed_origins=origin_check(config.CORS_ORIGINS),
        max_http_buffer_size=config.MAX_MESSAGE_BYTES, logger=False, engineio_logger=False,
        serializer=TextPacket, manage_session=False, async_handlers=False)
    refuse_binary(socketio.server)
    # Outside Flask-SocketIO's middleware, so that Socket.IO sees the forwarded scheme and host.
    app.wsgi_app = Edge(app.wsgi_app, config.FORWARDED_ALLOW_IPS,  # type: ignore[method-assign]
                        log=config.ACCESS_LOG)
    store = open_store(config, app.instance_path,
                       Runtime.of_socketio(socketio))
    lounge = Lounge(store, hard_seconds=config.BOT_HARD_SECONDS)
    signer = TokenSigner(config.SECRET_KEY, config.TOKEN_MAX_AGE_SECONDS)
    sockets = LoungeSockets(socketio, lounge, signer, config)
    sockets.register()
    recover(sockets)
    per_minute = config.REST_RATE_PER_MINUTE
    limiter = KeyedLimiter(per_minute / 60.0, max(1.0, per_minute))
    app.extensions["lounge"] = LoungeContext(config, lounge, signer, socketio, sockets, limiter)
    app.register_blueprint(history)
    app.register_blueprint(api)
    app.register_blueprint(web)
    register_error_handlers(app)
    return app
