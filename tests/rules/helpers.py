"""Building exact positions for rule tests, and what the card games' tests ask of them."""

import random
from collections import Counter
from collections.abc import Callable, Iterable

import pytest

from shared_rules import InvalidMove, Match, from_view
from shared_rules.cards import CARD_SET, DECK
from shared_rules.engine import _remaining_winner


def position(match: Match, G: dict | None = None, **ctx: object) -> Match:
    """``match`` with its game state replaced by ``G`` and any ctx fields overridden
    (``current``, ``stage``, ``out``, ``left``, ``direction``, ``turn``)."""
    G = match.G if G is None else G
    new_ctx = dict(match.ctx)
    for key, value in ctx.items():
        new_ctx[key] = tuple(value) if key in ("out", "left") else value
    result = _remaining_winner(match.game, new_ctx) or match.game.end_if(G, new_ctx)
    return Match(match.game, match.num_players, match.seed, G, new_ctx, match.rng,
                 match.version, result, None)


def cards_in(value: object) -> set[str]:
    """Every card string anywhere in a nested value."""
    if isinstance(value, str):
        return {value} if value in CARD_SET else set()
    if isinstance(value, list | tuple):
        return {c for v in value for c in cards_in(v)}
    if isinstance(value, dict):
        return {c for v in value.values() for c in cards_in(v)}
    return set()


def refused(match: Match, seat: object, move: object, *args: object) -> str:
    """The message of the InvalidMove that the action raises; the match must not change."""
    before = match.to_json()
    with pytest.raises(InvalidMove) as caught:
        match.apply(seat, move, *args)
    assert match.to_json() == before
    return caught.value.message


def assert_samples_show_views(positions: Iterable[Match], rand: random.Random,
                              all_cards: Callable[[dict], list[str]],
                              same_moves: bool = False) -> None:
    """A match sampled from any seat's view (the spectator's too) shows that seat exactly its
    view, holds the whole deck once, and with ``same_moves`` offers the seat the same moves."""
    for m in positions:
        for seat in (None, *range(m.num_players)):
            view = m.view(seat)
            sample = from_view(m.game, view, seed=rand.randrange(10**9))
            assert sample.view(seat) == view
            if same_moves and seat is not None:
                assert sample.legal_moves(seat) == m.legal_moves(seat)
            assert Counter(all_cards(sample.G)) == Counter(DECK)
