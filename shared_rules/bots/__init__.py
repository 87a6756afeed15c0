"""Bots that fill empty seats, by game and level.

``easy`` plays any legal move; ``normal`` plays by each game's rules of thumb.
"""

from collections.abc import Callable

from .base import Bot, RandomBot
from .tic_tac_toe import TicTacToeBot

LEVELS: tuple[str, ...] = ("easy", "normal")

RULE_OF_THUMB: dict[str, Callable[[int | None], Bot]] = {
    "tic-tac-toe": TicTacToeBot,
}


def make_bot(slug: str, level: str, seed: int | None = None) -> Bot:
    """A bot for game ``slug`` at ``level``; ValueError for an unknown game or level."""
    if slug not in RULE_OF_THUMB:
        raise ValueError(f"There is no game called {slug!r}")
    if level == "easy":
        return RandomBot(seed)
    if level == "normal":
        return RULE_OF_THUMB[slug](seed)
    raise ValueError(f"There is no bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "RandomBot", "make_bot"]
