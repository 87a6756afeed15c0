"""The rules of the lounge's games: pure Python, no I/O.

    from shared_rules import GAMES, new_match, InvalidMove, Match
    m = new_match("nine-locks", num_players=3, seed=42)
    m2 = m.apply(0, "play", "9H", 4)

Everything the server and its clients use is named here: the engine and the games, the bots,
the words for moves and log lines, replays of finished games, and bot-only games.
"""

from .bots import LEVELS, Bot, make_bot
from .cards import CARD_SET, SUIT_NAMES
from .describe import BEGINS, StandInLines, describe
from .engine import Game, Match, Move, Turn, from_view, replay
from .errors import InvalidMove
from .registry import GAMES, new_match
from .replays import replay_document
from .simulate import Budget, Summary, format_summary, parse_bots, simulate
from .words import Piece, game_facts, pieces

__all__ = [
    "BEGINS", "Bot", "Budget", "CARD_SET", "GAMES", "Game", "InvalidMove", "LEVELS", "Match",
    "Move", "Piece", "SUIT_NAMES", "StandInLines", "Summary", "Turn", "describe",
    "format_summary", "from_view", "game_facts", "make_bot", "new_match", "parse_bots", "pieces",
    "replay", "replay_document", "simulate",
]
