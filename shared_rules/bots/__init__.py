"""Bots that fill empty seats, by game and level.

``easy`` plays any legal move; ``normal`` plays by each game's rules of thumb; ``hard`` searches
(Monte Carlo tree search on hands sampled from its own view) for about a second per move.
"""

from collections.abc import Callable

from ..registry import GAMES
from .base import Bot, RandomBot
from .crazy_eights import CrazyEightsBot
from .mcts import HARD_SECONDS, make_hard_bot
from .nine_locks import NineLocksBot
from .poker99 import Poker99Bot
from .slapjack import SlapjackBot
from .tic_tac_toe import TicTacToeBot

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

RULE_OF_THUMB: dict[str, Callable[[int | None], Bot]] = {
    "tic-tac-toe": TicTacToeBot,
    "poker99": Poker99Bot,
    "nine-locks": NineLocksBot,
    "slapjack": SlapjackBot,
    "crazy-eights": CrazyEightsBot,
}


def make_bot(slug: str, level: str, seed: int | None = None, *,
             seconds: float | None = HARD_SECONDS, iterations: int | None = None) -> Bot:
    """A bot for game ``slug`` at ``level``; ValueError for an unknown game or level.
    ``seconds`` and ``iterations`` bound the ``hard`` bot's search per move."""
    if slug not in RULE_OF_THUMB:
        raise ValueError(f"There is no game called {slug!r}")
    if level == "easy":
        return RandomBot(seed)
    if level == "normal":
        return RULE_OF_THUMB[slug](seed)
    if level == "hard" and GAMES[slug].real_time:
        return RULE_OF_THUMB[slug](seed)  # reflexes, not choices: it never slaps wrongly
    if level == "hard":
        return make_hard_bot(slug, seed, seconds=seconds, iterations=iterations,
                             guide=RULE_OF_THUMB[slug](seed))
    raise ValueError(f"There is no bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "RandomBot", "make_bot"]
