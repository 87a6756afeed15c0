"""Turn clocks: when a player's turn runs out (the host set a turn time, or the player is
away), the easy bot plays that turn for them, and the log says so.

The clock lives on the server, in the room's owner process: its deadline is set before the
change that starts the turn is saved (so it is saved with the room, and a restart or a
takeover keeps it: :meth:`~backend.service.LoungeService.resume` schedules it again), and
clients only draw it. Slaps are never timed: only the turn itself.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import NamedTuple

from shared_rules import make_bot

from .config import Config
from .errors import LoungeError
from .rooms import PLAYING, Room, now_ms
from .runtime import Runtime

log = logging.getLogger(__name__)

MAX_STEPS = 20  # a bound on one turn's steps (Nine Locks' longest: a pick-up, an unlock, the key)


def timed_seat(room: Room) -> int | None:
    """The seat whose turn runs against a clock now: a player's (not a bot's) turn, with a turn
    time set or the player away."""
    m = room.match
    if m is None or room.status != PLAYING or m.result is not None:
        return None
    seat = m.ctx["current"]
    if seat is None or seat in m.ctx["left"] or seat in room.bots:
        return None
    info = room.seats[seat]
    if info.kind == "bot" or info.left or not (room.turn_seconds or info.away):
        return None
    return seat if turn_moves(room, seat) else None


def turn_moves(room: Room, seat: int) -> list[dict]:
    """The seat's legal moves that are its turn (not moves any seat may make, as slaps)."""
    moves = room.game.moves
    return [m for m in room.match.legal_moves(seat) if not moves[m["move"]].anyone]


def _turn_goes_on(room: Room, seat: int, turn: int) -> bool:
    """Whether the seat still has a step of its turn number ``turn`` to play."""
    m = room.match
    return (m.result is None and m.ctx["turn"] == turn and m.ctx["current"] == seat
            and bool(turn_moves(room, seat)))


class TurnKey(NamedTuple):
    """What the turn clock runs for; it is set again only when this changes. Each step of a
    turn of several, or a slap meanwhile, leaves it as it is."""

    round: int
    turn: int
    seat: int
    away: bool
    turn_seconds: int


def turn_key(room: Room) -> TurnKey | None:
    """The turn the clock runs for now, if any."""
    seat = timed_seat(room)
    return None if seat is None else TurnKey(room.round, room.match.ctx["turn"], seat,
                                             room.seats[seat].away, room.turn_seconds)


class TurnClock:
    """Sets each timed turn's deadline, and plays the turn with a bot when it passes."""

    def __init__(self, runtime: Runtime, config: Config,
                 commit: Callable[[Room, bool], None]) -> None:
        self.runtime = runtime
        self.config = config
        self.commit = commit
        self.pending: dict[str, int] = {}  # room id -> the deadline a task waits for

    def arm(self, room: Room) -> None:
        """Set the clock for the turn being played, if that turn changed (lock held, before
        the room is saved). A take-back that gives a player back the turn their move ended
        gives them its clock as it was, not a new one."""
        key, armed = turn_key(room), room.turn_armed
        if key == armed:
            return
        ended, room.turn_ended = room.turn_ended, (armed, room.turn_deadline)
        room.turn_armed = key
        taken_back = key is not None and armed is not None and key.turn < armed.turn
        if taken_back and ended[0] == key and ended[1] is not None:
            room.turn_deadline = ended[1]
        else:
            self._set_deadline(room, key)

    def keep(self, room: Room) -> None:
        """A room rebuilt from the database: its saved deadline stands (a restart does not
        give a turn more time); one is set if it has none."""
        room.turn_armed = turn_key(room)
        if room.turn_deadline is None and room.turn_armed is not None:
            self._set_deadline(room, room.turn_armed)

    def restored(self, room: Room) -> None:
        """A change was not saved and the room went back as it was: so did its deadline, which
        is the clock's again."""
        room.turn_armed = turn_key(room)

    def _set_deadline(self, room: Room, key: TurnKey | None) -> None:
        """The deadline of the turn ``key`` names (None: no clock): the turn time, or a short
        pause when the player is away."""
        if key is None:
            room.turn_deadline = None
            return
        seconds = self.config.AWAY_PAUSE_SECONDS if key.away else room.turn_seconds
        room.turn_deadline = now_ms() + int(seconds * 1000)

    def schedule(self, room: Room) -> None:
        """Wait for the room's turn deadline, if it has one nobody waits for yet."""
        deadline = room.turn_deadline
        if deadline is None or self.pending.get(room.id) == deadline:
            return
        self.pending[room.id] = deadline
        self.runtime.spawn(self._run, room, deadline)

    def _run(self, room: Room, deadline: int) -> None:
        try:
            self._expire(room, deadline)
        except Exception:  # a clock must never take the server down
            log.exception("turn clock of room %s failed", room.code)
        finally:
            if self.pending.get(room.id) == deadline:
                del self.pending[room.id]

    def _expire(self, room: Room, deadline: int) -> None:
        self.runtime.sleep(max(0.0, (deadline - now_ms()) / 1000))
        with room.lock:
            if room.closed or room.turn_deadline != deadline:
                return  # the turn was played, or its clock set again
            seat = timed_seat(room)
            if seat is None:
                return
            try:
                away = self._play_turn(room, seat)
                self.commit(room, away)
            except LoungeError as exc:  # not saved: the room is as it was; try again soon
                log.warning("stand-in move in room %s not made: %s", room.code, exc.message)
                return

    def _play_turn(self, room: Room, seat: int) -> bool:
        """The easy bot plays every step of the seat's turn; True when that made the seat
        away (its second turn in a row run out)."""
        away = room.seats[seat].away
        reason = "gone" if room.seats[seat].user_id in room.gone else (
            "away" if away else "timeout")
        bot = make_bot(room.game.slug, "easy", secrets.randbits(32))
        turn = room.match.ctx["turn"]
        for _ in range(MAX_STEPS):
            legal = turn_moves(room, seat)
            choice = bot.choose(room.match.view(seat), legal) or legal[0]
            room.play_for(seat, choice["move"], list(choice.get("args", [])), reason)
            if not _turn_goes_on(room, seat, turn):
                break
        return not away and room.ran_out(seat)
