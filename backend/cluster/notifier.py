"""How the owner of a room tells its connections, wherever they are, and the room directory
that every process reads for REST.

A connection of a cluster is named ``<process>.<sid>``. Messages to this process's own
connections never touch Redis (so rooms whose players are all on their owner keep working
while Redis is away); messages to another process's connection go to that process's channel,
in the order they were sent. The room object, chat and ``closed`` go to this process's
connections in the room's Socket.IO room, and to each other process that has connections in the
room, once, on that process's channel: a process with nobody in the room hears nothing of it, and
what a process's connections hear of a room comes in one stream, in the order the owner said it.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict

import orjson

from ..errors import LoungeError
from ..rooms import WAITING, Room
from ..service import Told
from ..sockets import LoungeSockets, channel
from .bus import BusDown, ClusterBus

log = logging.getLogger(__name__)
UNREACHABLE = "The lounge cannot reach its other servers just now: try again"


def split(conn: str) -> tuple[str, str]:
    """(process, sid) of a cluster connection name."""
    node, _, sid = conn.partition(".")
    return node, sid


class Directory:
    """Every open room's room object in Redis, written by its owner, so that any process can
    answer ``GET /api/rooms`` and ``GET /api/rooms/<code>``.

    Its writes go through the outbox, in order with the messages: a process that hears of a
    change through Redis finds it in the directory too. A new room's first write waits for
    Redis, so that the room can be looked up anywhere once its creator has its code."""

    def __init__(self, bus: ClusterBus, cluster: str) -> None:
        self.bus = bus
        self.prefix = f"{cluster}:room:"
        self.open_key = f"{cluster}:open"  # public rooms waiting for players
        self.playing_key = f"{cluster}:playing"  # public rooms playing, to watch

    def put(self, summary: dict) -> None:
        """Keep a room's latest room object (and whether it is listed as open)."""
        for command in self._put(summary):
            self.bus.outbox.send(*command)

    def put_now(self, summary: dict) -> None:
        """:meth:`put`, returning once Redis has it (or could not take it: logged, as the
        room itself is saved and works)."""
        try:
            pipe = self.bus.pipeline()
            for command in self._put(summary):
                pipe.execute_command(*command)
            pipe.execute()
        except Exception as exc:
            log.error("Redis: room %s not written to the directory (%s)", summary["code"], exc)

    def _put(self, summary: dict) -> list[tuple]:
        room_id = summary["id"]
        commands = [("SET", self.prefix + room_id, orjson.dumps(summary))]
        if summary["public"]:  # a room is public or private for life: private ones are not listed
            listed, unlisted = ((self.open_key, self.playing_key) if summary["status"] == WAITING
                                else (self.playing_key, self.open_key))
            commands += [("ZADD", listed, summary["created"], room_id), ("ZREM", unlisted, room_id)]
        return commands

    def remove(self, room_id: str) -> None:
        """A closed room leaves the directory."""
        self.bus.outbox.send("DEL", self.prefix + room_id)
        self.bus.outbox.send("ZREM", self.open_key, room_id)
        self.bus.outbox.send("ZREM", self.playing_key, room_id)

    def get(self, room_id: str) -> dict | None:
        """A room's room object; None if the directory has none."""
        raw = self._run("GET", self.prefix + room_id)
        return None if raw is None else orjson.loads(raw)

    def listed(self, waiting: bool = True, limit: int = 100) -> list[dict]:
        """Public rooms still waiting for players (or, not ``waiting``, playing), newest first."""
        key = self.open_key if waiting else self.playing_key
        ids = self._run("ZREVRANGE", key, 0, limit - 1)
        if not ids:
            return []
        raws = self._run("MGET", *[self.prefix + i.decode() for i in ids])
        return [orjson.loads(raw) for raw in raws if raw is not None]

    def _run(self, *command: object) -> object:
        try:
            return self.bus.command(*command)
        except BusDown:
            raise LoungeError("internal", UNREACHABLE) from None


class ClusterNotifier:
    """The service's :class:`~backend.service.Notifier` on a cluster process."""

    def __init__(self, node: str, sockets: LoungeSockets, bus: ClusterBus,
                 directory: Directory) -> None:
        self.node = node
        self.sockets = sockets
        self.bus = bus
        self.directory = directory
        self.held: dict[str, list] = {}  # process -> [calls running for it, messages held]
        self.lock = threading.Lock()

    def tell(self, room: Room, messages: list[Told]) -> None:
        """Each message to its connection or to everyone in the room, on this process or
        another: what goes to another process leaves as one message (the room object also
        goes to the directory)."""
        others = {split(conn)[0] for conn in room.connections} - {self.node}
        remote: dict[str, list[dict]] = defaultdict(list)
        for conn, event, data in messages:
            if conn is None:
                if event == "room":
                    self.directory.put(data)
                self.sockets.broadcast(room.id, event, data)
                for node in others:
                    remote[node].append({"k": "emit", "room": room.id, "e": event, "d": data})
                continue
            node, sid = split(conn)
            if node == self.node:
                self.sockets.send(sid, event, data)
            else:
                remote[node].append({"k": "emit", "to": sid, "e": event, "d": data})
        for node, told in remote.items():
            self._to(node, told[0] if len(told) == 1 else {"k": "told", "told": told})

    def dismiss(self, room: Room, conns: list[str]) -> None:
        """These connections left the room: each process forgets its own."""
        by_node: dict[str, list[str]] = defaultdict(list)
        for conn in conns:
            node, sid = split(conn)
            by_node[node].append(sid)
        for node, sids in by_node.items():
            if node == self.node:
                self.sockets.dismiss(room.id, sids)
            else:
                self._to(node, {"k": "dismiss", "room": room.id, "sids": sids})

    def closed(self, room: Room, conns: list[str], reason: str) -> None:
        """Everyone gets ``closed``; the room leaves the directory, and every process's
        Socket.IO room (the others leave theirs as their connections are dismissed)."""
        self.directory.remove(room.id)
        self.tell(room, [(None, "closed", {"reason": reason})])
        self.dismiss(room, conns)
        self.sockets.server.close_room(channel(room.id))

    def hold(self, node: str) -> None:
        """Keep what is said to a process's connections until :meth:`release` (while the
        owner runs an event that process forwarded)."""
        with self.lock:
            self.held.setdefault(node, [0, []])[0] += 1

    def release(self, node: str, reply: dict) -> None:
        """Send ``reply`` to the process with everything held for it (as ``told``). Sent with
        the lock held, so that what is said to that process afterwards follows it."""
        with self.lock:
            entry = self.held[node]
            entry[0] -= 1
            reply["told"], entry[1] = entry[1], []
            if entry[0] == 0:
                del self.held[node]
            self.bus.to_node(node, reply)

    def _to(self, node: str, message: dict) -> None:
        with self.lock:  # posted under the lock: in order with any reply release() posts
            entry = self.held.get(node)
            if entry is not None:
                entry[1].append(message)
            else:
                self.bus.to_node(node, message)
