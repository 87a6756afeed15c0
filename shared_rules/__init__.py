"""The rules of the lounge's games: pure Python, no I/O.

    from shared_rules import GAMES, new_match, InvalidMove, Match
    m = new_match("nine-locks", num_players=3, seed=42)
    m2 = m.apply(0, "play", "9H", 4)
"""

from .engine import Game, Match, Move, Turn, from_view, replay
from .errors import InvalidMove
from .registry import GAMES, new_match

__all__ = [
    "GAMES", "Game", "InvalidMove", "Match", "Move", "Turn", "from_view", "new_match", "replay",
]
