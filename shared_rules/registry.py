"""Every game of the lounge, by slug: the one place a slug is looked up."""

from .engine import Game, Match, start
from .errors import InvalidMove
from .games import crazy_eights, nine_locks, poker99, slapjack, tic_tac_toe

GAMES: dict[str, Game] = {
    game.slug: game for game in (tic_tac_toe.GAME, poker99.GAME, nine_locks.GAME, slapjack.GAME,
                                 crazy_eights.GAME)
}


def new_match(slug: str, num_players: int, seed: int | str | None = None) -> Match:
    """A new match of the game ``slug``; a seed from ``secrets`` when none is given."""
    game = GAMES.get(slug) if isinstance(slug, str) else None
    if game is None:
        raise InvalidMove(f"There is no game called {slug!r}")
    return start(game, num_players, seed)
