"""Talking to a lounge server: REST for the identity and the room, Socket.IO for the rest.

Nothing here draws or reads the keyboard. Socket.IO callbacks run on the client's own thread,
so every event is put on a queue as an :class:`Incoming`, and the input loop handles them one at
a time on the main thread (no locks needed anywhere else).
"""

from __future__ import annotations

import contextlib
import queue
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import requests
import socketio

REST_TIMEOUT = 10.0
SERVER_EVENTS = ("room", "seats", "state", "chat", "closed")


class ServerError(Exception):
    """The server refused a request, or could not be reached; ``message`` is for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Incoming:
    """One thing that happened on the connection: a server event, an acknowledgement, or a
    change of the connection itself (``connect``, ``disconnect``, ``connect_error``)."""

    kind: str
    data: Any = None
    event: str | None = None  # for acks: the event that was acknowledged
    sent: Any = None  # for acks: the payload that was sent with it


def normalise_url(url: str) -> str:
    """The server's base URL without a trailing slash; a clear error for anything else."""
    text = (url or "").strip()
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ServerError("bad_url", f"{url!r} is not a server address like http://host:5000")
    try:
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise ServerError("bad_url", f"{url!r} has a bad port number") from None
    return f"{parts.scheme}://{parts.netloc}"


def error_of(body: Any, fallback: str) -> ServerError:
    """The protocol's ``{"error": {"code", "message"}}`` as a ServerError, whatever arrived."""
    err = body.get("error") if isinstance(body, dict) else None
    if isinstance(err, dict) and isinstance(err.get("message"), str):
        return ServerError(str(err.get("code") or "error"), err["message"])
    return ServerError("error", fallback)


class Rest:
    """The REST half of the protocol."""

    def __init__(self, base_url: str) -> None:
        self.base = normalise_url(base_url)
        self.http = requests.Session()

    def _call(self, method: str, path: str, token: str | None = None,
              body: dict | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            response = self.http.request(method, self.base + path, json=body, headers=headers,
                                         timeout=REST_TIMEOUT)
        except requests.RequestException:
            raise ServerError("unreachable", f"Cannot reach the server at {self.base}") from None
        try:
            data = response.json()
        except ValueError:
            data = None
        if response.status_code >= 400:
            raise error_of(data, f"The server answered {response.status_code}")
        if not isinstance(data, dict):
            raise ServerError("bad_reply", "The server sent something that is not a lounge reply")
        return data

    def new_session(self) -> tuple[str, str]:
        """A new identity: ``(user_id, token)``."""
        data = self._call("POST", "/api/session")
        user_id, token = data.get("user_id"), data.get("token")
        if not isinstance(user_id, str) or not isinstance(token, str):
            raise ServerError("bad_reply", "The server did not hand out an identity")
        return user_id, token

    def games(self) -> dict:
        """``{"games": [...], "bot_levels": [...]}``."""
        return self._call("GET", "/api/games")

    def room(self, code: str) -> dict:
        """The room object of the room with this code (not_found if there is none)."""
        return self._call("GET", f"/api/rooms/{quote(code, safe='')}")

    def create_room(self, token: str, game: str, name: str, public: bool) -> dict:
        """A new room hosted by the token's user; the room object."""
        return self._call("POST", "/api/rooms", token,
                          {"game": game, "name": name, "public": public})


class Link:
    """The Socket.IO connection. Everything it hears goes on ``inbox``; it reconnects by itself
    (the app sends ``join`` again on every ``connect``)."""

    def __init__(self, base_url: str, token: str, inbox: queue.Queue, room: str = "") -> None:
        self.base = normalise_url(base_url)
        self.token = token
        # The room in the URL, as the web client does: a balancer places a room's players on
        # one server by it (docs/deployment.md).
        self.url = f"{self.base}?{urlencode({'room': room.upper()})}" if room else self.base
        self.inbox = inbox
        self.sio = socketio.Client(reconnection=True, reconnection_attempts=0,
                                   reconnection_delay=0.5, reconnection_delay_max=4,
                                   logger=False, engineio_logger=False,
                                   handle_sigint=False)  # Ctrl-C is ours: leave, then go
        self._wire()

    def _wire(self) -> None:
        sio, put = self.sio, self.inbox.put
        sio.on("connect", lambda: put(Incoming("connect")))
        sio.on("disconnect", lambda *reason: put(Incoming("disconnect", _first(reason))))
        sio.on("connect_error", lambda *data: put(Incoming("connect_error", _first(data))))
        for name in SERVER_EVENTS:
            sio.on(name, self._relay(name))

    def _relay(self, name: str):
        def handler(*args: Any) -> None:
            self.inbox.put(Incoming(name, _first(args)))
        return handler

    def connect(self, timeout: float = 10.0) -> None:
        """Connect once; ServerError with a clear message if the server refuses or is away."""
        try:
            self.sio.connect(self.url, auth={"token": self.token}, wait_timeout=timeout,
                             transports=["websocket", "polling"])
        except socketio.exceptions.ConnectionError as exc:
            raise ServerError("unreachable", connection_problem(exc, self.base)) from None

    @property
    def connected(self) -> bool:
        """Whether the namespace is connected, so that an emit goes out. Not ``sio.connected``:
        on a reconnection the library fires ``connect`` (on which the app sends its join) on
        its own thread before ``connect()`` sets ``sio.connected``, so a join handled in that
        moment was dropped and the player, told he was back, was never in the room again."""
        return self.sio.get_sid() is not None

    def send(self, event: str, data: dict) -> bool:
        """Emit with an acknowledgement, which arrives on the inbox; False if not connected."""
        if not self.connected:
            return False

        def ack(*reply: Any) -> None:
            self.inbox.put(Incoming("ack", _first(reply), event, data))

        try:
            self.sio.emit(event, data, callback=ack)
        except Exception:  # the connection dropped between the check and the emit
            return False
        return True

    def call(self, event: str, data: dict, timeout: float = 2.0) -> Any:
        """Emit and wait for the acknowledgement (used only when quitting); None on failure."""
        if not self.connected:
            return None
        try:
            return self.sio.call(event, data, timeout=timeout)
        except Exception:
            return None

    def close(self) -> None:
        with contextlib.suppress(Exception):  # already gone: nothing left to close
            self.sio.disconnect()


def _first(args: tuple) -> Any:
    return args[0] if args else None


def connection_problem(exc: BaseException, base: str) -> str:
    """A sentence for a failed connection: the server's own refusal message if it sent one."""
    for arg in getattr(exc, "args", ()):
        if isinstance(arg, dict) and isinstance(arg.get("message"), str):
            return arg["message"]
    return f"Cannot connect to {base}"
