"""Grace periods: someone whose last connection went keeps their place a while.

A player gets ``PLAYER_GRACE_SECONDS`` to come back before their seats are given up; in a game
being played they keep them, away (a bot plays their turns), until the game is over, and a
rematch leaves them out if they are still gone (:meth:`~backend.rooms.Room.expire`). The host
gets ``HOST_GRACE_SECONDS`` before the room closes, and the guests are shown when
(``Room.closes_at``); a room whose host never connects closes after
``UNCLAIMED_ROOM_SECONDS``, also when it is rebuilt after a restart before the host came
(``Room.host_came`` is saved with it). Coming back (a ``join``) or leaving for good ends the
wait; a user who goes again starts a new one. The clock runs in the room's owner process, on its
:class:`~backend.runtime.Runtime`, like the turn clocks (:mod:`backend.turns`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from itertools import count

from .config import Config
from .rooms import Room, now_ms
from .runtime import Runtime

log = logging.getLogger(__name__)


class GraceClock:
    """The grace periods of one process's rooms."""

    def __init__(self, runtime: Runtime, config: Config, commit: Callable[..., None],
                 close_room: Callable[[Room, str], None]) -> None:
        self.runtime = runtime
        self.config = config
        self.commit = commit
        self.close_room = close_room
        self._waits: dict[tuple[str, str], int] = {}  # (room id, user id) -> its wait's mark
        self._marks = count(1)

    def start(self, room: Room, user_id: str, delay: float | None = None,
              reason: str = "host_disconnected") -> None:
        """``user_id`` has no connection left in ``room``: they lose their seats (the host: the
        room closes, for ``reason``) unless they are back within their grace period, or
        ``delay``."""
        mark = next(self._marks)
        self._waits[(room.id, user_id)] = mark
        if delay is None:
            host = user_id == room.host
            delay = self.config.HOST_GRACE_SECONDS if host else self.config.PLAYER_GRACE_SECONDS
            if host:
                room.closes_at = now_ms() + int(delay * 1000)
        self.runtime.spawn(self._wait, room, user_id, mark, delay, reason)

    def unclaimed(self, room: Room) -> None:
        """A room just opened: it closes if its host never connects."""
        self.start(room, room.host, self.config.UNCLAIMED_ROOM_SECONDS, "host_never_came")

    def end(self, room: Room, user_id: str) -> None:
        """``user_id`` is back (or gone for good): no wait for them any more."""
        self._waits.pop((room.id, user_id), None)
        if user_id == room.host:
            room.closes_at = None

    def _wait(self, room: Room, user_id: str, mark: int, delay: float, reason: str) -> None:
        self.runtime.sleep(delay)
        key = (room.id, user_id)
        if self._waits.get(key) != mark:
            return  # they came back (and maybe went again: a newer wait runs)
        del self._waits[key]
        try:
            with room.lock:
                if room.closed or room.is_connected(user_id):
                    return
                if room.expire(user_id):
                    self.close_room(room, reason)
                    return
                self.commit(room, seats_changed=True)
        except Exception:
            log.exception("grace period of %s in room %s failed", user_id, room.code)
