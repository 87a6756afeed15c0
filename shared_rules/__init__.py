"""The rules of the lounge's games: pure Python, no I/O.

    from shared_rules import GAMES, new_match, InvalidMove, Match
    m = new_match("nine-locks", num_players=3, seed=42)
    m2 = m.apply(0, "play", "9H", 4)
"""

from .engine import Game, Match, Move, Turn, from_view, replay, replay_step, start
from .errors import InvalidMove
from .registry import GAMES


def new_match(slug: str, num_players: int, seed: int | str | None = None) -> Match:
    """A new match of the game ``slug``; a seed from ``secrets`` when none is given."""
    game = GAMES.get(slug) if isinstance(slug, str) else None
    if game is None:
        raise InvalidMove(f"There is no game called {slug!r}")
    return start(game, num_players, seed)


__all__ = [
    "GAMES", "Game", "InvalidMove", "Match", "Move", "Turn", "from_view", "new_match", "replay",
    "replay_step",
]
