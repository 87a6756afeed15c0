"""Slapjack by rule of thumb: slap exactly when the pile can be won, else play on your turn.

Slapjack is real time, so waiting is a choice: when there is nothing worth doing (not its turn,
nothing to slap) ``choose`` returns None and the caller asks again after the next change. The
bot never slaps wrongly; how quickly it slaps is the server's business. Its slap names the
version it saw: the slap is judged on the pile as it is when it arrives, so it stays good if a
card lands meanwhile on a pile that stays slappable, and is late only if the pile was taken or
slapped since.
"""

from ..games.slapjack import slap_reason
from .base import RandomBot


class SlapjackBot(RandomBot):
    def choose(self, view: dict, legal: list[dict]) -> dict | None:
        """A slap naming the version it saw when the pile can be won, else its play, else None."""
        if not view["pile_slapped"] and slap_reason(view["pile"]) is not None:
            versioned = {"move": "slap", "args": [view["version"]]}
            if versioned in legal:
                return versioned
            return next((m for m in legal if m["move"] == "slap"), None)
        return next((m for m in legal if m["move"] == "play"), None)
