"""Random legal playouts, shared by the property tests and the benchmark."""

import random
from collections.abc import Iterator

from shared_rules import Match, new_match

MAX_ACTIONS = 20_000  # far above any real game (Slapjack stops after 2,000 plays)


def random_step(match: Match, rand: random.Random) -> tuple[int, dict] | None:
    """A random seat that may act and one of its legal moves, or None when nobody can."""
    seats = match.active_seats
    rand.shuffle(seats)
    for seat in seats:
        legal = match.legal_moves(seat)
        if legal:
            return seat, rand.choice(legal)
    return None


def playout(slug: str, num_players: int, seed: int, rand: random.Random) -> Iterator[Match]:
    """Every match of one random game, from the deal to the end."""
    match = new_match(slug, num_players, seed)
    yield match
    for _ in range(MAX_ACTIONS):
        step = random_step(match, rand)
        if step is None:
            return
        seat, move = step
        match = match.apply(seat, move["move"], *move["args"])
        yield match
