"""Playout policies of the searching bot: cheap rules of thumb, with some randomness so that the
playouts still spread over the game. They read the sampled match they play out (a guess dealt
from the searching seat's view), never the real one.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable

from ..engine import Match
from ..games import crazy_eights, nine_locks, poker99
from .base import Bot
from .crazy_eights import careful
from .poker99 import is_number, spend_cost

Key = tuple[int, str, tuple]  # (seat, move name, args)
STEEPNESS = 1.0  # how much one card less in hand raises a seat's guessed chance of winning
WANDER = 0.2  # how often a playout ignores its rule of thumb and plays any legal move
SAFE_ENOUGH = 3  # Poker 99: more always-playable cards than this add no safety


def turn_moves(match: Match) -> tuple[int, list[tuple[str, tuple]]] | None:
    """The seat whose turn it is and its legal moves (turn-based games only)."""
    seats = match.active_seats
    if not seats:
        return None
    seat = seats[0]
    return seat, match.legal_actions(seat)


Rule = Callable[[Match, int, list[tuple[str, tuple]], random.Random], Key]


def wandering(rule: Rule) -> Callable[[Match, random.Random], Key | None]:
    """A playout policy from a rule of thumb: the seat whose turn it is plays as ``rule`` says
    (given the match, the seat and its legal moves), or now and then (WANDER) any legal move."""

    def policy(match: Match, rand: random.Random) -> Key | None:
        found = turn_moves(match)
        if found is None or not found[1]:
            return None
        seat, legal = found
        if rand.random() < WANDER:
            name, args = legal[rand.randrange(len(legal))]
            return seat, name, args
        return rule(match, seat, legal, rand)

    return functools.wraps(rule)(policy)


@wandering
def nine_locks_policy(match: Match, seat: int, legal: list[tuple[str, tuple]],
                      rand: random.Random) -> Key:
    """Empty the visible hand first: play a visible card, else a hidden one, else pick up."""
    visible = match.G["visible"][seat]
    plays = [a for n, a in legal if n == "play"]
    for_visible = [a for a in plays if a[0] in visible]
    choice = for_visible or plays
    if choice:
        return seat, "play", choice[rand.randrange(len(choice))]
    name, args = legal[rand.randrange(len(legal))]
    return seat, name, args


@wandering
def poker99_policy(match: Match, seat: int, legal: list[tuple[str, tuple]],
                   rand: random.Random) -> Key:
    """As the rule-of-thumb bot plays: the number card leaving the lowest total, else the
    cheapest of the saved cards."""
    total = match.G["total"]
    numbers = [args for _, args in legal if is_number(args[0])]
    if numbers:
        best = min(numbers, key=lambda args: (total + poker99.EFFECTS[args[0]][1], rand.random()))
    else:
        best = min((args for _, args in legal),
                   key=lambda args: (spend_cost(args[0]), after(args, total), rand.random()))
    return seat, "play", best


@wandering
def crazy_eights_policy(match: Match, seat: int, legal: list[tuple[str, tuple]],
                        rand: random.Random) -> Key:
    """As the sharper rule of thumb plays (``bots/crazy_eights.py``: careful)."""
    hands, left = match.G["hands"], match.ctx["left"]
    fewest = min((len(h) for s, h in enumerate(hands) if s != seat and s not in left), default=0)
    name, args = careful(hands[seat], legal, rand, fewest)
    return seat, name, args


def after(args: tuple, total: int) -> int:
    """The total after playing ``args`` (card, then its choice if any)."""
    sign = args[1] if len(args) > 1 and args[1] in poker99.SIGNS else None
    return dict(poker99.outcomes(args[0], total))[sign]


class GuidedPolicy:
    """Playouts in which every seat plays as a rule-of-thumb bot would, shown that seat's view of
    the sample (and now and then any legal move). Searching over such playouts improves on the
    rule of thumb: each candidate move is judged by how the game goes on from it."""

    def __init__(self, guide: Bot, wander: float = WANDER) -> None:
        self.guide = guide
        self.wander = wander

    def __call__(self, match: Match, rand: random.Random) -> Key | None:
        seats = match.active_seats
        if not seats:
            return None
        seat = seats[0]
        legal = match.legal_moves(seat)
        if not legal:
            return None
        if rand.random() < self.wander:
            move = legal[rand.randrange(len(legal))]
        else:
            move = self.guide.choose(match.view(seat), legal)
        return seat, move["move"], tuple(move["args"])


def nine_locks_value(match: Match) -> list[float]:
    """Each seat's chance of winning, guessed from hand sizes: the fewer visible cards (then
    hidden ones) a seat holds, the closer it is to emptying its visible hand and winning."""
    G = match.G
    gone = match.ctx["left"]
    weights = [0.0 if seat in gone else
               math.exp(-STEEPNESS * (len(G["visible"][seat]) + 0.25 * len(G["hidden"][seat])))
               for seat in range(match.num_players)]
    total = sum(weights) or 1.0
    return [w / total for w in weights]


# Games whose playouts follow the rule-of-thumb bot (when it is given): worth its cost there.
GUIDED = frozenset({nine_locks.GAME.slug})

def poker99_value(match: Match) -> list[float]:
    """Each seat's chance of outlasting the others, guessed from its hand: the cards that can
    be played whatever the total (all but the plain number cards) are what keeps a seat in."""
    G = match.G
    weights = []
    for seat, hand in enumerate(G["hands"]):
        if G["status"][seat] != "in":
            weights.append(0.0)
        else:
            safe = sum(1 for card in hand if not is_number(card))
            weights.append(math.exp(min(safe, SAFE_ENOUGH)))
    total = sum(weights) or 1.0
    return [w / total for w in weights]


def crazy_eights_value(match: Match) -> list[float]:
    """Each seat's chance of emptying its hand first, guessed from hand sizes."""
    gone = match.ctx["left"]
    weights = [0.0 if seat in gone else math.exp(-STEEPNESS * len(hand))
               for seat, hand in enumerate(match.G["hands"])]
    total = sum(weights) or 1.0
    return [w / total for w in weights]


# Games whose playouts stop after a few actions and are scored by a guess: (actions, guess).
CUT_SHORT = {nine_locks.GAME.slug: (12, nine_locks_value),
             poker99.GAME.slug: (20, poker99_value),
             crazy_eights.GAME.slug: (20, crazy_eights_value)}


def crazy_eights_kind(key: Key) -> tuple[str, bool]:
    """A move's kind: playing a card that is not an 8, playing an 8, drawing or passing. Its
    playouts judge which card or which suit well, but not whether to spend an 8 or draw:
    measured, the search's overrules across kinds lost games, those within a kind won some."""
    _, name, args = key
    return name, bool(args) and args[0][:-1] == crazy_eights.WILD


# Games whose searching bot may only replace its rule of thumb's move by one of the same kind.
KINDS = {crazy_eights.GAME.slug: crazy_eights_kind}

POLICIES = {
    nine_locks.GAME.slug: nine_locks_policy,
    poker99.GAME.slug: poker99_policy,
    crazy_eights.GAME.slug: crazy_eights_policy,
}
