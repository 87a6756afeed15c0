"""``bench/loadtest_table.py``: the loadtest's table, and issue 14's targets judged from it."""

import importlib.util
import json
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "loadtest_table.py"
spec = importlib.util.spec_from_file_location("loadtest_table", SCRIPT)
loadtest_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(loadtest_table)

# (rooms, server): (moves/s, p50 ms, p99 ms, CPU µs a move) in each of two repeats
FIGURES = {
    (1, "bgio"): [(2000, 0.30, 0.60, 400), (1800, 0.32, 0.70, 420)],
    (1, "pyrelay"): [(2500, 0.35, 0.60, 210), (2400, 0.36, 0.62, 220)],
    (1, "lounge-mem"): [(2100, 0.41, 0.70, 350), (2000, 0.46, 0.80, 360)],
    (1, "lounge-sqlite"): [(1500, 0.55, 1.00, 450), (1400, 0.70, 1.10, 460)],
    (200, "bgio"): [(3000, 50, 100, 350), (2800, 52, 110, 360)],
    (200, "pyrelay"): [(5000, 35, 90, 180), (5200, 34, 95, 175)],
    (200, "lounge-mem"): [(3900, 48, 100, 300), (3400, 50, 120, 310)],
    (200, "lounge-sqlite"): [(2900, 60, 95, 420), (3000, 58, 100, 380)],
}


def write_run(folder: Path) -> None:
    for (rooms, server), repeats in FIGURES.items():
        for run, (moves, p50, p99, cpu) in enumerate(repeats, 1):
            data = {"movesPerSec": moves, "latencyMs": {"opp": {"p50": p50, "p99": p99}},
                    "server": {"cpuUsPerMove": cpu, "vmHWMkB": 102400},
                    "errors": {"moveTimeouts": 0}}
            (folder / f"{server}-rooms{rooms}-run{run}.json").write_text(json.dumps(data))


def rows(text: str) -> dict[str, list[str]]:
    return {cells[0]: cells[1:] for line in text.splitlines() if line.startswith("| ")
            for cells in [[c.strip() for c in line.strip("|").split("|")]]}


def test_table_gives_medians_and_ratios_to_boardgame_io(tmp_path):
    write_run(tmp_path)
    lines = loadtest_table.table(loadtest_table.read(tmp_path)).splitlines()
    sqlite_200 = next(line for line in lines if "| 200 | lounge-sqlite |" in line)
    assert "2,950 (2,900–3,000)" in sqlite_200  # the median of the repeats, and their range
    assert "1.02 (0.97–1.07)" in sqlite_200  # moves/s over boardgame.io's in each repeat


def test_targets_are_judged_repeat_by_repeat(tmp_path):
    write_run(tmp_path)
    judged = rows(loadtest_table.targets(loadtest_table.read(tmp_path)))
    # 2,900/3,000 and 3,000/2,800: 0.97 and 1.07, median 1.02
    assert judged["SQLite, 200 rooms: moves/s ≥ boardgame.io's"] == ["1.02×", "yes"]
    assert judged["SQLite, 200 rooms: p99 ≤ boardgame.io's"] == ["0.93×", "yes"]
    # 1.30 and 1.21: median 1.26
    assert judged["memory, 200 rooms: moves/s ≥ 1.25 × boardgame.io's"] == ["1.26×", "yes"]
    # +0.06 and +0.10 ms: median +0.08
    assert judged["memory, 1 room: p50 ≤ the relay's + 0.1 ms"] == ["+0.08 ms", "yes"]
    assert judged["SQLite, 1 room: p50 ≤ the relay's + 0.3 ms"] == ["+0.27 ms", "yes"]
    # 450/400 and 460/420: not below boardgame.io's
    assert judged["SQLite, 1 room: CPU a move < boardgame.io's"] == ["1.11×", "no"]
    assert judged["SQLite, 200 rooms: CPU a move < boardgame.io's"] == ["1.13×", "no"]


def test_targets_give_the_machines_yardstick_and_say_what_was_not_run(tmp_path):
    write_run(tmp_path)
    for path in tmp_path.glob("lounge-mem-*"):
        path.unlink()
    judged = loadtest_table.targets(loadtest_table.read(tmp_path))
    assert rows(judged)["memory, 200 rooms: p99 ≤ 1.2 × the relay's"] == ["not run", ""]
    # boardgame.io 3,000/5,000 and 2,800/5,200 of the relay's moves/s: median 0.57
    assert "0.57 of the relay's" in judged
