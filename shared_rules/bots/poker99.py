"""Poker 99 by rule of thumb: while a number card fits, play the lowest one, keeping the total low
for the next player; save the K, 10, Q and the switch cards (4, 5, J, ace of spades) for when the
total is too high for the number cards, and then spend the cheapest of them."""

from ..games.poker99 import EFFECTS, outcomes
from .base import RandomBot

# The order in which saved cards are spent (cheapest first). The cards that cannot be blocked
# and also change the total the most (K to 99, the ace of spades to 1) are kept longest.
SPEND_ORDER = ("J", "4", "5", "10", "Q", "K", "AS")
SPEND_COST = {rank: i for i, rank in enumerate(SPEND_ORDER)}


def is_number(card: str) -> bool:
    """A card that only adds its face value, and so can be blocked by a high total."""
    kind, amount = EFFECTS[card]
    return kind == "add" and amount > 0


def new_total(move: dict, total: int) -> int:
    """The total after a legal ``play`` move."""
    card, *rest = move["args"]
    sign = rest[0] if rest and rest[0] in ("+", "-") else None
    return dict(outcomes(card, total))[sign]


def spend_cost(card: str) -> int:
    return SPEND_COST["AS" if card == "AS" else card[:-1]]


def next_seat(view: dict) -> int | None:
    """The player still in who would play after this seat in the current direction."""
    n, seat, step = view["num_players"], view["seat"], view["direction"]
    for k in range(1, n):
        other = (seat + k * step) % n
        if view["status"][other] == "in":
            return other
    return None


class Poker99Bot(RandomBot):
    def choose(self, view: dict, legal: list[dict]) -> dict:
        total = view["total"]
        numbers = [m for m in legal if is_number(m["args"][0])]
        if numbers:
            return min(numbers, key=lambda m: (new_total(m, total), self.random.random()))
        following = next_seat(view)
        return min(legal, key=lambda m: self._spend_score(m, total, following))

    def _spend_score(self, move: dict, total: int, following: int | None) -> tuple:
        """Lower is better: the cheapest card, then the lowest total left to the next player;
        a 5 names the player next in turn, so the most players come before this seat again."""
        args = move["args"]
        names_other = len(args) > 1 and isinstance(args[1], int) and args[1] != following
        return (spend_cost(args[0]), new_total(move, total), names_other, self.random.random())
