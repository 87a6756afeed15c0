"""``lounge simulate``: bot-only games, to prove that a change made a bot stronger.

    lounge simulate --game tic-tac-toe --bots hard,easy --games 200 --seed 1

Prints the table of :func:`shared_rules.simulate.format_summary`; a progress bar goes to
stderr. The games themselves are played by :mod:`shared_rules.simulate`.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from shared_rules import GAMES, Budget, Summary, format_summary, parse_bots, simulate


class ProgressBar:
    """A one-line progress bar on stderr (a line per 5% when stderr is not a terminal)."""

    WIDTH = 30

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.shown = -1

    def __call__(self, summary: Summary, total: int) -> None:
        done, elapsed = summary.games, summary.elapsed
        step = max(1, total // 20)
        if not self.tty and done != total and done // step == self.shown:
            return
        self.shown = done // step
        filled = self.WIDTH * done // total
        eta = elapsed / done * (total - done)
        wins = " ".join(f"{t.label} {t.wins}" for t in summary.tallies)
        text = (f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total} games, "
                f"{done / elapsed if elapsed else 0:.2f}/s, {elapsed:.0f} s, eta {eta:.0f} s; "
                f"wins: {wins}")
        self.stream.write("\r" + text if self.tty else text + "\n")
        if self.tty and done == total:
            self.stream.write("\n")
        self.stream.flush()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``lounge simulate``."""
    parser.add_argument("--game", required=True, help=f"one of: {', '.join(GAMES)}")
    parser.add_argument("--bots", required=True,
                        help="one level per seat, comma separated, e.g. hard,normal,easy")
    parser.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="hard bots: thinking time per move (default 1 s)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="hard bots: search iterations per move (instead of, or as well "
                             "as, --seconds)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="stop starting new games after this many seconds")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Run ``lounge simulate`` with parsed arguments; 0 on success, 2 on bad input."""
    try:
        levels = parse_bots(args.bots, args.game)
        budget = check_budget(args)
        if args.games < 1:
            raise ValueError("--games must be 1 or more")
    except ValueError as error:
        print(f"lounge simulate: {error}", file=sys.stderr)
        return 2
    progress = None if args.quiet else ProgressBar()
    summary = simulate(args.game, levels, args.games, args.seed, budget, args.time_limit,
                       progress)
    print(format_summary(summary))
    return 0


def check_budget(args: argparse.Namespace) -> Budget:
    """The hard bots' budget the options ask for; a ValueError names a bad one."""
    if args.seconds is not None and not args.seconds > 0:
        raise ValueError("--seconds must be above 0")
    if args.iterations is not None and args.iterations < 1:
        raise ValueError("--iterations must be 1 or more")
    if args.time_limit is not None and not args.time_limit > 0:
        raise ValueError("--time-limit must be above 0")
    if args.seconds is None and args.iterations is None:
        return Budget()
    return Budget(args.seconds, args.iterations)
