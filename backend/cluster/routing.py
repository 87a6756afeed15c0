"""The cluster's :class:`~backend.router.Router`: every event goes to the owner of its room.

An event for a room this process owns runs here; any other goes to the owner's channel with an
id, and its answer comes back on this process's channel. A retry carries the same id, and the
owner answers it from what it remembers rather than running it twice. An owner that stopped
answering is looked up again (its rooms may have moved), and an event that cannot reach an
owner in time is answered ``internal`` ("try again"); the owner runs nothing that arrives after
that time. What the owner's run tells the sender's connections rides on the answer.

REST's questions about rooms are answered from the room directory (:mod:`.directory`), so any
process answers them. Which rooms this process holds is :class:`~.node.ClusterNode`'s.

The messages between processes for routing (on the bus):

- ``{"k": "call", "id", "from", "op", "c": [conn, user id, room id], "d", "until"}``: run an
  event, sent to the room's owner;
- ``{"k": "reply", "id", "a": answer, "told": [...]}``: its answer, with what it told the
  sender's connections; an answer is ``{"ack": result}``, ``{"error": [code, message]}`` or
  ``{"moved": 1}`` (not this process's room: look the owner up again);
- ``{"k": "moved", "rooms", "owner"}``: rooms have a new owner (to every process).
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import OrderedDict

from ..errors import SERVER_FAULT, LoungeError
from ..rooms import CODE_LENGTH
from ..router import Router
from ..service import Caller, LoungeService
from ..sockets import LoungeSockets
from .bus import BusDown, ClusterBus
from .directory import Directory
from .leases import LeaseBook
from .node import ClusterNode
from .notifier import ClusterNotifier

log = logging.getLogger(__name__)
ATTEMPT_SECONDS = 1.0  # how long to wait for an owner's answer before asking again
RETRY_PAUSE = 0.05
REMEMBERED = 10_000  # answers kept for retries, and owners remembered
MOVED = {"moved": 1}
FOLLOWED = frozenset({"join", "leave", "disconnect"})  # the events that change who is where
TRY_AGAIN = "The room's server could not be reached in time: try again"


class Waiter:
    """A forwarded event waiting for its answer."""

    __slots__ = ("answer", "event")

    def __init__(self, event: object) -> None:
        self.event = event
        self.answer: dict | None = None


class ClusterRouter(Router):
    """Events routed to their room's owner, and REST's rooms from the directory (see the
    module docstring)."""

    def __init__(self, node: ClusterNode, directory: Directory) -> None:
        # The node's parts, which the router uses as much as it does.
        self.node, self.name = node, node.node  # this process's name
        self.service: LoungeService = node.service
        self.config, self.runtime = node.config, node.runtime
        self.notifier: ClusterNotifier = node.notifier
        self.sockets: LoungeSockets = node.sockets
        self.bus: ClusterBus = node.bus
        self.leases: LeaseBook = node.leases
        self.directory = directory
        self.owners: dict[str, str] = {}  # room id -> owner, as last seen
        self.waiting: dict[str, Waiter] = {}
        self.requests = itertools.count()  # ids of forwarded events: unique with the node's
        self.answers: OrderedDict[str, dict] = OrderedDict()
        self.running: dict[str, Waiter] = {}

    def start(self) -> None:
        """Listen to the cluster, then join it (:meth:`ClusterNode.start`)."""
        self.bus.on_message = self.on_message
        self.bus.on_resubscribed = self._resync
        self.node.start()

    # -- rooms for REST ----------------------------------------------------------------------

    def create_room(self, user_id: str, slug: str, name: str, public: bool) -> dict:
        """Open a room here (this process owns it); already_hosting if the user hosts one
        anywhere in the cluster."""
        existing = self._lookup(user_id)
        if existing is not None:
            known = self.directory.get(existing)
            room = f"room {known['code']}" if known else "a room"
            raise LoungeError("already_hosting", f"You already host {room}: leave it before "
                                                 "opening another")
        summary = self.service.create_room(user_id, slug, name, public)
        self.directory.put_now(summary)
        return summary

    def room_summary(self, key: str) -> dict:
        """A room's room object, from the directory, by code or id."""
        summary = self.directory.get(self.resolve(key))
        if summary is None:
            raise self.service.lounge.no_room(key)
        return summary

    def public_rooms(self, waiting: bool = True) -> list[dict]:
        """Public rooms still waiting for players (or, not ``waiting``, playing), newest first,
        from the directory."""
        return self.directory.listed(waiting)

    # -- routing -----------------------------------------------------------------------------

    def resolve(self, key: str) -> str:
        """The id of the open room with this code (or id); not_found otherwise."""
        room_id = self._lookup(key)
        if room_id is None:
            raise self.service.lounge.no_room(key)
        return room_id

    def _lookup(self, key: str) -> str | None:
        try:
            return self.leases.room_id(key, by_code=len(key) <= CODE_LENGTH)
        except Exception:
            log.exception("looking up room %r failed", key)
            raise LoungeError("internal", f"{SERVER_FAULT}: try again") from None

    def dispatch(self, name: str, caller: Caller, data: dict) -> dict | None:
        """Run an operation at the room's owner, here or elsewhere; its result."""
        deadline = time.time() + self.config.FORWARD_SECONDS
        request = None  # a forwarded event's id, the same for each retry
        try:
            while True:
                owner = self.owner_of(caller.room_id, name)
                if owner is None:
                    return None  # a disconnect from a room that is gone
                if owner == self.name:
                    answer = self.run(name, caller, data)
                else:
                    if request is None:
                        request = f"{self.name}.{next(self.requests)}"
                        self.waiting[request] = Waiter(self.runtime.make_event())
                    answer = self._forward(owner, request, self.waiting[request], name, caller,
                                           data, deadline)
                if "moved" not in answer:
                    return _unwrap(answer)
                self.owners.pop(caller.room_id, None)
                if time.time() + RETRY_PAUSE >= deadline:
                    raise LoungeError("internal", TRY_AGAIN)
                self.runtime.sleep(RETRY_PAUSE)
        finally:
            if request is not None:
                del self.waiting[request]

    def owner_of(self, room_id: str, name: str) -> str | None:
        """Which process runs the room: this one if it holds it, the lease's holder
        otherwise; a room whose lease is free (its owner died) is claimed here and now."""
        if room_id in self.node.epochs:
            return self.name
        if room_id in self.owners:
            return self.owners[room_id]
        lease = self.leases.owner(room_id)
        if lease is None:
            return _gone(name)
        if not lease.live and not self.node.stopping:
            if self.node.claim([room_id]):
                return self.name
            lease = self.leases.owner(room_id)
            if lease is None:
                return _gone(name)
        if len(self.owners) >= REMEMBERED:  # closed rooms' entries would pile up
            self.owners.clear()
        self.owners[room_id] = lease.node
        return lease.node

    def run(self, name: str, caller: Caller, data: dict) -> dict:
        """Run an operation on a room of this process; its answer (``moved`` if the room is
        not, or no longer, this process's)."""
        if not self.node.holds(caller.room_id):
            return MOVED
        try:
            answer = {"ack": self.service.operation(name)(caller, data) or {}}
            if name in FOLLOWED and self.config.FOLLOW_PLAYERS:
                self.runtime.spawn(self._follow_players, caller.room_id)
            return answer
        except LoungeError as exc:
            if exc.code == "not_in_room" and not self.node.holds(caller.room_id):
                return MOVED  # lost while it waited for the room
            return {"error": [exc.code, exc.message]}
        except Exception:
            log.exception("event %s failed", name)
            return {"error": ["internal", SERVER_FAULT]}

    def _forward(self, owner: str, request: str, waiter: Waiter, name: str, caller: Caller,
                 data: dict, deadline: float) -> dict:
        if waiter.answer is not None:  # an earlier attempt was answered "moved": wait anew
            waiter.answer, waiter.event = None, self.runtime.make_event()
        message = {"k": "call", "id": request, "from": self.name, "op": name,
                   "c": [caller.conn, caller.user_id, caller.room_id], "d": data,
                   "until": deadline}
        try:
            self.bus.call(owner, message)
        except BusDown:
            raise LoungeError("internal", TRY_AGAIN) from None
        waiter.event.wait(max(0.0, min(ATTEMPT_SECONDS, deadline - time.time())))
        return waiter.answer or MOVED

    def _follow_players(self, room_id: str) -> None:
        to = self.node.follow_players(room_id)
        if to is not None:
            self.owners[room_id] = to

    # -- messages from other processes -------------------------------------------------------

    def on_message(self, channel: str, message: dict) -> None:
        """A message on this process's channel or the cluster's (run by the listener: quick
        ones here, the rest in tasks of their own): what it tells this process's connections
        goes to the notifier, the leases' news to the node."""
        self.notifier.deliver(message)
        kind = message["k"]
        if kind == "reply":
            self._answered(message)
        elif kind == "call":
            self.runtime.spawn(self._answer, message)
        elif kind == "moved":
            self.runtime.spawn(self._moved, message["rooms"], message["owner"])
        else:
            self.node.on_message(message)

    def _answered(self, message: dict) -> None:
        waiter = self.waiting.get(message["id"])
        if waiter is not None and waiter.answer is None:
            waiter.answer = message["a"]
            waiter.event.set()

    def _answer(self, message: dict) -> None:
        request, sender = message["id"], message["from"]
        answer = self.answers.get(request)
        if answer is None and time.time() > message["until"]:
            return  # its sender has already answered "try again"
        # What the call tells the sender's connections rides on the answer: one message, not
        # one for each state (and in order with anything else said to that process meanwhile).
        self.notifier.hold(sender)
        try:
            if answer is None:
                running = self.running.get(request)
                if running is not None:  # the same request, retried while it runs
                    running.event.wait(self.config.FORWARD_SECONDS)
                    answer = running.answer
                else:
                    answer = self._run_once(request, message)
        finally:
            self.notifier.release(sender, {"k": "reply", "id": request, "a": answer or MOVED})

    def _run_once(self, request: str, message: dict) -> dict:
        waiter = self.running[request] = Waiter(self.runtime.make_event())
        try:
            conn, user_id, room_id = message["c"]
            answer = self.run(message["op"], Caller(conn, user_id, room_id), message["d"])
            if "moved" not in answer:
                self.answers[request] = answer
                while len(self.answers) > REMEMBERED:
                    self.answers.popitem(last=False)
            waiter.answer = answer
            return answer
        finally:
            waiter.event.set()
            del self.running[request]

    def _moved(self, rooms: list[str], owner: str) -> None:
        """Rooms have a new owner: this process's connections in them join it again."""
        for room_id in rooms:
            if owner == self.name:
                self.owners.pop(room_id, None)
            else:
                self.owners[room_id] = owner
            if not self.node.stopping:
                self._rejoin(room_id)

    def _resync(self) -> None:
        """The bus lost its subscription a while, and what was said to this process meanwhile
        with it: every connection here joins its room again, and is told the room as it is."""
        rooms = {conn.room_id for conn in self.sockets.connections.values()} - {None}
        log.warning("Redis: subscribed again; %d rooms with connections here are told afresh",
                    len(rooms))
        for room_id in rooms:
            self.runtime.spawn(self._rejoin, room_id)  # not on the listener: a join waits on it

    def _rejoin(self, room_id: str) -> None:
        """This process's connections in a room join it again (its owner tells them the room,
        their seats and their states afresh), and get the room's chat history again, which
        holds what was said meanwhile (clients keep one of each message, by its id)."""
        for conn in self.sockets.members(room_id):
            try:
                ack = self.dispatch("join", self.sockets.caller(conn), {"room": room_id,
                                                                        "spectate": True})
                for message in (ack or {}).get("chat", []):
                    self.sockets.send(conn.sid, "chat", message)
            except LoungeError as exc:
                log.warning("connection %s could not rejoin room %s: %s", conn.sid, room_id,
                            exc.message)


def _unwrap(answer: dict) -> dict | None:
    if "error" in answer:
        code, message = answer["error"]
        raise LoungeError(code, message)
    return answer["ack"]


def _gone(name: str) -> None:
    if name == "disconnect":
        return None
    if name == "join":
        raise LoungeError("not_found", "This room has closed")
    raise LoungeError("not_in_room", "Join a room first")
