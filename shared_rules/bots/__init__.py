"""Bots that fill empty seats, by game and level.

``easy`` plays any legal move (in Slapjack, a careless player: see :data:`EASY`); ``normal``
plays by each game's rules of thumb; ``hard`` searches (Monte Carlo tree search on hands
sampled from its own view) for about a second per move. A game with no rule-of-thumb bot in
:data:`RULE_OF_THUMB` plays any legal move at ``normal``, and a game the search cannot sample
(no ``determinize``) plays at ``hard`` as at ``normal``: bots play every game from the start.
"""

from collections.abc import Callable

from ..registry import GAMES
from .base import Bot, RandomBot
from .crazy_eights import CrazyEightsBot
from .mcts import HARD_SECONDS, make_hard_bot
from .nine_locks import NineLocksBot
from .poker99 import Poker99Bot
from .slapjack import EasySlapjackBot, SlapjackBot
from .tic_tac_toe import TicTacToeBot

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")

RULE_OF_THUMB: dict[str, Callable[[int | None], Bot]] = {
    "tic-tac-toe": TicTacToeBot,
    "poker99": Poker99Bot,
    "nine-locks": NineLocksBot,
    "slapjack": SlapjackBot,
    "crazy-eights": CrazyEightsBot,
}

#: Where any legal move makes no game: a random slap in Slapjack costs three cards.
EASY: dict[str, Callable[[int | None], Bot]] = {
    "slapjack": EasySlapjackBot,
}


def make_bot(slug: str, level: str, seed: int | None = None, *,
             seconds: float | None = HARD_SECONDS, iterations: int | None = None) -> Bot:
    """A bot for game ``slug`` at ``level``; ValueError for an unknown game or level.
    ``seconds`` and ``iterations`` bound the ``hard`` bot's search per move."""
    game = GAMES.get(slug)
    if game is None:
        raise ValueError(f"There is no game called {slug!r}")
    rule_of_thumb = RULE_OF_THUMB.get(slug, RandomBot)
    if level == "easy":
        return EASY.get(slug, RandomBot)(seed)
    if level == "normal":
        return rule_of_thumb(seed)
    if level == "hard" and (game.real_time or game.determinize is None):
        return rule_of_thumb(seed)  # real time: reflexes, not choices (it never slaps wrongly)
    if level == "hard":
        guide = RULE_OF_THUMB[slug](seed) if slug in RULE_OF_THUMB else None
        return make_hard_bot(slug, seed, seconds=seconds, iterations=iterations, guide=guide)
    raise ValueError(f"There is no bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Bot", "RandomBot", "make_bot"]
