"""Crazy Eights by rule of thumb: play any card that fits (an 8 names the suit you hold most);
with nothing to play, draw, and play the drawn card if it fits.

The ``hard`` level starts from a sharper rule, :func:`careful`.
"""

import random
from collections import Counter

from ..games.crazy_eights import WILD
from .base import RandomBot

Action = tuple[str, tuple]  # (move name, args)
# Found with lounge simulate against the casual rule (docs/bots.md).
SAVE_EIGHT_ABOVE = 4
SPEND_EIGHT_AT = 2


def suit_counts(hand: list[str]) -> Counter:
    """How many cards of each suit the hand holds, not counting its 8s."""
    return Counter(card[-1] for card in hand if card[:-1] != WILD)


def eight_to_play(hand: list[str], eights: list[tuple], rand: random.Random) -> tuple:
    """One 8 (the first one offered) and the suit the rest of the hand holds most of."""
    card = eights[0][0]
    counts = suit_counts([c for c in hand if c != card])
    suits = sorted({args[1] for args in eights if args[0] == card})
    return card, max(suits, key=lambda s: (counts[s], rand.random()))


def draw_or_pass(legal: list[Action]) -> Action:
    """Draw when there is a card to draw, else pass (the only moves left)."""
    for name, args in legal:
        if name == "draw":
            return name, args
    return legal[0]


def casual(hand: list[str], legal: list[Action], rand: random.Random) -> Action:
    """Any card that fits, an 8 as likely as any other; an 8 names the suit held most."""
    plays = [args for name, args in legal if name == "play"]
    if not plays:
        return draw_or_pass(legal)
    card = rand.choice(sorted({args[0] for args in plays}))
    if card[:-1] == WILD:
        return "play", eight_to_play(hand, [args for args in plays if args[0] == card], rand)
    return "play", (card,)


def careful(hand: list[str], legal: list[Action], rand: random.Random,
            fewest_other: int = 99) -> Action:
    """The sharper rule the ``hard`` level starts from. Play a card that is not an 8: one whose
    rank you hold no other card of (a pair lets you change suit later), from the suit you hold
    most. Save a lone 8 while your hand is big (more than ``SAVE_EIGHT_ABOVE`` cards) and no
    other player is close to going out (``fewest_other``, the fewest cards another player
    holds, above ``SPEND_EIGHT_AT``): draw rather than play it, and keep an 8 just drawn."""
    plays = [args for name, args in legal if name == "play"]
    plain = [args for args in plays if args[0][:-1] != WILD]
    if plain:
        suits = suit_counts(hand)
        ranks = Counter(card[:-1] for card in hand)
        return "play", max(plain, key=lambda args: (
            suits[args[0][-1]] - ranks[args[0][:-1]], rand.random()))
    if plays:
        saving = (len(hand) > SAVE_EIGHT_ABOVE and fewest_other > SPEND_EIGHT_AT
                  and sum(1 for card in hand if card[:-1] == WILD) == 1)
        if saving:
            for name, args in legal:
                # Only after a draw may one both play and pass: then pass, keeping the 8.
                if name in ("draw", "pass"):
                    return name, args
        return "play", eight_to_play(hand, plays, rand)
    return draw_or_pass(legal)


def fewest_other(view: dict) -> int:
    """The fewest cards held by another player still in the game."""
    seat, left = view["seat"], view["left"]
    return min((n for s, n in enumerate(view["hands_count"]) if s != seat and s not in left),
               default=0)


def actions_of(legal: list[dict]) -> list[Action]:
    return [(m["move"], tuple(m["args"])) for m in legal]


def as_move(action: Action) -> dict:
    return {"move": action[0], "args": list(action[1])}


class CrazyEightsBot(RandomBot):
    """The ``normal`` level: :func:`casual`."""

    def choose(self, view: dict, legal: list[dict]) -> dict:
        return as_move(casual(view["hands"] or [], actions_of(legal), self.random))
