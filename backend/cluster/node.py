"""One process of a cluster: the rooms it holds, and its leases on them. Where events go is
:mod:`.routing`'s.

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

Its messages to other processes: ``{"k": "released", "rooms": [room id, ...]}`` (to all: claim
them), ``{"k": "given", "rooms": {room id: epoch}}`` (to one: take them up) and ``{"k":
"moved", "rooms", "owner"}`` (to all: connections there join the new owner, see
:mod:`.routing`).
"""

from __future__ import annotations

import logging
import time
import uuid

from .. import views
from ..rooms import Room
from ..service import Caller, LoungeService
from ..sockets import LoungeSockets, split_connection
from .bus import ClusterBus
from .leases import LeaseBook
from .notifier import ClusterNotifier

log = logging.getLogger(__name__)
SAFETY_SECONDS = 1.0  # leases are trusted locally until this long before the heartbeat runs out
DEAD_SWEEP_TICKS = 3
DRAIN_SECONDS = 1.5  # a stopping process's wait for the balancer to see it go (1 s here)


def new_node_id() -> str:
    """A name for this process, unique in the cluster."""
    return uuid.uuid4().hex[:12]


class ClusterNode:
    """This process's rooms and leases (see the module docstring)."""

    def __init__(self, service: LoungeService, notifier: ClusterNotifier,
                 sockets: LoungeSockets, bus: ClusterBus, leases: LeaseBook) -> None:
        self.node = leases.node
        self.service = service
        self.store = service.store
        self.config = service.config
        self.runtime = service.runtime
        self.notifier = notifier
        self.sockets = sockets
        self.bus = bus
        self.leases = leases
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

    def holds(self, room_id: str | None) -> bool:
        """Whether this process may run the room now: it holds its lease, and its heartbeat
        went through recently enough to be sure nobody else can have claimed it."""
        return room_id in self.epochs and time.monotonic() < self.valid_until

    def on_message(self, message: dict) -> None:
        """Another process's news of leases: rooms released (claim them) or given to this
        process (take them up). Other kinds of message are not the node's."""
        kind = message["k"]
        if kind == "released" and not self.stopping:
            self.runtime.spawn(self.claim, message["rooms"])
        elif kind == "given":
            self.runtime.spawn(self._pass_on if self.stopping else self.adopt, message["rooms"])

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
            self.claim(None)
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

    def claim(self, ids: list[str] | None) -> bool:
        """Claim these rooms (None: any abandoned ones) and take them up; whether any were."""
        claimed = self.leases.claim(ids)
        if claimed:
            self.adopt(claimed)
        return bool(claimed)

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
                self.notifier.tell(room, [(None, "room", views.summary(room))])
        log.info("took over %d rooms", len(rooms))
        if rooms:
            self.bus.to_all({"k": "moved", "rooms": [r.id for r in rooms], "owner": self.node})

    def _load(self, claimed: dict[str, int]) -> list[Room]:
        """The claimed rooms, rebuilt from the database and held from now on."""
        for room_id in claimed:
            self.lose(room_id)  # a copy from an earlier ownership must never act again
        rooms = self.store.load(self.service.lounge.hard_seconds, ids=list(claimed),
                                closed=self.notifier.closed_unrun)
        self.epochs.update({room.id: claimed[room.id] for room in rooms})  # held once loaded
        missing = set(claimed) - {room.id for room in rooms}
        if missing:  # closed meanwhile, or at the load (its game is no longer offered)
            self.leases.drop_orphans(list(missing))
            for room_id in missing:
                self.notifier.directory.remove(room_id)
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
                if split_connection(conn)[0] in dead:
                    self.service.disconnect(Caller(conn, user_id, room.id))

    def follow_players(self, room_id: str) -> str | None:
        """If every connection in the room is on one other process, hand the room to it: the
        lease goes straight to that process (a new epoch), which is told to take it. Should
        the message be lost, that process finds the lease at its next heartbeats. The process
        it was handed to, if it was."""
        room = self.store.get(room_id)
        if room is None or self.stopping or not self.holds(room_id):
            return None
        with room.lock:
            nodes = {split_connection(conn)[0] for conn in room.connections}
            epoch = self.epochs.get(room_id)  # None if the lease was lost meanwhile
            if len(nodes) != 1 or self.node in nodes or room.closed or epoch is None:
                return None
            to = nodes.pop()
            self.lose(room_id)
        try:
            given = self.leases.give(room_id, epoch, to)
        except Exception:
            log.exception("room %s: handing it to %s failed", room_id, to)
            return None  # still leased here: taken up again at the next heartbeats
        if given is None:
            return None
        self.bus.to_node(to, {"k": "given", "rooms": {room_id: given}})
        log.info("room %s: handed to %s, where its players are", room_id, to)
        return to

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

