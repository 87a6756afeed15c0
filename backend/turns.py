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

from shared_rules import make_bot

from .config import Config
from .errors import LoungeError
from .rooms import Room, now_ms
from .runtime import Runtime

log = logging.getLogger(__name__)


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
        the room is saved)."""
        key = room.turn_key()
        if key != room.turn_armed:
            room.turn_armed = key
            room.arm_turn(room.turn_seconds, self.config.AWAY_PAUSE_SECONDS, key)

    def keep(self, room: Room) -> None:
        """A room rebuilt from the database: its saved deadline stands (a restart does not
        give a turn more time); one is set if it has none."""
        room.turn_armed = room.turn_key()
        if room.turn_deadline is None and room.turn_armed is not None:
            room.arm_turn(room.turn_seconds, self.config.AWAY_PAUSE_SECONDS, room.turn_armed)

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
            seat = room.timed_seat()
            if seat is None:
                return
            legal = room.turn_moves(seat)
            bot = make_bot(room.game.slug, "easy", secrets.randbits(32))
            choice = bot.choose(room.match.view(seat), legal) or legal[0]
            try:
                away = room.stand_in(seat, choice["move"], list(choice.get("args", [])))
                self.commit(room, away)
            except LoungeError as exc:  # not saved: the room is as it was; try again soon
                log.warning("stand-in move in room %s not made: %s", room.code, exc.message)
                return
