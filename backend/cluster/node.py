"""One process of a cluster: it runs the rooms it owns, and forwards every other event to the
owner of its room.

- **Routing** (:meth:`ClusterNode.dispatch`): an event for a room this process owns runs here;
  any other goes to the owner's channel with an id, and its answer comes back on this
  process's channel. A retry carries the same id, and the owner answers it from what it
  remembers rather than running it twice. An owner that stopped answering is looked up again
  (its rooms may have moved), and an event that cannot reach an owner in time is answered
  ``internal`` ("try again"); the owner runs nothing that arrives after that time.
- **Leases** (:meth:`ClusterNode.tick`, every fifth of ``LEASE_SECONDS``): this process's
  heartbeat (which keeps all its leases), forget the rooms it lost, take up rooms handed to it
  unannounced, claim rooms whose owner died or let them go, and detach connections whose
  process died. A claimed room is rebuilt from the database by the restart recovery
  (:meth:`~backend.service.LoungeService.resume`), and every process re-attaches its
  connections in that room to the new owner.
- **Following the players** (:meth:`ClusterNode.follow_players`, after a join, leave or
  disconnect): a room whose connections are all on one other process is handed to that
  process, so that its moves cross no process (``FOLLOW_PLAYERS``; the balancer of ``lounge
  cluster`` sends a room's players to one process).
- **Stopping** (:meth:`ClusterNode.hand_over`, on SIGTERM): release every room at once so that
  the other processes claim them, then close this process's connections (their clients
  reconnect through the balancer).
"""

from __future__ import annotations

import itertools
import logging
import time
import uuid
from collections import OrderedDict

from .. import views
from ..errors import LoungeError
from ..rooms import CODE_LENGTH, Room
from ..service import Caller, LoungeService
from ..sockets import LoungeSockets
from .bus import BusDown, ClusterBus
from .leases import LeaseBook
from .notifier import Directory, split

log = logging.getLogger(__name__)
ATTEMPT_SECONDS = 1.0  # how long to wait for an owner's answer before asking again
RETRY_PAUSE = 0.05
REMEMBERED = 10_000  # answers kept for retries, and owners remembered
SAFETY_SECONDS = 1.0  # leases are trusted locally until this long before the heartbeat runs out
DEAD_SWEEP_TICKS = 3
DRAIN_SECONDS = 1.5  # a stopping process's wait for the balancer to see it go (1 s here)
MOVED = {"moved": 1}
FOLLOWED = frozenset({"join", "leave", "disconnect"})  # the events that change who is where
TRY_AGAIN = "The room's server could not be reached in time: try again"


def new_node_id() -> str:
    """A name for this process, unique in the cluster."""
    return uuid.uuid4().hex[:12]


class Waiter:
    """A forwarded event waiting for its answer."""

    __slots__ = ("answer", "event")

    def __init__(self, event: object) -> None:
        self.event = event
        self.answer: dict | None = None


class ClusterNode:
    """This process's part in the cluster (see the module docstring)."""

    def __init__(self, service: LoungeService, sockets: LoungeSockets, bus: ClusterBus,
                 leases: LeaseBook, directory: Directory) -> None:
        self.node = leases.node
        self.service = service
        self.store = service.store
        self.config = service.config
        self.runtime = service.runtime
        self.sockets = sockets
        self.bus = bus
        self.leases = leases
        self.directory = directory
        self.owners: dict[str, str] = {}  # room id -> owner, as last seen
        self.waiting: dict[str, Waiter] = {}
        self.requests = itertools.count()  # ids of forwarded events: unique with the node's
        self.answers: OrderedDict[str, dict] = OrderedDict()
        self.running: dict[str, Waiter] = {}
        self.valid_until = 0.0
        self.stopping = False
        self.ticks = 0
        self.adopting: set[str] = set()  # rooms being taken up just now
        self.unheard: dict[str, int] = {}  # leased here, not run here, at the last heartbeat

    @property
    def epochs(self) -> dict[str, int]:
        """The rooms this process holds, with their lease epochs."""
        return self.store.leases.epochs

    def start(self) -> None:
        """Join the cluster: be listed, listen, and start taking rooms."""
        self.leases.register()
        self.bus.server.manager_initialized = True
        self.bus.initialize()
        self.tick()
        self.runtime.spawn(self._loop)

    def health(self) -> dict:
        """This process's part, for /api/health."""
        return {"name": self.config.CLUSTER_NAME, "node": self.node, "owned": len(self.epochs),
                "redis": self.bus.up, "lost_messages": self.bus.lost,
                "stopping": self.stopping}

    # -- rooms for REST ----------------------------------------------------------------------

    def create_room(self, user_id: str, slug: str, name: str, public: bool) -> dict:
        """Open a room here (this process owns it); already_hosting if the user hosts one
        anywhere in the cluster."""
        existing = self._lookup(user_id)
        if existing is not None:
            raise LoungeError("already_hosting", "You already host a room: leave it before "
                                                 "opening another")
        summary = self.service.create_room(user_id, slug, name, public)
        self.directory.put_now(summary)
        return summary

    def room_summary(self, key: str) -> dict:
        """A room's room object, from the directory, by code or id."""
        summary = self.directory.get(self.resolve(key))
        if summary is None:
            raise LoungeError("not_found", f"There is no room {key!r}")
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
            raise LoungeError("not_found", f"There is no room {key!r}")
        return room_id

    def _lookup(self, key: str) -> str | None:
        try:
            return self.leases.room_id(key, by_code=len(key) <= CODE_LENGTH)
        except Exception:
            log.exception("looking up room %r failed", key)
            raise LoungeError("internal", "Something went wrong on the server: try again"
                              ) from None

    def dispatch(self, name: str, caller: Caller, data: dict) -> dict | None:
        """Run an operation at the room's owner, here or elsewhere; its result."""
        deadline = time.time() + self.config.FORWARD_SECONDS
        request = None  # a forwarded event's id, the same for each retry
        try:
            while True:
                owner = self.owner_of(caller.room_id, name)
                if owner is None:
                    return None  # a disconnect from a room that is gone
                if owner == self.node:
                    answer = self.run(name, caller, data)
                else:
                    if request is None:
                        request = f"{self.node}.{next(self.requests)}"
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
        if room_id in self.epochs:
            return self.node
        if room_id in self.owners:
            return self.owners[room_id]
        lease = self.leases.owner(room_id)
        if lease is None:
            return _gone(name)
        if not lease.live and not self.stopping:
            claimed = self.leases.claim([room_id])
            if claimed:
                self.adopt(claimed)
                return self.node
            lease = self.leases.owner(room_id)
            if lease is None:
                return _gone(name)
        if len(self.owners) >= REMEMBERED:  # closed rooms' entries would pile up
            self.owners.clear()
        self.owners[room_id] = lease.node
        return lease.node

    def holds(self, room_id: str | None) -> bool:
        """Whether this process may run the room now: it holds its lease, and its heartbeat
        went through recently enough to be sure nobody else can have claimed it."""
        return room_id in self.epochs and time.monotonic() < self.valid_until

    def run(self, name: str, caller: Caller, data: dict) -> dict:
        """Run an operation on a room of this process; its answer (``moved`` if the room is
        not, or no longer, this process's)."""
        if not self.holds(caller.room_id):
            return MOVED
        try:
            answer = {"ack": self.service.operation(name)(caller, data) or {}}
            if name in FOLLOWED and self.config.FOLLOW_PLAYERS:
                self.runtime.spawn(self.follow_players, caller.room_id)
            return answer
        except LoungeError as exc:
            if exc.code == "not_in_room" and not self.holds(caller.room_id):
                return MOVED  # lost while it waited for the room
            return {"error": [exc.code, exc.message]}
        except Exception:
            log.exception("event %s failed", name)
            return {"error": ["internal", "Something went wrong on the server"]}

    def _forward(self, owner: str, request: str, waiter: Waiter, name: str, caller: Caller,
                 data: dict, deadline: float) -> dict:
        if waiter.answer is not None:  # an earlier attempt was answered "moved": wait anew
            waiter.answer, waiter.event = None, self.runtime.make_event()
        message = {"k": "call", "id": request, "from": self.node, "op": name,
                   "c": [caller.conn, caller.user_id, caller.room_id], "d": data,
                   "until": deadline}
        try:
            self.bus.call(owner, message)
        except BusDown:
            raise LoungeError("internal", TRY_AGAIN) from None
        waiter.event.wait(max(0.0, min(ATTEMPT_SECONDS, deadline - time.time())))
        return waiter.answer or MOVED

    # -- messages from other processes -------------------------------------------------------

    def on_message(self, channel: str, message: dict) -> None:
        """A message on this process's channel or the cluster's (run by the listener: quick
        ones here, the rest in tasks of their own)."""
        kind = message["k"]
        for told in message.get("told", ()):  # what rides on a reply, or one change's messages
            self.on_message(channel, told)
        if kind == "emit" and "room" in message:
            self.sockets.broadcast(message["room"], message["e"], message["d"])
        elif kind == "emit":
            self.sockets.send(message["to"], message["e"], message["d"])
        elif kind == "reply":
            waiter = self.waiting.get(message["id"])
            if waiter is not None and waiter.answer is None:
                waiter.answer = message["a"]
                waiter.event.set()
        elif kind == "call":
            self.runtime.spawn(self._answer, message)
        elif kind == "dismiss":
            self.sockets.dismiss(message["room"], message["sids"])
        elif kind == "released" and not self.stopping:
            self.runtime.spawn(self._claim, message["rooms"])
        elif kind == "given":
            self.runtime.spawn(self._pass_on if self.stopping else self.adopt, message["rooms"])
        elif kind == "moved":
            self.runtime.spawn(self._moved, message["rooms"], message["owner"])

    def _answer(self, message: dict) -> None:
        request, sender = message["id"], message["from"]
        answer = self.answers.get(request)
        if answer is None and time.time() > message["until"]:
            return  # its sender has already answered "try again"
        # What the call tells the sender's connections rides on the answer: one message, not
        # one for each state (and in order with anything else said to that process meanwhile).
        self.service.notifier.hold(sender)
        try:
            if answer is None:
                running = self.running.get(request)
                if running is not None:  # the same request, retried while it runs
                    running.event.wait(self.config.FORWARD_SECONDS)
                    answer = running.answer
                else:
                    answer = self._run_once(request, message)
        finally:
            self.service.notifier.release(sender, {"k": "reply", "id": request,
                                                   "a": answer or MOVED})

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
            if owner == self.node:
                self.owners.pop(room_id, None)
            else:
                self.owners[room_id] = owner
            if self.stopping:
                continue
            for conn in self.sockets.members(room_id):
                caller = self.sockets.caller(conn)
                try:
                    self.dispatch("join", caller, {"room": room_id, "spectate": True})
                except LoungeError as exc:
                    log.warning("connection %s could not rejoin room %s: %s", conn.sid,
                                room_id, exc.message)

    # -- leases ------------------------------------------------------------------------------

    def _loop(self) -> None:
        while not self.stopping:
            self.runtime.sleep(self.config.LEASE_SECONDS / 5)
            try:
                self.tick()
            except Exception:
                log.exception("the heartbeat failed")

    def tick(self) -> None:
        """Beat this process's heartbeat, let go of lost rooms, take up unannounced ones,
        claim abandoned ones, and detach the connections of processes that died."""
        started = time.monotonic()
        before = dict(self.epochs)
        held = self.leases.renew()
        self.valid_until = started + self.config.LEASE_SECONDS - SAFETY_SECONDS
        for room_id, epoch in before.items():
            if held.get(room_id) != epoch and self.epochs.get(room_id) == epoch:
                log.warning("room %s: its lease was lost", room_id)
                self.lose(room_id)
        if not self.stopping:
            self._take_unheard({r: e for r, e in held.items() if r not in before})
            self._claim(None)
        self.ticks += 1
        if self.ticks % DEAD_SWEEP_TICKS == 0:
            self.detach_dead(self.leases.dead_nodes())

    def _take_unheard(self, unheard: dict[str, int]) -> None:
        """Rooms leased to this process that it does not run: those seen at two heartbeats in
        a row (not a room being opened or adopted just now) were handed to it by a message
        that never came, and are taken up."""
        missed = {r: e for r, e in unheard.items()
                  if self.unheard.get(r) == e and r not in self.epochs}
        self.unheard = unheard
        if missed:
            log.warning("taking up %d rooms handed to this process unannounced", len(missed))
            self.adopt(missed)

    def _claim(self, ids: list[str] | None) -> None:
        claimed = self.leases.claim(ids)
        if claimed:
            self.adopt(claimed)

    def adopt(self, claimed: dict[str, int]) -> None:
        """Rooms just claimed: rebuilt from the database, their grace periods and bots
        started, and every process told to re-attach its connections."""
        claimed = {r: e for r, e in claimed.items()  # a room is taken up once per epoch
                   if r not in self.adopting and self.epochs.get(r) != e}
        if not claimed:
            return
        self.adopting.update(claimed)
        try:
            rooms = self._load(claimed)
        finally:
            self.adopting.difference_update(claimed)
        for room in rooms:
            with room.lock:
                self.service.resume(room)
                self.service.notifier.tell(room, [(None, "room", views.summary(room))])
        log.info("took over %d rooms", len(rooms))
        if rooms:
            self.bus.to_all({"k": "moved", "rooms": [r.id for r in rooms], "owner": self.node})

    def _load(self, claimed: dict[str, int]) -> list[Room]:
        """The claimed rooms, rebuilt from the database and held from now on."""
        for room_id in claimed:
            self.lose(room_id)  # a copy from an earlier ownership must never act again
        rooms = self.store.load(self.service.lounge.hard_seconds, ids=list(claimed))
        self.epochs.update({room.id: claimed[room.id] for room in rooms})  # held once loaded
        missing = set(claimed) - {room.id for room in rooms}
        if missing:
            self.leases.drop_orphans(list(missing))
        return rooms

    def _pass_on(self, given: dict[str, int]) -> None:
        """Rooms handed to this process while it stops: released at once for the others to
        claim, rather than left until this process leaves."""
        self.release(list(given))

    def release(self, ids: list[str]) -> None:
        """Give rooms up for the other processes to claim at once (should that fail, they
        move when this process's heartbeat stops)."""
        try:
            self.leases.release(ids)
            self.bus.to_all({"k": "released", "rooms": ids})
        except Exception:
            log.exception("releasing %d rooms failed: they move when this process's heartbeat "
                          "stops", len(ids))

    def lose(self, room_id: str) -> None:
        """This process no longer owns the room: its copy stops (timers and bots with it)."""
        room = self.store.forget(room_id)
        if room is not None:
            with room.lock:
                room.closed = True

    def detach_dead(self, dead: set[str]) -> None:
        """Connections of processes that died are gone: as if each had disconnected."""
        if not dead:
            return
        for room in self.store.rooms():
            for conn, user_id in list(room.connections.items()):
                if split(conn)[0] in dead:
                    self.service.disconnect(Caller(conn, user_id, room.id))

    def follow_players(self, room_id: str) -> None:
        """If every connection in the room is on one other process, hand the room to it: the
        lease goes straight to that process (a new epoch), which is told to take it. Should
        the message be lost, that process finds the lease at its next heartbeats."""
        room = self.store.get(room_id)
        if room is None or self.stopping or not self.holds(room_id):
            return
        with room.lock:
            nodes = {split(conn)[0] for conn in room.connections}
            epoch = self.epochs.get(room_id)  # None if the lease was lost meanwhile
            if len(nodes) != 1 or self.node in nodes or room.closed or epoch is None:
                return
            to = nodes.pop()
            self.lose(room_id)
        try:
            given = self.leases.give(room_id, epoch, to)
        except Exception:
            log.exception("room %s: handing it to %s failed", room_id, to)
            return  # still leased here: taken up again at the next heartbeats
        if given is None:
            return
        self.owners[room_id] = to
        self.bus.to_node(to, {"k": "given", "rooms": {room_id: given}})
        log.info("room %s: handed to %s, where its players are", room_id, to)

    # -- stopping ----------------------------------------------------------------------------

    def hand_over(self, wait_seconds: float = 2.0) -> None:
        """Stop on purpose: every room released for the others to claim at once, then this
        process's connections closed, so that their clients reconnect elsewhere."""
        self.stopping = True
        ids = list(self.epochs)
        for room_id in ids:
            self.lose(room_id)
        self.release(ids)
        deadline = time.monotonic() + wait_seconds
        while ids and time.monotonic() < deadline:
            ids = [i for i in ids if (lease := self.leases.owner(i)) and not lease.live]
            self.runtime.sleep(0.02)
        # /api/health has answered 503 since the start: give the balancer time to notice, so
        # that the clients' reconnects go to another process, not back to this one.
        self.runtime.sleep(DRAIN_SECONDS)
        for sid in list(self.sockets.connections):
            self.runtime.spawn(self.sockets.server.disconnect, sid, None, True)
        self.runtime.sleep(DRAIN_SECONDS / 3)  # let the disconnect notices reach the owners
        self.leases.leave()
        log.info("handed over; %d rooms were not claimed in time", len(ids))


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
