"""Sharper rules of thumb that the ``hard`` level starts from: its search overrules them only
when it finds a clearly better move (see ``MctsBot.guide``). Each one was found, and is kept
honest, with ``lounge simulate``.
"""

from .base import Bot, RandomBot
from .crazy_eights import actions_of, as_move, careful, fewest_other
from .poker99 import Poker99Bot, is_number, new_total


class Poker99SharpBot(Poker99Bot):
    """Poker 99: play the number card that leaves the *highest* total, not the lowest. The total
    then climbs quickly for the next players, who must spend the cards that save them (K, 10,
    Q, 4, 5, J, ace of spades) while this seat keeps its own. Otherwise as the rule of thumb."""

    def choose(self, view: dict, legal: list[dict]) -> dict:
        total = view["total"]
        numbers = [m for m in legal if is_number(m["args"][0])]
        if numbers:
            return max(numbers, key=lambda m: (new_total(m, total), self.random.random()))
        return super().choose(view, legal)


class CrazyEightsSharpBot(RandomBot):
    """Crazy Eights: save a lone 8 while the hand is big, keep pairs, play from the suit held
    most (:func:`careful`), rather than any card that fits."""

    def choose(self, view: dict, legal: list[dict]) -> dict:
        action = careful(view["hands"] or [], actions_of(legal), self.random, fewest_other(view))
        return as_move(action)


SHARPER: dict[str, type[Bot]] = {"poker99": Poker99SharpBot,
                                 "crazy-eights": CrazyEightsSharpBot}
