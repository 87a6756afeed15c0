"""Random legal playouts, shared by the property tests and the benchmark."""

import random
import time
from collections.abc import Iterator, Mapping, Sequence

from shared_rules import GAMES, Match, new_match
from shared_rules.bots import make_bot
from shared_rules.bots.base import Bot

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


def random_positions(slug: str, count: int, rand: random.Random, drop: float) -> list[Match]:
    """Positions from random games of every size the game allows, some after a player left
    (``drop``: the chance of a leaver at each step, when nobody has yet)."""
    game = GAMES[slug]
    sizes = game.max_players - game.min_players + 1
    found = []
    for i in range(count):
        m = new_match(slug, game.min_players + i % sizes, seed=rand.randrange(10**9))
        for _ in range(rand.randrange(300)):
            if m.result is not None:
                break
            if rand.random() < drop and m.num_players > 2 and not m.ctx["left"]:
                m = m.drop(rand.randrange(m.num_players))
                continue
            seat = m.active_seats[0]
            move = rand.choice(m.legal_moves(seat))
            m = m.apply(seat, move["move"], *move["args"])
        found.append(m)
    return found


def bot_game(slug: str, levels: list[str], seed: int, max_actions: int = 5000,
             **budget: object) -> Match:
    """One turn-based game between bots of these levels; every move they choose must be
    legal."""
    bots = [make_bot(slug, level, seed + i, **budget) for i, level in enumerate(levels)]
    return play_bots(new_match(slug, len(levels), seed=seed), bots, max_actions + 1)


def play_bots(m: Match, bots: Sequence[Bot] | Mapping[int, Bot], max_actions: int) -> Match:
    """The turn-based match played on by these bots (by seat) until it ends, or for at most
    ``max_actions`` moves; every move they choose must be legal."""
    for _ in range(max_actions):
        if m.result is not None:
            return m
        seat = m.active_seats[0]
        legal = m.legal_moves(seat)
        move = bots[seat].choose(m.view(seat), legal)
        assert move in legal
        m = m.apply(seat, move["move"], *move["args"])
    return m


def mixed_bot_games(slug: str, games: int) -> None:
    """Games of every size the game allows between easy and normal bots: each ends, with legal
    moves only, within a minute of CPU in all."""
    game = GAMES[slug]
    sizes = game.max_players - game.min_players + 1
    started = time.process_time()
    for i in range(games):
        n = game.min_players + i % sizes
        levels = ["normal" if i % 3 == 0 or (i + s) % 2 else "easy" for s in range(n)]
        assert bot_game(slug, levels, seed=1000 + i).result is not None
    assert time.process_time() - started < 60


def normal_wins(slug: str, games: int = 100) -> int:
    """How many of ``games`` two-player games a normal bot wins against an easy one."""
    wins = 0
    for i in range(games):
        normal = i % 2
        levels = ["normal" if s == normal else "easy" for s in range(2)]
        wins += bot_game(slug, levels, seed=5000 + i).result == {"winner": normal}
    return wins
