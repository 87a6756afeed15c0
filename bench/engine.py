"""Random playouts per game: complete games per second and moves per second.

A move is one ``legal_moves`` call plus one ``apply``. Each figure is the median of several runs,
timed in CPU seconds of this process (``time.process_time``), so that other work on a shared
machine slows the figures less; a plain deep-copying Tic-Tac-Toe runs in the same run as a
yardstick.

    .venv/bin/python bench/engine.py [--runs 5] [--seconds 2] [--game nine-locks]
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import plain_tic_tac_toe  # noqa: E402
from shared_rules import GAMES, new_match  # noqa: E402


def one_run(slug: str, num_players: int, seconds: float, seed: int) -> tuple[float, float]:
    """Play random games for about ``seconds``; return (games/s, moves/s)."""
    rand = random.Random(seed)
    games = moves = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        match = new_match(slug, num_players, rand.getrandbits(32))
        while match.result is None:
            seats = match.active_seats
            seat = seats[0] if len(seats) == 1 else rand.choice(seats)
            legal = match.legal_moves(seat)
            moves += 1
            if legal:
                move = rand.choice(legal)
                match = match.apply(seat, move["move"], *move["args"])
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    print(f"{'game':<14}{'players':>8}{'games/s':>12}{'moves/s':>12}   (median of {args.runs})")
    for slug in args.game or sorted(GAMES):
        game = GAMES[slug]
        for n in sorted({game.min_players, min(game.max_players, 4)}):
            runs = [one_run(slug, n, args.seconds, seed) for seed in range(args.runs)]
            games = statistics.median(r[0] for r in runs)
            moves = statistics.median(r[1] for r in runs)
            print(f"{slug:<14}{n:>8}{games:>12,.0f}{moves:>12,.0f}")
    runs = [plain_tic_tac_toe.one_run(args.seconds, seed) for seed in range(args.runs)]
    plain = statistics.median(r[1] for r in runs)
    print(f"{'plain deep-copy tic-tac-toe':<34}{plain:>12,.0f}   (the yardstick, same run)")


if __name__ == "__main__":
    main()
