"""How the owner of a room tells its connections, wherever they are: the messages it sends
other processes (:meth:`ClusterNotifier.tell`, :meth:`~ClusterNotifier.dismiss`), and what a
process does with those it receives (:meth:`ClusterNotifier.deliver`).

A connection of a cluster is named ``<process>.<sid>``
(:func:`backend.sockets.connection_name`). Messages to this process's own connections never
touch Redis (so rooms whose players are all on their owner keep working while Redis is away);
messages to another process's connection go to that process's channel, in the order they were
sent. The room object, chat and ``closed`` go to this process's connections in the room's
Socket.IO room, and to each other process that has connections in the room, once, on that
process's channel: a process with nobody in the room hears nothing of it, and what a process's
connections hear of a room comes in one stream, in the order the owner said it.
"""

from __future__ import annotations

import threading
from collections import defaultdict

from ..rooms import Room
from ..service import Told
from ..sockets import LoungeSockets, channel, split_connection
from .bus import ClusterBus
from .directory import Directory

# What one process says to another's connections, as messages on the bus:
#   {"k": "emit", "room": room id, "e": event, "d": data}  to its connections in the room
#   {"k": "emit", "to": sid, "e": event, "d": data}        to one of its connections
#   {"k": "dismiss", "room": room id, "sids": [sid, ...]}  those connections left the room
#   {"k": "closed", "room": room id, "reason": reason}     (to all) a room closed unrun: its
#                                                          connections get closed and leave it
#   {"k": "told", "told": [message, ...]}                  several of these, in order
# Any message may carry "told" (a reply to a forwarded event does): those come first.


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
        others = {split_connection(conn)[0] for conn in room.connections} - {self.node}
        remote: dict[str, list[dict]] = defaultdict(list)
        for conn, event, data in messages:
            if conn is None:
                if event == "room":
                    self.directory.put(data)
                self.sockets.broadcast(room.id, event, data)
                for node in others:
                    remote[node].append({"k": "emit", "room": room.id, "e": event, "d": data})
                continue
            node, sid = split_connection(conn)
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
            node, sid = split_connection(conn)
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

    def closed_unrun(self, room_id: str, reason: str) -> None:
        """A room closed by a process taking it over, without running it (its game is no
        longer offered): its owner knew its connections, and died; every process tells its
        own and lets them go."""
        self.directory.remove(room_id)
        self.bus.to_all({"k": "closed", "room": room_id, "reason": reason})

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

    def deliver(self, message: dict) -> None:
        """A message from another process: what it says to this process's connections (the
        ``told`` it carries first). Any other kind of message is not the notifier's."""
        for told in message.get("told", ()):
            self.deliver(told)
        kind = message["k"]
        if kind == "emit" and "room" in message:
            self.sockets.broadcast(message["room"], message["e"], message["d"])
        elif kind == "emit":
            self.sockets.send(message["to"], message["e"], message["d"])
        elif kind == "dismiss":
            self.sockets.dismiss(message["room"], message["sids"])
        elif kind == "closed":
            self._closed_here(message["room"], message["reason"])

    def _closed_here(self, room_id: str, reason: str) -> None:
        """This process's connections in a room closed unrun get ``closed`` and leave it."""
        self.sockets.closed(room_id, reason, [conn.sid for conn in self.sockets.members(room_id)])

    def _to(self, node: str, message: dict) -> None:
        with self.lock:  # posted under the lock: in order with any reply release() posts
            entry = self.held.get(node)
            if entry is not None:
                entry[1].append(message)
            else:
                self.bus.to_node(node, message)
