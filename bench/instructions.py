"""Instructions a move of the lounge's own work (``bench/service_loop.py``), counted by
callgrind (Debian's ``valgrind``): unlike a time, the count is the same from one run to the
next whatever else the machine is doing, so a change of a few percent shows at once, where a
timed loop needs many alternating runs and a load run many pairs.

Each tree plays the same seeded moves of its own ``bench/service_loop.py`` twice, ``--moves``
and three times as many, each after the same warm-up; the difference of the two counts over
the difference of the moves is the cost of a move (start-up and warm-up cancel out). With
``--base REV`` the same is counted for that commit (a worktree of it), and the ratio printed.

    .venv/bin/python bench/instructions.py [--base REV] [--game tic-tac-toe] [--players 2]
                                           [--moves 500] [--store memory|sqlite] [--rooms 1]

``--rooms N`` plays N rooms side by side, each in a green thread of its own that yields after
each move, so that on SQLite the saves of the rooms' moves meet and are committed together, a
batch of about N, as under load; the count is then that of a busy server's store path rather
than of one room's (it needs a base from after 2026-12-04, whose loop can seat several rooms).

The heap is frozen after the warm-up (``gc.freeze``): the garbage collector's rare full
collections (none to three in a run) then walk only the objects made since, not the whole
server's 140,000; otherwise one collection more or less in a run moved the count by up to 6 %
between two versions of the code that differ by a few objects made or freed.

A count is not a time: it leaves out what a move waits for (memory, the event loop, the
transport), so it says which of two versions does less work, not how much faster a server is.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from worktree import worktree

REPO = Path(__file__).resolve().parents[1]
PYTHON = REPO / ".venv" / "bin" / "python"
WARM_UP = 300  # moves before the counted ones


def play(tree: str, game: str, players: int, moves: int, store: str, rooms: int) -> None:
    """The counted run: the loop of ``tree``'s ``bench/service_loop.py``, its moves played
    once after a warm-up, with the lounge of ``tree``. On SQLite the process is green, as a
    server is, so that the saves are committed on its loop (counted) and only the reads and
    checkpoints go to the database process (not counted)."""
    sys.path[:0] = [tree, os.path.join(tree, "bench")]
    if store == "sqlite":
        from backend.serve import monkey_patch

        monkey_patch("eventlet")
        with tempfile.TemporaryDirectory() as tmp:
            _play(f"sqlite:///{tmp}/lounge.db", game, players, moves, rooms)
    else:
        _play("memory", game, players, moves, rooms)


def _play(url: str, game: str, players: int, moves: int, rooms: int) -> None:
    """The loop's moves on the store at ``url``, after the warm-up."""
    import service_loop as loop

    app = loop.create_app(loop.from_env({"DATABASE_URL": url, "ACCESS_LOG": "0",
                                         "SECRET_KEY": "bench-only-secret-key-0123456789ab"}))
    service = app.extensions["lounge"].service

    def run() -> None:
        service.notifier = loop.Encoder()
        if rooms == 1:
            room, callers = loop.seated_room(service, game, players)
            rand = random.Random(1)

            def play_moves(count: int) -> None:
                loop.play(service, room, callers, count, rand)
        else:
            tables = [loop.seated_room(service, game, players, i) for i in range(rooms)]

            def play_moves(count: int) -> None:
                _side_by_side(loop, service, tables, count)
        play_moves(WARM_UP)
        gc.collect()
        gc.freeze()  # see the module's docstring
        play_moves(moves)

    if url == "memory" and rooms == 1:
        run()
    else:  # green, as a server is: the saves are committed on its loop by their first waiter
        import eventlet

        eventlet.spawn(run).wait()


def _side_by_side(loop: Any, service: Any, tables: list, moves: int) -> None:
    """``moves`` moves over the rooms, each room in a green thread of its own that yields
    after each of its moves: the rooms take turns, and their saves meet."""
    import eventlet

    def room(index: int) -> None:
        (table, callers), rand = tables[index], random.Random(index)
        for _ in range(moves // len(tables)):
            loop.play(service, table, callers, 1, rand)
            eventlet.sleep(0)

    for task in [eventlet.spawn(room, index) for index in range(len(tables))]:
        task.wait()


def count(tree: Path, game: str, players: int, moves: int, store: str, rooms: int) -> int:
    """Instructions (callgrind's total) of one counted run in ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
             str(PYTHON), __file__, "play", str(tree), game, str(players), str(moves), store,
             str(rooms)],
            capture_output=True, text=True, cwd=tree, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"callgrind failed in {tree}:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def per_move(tree: Path, game: str, players: int, moves: int, store: str, rooms: int) -> float:
    """Instructions a move: the difference of two runs over the difference of their moves."""
    return (count(tree, game, players, 3 * moves, store, rooms)
            - count(tree, game, players, moves, store, rooms)) / (2 * moves)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["play"]:  # the counted child
        tree, game, players, moves, store, rooms = argv[1:]
        play(tree, game, int(players), int(moves), store, int(rooms))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="a commit to count too, and compare with")
    parser.add_argument("--game", default="tic-tac-toe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--store", choices=("memory", "sqlite"), default="memory")
    parser.add_argument("--rooms", type=int, default=1, help="rooms moving side by side")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is missing: apt-get install valgrind")
    figures = {"working tree": per_move(REPO, args.game, args.players, args.moves, args.store,
                                        args.rooms)}
    if args.base:
        with worktree(args.base) as base:
            figures[args.base] = per_move(base, args.game, args.players, args.moves,
                                          args.store, args.rooms)
    for name, figure in figures.items():
        print(f"{args.game}, {args.players} players, {args.store}, {args.rooms} rooms, {name}: "
              f"{figure:,.0f} instructions a move")
    if args.base:
        print(f"working tree / {args.base}: {figures['working tree'] / figures[args.base]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
