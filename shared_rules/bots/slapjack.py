"""Slapjack by rule of thumb: slap exactly when the pile can be won, else play on your turn.

Slapjack is real time, so waiting is a choice: when there is nothing worth doing (not its turn,
nothing to slap) ``choose`` returns None and the caller asks again after the next change. The
bot never slaps wrongly; how quickly it slaps is the server's business. Its slap names the
version it saw: the slap is judged on the pile as it is when it arrives, so it stays good if a
card lands meanwhile on a pile that stays slappable, and is late only if the pile was taken or
slapped since.
"""

from ..cards import rank
from ..games.slapjack import slap_reason
from .base import RandomBot

#: How often the easy bot takes a queen or a king on top for a jack, and slaps it wrongly.
EASY_MISTAKES = 0.15


class SlapjackBot(RandomBot):
    def choose(self, view: dict, legal: list[dict]) -> dict | None:
        """A slap naming the version it saw when the pile can be won, else its play, else None."""
        if not view["pile_slapped"] and slap_reason(view["pile"]) is not None:
            return _slap(view, legal)
        return _play(legal)


class EasySlapjackBot(RandomBot):
    """The easy level, a careless player rather than a random one (a random slap costs three
    cards, so a bot slapping at random only gives its stack away): it sees only a jack on top,
    never a pair or a sandwich, and now and then takes a queen or a king for a jack."""

    def choose(self, view: dict, legal: list[dict]) -> dict | None:
        """A slap on a jack, or on a queen or king by mistake, else its play, else None."""
        top = rank(view["pile"][-1]) if view["pile"] else None
        if not view["pile_slapped"] and (
                top == "J" or (top in ("Q", "K") and self.random.random() < EASY_MISTAKES)):
            return _slap(view, legal) or _play(legal)
        return _play(legal)


def _slap(view: dict, legal: list[dict]) -> dict | None:
    """The slap naming the version seen, if legal, else any slap offered."""
    versioned = {"move": "slap", "args": [view["version"]]}
    if versioned in legal:
        return versioned
    return next((m for m in legal if m["move"] == "slap"), None)


def _play(legal: list[dict]) -> dict | None:
    return next((m for m in legal if m["move"] == "play"), None)
