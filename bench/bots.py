"""Search speed of the ``hard`` bot: MCTS iterations per second on Tic-Tac-Toe from the empty
board (target: at least 5,000). Each figure is the median of several runs.

    .venv/bin/python bench/bots.py [--runs 5] [--seconds 1] [--game tic-tac-toe]

With ``--game`` another game is measured from its deal (seat 0 to move).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared_rules import GAMES, new_match  # noqa: E402
from shared_rules.bots.mcts import make_hard_bot  # noqa: E402

TARGET = 5_000  # iterations per second on Tic-Tac-Toe


def one_run(slug: str, seconds: float, seed: int) -> tuple[float, float]:
    """Iterations per second of one search of about ``seconds`` from the game's start, by the
    wall clock and by this process's CPU time (which other programs on the machine do not
    slow down)."""
    game = GAMES[slug]
    match = new_match(slug, game.min_players, seed)
    seat = match.active_seats[0]
    bot = make_hard_bot(slug, seed, seconds=seconds)
    wall, cpu = time.perf_counter(), time.process_time()
    bot.search(match.view(seat))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return bot.last_iterations / wall, bot.last_iterations / max(cpu, 1e-9)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each search")
    parser.add_argument("--game", default="tic-tac-toe", choices=sorted(GAMES))
    args = parser.parse_args(argv)
    if args.runs < 1 or not args.seconds > 0:
        parser.error("--runs must be 1 or more and --seconds above 0")
    runs = [one_run(args.game, args.seconds, seed) for seed in range(args.runs)]
    for name, rates in (("wall clock", [r[0] for r in runs]), ("CPU time", [r[1] for r in runs])):
        median = statistics.median(rates)
        line = (f"{args.game}: {median:,.0f} iterations/s by {name} (median of {args.runs} runs "
                f"of {args.seconds:g} s; min {min(rates):,.0f}, max {max(rates):,.0f})")
        if args.game == "tic-tac-toe":
            line += f"; target {TARGET:,}/s {'met' if median >= TARGET else 'MISSED'}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
