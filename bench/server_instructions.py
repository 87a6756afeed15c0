"""Instructions a move of a whole ``lounge serve`` process, transport included, counted by
callgrind (Debian's ``valgrind``): the server runs under callgrind, two clients play Tic-Tac-Toe
in one room over real WebSockets, one move at a time, and the count is taken over a fixed
number of moves after a warm-up. ``bench/instructions.py`` counts the service's own work in a
loop; this counts what that leaves out (reading and unmasking the frames, Socket.IO's and
Engine.IO's packets, the event loop and its writer tasks, the sends), which is about half a
move's cost under load, so that a change to the transport's path can be judged too.

    .venv/bin/python bench/server_instructions.py [--base REV]
                                                  [--store memory|sqlite|postgres|cluster]
                                                  [--moves 400] [--runs 1] [--keep FILE]
                                                  [--only MODULE:QUALNAME[,...]]
                                                  [--rooms 1]

``--only`` counts only inside the calls of the functions named (see
``bench/counted_serve.py``): where a move's instructions go, function by function.

Each move is sent only once the previous one has been answered and both players have their
states, so every move asks the server for the same work: one frame in, three out (the mover's
acknowledgement and the two states), with a rematch after each game as under the loadtest. The
clients are ``bench/load.py``'s lean aiohttp clients, outside valgrind. On SQLite the saves are
committed on the server's loop (counted); the database process is not counted.

A count is not a time: it leaves out the system calls' own cost in the kernel and what a move
waits for. It says which of two versions does less work in user space, the same from one run
to the next whatever else the machine is doing (within about 0.5 %: the pings and the
housekeeping that fall into the window).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from worktree import worktree

REPO = Path(__file__).resolve().parents[1]
PYTHON = REPO / ".venv" / "bin" / "python"
WARM_UP = 150  # moves before the counted ones
STORES = ("memory", "sqlite", "postgres", "cluster")
SETTINGS = {  # as the loadtest runs the lounge: rate limits lifted, no access log
    "SECRET_KEY": "bench-only-secret-key-0123456789abcdef", "ACCESS_LOG": "0",
    "SOCKET_RATE_PER_SECOND": "1000000", "SOCKET_RATE_BURST": "1000000",
    "REST_RATE_PER_MINUTE": "100000000", "SESSION_RATE_PER_MINUTE": "100000000",
    "CONNECT_RATE_PER_MINUTE": "100000000", "PYTHONHASHSEED": "0"}


class Room:
    """Two lean clients in one started room, moving one at a time."""

    def __init__(self, http, url: str, seed: int = 1) -> None:
        self.http, self.url = http, url
        self.clients: list = []
        self.states: list[dict | None] = [None, None]
        self.fresh = [asyncio.Event(), asyncio.Event()]
        self.rand = random.Random(seed)

    async def open(self) -> None:
        from load import LeanClient

        code = None
        for seat in range(2):
            async with self.http.post(f"{self.url}/api/session") as response:
                token = (await response.json())["token"]
            if code is None:
                async with self.http.post(f"{self.url}/api/rooms",
                                          json={"game": "tic-tac-toe", "name": "Host"},
                                          headers={"Authorization": f"Bearer {token}"}) as r:
                    code = (await r.json())["code"]
            client = LeanClient(self.http)
            client.on("state", self._on_state(seat))
            await client.connect(self.url, {"token": token}, room=code)
            assert (await client.call("join", {"room": code, "name": f"P{seat}"}))["ok"]
            self.clients.append(client)
        assert (await self.clients[1].call("ready", {"ready": True}))["ok"]
        await self._told(lambda: self.clients[0].call("start", {}))

    def _on_state(self, seat: int):
        async def on_state(state: dict) -> None:
            self.states[seat] = state
            self.fresh[seat].set()
        return on_state

    async def _told(self, send) -> dict:
        """Send, then wait for the answer and for a new state at each seat."""
        for event in self.fresh:
            event.clear()
        answer = await send()
        assert answer["ok"], answer
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in self.fresh)), 120)
        return answer

    async def play(self, moves: int) -> None:
        """``moves`` random legal moves; a finished game is followed by a rematch."""
        done = 0
        while done < moves:
            state = self.states[0]
            if state["result"] is not None:
                await self._told(lambda: self.clients[0].call("rematch", {}))
                continue
            seat = next(s for s in range(2) if self.states[s]["legal_moves"])
            move = self.rand.choice(self.states[seat]["legal_moves"])
            await self._told(lambda seat=seat, move=move: self.clients[seat].call("move", move))
            done += 1

    async def close(self) -> None:
        for client in self.clients:
            await client.disconnect()


def control(*args: str) -> str:
    done = subprocess.run(["callgrind_control", *args], capture_output=True, text=True,
                          timeout=120)
    if done.returncode != 0:
        sys.exit(f"callgrind_control {' '.join(args)} failed: {done.stdout}{done.stderr}")
    return done.stdout


async def drive(url: str, pid: int, moves: int, rooms: int = 1) -> None:
    """Warm up, zero the counters, play ``moves`` (each room its share, all at once), dump
    them."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        tables = [Room(http, url, seed=i + 1) for i in range(rooms)]
        for room in tables:
            await room.open()
        await asyncio.gather(*(room.play(max(20, WARM_UP // rooms)) for room in tables))
        control("--zero", str(pid))
        await asyncio.gather(*(room.play(moves // rooms) for room in tables))
        control("--dump", str(pid))
        for room in tables:
            await room.close()


@contextmanager
def store_settings(store: str, folder: str) -> Iterator[dict[str, str]]:
    """The settings of a server on ``store``: in memory, a new SQLite file in ``folder``, a
    fresh PostgreSQL schema, or that in cluster mode (one process, on the machine's Redis
    under a cluster name of its own: its leases, fence and directory)."""
    from load import REDIS, delete_cluster_keys, fresh_database, migrate

    if store in ("memory", "sqlite"):
        yield {"DATABASE_URL": "memory" if store == "memory" else f"sqlite:///{folder}/lounge.db"}
        return
    with fresh_database("postgres") as url:
        migrate(url)  # before, not under callgrind
        if store == "postgres":
            yield {"DATABASE_URL": url}
            return
        name = f"instructions{random.randrange(1 << 30)}"
        # Leases long enough for a process that callgrind slows fifty times.
        try:
            yield {"DATABASE_URL": url, "REDIS_URL": REDIS, "CLUSTER_NAME": name,
                   "LEASE_SECONDS": "120"}
        finally:
            delete_cluster_keys(REDIS, name)


def count(tree: Path, store: str, moves: int, keep: Path | None = None,
          only: str | None = None, rooms: int = 1) -> int:
    """Instructions of ``moves`` moves in a server of ``tree`` (``keep``: where to copy their
    dump; ``only``: counting only inside these functions' calls, see bench/counted_serve.py)."""
    from counted_serve import build_helper
    from load import ServerProcess, free_port

    with tempfile.TemporaryDirectory() as tmp, store_settings(store, tmp) as settings:
        out = Path(tmp) / "callgrind.out"
        port = free_port()
        serve = [str(PYTHON), "-m", "backend.cli"]
        if only:
            serve = [str(PYTHON), str(Path(__file__).parent / "counted_serve.py"),
                     str(build_helper(Path(tmp))), only]
        server = ServerProcess(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no",
             *(["--collect-atstart=no"] if only else []),
             f"--callgrind-out-file={out}", *serve, "serve",
             "--host", "127.0.0.1", "--port", str(port)],
            {**SETTINGS, **settings, "PYTHONPATH": str(tree)}, port, cwd=tree,
            start_seconds=300)
        try:
            control("--instr=on", str(server.proc.pid))
            asyncio.run(drive(server.url, server.proc.pid, moves, rooms))
        finally:
            server.stop(signal.SIGKILL)
        dump = Path(f"{out}.1")  # the first (and only) dump
        if keep:
            shutil.copy(dump, keep)
        return int(re.search(r"^(?:summary|totals): (\d+)", dump.read_text(),
                             re.MULTILINE).group(1))


def per_move(tree: Path, store: str, moves: int, runs: int, keep: Path | None,
             only: str | None, rooms: int = 1) -> float:
    played = moves // rooms * rooms
    figures = [count(tree, store, moves, keep, only, rooms) / played for _ in range(runs)]
    if runs > 1:
        print(f"  {tree}: {', '.join(f'{f:,.0f}' for f in figures)}", flush=True)
    return statistics.median(figures)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="a commit to count too, and compare with")
    parser.add_argument("--store", choices=STORES, default="memory",
                        help="cluster: PostgreSQL with REDIS_URL, one process")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="copy the (last) dump of the counted moves "
                        "here, for callgrind_annotate")
    parser.add_argument("--only", metavar="MODULE:QUALNAME[,...]",
                        help="count only inside the calls of these functions (a method as "
                        "backend.db.worker:LoopDbWorker.lead), with what they call and wait "
                        "through")
    parser.add_argument("--rooms", type=int, default=1,
                        help="rooms playing at once, each its share of the moves (its "
                        "players still wait for each answer): with several, SQLite's saves "
                        "are committed in batches, as under load")
    args = parser.parse_args(argv)
    if not 1 <= args.rooms <= args.moves:
        parser.error("--rooms must be at least 1 and at most --moves")
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is missing: apt-get install valgrind")
    began = time.monotonic()
    figures = {"working tree": per_move(REPO, args.store, args.moves, args.runs, args.keep,
                                     args.only, args.rooms)}
    if args.base:
        with worktree(args.base) as base:
            figures[args.base] = per_move(base, args.store, args.moves, args.runs, args.keep,
                                        args.only, args.rooms)
    where = f"{args.rooms} rooms" if args.rooms > 1 else "1 room"
    for name, figure in figures.items():
        print(f"server, Tic-Tac-Toe, {args.store}, {where}, {name}: {figure:,.0f} "
              "instructions a move")
    if args.base:
        print(f"working tree / {args.base}: {figures['working tree'] / figures[args.base]:.3f}")
    print(f"({time.monotonic() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
