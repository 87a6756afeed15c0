"""Nine Locks by rule of thumb, from its own seat's view only.

Play rather than pick up; play visible cards before hidden ones (the visible hand is the one to
empty); leave tops that the opponents' visible cards cannot follow; unlock piles that help this
seat more than its opponents; use the key to lock the pile the next player could use most.
"""

from collections.abc import Callable

from ..games.nine_locks import FITS, KEY_RANK, LOCKED, UNLOCKED
from .base import RandomBot


class NineLocksBot(RandomBot):
    """The ``normal`` level of Nine Locks."""

    def choose(self, view: dict, legal: list[dict]) -> dict:
        """The legal move that scores best by the rules of thumb above."""
        kinds = {m["move"] for m in legal}
        if "key" in kinds:
            return self._best(legal, lambda m: self._key_score(view, m["args"][0]))
        if "unlock" in kinds:
            return self._best(legal, lambda m: self._unlock_score(view, m["args"][0]))
        plays = [m for m in legal if m["move"] == "play"]
        if plays:
            return self._best(plays, lambda m: self._play_score(view, *m["args"]))
        return self.random.choice(legal)

    def _best(self, moves: list[dict], score: Callable[[dict], float]) -> dict:
        """The highest-scoring move, ties broken at random."""
        scored = [(score(m), self.random.random(), i) for i, m in enumerate(moves)]
        return moves[max(scored)[2]]

    # -- scores: higher is better ------------------------------------------------------------

    def _play_score(self, view: dict, card: str, pile: int) -> float:
        visible = view["visible"][view["seat"]]
        score = 0.0
        if card in visible:
            score += 10
            if len(visible) == 1:
                return 1000.0  # the last visible card wins at once
        pile_info = view["grid"][pile]
        if (pile_info["count"] + 1) % 5 == 0:
            score += 1  # the play locks the pile: nobody can follow on it
        if card[:-1] == KEY_RANK:
            score += 2  # a key to spend against the next player
        else:
            score -= 2 * _fitting(FITS[card], _opponent_cards(view))
        return score

    def _key_score(self, view: dict, pile: int) -> float:
        info = view["grid"][pile]
        mine = _own_cards(view)
        if info["state"] == UNLOCKED:
            fits = FITS[info["top"]]
            nxt = _next_seat(view)
            threat = _fitting(fits, view["visible"][nxt]) if nxt is not None else 0
            return 3 * threat + _fitting(fits, _opponent_cards(view)) - _fitting(fits, mine)
        if info["state"] == LOCKED:
            fits = FITS[info["top"]]
            return _fitting(fits, mine) - 2 * _fitting(fits, _opponent_cards(view)) - 0.5
        return -1.0  # a face-down pile: an unknown card that may help anyone

    def _unlock_score(self, view: dict, pile: int) -> float:
        info = view["grid"][pile]
        if info["state"] == LOCKED:
            fits = FITS[info["top"]]
            return _fitting(fits, _own_cards(view)) - 2 * _fitting(fits, _opponent_cards(view))
        return 0.0  # face-down piles all look alike


def _fitting(fits: frozenset[str], cards: list[str]) -> int:
    return sum(1 for card in cards if card in fits)


def _own_cards(view: dict) -> list[str]:
    seat = view["seat"]
    return view["visible"][seat] + (view["hidden"] or [])


def _opponent_cards(view: dict) -> list[str]:
    """The visible cards of every other seat still taking turns."""
    gone = set(view["out"]) | set(view["left"]) | {view["seat"]}
    return [c for s, hand in enumerate(view["visible"]) if s not in gone for c in hand]


def _next_seat(view: dict) -> int | None:
    """The next seat after this one, in turn order, that still takes turns."""
    n, me, step = view["num_players"], view["seat"], view["direction"]
    gone = set(view["out"]) | set(view["left"])
    for i in range(1, n):
        seat = (me + i * step) % n
        if seat not in gone:
            return seat
    return None
