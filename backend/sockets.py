"""The Socket.IO transport: connections, payload checks, and each event handed to the
:class:`~backend.router.Router` (the local service, or in cluster mode the room's owner).

An event named in :data:`~backend.schemas.SOCKET_SCHEMAS` is checked by its schema, then
``router.dispatch(event, caller, payload)`` runs the service's operation of that name
(:mod:`backend.service`); any other event is answered ``unknown_event``.

Every state message goes to one connection, for exactly the seats it plays or the spectator
view; only the room object, chat and ``closed`` go to the whole Socket.IO room.

Limits are kept per identity (the token's user id) over all its connections on this process,
and per client address for connections, so that opening more connections, or minting more
identities, does not buy more: events per second, connections, rooms joined at once.

The handlers are registered on Flask-SocketIO's underlying python-socketio server: they need no
Flask request context, and building one for every event (with its session and URL matching)
cost more than the rest of a move put together.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from flask_socketio import SocketIO
from marshmallow import ValidationError
from socketio.exceptions import ConnectionRefusedError as Refused

from .auth import TokenSigner
from .config import Config
from .errors import SERVER_FAULT, LoungeError, error_body, validation_message
from .handshakes import limit_pending
from .ratelimit import KeyedLimiter
from .rooms import Room
from .router import Router
from .schemas import SOCKET_SCHEMAS, Remembered
from .service import Caller, Told
from .wire import MALFORMED, RESERVED_MARK, OrjsonCodec, event_packet

log = logging.getLogger(__name__)


@dataclass
class Connection:
    """One live Socket.IO connection: whose it is and where it is."""

    sid: str
    user_id: str
    room_id: str | None = None
    address: str = "?"


def connection_name(node: str | None, sid: str) -> str:
    """The service's name for a connection: its sid, or ``<process>.<sid>`` in a cluster."""
    return sid if node is None else f"{node}.{sid}"


def split_connection(name: str) -> tuple[str, str]:
    """(process, sid) of a cluster connection name (see :func:`connection_name`)."""
    node, _, sid = name.partition(".")
    return node, sid


def channel(room_id: str) -> str:
    """The Socket.IO room of a lounge room (for room, chat and closed events)."""
    return f"room:{room_id}"


def failure(code: str, message: str) -> dict:
    """An error acknowledgement."""
    return {"ok": False, **error_body(code, message)}


class LoungeSockets:
    """The lounge's Socket.IO connections and event handlers; every event goes to the router
    handed to :meth:`register`.

    ``new_connections`` limits new connections per client address; ``node`` is this process's
    name in a cluster (None alone), part of every connection's name."""

    router: Router  # set by register(), before any handler can run

    def __init__(self, socketio: SocketIO, signer: TokenSigner, config: Config,
                 new_connections: KeyedLimiter, node: str | None = None) -> None:
        self.socketio = socketio
        self.server = socketio.server
        self.signer = signer
        self.config = config
        self.connections: dict[str, Connection] = {}
        self.by_user: dict[str, set[str]] = {}  # an identity's connections on this process
        self.by_address: dict[str, int] = {}  # open connections per client address
        # kept beyond a connection's end, so that reconnecting does not refill the budget
        self.events = KeyedLimiter(config.SOCKET_RATE_PER_SECOND, config.SOCKET_RATE_BURST,
                                   max_keys=100_000)
        self.new_connections = new_connections
        # Engine.IO sessions not signed in yet: as many an address, for REQUEST_TIMEOUT_SECONDS
        self.pending = limit_pending(self.server, config.REQUEST_TIMEOUT_SECONDS,
                                     config.MAX_CONNECTIONS_PER_ADDRESS)
        self.node = node

    def caller(self, conn: Connection, room_id: str | None = None) -> Caller:
        """The service's view of a connection."""
        return Caller(connection_name(self.node, conn.sid), conn.user_id,
                      room_id or conn.room_id)

    # -- registration ------------------------------------------------------------------------

    def register(self, router: Router) -> None:
        """Attach every handler to the Socket.IO server: each event of
        :data:`~backend.schemas.SOCKET_SCHEMAS` goes to ``router``."""
        self.router = router
        sio = self.server
        sio.on("connect", self.on_connect)
        sio.on("disconnect", self.on_disconnect)
        for name in SOCKET_SCHEMAS:
            sio.on(name, self._guard(name))
        sio.on("*", self.on_unknown)

    def _guard(self, name: str) -> Callable[..., dict]:
        """Wrap an event: rate limit, size cap, validation, and an error ack for anything."""
        schema = Remembered(SOCKET_SCHEMAS[name])
        handle = self.join if name == "join" else self._event

        def run(sid: str, *args: object) -> dict:
            conn = self.connections.get(sid)
            if conn is None:
                return failure("unauthorized", "Connect again: this connection is not signed in")
            try:
                if not self.events.take(conn.user_id):
                    raise LoungeError("rate_limited", "Slow down: too many messages")
                data = schema.load(*self._payload(args))
                return {"ok": True, **(handle(name, conn, data) or {})}
            except LoungeError as exc:
                return failure(exc.code, exc.message)
            except ValidationError as exc:
                return failure("bad_request", validation_message(exc.messages))
            except Exception:
                log.exception("event %s failed", name)
                return failure("internal", SERVER_FAULT)

        run.__name__ = f"on_{name}"
        return run

    def _payload(self, args: tuple) -> tuple[dict, str]:
        """The event's payload, and its JSON text."""
        if len(args) == 0:
            return {}, "{}"
        if len(args) > 1:
            raise LoungeError("bad_request", "Send one JSON object per event")
        data = args[0]
        if data is None:
            return {}, "{}"
        if not isinstance(data, dict):
            raise LoungeError("bad_request", "The payload must be a JSON object")
        if len(data) > 16 or len(text := self._text(data)) > self.config.MAX_PAYLOAD_BYTES:
            raise LoungeError("payload_too_large", "That message is too large")
        return data, text

    @staticmethod
    def _text(data: dict) -> str:
        try:
            return OrjsonCodec.dumps(data)
        except TypeError:
            raise LoungeError("bad_request", "The payload must be plain JSON") from None

    # -- connecting --------------------------------------------------------------------------

    def on_connect(self, sid: str, environ: dict, auth: object = None) -> bool:
        """Accept a connection only with a valid token, within the client address's rate of
        new connections and number of open ones, and the identity's number of connections."""
        address = environ.get("REMOTE_ADDR") or "?"
        if not self.new_connections.take(address):
            _refuse("rate_limited", "Too many new connections from your address: wait a "
                                    "minute and try again")
        if self.by_address.get(address, 0) >= self.config.MAX_CONNECTIONS_PER_ADDRESS:
            _refuse("forbidden", "Too many connections from your address: close some and try "
                                 "again")
        token = auth.get("token") if isinstance(auth, dict) else None
        user_id = self.signer.user_id(token)
        if user_id is None:
            _refuse("unauthorized", "Sign in again: your token is not valid")
        mine = self.by_user.setdefault(user_id, set())
        if len(mine) >= self.config.MAX_CONNECTIONS_PER_USER:
            _refuse("forbidden", f"You already have {len(mine)} connections open: close a tab "
                                 "and try again")
        mine.add(sid)
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.connections[sid] = Connection(sid, user_id, address=address)
        self.pending.signed_in(sid)
        return True

    def on_disconnect(self, sid: str, reason: object = None) -> None:
        """Forget the connection and tell its room."""
        conn = self.connections.pop(sid, None)
        if conn is not None:
            mine = self.by_user.get(conn.user_id, set())
            mine.discard(sid)
            if not mine:
                self.by_user.pop(conn.user_id, None)
            left = self.by_address.pop(conn.address, 1) - 1
            if left > 0:
                self.by_address[conn.address] = left
        if conn is None or conn.room_id is None:
            return
        try:
            self.router.dispatch("disconnect", self.caller(conn), {})
        except LoungeError as exc:  # the owner's sweep of dead processes cannot see this one
            log.warning("disconnect of %s not delivered: %s", sid, exc.message)
        except Exception:
            log.exception("disconnect of %s failed", sid)

    def on_unknown(self, event: str, sid: str, *args: object) -> dict:
        """Any event the lounge does not know (or could not parse)."""
        conn = self.connections.get(sid)
        if conn is not None and not self.events.take(conn.user_id):
            return failure("rate_limited", "Slow down: too many messages")
        if event == MALFORMED:
            return failure("bad_request", "That message is not valid JSON")
        return failure("unknown_event",
                       f"There is no event {str(event).removeprefix(RESERVED_MARK)[:40]!r}")

    # -- events ------------------------------------------------------------------------------

    def join(self, name: str, conn: Connection, data: dict) -> dict | None:
        """Enter a room. The connection joins the room's channel first, so that it hears
        everything said in the room from the moment it is in it."""
        room_id = self.router.resolve(data["room"])
        if conn.room_id is not None and conn.room_id != room_id:
            raise LoungeError("already_in_room", "Leave your current room before joining another")
        rooms = {self.connections[sid].room_id for sid in self.by_user.get(conn.user_id, ())
                 if sid in self.connections} - {None}
        if room_id not in rooms and len(rooms) >= self.config.MAX_ROOMS_PER_USER:
            raise LoungeError("forbidden", f"You are already in {len(rooms)} rooms: leave one "
                                           "before joining another")
        self.server.enter_room(conn.sid, channel(room_id))
        try:
            result = self.router.dispatch(name, self.caller(conn, room_id), data)
        except Exception:
            if conn.room_id != room_id:
                self.server.leave_room(conn.sid, channel(room_id))
            raise
        conn.room_id = room_id
        return result

    def _event(self, name: str, conn: Connection, data: dict) -> dict | None:
        if conn.room_id is None:
            raise LoungeError("not_in_room", "Join a room first")
        return self.router.dispatch(name, self.caller(conn), data)

    # -- what the service tells ----------------------------------------------------------------

    def send(self, conn: str, event: str, data: dict) -> None:
        """One message to one connection of this process, written as a Socket.IO event packet
        straight to its Engine.IO session: ``emit`` would look the connection up as a room,
        walk that room's participants and build a packet object for its one receiver (see
        docs/performance.md, change 7)."""
        eio_sid = self.server.manager.eio_sid_from_sid(conn, "/")
        if eio_sid is not None:
            self.server.eio.send(eio_sid, event_packet(event, data))

    def broadcast(self, room_id: str, event: str, data: dict) -> None:
        """One message to the room's channel on this process."""
        self.server.emit(event, data, to=channel(room_id), ignore_queue=True)

    def dismiss(self, room_id: str, conns: list[str]) -> None:
        """These connections of this process are out of the room."""
        for sid in conns:
            conn = self.connections.get(sid)
            if conn is not None and conn.room_id == room_id:
                conn.room_id = None
                self.server.leave_room(sid, channel(room_id))

    def closed(self, room_id: str, reason: str, conns: list[str]) -> None:
        """The room closed: its channel on this process is told ``closed`` and goes, and these
        connections of this process are out of the room."""
        self.broadcast(room_id, "closed", {"reason": reason})
        self.dismiss(room_id, conns)
        self.server.close_room(channel(room_id))

    def members(self, room_id: str) -> list[Connection]:
        """This process's connections in a room."""
        return [c for c in self.connections.values() if c.room_id == room_id]


class SocketNotifier:
    """The service's :class:`~backend.service.Notifier` for one process: every connection is
    one of this process's Socket.IO connections."""

    def __init__(self, sockets: LoungeSockets) -> None:
        self.sockets = sockets

    def tell(self, room: Room, messages: list[Told]) -> None:
        """Each message to its connection, or to everyone in the room."""
        for conn, event, data in messages:
            if conn is None:
                self.sockets.broadcast(room.id, event, data)
            else:
                self.sockets.send(conn, event, data)

    def dismiss(self, room: Room, conns: list[str]) -> None:
        """These connections left the room."""
        self.sockets.dismiss(room.id, conns)

    def closed(self, room: Room, conns: list[str], reason: str) -> None:
        """Everyone gets ``closed``; the channel goes."""
        self.sockets.closed(room.id, reason, conns)


def _refuse(code: str, message: str) -> NoReturn:
    """Refuse a connection: the client's connect_error carries the error."""
    raise Refused(message, {"code": code, "message": message})
