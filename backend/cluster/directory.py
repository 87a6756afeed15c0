"""The room directory: every open room's room object in Redis, written by its owner, so that
any process can answer REST's questions about rooms (``GET /api/rooms``, ``GET
/api/rooms/<code>``)."""

from __future__ import annotations

import logging

import orjson

from ..errors import LoungeError
from ..rooms import WAITING
from .bus import BusDown, ClusterBus

log = logging.getLogger(__name__)
UNREACHABLE = "The lounge cannot reach its other servers just now: try again"


class Directory:
    """Every open room's room object, by room id, and the public rooms' lists.

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
