"""Why a room closed, in players' words: the ``closed`` event's reasons, and the note a closed
room's code keeps for a day, so that someone who comes to it late (a friend following the
invite, a player reloading) is told why rather than that there is no such room."""

from __future__ import annotations

from dataclasses import dataclass

from .rooms import now_ms

#: How long a closed room's code says why it closed (a day: an invite is followed that day).
NOTE_MS = 24 * 3600 * 1000

#: The ``closed`` event's reasons, as the end of "Room K7MPQ2 has closed: ...".
WHY = {
    "host_left": "the host closed it.",
    "host_disconnected": "the host lost their connection and did not come back in time.",
    "host_never_came": "the host never came.",
    "abandoned": "nothing had happened in it for hours.",
    "game_withdrawn": "its game ({game}) is no longer offered here. The host can open a new "
                      "room with another game.",
}


@dataclass(frozen=True)
class ClosedNote:
    """Why the room that had ``code`` closed: a reason of :data:`WHY`, its game's slug, and
    when (milliseconds)."""

    code: str
    reason: str
    game: str
    closed: int

    @classmethod
    def of(cls, code: str, reason: str, game: str) -> ClosedNote:
        """A note of a room closing now."""
        return cls(code.upper(), reason, game, now_ms())

    def current(self, now: int | None = None) -> bool:
        """Whether the note is still told (it is, for NOTE_MS after the closing)."""
        return (now_ms() if now is None else now) - self.closed < NOTE_MS

    def message(self) -> str:
        """The sentence told to whoever comes to the code: "Room K7MPQ2 has closed: ..."."""
        why = WHY.get(self.reason, "it is gone.").format(game=self.game)
        return f"Room {self.code} has closed: {why}"
