"""Building exact positions for rule tests."""

from shared_rules import Match
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
