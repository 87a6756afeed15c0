"""The standard 52-card deck and its text encoding: rank then suit, as in ``10H`` or ``QS``."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_SET = frozenset(DECK)

_RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def rank(card: str) -> str:
    return card[:-1]


def is_red(card: str) -> bool:
    return card[-1] in "HD"


def card_name(card: str) -> str:
    """The accessible name of a card: ``9H`` is "9 of hearts"."""
    r = card[:-1]
    return f"{_RANK_NAMES.get(r, r)} of {_SUIT_NAMES[card[-1]]}"
