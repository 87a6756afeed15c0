"""The application layer: every change to a room goes through here, is saved, then told.

The transports (Socket.IO in :mod:`backend.sockets`, REST in :mod:`backend.api`) hand the
service who is asking (a :class:`Caller`) and what they sent, already validated. The service
changes the room (:mod:`backend.rooms`, which asks ``shared_rules`` about every move),
commits it (:meth:`LoungeService.commit`: the store saves the change before anyone hears of it)
and tells the room's connections through a :class:`Notifier`. Its clocks run on the
:class:`~backend.runtime.Runtime`: the bots' turns (:mod:`backend.bots`), the turn clocks
(:mod:`backend.turns`) and the grace periods (:mod:`backend.grace`).

One service runs the rooms of one process. In cluster mode (:mod:`backend.cluster`) each room
is run by the service of the process that owns it; the others forward their callers' events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from . import views
from .bots import BotRunner
from .config import Config
from .errors import LoungeError
from .grace import GraceClock
from .lounge import Lounge
from .rooms import Room
from .runtime import Runtime
from .schemas import SOCKET_SCHEMAS
from .turns import TurnClock
from .views import Told

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sent an event: their connection (an opaque id), their user id, and the room the
    event is for (None before a join)."""

    conn: str
    user_id: str
    room_id: str | None = None


class Notifier(Protocol):
    """How the service tells the room's connections (the transport implements it)."""

    def tell(self, room: Room, messages: list[Told]) -> None:
        """Messages, in order, each to one connection of the room or to all of them."""

    def dismiss(self, room: Room, conns: list[str]) -> None:
        """These connections are no longer in the room (they left it)."""

    def closed(self, room: Room, conns: list[str], reason: str) -> None:
        """The room closed: everyone in it gets ``closed`` and is dismissed."""


class LoungeService:
    """The lounge's operations on rooms, for one process's rooms."""

    def __init__(self, lounge: Lounge, notifier: Notifier, runtime: Runtime,
                 config: Config) -> None:
        self.lounge = lounge
        self.store = lounge.store
        self.notifier = notifier
        self.runtime = runtime
        self.config = config
        self.bots = BotRunner(runtime, config, self.commit)
        self.turns = TurnClock(runtime, config, self.commit)
        self.grace = GraceClock(runtime, config, self.commit, self.close_room)

    # -- saving, then telling ----------------------------------------------------------------

    def commit(self, room: Room, seats_changed: bool = False) -> None:
        """Save the room, then tell: each connection its own states if the match moved, the
        room object if its seats or status changed, then the bots' next turns. Called with
        the room's lock held.

        Write before tell: the store saves the change (a durable store returns once it is
        committed) before anyone hears of it; if it cannot, the room goes back as it was and
        the error reaches the caller instead. The states are prepared while the change is
        being committed, and sent only once it is."""
        self.turns.arm(room)  # the turn clock's deadline is saved with the change
        saved = self.store.start_save(room)
        states = views.prepare(room)
        try:
            saved()
        except LoungeError:  # the room went back as it was saved: so do its log and clock
            views.forget_news(room)
            self.turns.restored(room)
            raise
        told = views.news(room, states, seats_changed)
        if told:
            self.notifier.tell(room, told)
        self.bots.schedule(room)
        self.turns.schedule(room)

    def send_states(self, room: Room, conn: str) -> None:
        """One connection's own states (after it joined), each with its whole game log."""
        self.notifier.tell(room, [(target, "state", state) for target, state
                                  in views.deliveries(room, conn, full_log=True)])

    def close_room(self, room: Room, reason: str) -> None:
        """Everyone gets ``closed``; the room and its code are gone. Lock held."""
        self.notifier.closed(room, list(room.connections), reason)
        self.lounge.close(room, reason)

    # -- rooms from REST ---------------------------------------------------------------------

    def create_room(self, user_id: str, slug: str, name: str, public: bool) -> dict:
        """Open a room hosted by ``user_id``; its room object. It closes if its host never
        connects."""
        room = self.lounge.create_room(user_id, slug, name, public)
        self.grace.unclaimed(room)
        with room.lock:
            self.commit(room, seats_changed=True)
            return views.summary(room)

    def room_summary(self, key: str) -> dict:
        """The room object of a room, by code or id."""
        room = self.lounge.find(key)
        with room.lock:
            return views.summary(room)

    def public_rooms(self, waiting: bool = True) -> list[dict]:
        """Public rooms still waiting for players (or, not ``waiting``, playing), newest first."""
        return [views.summary(room) for room in self.lounge.public_rooms(waiting)]

    def resolve(self, key: str) -> str:
        """The id of the open room with this code or id; not_found otherwise."""
        return self.lounge.find(key).id

    # -- joining and leaving -----------------------------------------------------------------

    def room(self, caller: Caller) -> Room:
        """The open room the caller's event is for; not_in_room otherwise."""
        room = self.store.get(caller.room_id) if caller.room_id else None
        if room is None or room.closed:
            raise LoungeError("not_in_room", "Join a room first")
        return room

    def join(self, caller: Caller, data: dict) -> dict:
        """Enter a room: your seats back, a new seat, or a spectator place."""
        room = self.room(caller)
        with room.lock:
            again = caller.conn in room.connections  # a spectator taking a seat, say
            result = room.attach(caller.conn, caller.user_id, data.get("name"),
                                 data.get("spectate", False))
            self.grace.end(room, caller.user_id)
            seats = views.seats_message(room, caller.conn)  # told in the answer, not as an event
            self.commit(room, seats_changed=True)
            if again:  # ... but a connection already in the room is told as for any change
                self.notifier.tell(room, [(caller.conn, "seats", seats)])
            self.send_states(room, caller.conn)
            return {"room": views.summary(room), **result, **seats,
                    "chat": self.lounge.chat_history(room)}

    def leave(self, caller: Caller, data: dict) -> None:
        """Leave for good; the host leaving closes the room."""
        room = self.room(caller)
        with room.lock:
            conns = room.connections_of(caller.user_id)
            if room.leave(caller.user_id):
                self.close_room(room, "host_left")
                return
            # The player's other tabs (a duplicated tab shares its identity) are told, or they
            # would go on showing a seat in a room they are no longer in.
            others = [conn for conn in conns if conn != caller.conn]
            self.notifier.tell(room, [(conn, "left", {}) for conn in others])
            self.notifier.dismiss(room, conns)
            self.grace.end(room, caller.user_id)
            self.commit(room, seats_changed=True)

    def disconnect(self, caller: Caller, data: dict | None = None) -> None:
        """A connection went away; a player with no connection left gets a grace period."""
        room = self.store.get(caller.room_id) if caller.room_id else None
        if room is None:
            return
        with room.lock:
            gone = room.detach(caller.conn)
            if room.closed:
                return
            if gone is not None and room.seats_of(gone):
                self.grace.start(room, gone)
            self.commit(room, seats_changed=True)

    # -- the lobby ---------------------------------------------------------------------------

    def chat(self, caller: Caller, data: dict) -> dict:
        """A chat message to everyone in the room."""
        room = self.room(caller)
        with room.lock:
            message = self.lounge.chat(room, caller.user_id, data["text"])
            self.notifier.tell(room, [(None, "chat", message)])
        return {"id": message["id"]}

    def ready(self, caller: Caller, data: dict) -> None:
        """Mark your seat ready or not."""
        self._change(caller, lambda room: room.set_ready(caller.user_id, data["ready"]))

    def add_bot(self, caller: Caller, data: dict) -> dict:
        """Host only: a bot seat."""
        return {"seat": self._change(caller, lambda room: room.add_bot(caller.user_id,
                                                                       data["level"]))}

    def add_local(self, caller: Caller, data: dict) -> dict:
        """Host only: a hot-seat player."""
        return {"seat": self._change(caller, lambda room: room.add_local(caller.user_id,
                                                                         data["name"]))}

    def remove_seat(self, caller: Caller, data: dict) -> None:
        """Host only: free a seat before the start."""
        self._change(caller, lambda room: room.remove_seat(caller.user_id, data["seat"],
                                                           data.get("name")))

    def allow(self, caller: Caller, data: dict) -> None:
        """Host only: let a removed player take a seat again."""
        self._change(caller, lambda room: room.allow(caller.user_id, data["user_id"]))

    def start(self, caller: Caller, data: dict) -> None:
        """Host only: start the game."""
        self._change(caller, lambda room: room.start(caller.user_id))

    def rematch(self, caller: Caller, data: dict) -> None:
        """Host only: a new game with the same seats."""
        self._change(caller, lambda room: room.rematch(caller.user_id))

    def _change(self, caller: Caller, action: Callable[[Room], object]) -> object:
        """A change to the seats (or the start): everyone gets the new room object."""
        room = self.room(caller)
        with room.lock:
            result = action(room)
            self.commit(room, seats_changed=True)
        return result

    # -- playing -----------------------------------------------------------------------------

    def move(self, caller: Caller, data: dict) -> dict:
        """A move for one of your seats."""
        room = self.room(caller)
        with room.lock:
            away = [seat.away for seat in room.seats]
            version = room.move(caller.user_id, data["move"], data["args"], data["seat"])
            # A move of a player who was away ends it: everyone sees they are back.
            self.commit(room, seats_changed=[seat.away for seat in room.seats] != away)
        return {"version": version}

    def undo(self, caller: Caller, data: dict) -> dict:
        """Take back your last move."""
        room = self.room(caller)
        with room.lock:
            version = room.undo(caller.user_id, data["seat"])
            self.commit(room)
        return {"version": version}

    # -- turn clocks and stand-ins -----------------------------------------------------------

    def set_turn_time(self, caller: Caller, data: dict) -> None:
        """Host only: the turn time (0: none); a turn being played starts its clock again."""
        choices = self.config.turn_times
        self._change(caller, lambda room: room.set_turn_time(caller.user_id, data["seconds"],
                                                             choices))

    def back(self, caller: Caller, data: dict) -> None:
        """"I'm back": your seats are no longer away, so no bot plays for you."""
        self._change(caller, lambda room: room.back(caller.user_id))

    def stand_in(self, caller: Caller, data: dict) -> None:
        """Host only: a bot plays an away or disconnected player's turns until they are
        back."""
        self._change(caller, lambda room: room.stand_in(caller.user_id, data["seat"]))

    def debug_match(self, caller: Caller, data: dict) -> dict:
        """The full match, seed and log included (tests only: the API asks for it)."""
        room = self.room(caller)
        with room.lock:
            if room.match is None:
                raise LoungeError("not_found", "No game has started in this room")
            return {"match": room.match.to_json()}

    # -- rooms back from the database --------------------------------------------------------

    def resume(self, room: Room) -> None:
        """A room rebuilt from the database (a restart, or a takeover): nobody is connected
        yet, so every seated player's grace period starts now (a host who never came has the
        unclaimed room's wait again), and its bots play on."""
        users = {room.host} | {s.user_id for s in room.seats
                               if s.kind == "human" and not s.left and s.user_id}
        for user_id in users:
            if user_id == room.host and not room.host_came:
                self.grace.unclaimed(room)
            else:
                self.grace.start(room, user_id)
        self.turns.keep(room)
        room.told_deadline = room.turn_deadline
        self.bots.schedule(room)
        self.turns.schedule(room)

    def recover(self) -> list[Room]:
        """After a start on a durable store: every room back from the database, each
        seated player's grace period starting now and its bots playing on. The rooms."""
        load = getattr(self.store, "load", None)
        if load is None:
            return []
        rooms = load(self.lounge.hard_seconds)
        for room in rooms:
            with room.lock:
                self.resume(room)
        return rooms

    # -- the table of operations -------------------------------------------------------------

    def operation(self, name: str) -> Callable[[Caller, dict], dict | None]:
        """The operation an event names (one of :data:`OPERATIONS`)."""
        if name not in OPERATIONS:
            raise LoungeError("unknown_event", f"There is no event {name[:40]!r}")
        return getattr(self, name)


#: Every operation the service runs, by the name of its method: each Socket.IO event (one of
#: :data:`~backend.schemas.SOCKET_SCHEMAS`, the one table of them), a connection's end
#: (``disconnect``) and REST's debug route (``debug_match``).
OPERATIONS = frozenset(SOCKET_SCHEMAS) | {"disconnect", "debug_match"}
