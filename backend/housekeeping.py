"""Housekeeping: rooms nobody has used for a long time are closed, and old finished matches,
matches whose room is gone, users who no longer sit anywhere and closed rooms' notes past their
day are removed."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from .closing import NOTE_MS
from .rooms import now_ms
from .store import HistoryStore

if TYPE_CHECKING:
    from .service import LoungeService

log = logging.getLogger(__name__)
DAY_MS = 24 * 3600 * 1000


class Housekeeper:
    """Sweeps the lounge every ``HOUSEKEEPING_SECONDS`` in a background task."""

    def __init__(self, service: LoungeService, store: HistoryStore) -> None:
        self.service = service
        self.store = store
        self.config = service.config

    def start(self) -> None:
        """Sweep every HOUSEKEEPING_SECONDS from now on."""
        self.service.runtime.spawn(self._loop)

    def _loop(self) -> None:
        while True:
            self.service.runtime.sleep(self.config.HOUSEKEEPING_SECONDS)
            try:
                self.sweep()
            except Exception:
                log.exception("housekeeping failed")

    def sweep(self, now: int | None = None) -> dict[str, int]:
        """One round of housekeeping; how many rooms, matches and users went."""
        now = now_ms() if now is None else now
        closed = self.close_abandoned(now - int(self.config.ABANDONED_ROOM_SECONDS * 1000))
        keep_ms = int(self.config.MATCH_RETENTION_DAYS * DAY_MS)
        purged = self.store.purge(matches_before=now - keep_ms, users_before=now - keep_ms,
                                  notes_before=now - NOTE_MS)
        return {"rooms": closed, **purged}

    def close_abandoned(self, before: int) -> int:
        """Close every room whose last change is older than ``before``; how many."""
        closed = 0
        for room in self.store.rooms():
            active = self.store.last_active(room.id)
            if active is None or active >= before:
                continue
            with room.lock:
                if not room.closed:
                    self.service.close_room(room, "abandoned")
                    closed += 1
        return closed
