"""The standard 52-card deck and its text encoding: rank then suit, as in ``10H`` or ``QS``."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_SET = frozenset(DECK)

_RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def rank(card: str) -> str:
    return card[:-1]


def is_red(card: str) -> bool:
    return card[-1] in "HD"


def card_name(card: str) -> str:
    """The name of a card, as a sentence says it: ``QH`` is "queen of hearts", ``9H`` "9 of
    hearts" (the game log adds the article: "the queen of hearts")."""
    r = card[:-1]
    return f"{_RANK_NAMES.get(r, r)} of {SUIT_NAMES[card[-1]]}"


def deal_unseen(unseen: list[str], seat: int, own: list[str], hands_count: list[int],
                piles: list[int]) -> tuple[list[list[str]], list[list[str]]]:
    """A guess at the hidden cards, for a search from one seat's view: ``unseen`` (shuffled)
    dealt into the other seats' hands (``hands_count``), then into piles of the given sizes,
    the last pile taking what is left; ``seat`` keeps ``own``. (hands, piles)."""
    sizes = [0 if s == seat else n for s, n in enumerate(hands_count)]
    if sum(sizes) + sum(piles) != len(unseen):
        raise ValueError("The view's card counts do not add up to a 52-card deck")
    hands, at = [], 0
    for s, n in enumerate(sizes):
        hands.append(own if s == seat else unseen[at:at + n])
        at += n
    dealt = []
    for n in piles[:-1]:
        dealt.append(unseen[at:at + n])
        at += n
    return hands, [*dealt, unseen[at:]]
