"""The table of a ``../shared/loadtest/run.sh`` run: medians over its repeats, with ranges, and
each server's moves/s, p99 and CPU per move as a ratio to boardgame.io's in the same run.

    LOUNGE_ENV="SESSION_RATE_PER_MINUTE=100000000 CONNECT_RATE_PER_MINUTE=100000000 \\
        MAX_CONNECTIONS_PER_ADDRESS=1000000 ACCESS_LOG=0" \\
        ../shared/loadtest/run.sh -m "1 200" -r 3 -s 8 -o /tmp/lt \\
        bgio pyrelay lounge-mem lounge-sqlite
    .venv/bin/python bench/loadtest_table.py /tmp/lt

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


def read(folder: Path) -> dict[tuple[int, str], dict[int, dict]]:
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


def table(runs: dict[tuple[int, str], dict[int, dict]], baseline: str = "bgio") -> str:
    """A Markdown table: one row per room count and server."""
    head = ["rooms", "server", *FIGURES, *(f"{name} ÷ {baseline}" for name in RATIOS)]
    lines = ["| " + " | ".join(head) + " |", "|" + " ---: |" * len(head)]
    for rooms, server in sorted(runs, key=lambda k: (k[0], k[1] != baseline, k[1])):
        mine = runs[rooms, server]
        base = runs.get((rooms, baseline), {})
        cells = [str(rooms), server]
        cells += [spread([r[name] for r in mine.values()]) for name in FIGURES]
        for name in RATIOS:
            ratios = [mine[run][name] / base[run][name] for run in mine if run in base]
            cells.append(spread(ratios) if ratios else "")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="run.sh's -o folder")
    parser.add_argument("--baseline", default="bgio")
    args = parser.parse_args()
    print(table(read(args.folder), args.baseline))


if __name__ == "__main__":
    main()
