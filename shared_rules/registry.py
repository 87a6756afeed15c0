"""Every game of the lounge, by slug."""

from .engine import Game
from .games import crazy_eights, nine_locks, poker99, slapjack, tic_tac_toe

GAMES: dict[str, Game] = {
    game.slug: game for game in (tic_tac_toe.GAME, poker99.GAME, nine_locks.GAME, slapjack.GAME,
                                 crazy_eights.GAME)
}
