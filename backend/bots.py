"""Bots play their seats on the server: each sees only its own seat's view and legal moves.

A bot decides on the match as it is, waits a human-like moment (a thinking pause, or a shorter
reflex for moves any seat may make at any time, such as Slapjack's slap), then acts only if the
table has not changed meanwhile; otherwise the change has already scheduled a fresh decision.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable

from .config import Config
from .errors import LoungeError
from .rooms import PLAYING, Room
from .runtime import Runtime

log = logging.getLogger(__name__)

# How long each level takes to slap, as a share of BOT_SLAP_DELAY_SECONDS: an easy bot as quick
# as the others won every jack from a person (who reacts in 0.25 to 0.5 s).
SLAP_REACTION = {"easy": 2.0, "normal": 1.0, "hard": 0.8}
Offload = Callable[..., object]


def offloader(mode: str) -> Offload:
    """How to run a searching bot's thinking on a native thread, so that the event loop goes on
    serving everyone else meanwhile (the one place where the async mode matters here)."""
    if mode == "eventlet":
        from eventlet import tpool

        return tpool.execute
    if mode == "gevent":
        from gevent import get_hub

        return lambda fn, *args: get_hub().threadpool.apply(fn, args)
    return lambda fn, *args: fn(*args)


class BotRunner:
    """Schedules bot decisions as background tasks of the runtime."""

    def __init__(self, runtime: Runtime, config: Config, commit: Callable[[Room], None]) -> None:
        self.runtime = runtime
        self.config = config
        self.commit = commit
        self.pending: dict[tuple[str, int], tuple[int, int]] = {}
        self.random = random.Random()
        self.moves = 0  # bot moves applied by this process (health shows it)
        self.offload = offloader(config.ASYNC_MODE)
        self.searching: dict[str, int] = {}  # by host: their rooms' hard bots thinking now
        self._searching_lock = threading.Lock()

    def schedule(self, room: Room) -> None:
        """Start a decision for every bot seat that may act at the room's current version."""
        if not room.bots:
            return
        with room.lock:
            turns = room.bot_turns()
        for seat, mark in turns:
            key = (room.id, seat)
            if self.pending.get(key) == mark:
                continue
            self.pending[key] = mark
            self.runtime.spawn(self._run, room, seat, mark)

    def _run(self, room: Room, seat: int, mark: tuple[int, int]) -> None:
        try:
            self._act(room, seat, mark)
        except Exception:  # a bot must never take the server down
            log.exception("bot of seat %s in room %s failed", seat, room.code)
        finally:
            if self.pending.get((room.id, seat)) == mark:
                del self.pending[(room.id, seat)]

    def _act(self, room: Room, seat: int, mark: tuple[int, int]) -> None:
        with room.lock:
            match, bot = room.match, room.bots.get(seat)
            if bot is None or match is None or room.mark() != mark:
                return
            view, legal = match.view(seat), match.legal_moves(seat)
            # a real-time game's hard bot reacts by rule of thumb (see make_bot): no search
            slow = room.seats[seat].level == "hard" and not room.game.real_time
        if not legal:
            return
        choice = self._search(room, mark, bot, view, legal) if slow else bot.choose(view, legal)
        if choice is None:  # nothing worth doing now (Slapjack): wait for the next change
            return
        self.runtime.sleep(self._pause(room, seat, choice["move"]))
        with room.lock:
            if room.closed or room.status != PLAYING or room.match is None:
                return
            if room.mark() != mark or seat not in room.bots:
                return  # the table changed while the bot was thinking
            try:
                room.apply_seat(seat, choice["move"], list(choice.get("args", [])))
            except LoungeError as exc:
                log.warning("bot of seat %s chose an illegal move: %s", seat, exc.message)
                return
            try:
                self.commit(room)
            except LoungeError as exc:  # not saved: the room is as it was
                log.warning("bot move in room %s not saved: %s", room.code, exc.message)
                return
            self.moves += 1

    def _search(self, room: Room, mark: tuple[int, int], bot: object, view: dict,
                legal: list[dict]) -> dict | None:
        """A hard bot thinks on a native thread, once there is a free search slot for its host
        (MAX_BOT_SEARCHES_PER_USER) and in the process (MAX_BOT_SEARCHES): searches hold the
        interpreter most of the time, so that many at once would slow every game on the event
        loop. None when the table changed while it waited."""
        host, cap = room.host, self.config.MAX_BOT_SEARCHES_PER_USER
        while True:
            with self._searching_lock:
                if (self.searching.get(host, 0) < cap
                        and sum(self.searching.values()) < self.config.MAX_BOT_SEARCHES):
                    self.searching[host] = self.searching.get(host, 0) + 1
                    break
            if room.closed or room.mark() != mark:
                return None
            self.runtime.sleep(0.02)
        try:
            return self.offload(bot.choose, view, legal)
        finally:
            with self._searching_lock:
                left = self.searching[host] - 1
                if left:
                    self.searching[host] = left
                else:
                    del self.searching[host]

    def _pause(self, room: Room, seat: int, move: str) -> float:
        spec = room.game.moves.get(move)
        if spec is not None and spec.anyone:
            reaction = SLAP_REACTION.get(room.seats[seat].level or "", 1.0)
            return self.config.BOT_SLAP_DELAY_SECONDS * reaction * self.random.uniform(0.7, 1.4)
        return self.config.BOT_DELAY_SECONDS
