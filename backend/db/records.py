"""Rooms to rows and back: what is stored of a room, and rebuilding a room after a restart.

A room's match is stored as its game, player count, seed and action log; it is rebuilt by
replaying the log from the seed, which gives back exactly the same match (hidden cards, undo
history and all).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from shared_rules import GAMES, Game, Match, replay

from ..rooms import PLAYING, WAITING, Room, Seat, free_colour
from .queries import StoredRoom

log = logging.getLogger(__name__)

#: What a room says when its game could not be rebuilt after a restart.
GAME_LOST = ("The game being played could not be picked up again after the server restarted, "
             "so the room is back in its lobby: the host can start a new one.")

SeatRecord = tuple[str, str, str | None, str | None, bool, bool, bool, int]


def seat_records(room: Room) -> tuple[SeatRecord, ...]:
    """Every seat of the room as a plain tuple, to compare and to store."""
    return tuple([(s.kind, s.name, s.user_id, s.level, s.ready, s.left, s.away, s.colour)
                  for s in room.seats])


def room_fields(room: Room) -> tuple:
    """The room's own row, but for its last-activity time."""
    return (room.code, room.game.slug, room.public, room.status, room.round, room.created,
            room.turn_seconds, room.turn_deadline, dumps(room.removed),
            dumps(sorted(room.left_out)), room.host_came)


@dataclass
class Saved:
    """What the database holds of one room, so that a save writes only what changed and a
    failed save can put the room back as it was."""

    fields: tuple
    seats: tuple[SeatRecord, ...]
    round: int
    match: Match | None
    match_id: str | None
    bots: dict = field(default_factory=dict)
    updated: int = 0

    @classmethod
    def of(cls, room: Room, match_id: str | None, updated: int) -> Saved:
        """What is saved of the room as it is now."""
        return cls(room_fields(room), seat_records(room), room.round, room.match, match_id,
                   dict(room.bots), updated)

    def restore(self, room: Room) -> None:
        """Put the room back as the database has it."""
        room.status = self.fields[3]
        room.turn_seconds, room.turn_deadline = self.fields[6], self.fields[7]
        room.removed = json.loads(self.fields[8])
        room.left_out = set(json.loads(self.fields[9]))
        room.host_came = self.fields[10]
        room.round = self.round
        room.seats = [Seat(*record) for record in self.seats]
        room.match = self.match
        room.bots = dict(self.bots)
        version = -1 if self.match is None else self.match.version
        room.stand_ins = {v: why for v, why in room.stand_ins.items() if v <= version}


def dumps(value: Any) -> str:
    """Compact JSON text: orjson's (a tenth of the standard library's time, and a move's args
    are written with every move), or the standard library's for what orjson refuses, such as
    integers beyond 64 bits."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def players_of(room: Room) -> list[dict]:
    """Who played a match, for its history."""
    return [{"seat": i, "name": s.name, "kind": s.kind, "user_id": s.user_id, "level": s.level}
            for i, s in enumerate(room.seats)]


class _MatchIds:
    """Match ids: 16 hex digits, the first 8 the time in steps of 67 ms (2**26 ns, wrapping
    every 9 years), the last 8 a number counted up from a random start in each step. Time
    first, so that the rows of the games being played sit together at the end of the tables'
    keys: a batch of saves then writes a few database pages, not one for each game
    (docs/performance.md, change 11). Counted, not drawn afresh: 32 random bits drawn for each
    id collide about once in a hundred runs of 10,000 ids in one step; counted, one process
    never repeats an id, and two processes collide only if their runs in one step overlap.
    The start is below 2**31, so a step's ids rise without wrapping; a clock set back keeps
    counting in the latest step rather than draw again in a step already used."""

    BACK_STEPS = 1 << 20  # a clock set back by less than this (19 hours) is a clock set back

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._step = -1
        self._number = 0

    def __call__(self) -> str:
        step = (time.time_ns() >> 26) & 0xFFFFFFFF
        with self._lock:
            if self._step >= 0 and 0 < (self._step - step) & 0xFFFFFFFF < self.BACK_STEPS:
                step = self._step
            if step != self._step:
                self._step, self._number = step, secrets.randbits(31)
            else:
                self._number += 1
            return f"{step:08x}{self._number & 0xFFFFFFFF:08x}"


new_match_id = _MatchIds()


def rebuild(stored: StoredRoom, hard_seconds: float) -> Room:
    """The room as it was: seats, status, its match replayed from seed and log, and fresh
    bots for its bot seats. Connections and spectators are not kept: clients join again."""
    row = stored.row
    game = GAMES[row.game]
    room = Room(row.id, row.code, game, stored.seats[0].name, row.public)
    room.created, room.status, room.round = row.created, row.status, row.round
    room.hard_seconds = hard_seconds
    room.seats = []
    for s in stored.seats:  # a seat saved before seats had colours takes the first free one
        colour = s.colour if s.colour is not None else free_colour(room.seats)
        room.seats.append(Seat(s.kind, s.name, s.user_id, s.level, s.ready, s.left, s.away,
                               colour))
    room.turn_seconds, room.turn_deadline = row.turn_seconds, row.turn_deadline
    room.removed = json.loads(row.removed or "{}")
    room.left_out = set(json.loads(row.left_out or "[]"))
    room.host_came = row.host_came
    room.chat_seq = max((m["id"] for m in stored.chat), default=0)
    if stored.match is not None and room.status != WAITING:  # a lobby's: one that did not replay
        try:
            room.match = replayed(game, stored)
            room.stand_ins = {m.version: m.actor for m in stored.moves if m.actor}
        except Exception as exc:  # said in one line: the move and the rules' reason tell why
            log.error("room %s: its game does not replay (%s: %s); the room is back in its "
                      "lobby", row.code, type(exc).__name__, exc)
            room.back_to_lobby(GAME_LOST)
    if room.status == PLAYING:
        room.make_bots()
    return room


def replayed(game: Game, stored: StoredRoom) -> Match:
    """The room's match, replayed from its seed and log. It raises when the log does not
    replay, as after an update that changed the game's rules under a game being played."""
    moves = [{"seat": m.seat, "move": m.move, "args": json.loads(m.args)} for m in stored.moves]
    match = replay(game, stored.match.num_players, json.loads(stored.match.seed), moves)
    if match.version != len(moves):
        raise ValueError("the log does not replay to its length")
    return match
