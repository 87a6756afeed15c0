"""The table of a ``../shared/loadtest/run.sh`` run: medians over its repeats, with ranges, and
each server's moves/s, p99 and CPU per move as a ratio to boardgame.io's in the same run.

    LOUNGE_ENV="SESSION_RATE_PER_MINUTE=100000000 CONNECT_RATE_PER_MINUTE=100000000 \\
        MAX_CONNECTIONS_PER_ADDRESS=1000000 ACCESS_LOG=0" \\
        ../shared/loadtest/run.sh -m "1 200" -r 3 -s 8 -o /tmp/lt \\
        bgio pyrelay lounge-mem lounge-sqlite
    .venv/bin/python bench/loadtest_table.py /tmp/lt [--targets]

``--targets`` adds issue 14's targets, each with its figure and whether it is met, and the
yardstick of the machine the run had: boardgame.io's moves/s at 200 rooms as a share of the
relay's (0.54 on the machine the issue was measured on).

(run.sh lifts the lounge's per-identity rate limits, not those per client address: 200 rooms
are 400 connections and 400 new identities from 127.0.0.1, hence ``LOUNGE_ENV``.)
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

NAME = re.compile(r"(?P<server>.+)-rooms(?P<rooms>\d+)-run(?P<run>\d+)\.json$")
FIGURES = {"moves/s": lambda d: d["movesPerSec"], "p50 ms": lambda d: d["latencyMs"]["opp"]["p50"],
           "p99 ms": lambda d: d["latencyMs"]["opp"]["p99"],
           "CPU µs/move": lambda d: d["server"]["cpuUsPerMove"],
           "peak MiB": lambda d: d["server"]["vmHWMkB"] / 1024}
RATIOS = ("moves/s", "p99 ms", "CPU µs/move")
Runs = dict[tuple[int, str], dict[int, dict]]
# Issue 14's targets: (what, rooms, server, figure, compared with, how, limit). "ratio" is the
# server's figure over the other's, "more" the difference; each taken within a repeat, then
# the median of the repeats.
TARGETS = (
    ("SQLite, 200 rooms: moves/s ≥ boardgame.io's", 200, "lounge-sqlite", "moves/s", "bgio",
     "ratio", ">=", 1.0),
    ("SQLite, 200 rooms: p99 ≤ boardgame.io's", 200, "lounge-sqlite", "p99 ms", "bgio",
     "ratio", "<=", 1.0),
    ("memory, 200 rooms: moves/s ≥ 1.25 × boardgame.io's", 200, "lounge-mem", "moves/s", "bgio",
     "ratio", ">=", 1.25),
    ("memory, 200 rooms: p99 ≤ 1.2 × the relay's", 200, "lounge-mem", "p99 ms", "pyrelay",
     "ratio", "<=", 1.2),
    ("memory, 1 room: p50 ≤ the relay's + 0.1 ms", 1, "lounge-mem", "p50 ms", "pyrelay",
     "more", "<=", 0.1),
    ("SQLite, 1 room: p50 ≤ the relay's + 0.3 ms", 1, "lounge-sqlite", "p50 ms", "pyrelay",
     "more", "<=", 0.3),
    ("SQLite, 1 room: CPU a move < boardgame.io's", 1, "lounge-sqlite", "CPU µs/move", "bgio",
     "ratio", "<", 1.0),
    ("SQLite, 200 rooms: CPU a move < boardgame.io's", 200, "lounge-sqlite", "CPU µs/move",
     "bgio", "ratio", "<", 1.0),
)


def read(folder: Path) -> Runs:
    """{(rooms, server): {run: figures}} from the run's JSON files."""
    runs: dict[tuple[int, str], dict[int, dict]] = defaultdict(dict)
    for path in sorted(folder.glob("*.json")):
        match = NAME.match(path.name)
        if match is None:
            continue
        data = json.loads(path.read_text())
        if any(data["errors"].values()):
            print(f"{path.name}: errors {data['errors']}")
        runs[int(match["rooms"]), match["server"]][int(match["run"])] = {
            name: get(data) for name, get in FIGURES.items()}
    return runs


def spread(values: list[float]) -> str:
    """The median, and the range when there is more than one value."""
    middle = statistics.median(values)
    digits = 2 if middle < 10 else 0
    if len(values) == 1:
        return f"{middle:,.{digits}f}"
    return f"{middle:,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def paired(runs: Runs, rooms: int, server: str, figure: str, other: str,
           how: str = "ratio") -> list[float]:
    """``server``'s figure against ``other``'s, repeat by repeat (their ratio, or how much
    more it is), for the repeats that ran both."""
    mine, theirs = runs.get((rooms, server), {}), runs.get((rooms, other), {})
    return [mine[run][figure] / theirs[run][figure] if how == "ratio"
            else mine[run][figure] - theirs[run][figure] for run in mine if run in theirs]


def table(runs: Runs, baseline: str = "bgio") -> str:
    """A Markdown table: one row per room count and server."""
    head = ["rooms", "server", *FIGURES, *(f"{name} ÷ {baseline}" for name in RATIOS)]
    lines = ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for rooms, server in sorted(runs, key=lambda k: (k[0], k[1] != baseline, k[1])):
        cells = [str(rooms), server]
        cells += [spread([r[name] for r in runs[rooms, server].values()]) for name in FIGURES]
        for name in RATIOS:
            ratios = paired(runs, rooms, server, name, baseline)
            cells.append(spread(ratios) if ratios else "")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def compared(runs: Runs, rooms: int, server: str, figure: str, other: str,
             how: str) -> float | None:
    """The median of :func:`paired`; None without a repeat that ran both."""
    values = paired(runs, rooms, server, figure, other, how)
    return statistics.median(values) if values else None


def targets(runs: Runs) -> str:
    """Each of issue 14's targets with its figure and whether it is met, and the yardstick."""
    tests = {">=": float.__ge__, "<=": float.__le__, "<": float.__lt__}
    lines = ["| target | figure | met |", "| --- | ---: | --- |"]
    for what, rooms, server, figure, other, how, test, limit in TARGETS:
        value = compared(runs, rooms, server, figure, other, how)
        if value is None:
            lines.append(f"| {what} | not run | |")
            continue
        shown = f"{value:.2f}×" if how == "ratio" else f"{value:+.2f} ms"
        lines.append(f"| {what} | {shown} | {'yes' if tests[test](value, limit) else 'no'} |")
    yardstick = compared(runs, 200, "bgio", "moves/s", "pyrelay", "ratio")
    if yardstick is not None:
        lines.append(f"\nboardgame.io's moves/s at 200 rooms: {yardstick:.2f} of the relay's "
                     "(0.54 on the issue's machine)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="run.sh's -o folder")
    parser.add_argument("--baseline", default="bgio")
    parser.add_argument("--targets", action="store_true", help="add issue 14's targets")
    args = parser.parse_args()
    runs = read(args.folder)
    print(table(runs, args.baseline))
    if args.targets:
        print()
        print(targets(runs))


if __name__ == "__main__":
    main()
