"""Bot-only games, to prove that a change made a bot stronger (``lounge simulate`` runs them).

Seats rotate between games (game ``i`` puts bot ``b`` in seat ``(b + i) % n``), so seat order
does not bias the results. :func:`format_summary` gives a table of win rates with 95% Wilson
confidence intervals, draws, moves per game and games per second.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .bots import LEVELS, Bot, make_bot
from .bots.mcts import HARD_SECONDS
from .engine import Match
from .registry import GAMES, new_match
from .rng import seed_state

MAX_ACTIONS = 20_000  # no real game comes near it (Slapjack stops itself after 2,000 plays)
Z95 = 1.959964


@dataclass(frozen=True)
class Budget:
    """How long the ``hard`` bots think per move."""

    seconds: float | None = HARD_SECONDS
    iterations: int | None = None

    def describe(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts) + " per move"


@dataclass
class Tally:
    """The results of one bot over all games."""

    label: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds: float = 0.0  # time spent choosing moves
    choices: int = 0  # moves chosen (a Slapjack bot that waits chooses none)


@dataclass
class Summary:
    game: str
    levels: list[str]
    budget: Budget
    seed: int
    tallies: list[Tally]
    games: int = 0
    draws: int = 0
    unfinished: int = 0
    moves: list[int] = field(default_factory=list)
    elapsed: float = 0.0


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` when there are no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_bots(text: str, slug: str) -> list[str]:
    """The bot levels of ``--bots`` (one per seat); ValueError with a clear sentence if wrong."""
    if slug not in GAMES:
        raise ValueError(f"There is no game called {slug!r}; choose one of {', '.join(GAMES)}")
    levels = [part.strip() for part in text.split(",") if part.strip()]
    for level in levels:
        if level not in LEVELS:
            raise ValueError(f"There is no bot level {level!r}; choose from {', '.join(LEVELS)}")
    game = GAMES[slug]
    if not game.min_players <= len(levels) <= game.max_players:
        raise ValueError(f"{game.title} is for {game.min_players} to {game.max_players} "
                         f"players, but {len(levels)} bots were given")
    return levels


def labels_of(levels: list[str]) -> list[str]:
    """Names for the table: a level, numbered when it plays more than one seat."""
    seen: dict[str, int] = {}
    out = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        out.append(level if levels.count(level) == 1 else f"{level}#{seen[level]}")
    return out


def seat_of(bot: int, game_index: int, num_players: int) -> int:
    return (bot + game_index) % num_players


def make_bots(slug: str, levels: list[str], seed: int, game_index: int,
              budget: Budget) -> list[Bot]:
    """Fresh bots for one game, by bot index, each with its own seed."""
    return [make_bot(slug, level, seed_state(f"{seed}:{game_index}:{b}"),
                     seconds=budget.seconds, iterations=budget.iterations)
            for b, level in enumerate(levels)]


def next_action(match: Match, by_seat: dict[int, Bot], rand: random.Random,
                clock: list[float], chosen: list[int]) -> tuple[int, dict] | None:
    """Who acts next and how. In turn-based games the seat whose turn it is; when anyone may
    act (Slapjack), each seat that may act is asked in a random order and the first bot that
    does not choose to wait acts."""
    seats = match.active_seats
    if len(seats) > 1:
        rand.shuffle(seats)
    for seat in seats:
        legal = match.legal_moves(seat)
        if not legal:
            continue
        started = time.perf_counter()
        move = by_seat[seat].choose(match.view(seat), legal)
        clock[seat] += time.perf_counter() - started
        chosen[seat] += 1
        if move is not None:
            return seat, move
    return None


def play_game(slug: str, levels: list[str], seed: int, game_index: int,
              budget: Budget) -> tuple[Match, list[int], list[float], list[int]]:
    """One bot-only game: the final match, and by bot its seat, time spent choosing and the
    number of choices."""
    n = len(levels)
    bots = make_bots(slug, levels, seed, game_index, budget)
    seats = [seat_of(b, game_index, n) for b in range(n)]
    by_seat = {seats[b]: bots[b] for b in range(n)}
    rand = random.Random(seed_state(f"{seed}:{game_index}:order"))
    match = new_match(slug, n, f"{seed}:{game_index}")
    clock = [0.0] * n
    chosen = [0] * n
    for _ in range(MAX_ACTIONS):
        if match.result is not None:
            break
        action = next_action(match, by_seat, rand, clock, chosen)
        if action is None:
            break
        seat, move = action
        match = match.apply(seat, move["move"], *move["args"])
    return (match, seats, [clock[seats[b]] for b in range(n)],
            [chosen[seats[b]] for b in range(n)])


def simulate(slug: str, levels: list[str], games: int, seed: int, budget: Budget,
             time_limit: float | None = None,
             progress: Callable[[Summary, int], None] | None = None) -> Summary:
    """Play ``games`` games (fewer if ``time_limit`` seconds run out) and tally them."""
    summary = Summary(slug, levels, budget, seed, [Tally(label) for label in labels_of(levels)])
    start = time.perf_counter()
    for i in range(games):
        if time_limit is not None and time.perf_counter() - start >= time_limit:
            break
        match, seats, seconds, choices = play_game(slug, levels, seed, i, budget)
        record(summary, match, seats, seconds, choices)
        summary.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(summary, games)
    summary.elapsed = time.perf_counter() - start
    return summary


def record(summary: Summary, match: Match, seats: list[int], seconds: list[float],
           choices: list[int]) -> None:
    summary.games += 1
    summary.moves.append(match.version)
    result = match.result
    if result is None:
        summary.unfinished += 1
    elif "winner" not in result:
        summary.draws += 1
    for b, tally in enumerate(summary.tallies):
        tally.seconds += seconds[b]
        tally.choices += choices[b]
        if result is not None and result.get("winner") == seats[b]:
            tally.wins += 1
        elif result is not None and "winner" not in result:
            tally.draws += 1
        else:
            tally.losses += 1


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_summary(summary: Summary) -> str:
    """The results as a markdown table and a line of totals."""
    game = GAMES[summary.game]
    n = summary.games
    head = (f"{game.title}, {len(summary.levels)} players, {n} games, seed {summary.seed}, "
            f"bots {','.join(summary.levels)}")
    if "hard" in summary.levels and not game.real_time:  # a real-time game's hard bot reacts
        head += f"; hard searches {summary.budget.describe()}"
    lines = [head, "",
             "| bot | wins | draws | losses | win rate | 95% CI | ms per choice |",
             "|---|---:|---:|---:|---:|---|---:|"]
    for t in summary.tallies:
        lo, hi = wilson(t.wins, n)
        rate = percent(t.wins / n) if n else "-"
        per_choice = f"{1000 * t.seconds / t.choices:.1f}" if t.choices else "-"
        lines.append(f"| {t.label} | {t.wins} | {t.draws} | {t.losses} | {rate} | "
                     f"{percent(lo)} – {percent(hi)} | {per_choice} |")
    moves = summary.moves or [0]
    rate = n / summary.elapsed if summary.elapsed > 0 else 0.0
    lines += ["", f"draws: {summary.draws} ({percent(summary.draws / n) if n else '-'}); "
              f"moves per game: {sum(moves) / len(moves):.1f} (min {min(moves)}, "
              f"max {max(moves)}); {rate:.2f} games/s; {summary.elapsed:.1f} s in all"]
    if summary.unfinished:
        lines.append(f"unfinished (stopped after {MAX_ACTIONS} actions): {summary.unfinished}")
    return "\n".join(lines)
