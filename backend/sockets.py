"""Thin Socket.IO handlers: check the connection and payload, call the room, send the results.

Every state message goes to one connection (``to=sid``), for exactly the seats it plays or the
spectator view; only the room object, chat and ``closed`` go to the whole Socket.IO room.

The handlers are registered on Flask-SocketIO's underlying python-socketio server: they need no
Flask request context, and building one for every event (with its session and URL matching)
cost more than the rest of a move put together.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count

from flask_socketio import SocketIO
from marshmallow import ValidationError
from socketio.exceptions import ConnectionRefusedError as Refused

from .auth import TokenSigner
from .bots import BotRunner
from .config import Config
from .errors import LoungeError, error_body, validation_message
from .ratelimit import TokenBucket
from .rooms import Lounge, Room
from .schemas import SOCKET_SCHEMAS
from .wire import MALFORMED, OrjsonCodec

log = logging.getLogger(__name__)
Handler = Callable[["Connection", dict], dict | None]


@dataclass
class Connection:
    """One live Socket.IO connection: whose it is, where it is, how fast it talks."""

    sid: str
    user_id: str
    bucket: TokenBucket
    room_id: str | None = None


def channel(room: Room) -> str:
    """The Socket.IO room of a lounge room (for room, chat and closed events)."""
    return f"room:{room.id}"


def failure(code: str, message: str) -> dict:
    """An error acknowledgement."""
    return {"ok": False, **error_body(code, message)}


class LoungeSockets:
    """The lounge's Socket.IO event handlers, bound to one app's lounge."""

    def __init__(self, socketio: SocketIO, lounge: Lounge, signer: TokenSigner,
                 config: Config) -> None:
        self.socketio = socketio
        self.server = socketio.server
        self.lounge = lounge
        self.signer = signer
        self.config = config
        self.connections: dict[str, Connection] = {}
        self.absences: dict[tuple[str, str], int] = {}
        self._absence_ids = count(1)
        self.bots = BotRunner(socketio, config, self.publish)

    # -- registration ------------------------------------------------------------------------

    def register(self) -> None:
        """Attach every handler to the Socket.IO server."""
        sio = self.server
        sio.on("connect", self.on_connect)
        sio.on("disconnect", self.on_disconnect)
        handlers: dict[str, Handler] = {
            "join": self.join, "leave": self.leave, "chat": self.chat, "ready": self.ready,
            "add_bot": self.add_bot, "add_local": self.add_local,
            "remove_seat": self.remove_seat, "start": self.start, "rematch": self.rematch,
            "move": self.move, "undo": self.undo,
        }
        for name, handler in handlers.items():
            sio.on(name, self._guard(name, handler))
        sio.on("*", self.on_unknown)

    def _guard(self, name: str, handler: Handler) -> Callable[..., dict]:
        """Wrap a handler: rate limit, size cap, validation, and an error ack for anything."""
        schema = SOCKET_SCHEMAS[name]

        def run(sid: str, *args: object) -> dict:
            conn = self.connections.get(sid)
            if conn is None:
                return failure("unauthorized", "Connect again: this connection is not signed in")
            try:
                if not conn.bucket.take():
                    raise LoungeError("rate_limited", "Slow down: too many messages")
                data = schema.load(self._payload(args))
                return {"ok": True, **(handler(conn, data) or {})}
            except LoungeError as exc:
                return failure(exc.code, exc.message)
            except ValidationError as exc:
                return failure("bad_request", validation_message(exc.messages))
            except Exception:
                log.exception("event %s failed", name)
                return failure("internal", "Something went wrong on the server")

        run.__name__ = f"on_{name}"
        return run

    def _payload(self, args: tuple) -> dict:
        if len(args) == 0:
            return {}
        if len(args) > 1:
            raise LoungeError("bad_request", "Send one JSON object per event")
        data = args[0]
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise LoungeError("bad_request", "The payload must be a JSON object")
        if len(data) > 16 or self._size(data) > self.config.MAX_PAYLOAD_BYTES:
            raise LoungeError("payload_too_large", "That message is too large")
        return data

    @staticmethod
    def _size(data: dict) -> int:
        try:
            return len(OrjsonCodec.dumps(data))
        except TypeError:
            raise LoungeError("bad_request", "The payload must be plain JSON") from None

    # -- connecting --------------------------------------------------------------------------

    def on_connect(self, sid: str, environ: dict, auth: object = None) -> bool:
        """Accept a connection only with a valid token."""
        token = auth.get("token") if isinstance(auth, dict) else None
        user_id = self.signer.user_id(token)
        if user_id is None:
            message = "Sign in again: your token is not valid"
            raise Refused(message, {"code": "unauthorized", "message": message})
        bucket = TokenBucket(self.config.SOCKET_RATE_PER_SECOND, self.config.SOCKET_RATE_BURST)
        self.connections[sid] = Connection(sid, user_id, bucket)
        return True

    def on_disconnect(self, sid: str, reason: object = None) -> None:
        """Forget the connection; a player with no connection left gets a grace period."""
        conn = self.connections.pop(sid, None)
        if conn is None or conn.room_id is None:
            return
        room = self.lounge.store.get(conn.room_id)
        if room is None:
            return
        with room.lock:
            gone = room.detach(conn.sid)
            if room.closed:
                return
            if gone is not None and room.seats_of(gone):
                self._start_grace(room, gone)
            self.send_room(room)

    def on_unknown(self, event: str, sid: str, *args: object) -> dict:
        """Any event the lounge does not know (or could not parse)."""
        conn = self.connections.get(sid)
        if conn is not None and not conn.bucket.take():
            return failure("rate_limited", "Slow down: too many messages")
        if event == MALFORMED:
            return failure("bad_request", "That message is not valid JSON")
        return failure("unknown_event", f"There is no event {str(event)[:40]!r}")

    # -- sending -----------------------------------------------------------------------------

    def send_room(self, room: Room) -> None:
        """The room object to everyone in the room."""
        self.lounge.store.save(room)  # write before telling: see publish
        self.server.emit("room", room.summary(), to=channel(room))

    def send_states(self, room: Room, only: str | None = None) -> None:
        """Each connection's own states (or only one connection's)."""
        self._emit_states(room.deliveries(only))

    def _emit_states(self, deliveries: list[tuple[str, dict]]) -> None:
        for sid, state in deliveries:
            self.server.emit("state", state, to=sid)

    def publish(self, room: Room, status_before: str) -> None:
        """After a change to the match: states to every connection, the room if its status
        changed, and the bots' next decisions. Called with the room's lock held.

        Write before telling: the store saves the change (a durable store returns once it is
        committed) before anyone hears of it; if it cannot, the room goes back as it was and
        the error reaches the caller instead. The states are prepared while the change is
        being committed, and sent only once it is."""
        saved = self.lounge.store.start_save(room)
        deliveries = room.deliveries()
        saved()
        self._emit_states(deliveries)
        if room.status != status_before:
            self.send_room(room)
        self.bots.schedule(room)

    def close_room(self, room: Room, reason: str) -> None:
        """Everyone gets ``closed``; the room and its code are gone."""
        sids = list(room.connections)
        self.server.emit("closed", {"reason": reason}, to=channel(room))
        for sid in sids:
            conn = self.connections.get(sid)
            if conn is not None and conn.room_id == room.id:
                conn.room_id = None
        self.server.close_room(channel(room))
        self.lounge.close(room)

    # -- grace periods -----------------------------------------------------------------------

    def _start_grace(self, room: Room, user_id: str, delay: float | None = None) -> None:
        mark = next(self._absence_ids)
        self.absences[(room.id, user_id)] = mark
        if delay is None:
            host = user_id == room.host
            delay = self.config.HOST_GRACE_SECONDS if host else self.config.PLAYER_GRACE_SECONDS
        self.socketio.start_background_task(self._grace, room, user_id, mark, delay)

    def resume(self, room: Room) -> None:
        """A room rebuilt after a restart: nobody is connected yet, so every seated player's
        grace period starts now (not when they went away), and its bots play on."""
        users = {room.host} | {s.user_id for s in room.seats
                               if s.kind == "human" and not s.left and s.user_id}
        for user_id in users:
            self._start_grace(room, user_id)
        self.bots.schedule(room)

    def watch_unclaimed(self, room: Room) -> None:
        """A room whose host never connects closes after UNCLAIMED_ROOM_SECONDS."""
        self._start_grace(room, room.host, self.config.UNCLAIMED_ROOM_SECONDS)

    def _grace(self, room: Room, user_id: str, mark: int, delay: float) -> None:
        self.socketio.sleep(delay)
        key = (room.id, user_id)
        if self.absences.get(key) != mark:
            return  # they came back (and maybe left again: a newer grace period runs)
        del self.absences[key]
        try:
            with room.lock:
                if room.closed or room.is_connected(user_id):
                    return
                status = room.status
                if room.expire(user_id):
                    self.close_room(room, "host_disconnected")
                    return
                self.send_room(room)
                self.publish(room, status)
        except Exception:
            log.exception("grace period of %s in room %s failed", user_id, room.code)

    # -- events ------------------------------------------------------------------------------

    def _room(self, conn: Connection) -> Room:
        room = self.lounge.store.get(conn.room_id) if conn.room_id else None
        if room is None or room.closed:
            conn.room_id = None
            raise LoungeError("not_in_room", "Join a room first")
        return room

    def join(self, conn: Connection, data: dict) -> dict:
        """Enter a room: seats back, a new seat, or a spectator place."""
        room = self.lounge.find(data["room"])
        if conn.room_id is not None and conn.room_id != room.id:
            raise LoungeError("already_in_room", "Leave your current room before joining another")
        with room.lock:
            result = room.attach(conn.sid, conn.user_id, data["name"], data["spectate"])
            self.absences.pop((room.id, conn.user_id), None)
            conn.room_id = room.id
            self.server.enter_room(conn.sid, channel(room))
            self.send_room(room)
            self.send_states(room, only=conn.sid)
            return {"room": room.summary(), **result, "chat": self.lounge.chat_history(room)}

    def leave(self, conn: Connection, data: dict) -> None:
        """Leave for good; the host leaving closes the room."""
        room = self._room(conn)
        with room.lock:
            status = room.status
            closing = room.leave(conn.user_id)
            if closing:
                self.close_room(room, "host_left")
                return
            for sid in [s for s, c in self.connections.items()
                        if c.user_id == conn.user_id and c.room_id == room.id]:
                self.connections[sid].room_id = None
                self.server.leave_room(sid, channel(room))
            self.absences.pop((room.id, conn.user_id), None)
            self.send_room(room)
            if room.match is not None:
                self.publish(room, status)

    def chat(self, conn: Connection, data: dict) -> dict:
        """A chat message to everyone in the room."""
        room = self._room(conn)
        with room.lock:
            message = self.lounge.chat(room, conn.user_id, data["text"])
            self.server.emit("chat", message, to=channel(room))
        return {"id": message["id"]}

    def ready(self, conn: Connection, data: dict) -> None:
        """Mark your seat ready or not."""
        self._lobby(conn, lambda room: room.set_ready(conn.user_id, data["ready"]))

    def add_bot(self, conn: Connection, data: dict) -> dict:
        """Host only: a bot seat."""
        return {"seat": self._lobby(conn, lambda room: room.add_bot(conn.user_id, data["level"]))}

    def add_local(self, conn: Connection, data: dict) -> dict:
        """Host only: a hot-seat player."""
        return {"seat": self._lobby(conn, lambda room: room.add_local(conn.user_id, data["name"]))}

    def remove_seat(self, conn: Connection, data: dict) -> None:
        """Host only: free a seat before the start."""
        self._lobby(conn, lambda room: room.remove_seat(conn.user_id, data["seat"]))

    def _lobby(self, conn: Connection, action: Callable[[Room], object]) -> object:
        """A change to the seats: everyone gets the new room object."""
        room = self._room(conn)
        with room.lock:
            result = action(room)
            self.send_room(room)
        return result

    def start(self, conn: Connection, data: dict) -> None:
        """Host only: start the game."""
        self._begin(conn, lambda room: room.start(conn.user_id))

    def rematch(self, conn: Connection, data: dict) -> None:
        """Host only: a new game with the same seats."""
        self._begin(conn, lambda room: room.rematch(conn.user_id))

    def _begin(self, conn: Connection, action: Callable[[Room], None]) -> None:
        room = self._room(conn)
        with room.lock:
            action(room)
            self.send_room(room)
            self.publish(room, room.status)

    def move(self, conn: Connection, data: dict) -> dict:
        """A move for one of your seats."""
        room = self._room(conn)
        with room.lock:
            status = room.status
            version = room.move(conn.user_id, data["move"], data["args"], data["seat"])
            self.publish(room, status)
        return {"version": version}

    def undo(self, conn: Connection, data: dict) -> dict:
        """Take back your last move."""
        room = self._room(conn)
        with room.lock:
            status = room.status
            version = room.undo(conn.user_id, data["seat"])
            self.publish(room, status)
        return {"version": version}
