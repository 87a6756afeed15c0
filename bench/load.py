"""Load benchmark of the lounge server beside a bare python-socketio relay of the same shape.

    .venv/bin/python bench/load.py                      # the full comparison (several minutes)
    .venv/bin/python bench/load.py --rooms 1 --runs 1 --seconds 3 --modes eventlet
    .venv/bin/python bench/load.py --store sqlite postgres   # the cost of durable rooms

For each async mode and room count, M Tic-Tac-Toe rooms of 2 socket.io clients play on loopback,
each client moving as soon as it is its turn (the host asks for a rematch when a game ends). It
measures move -> the other player's update (p50/p95/p99), moves per second, the server's CPU and
peak memory. The bare relay (one message in, relayed to the room, TCP_NODELAY like the lounge)
runs the same ping-pong in the same run as the transport's floor. Also: memory per idle room.
Everything is bounded in time; the servers are stopped at the end. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = REPO / ".venv" / "bin" / "python"
HOST = "127.0.0.1"
MAX_PHASE_SECONDS = 120.0


# -- the bare relay server (run in its own process) ----------------------------------------------

def relay_server(mode: str, port: int, nagle: bool) -> None:
    """A python-socketio server that relays each ``move`` to the sender's room."""
    sys.path.insert(0, str(REPO))
    from backend.serve import monkey_patch

    monkey_patch(mode)
    import socketio

    sio = socketio.Server(async_mode=mode, cors_allowed_origins="*", max_http_buffer_size=32768)
    rooms: dict[str, str] = {}

    @sio.event
    def connect(sid, environ, auth):
        rooms[sid] = str(auth["room"])
        sio.enter_room(sid, rooms[sid])

    @sio.event
    def disconnect(sid, reason=None):
        rooms.pop(sid, None)

    @sio.on("move")
    def move(sid, data):
        sio.emit("state", data, to=rooms[sid])

    app = socketio.WSGIApp(sio)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if not nagle:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((HOST, port))
    sock.listen(1024)
    print("relay up", flush=True)
    if mode == "eventlet":
        import eventlet.wsgi

        eventlet.wsgi.server(sock, app, log_output=False)
    else:
        from gevent import pywsgi
        from geventwebsocket.handler import WebSocketHandler

        pywsgi.WSGIServer(sock, app, handler_class=WebSocketHandler, log=None).serve_forever()


# -- server processes ---------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


class ServerProcess:
    """A server subprocess, its CPU time and its peak memory."""

    def __init__(self, command: list[str], env: dict[str, str], port: int) -> None:
        self.port = port
        self.url = f"http://{HOST}:{port}"
        self.proc = subprocess.Popen(command, env={**os.environ, **env}, cwd=REPO,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._wait_up()

    def _wait_up(self, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.stderr.read().decode(errors="replace"))
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start")

    def pids(self) -> list[int]:
        """The server and its children (the lounge's database process)."""
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [self.proc.pid, *map(int, children.read_text().split())]

    def cpu_seconds(self) -> float:
        """CPU time of the server and its database process."""
        total = 0
        for pid in self.pids():
            fields_ = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields_[11]) + int(fields_[12])
        return total / os.sysconf("SC_CLK_TCK")

    def memory_kib(self, key: str = "VmHWM") -> int:
        """Peak memory of the server and its database process, added up."""
        total = 0
        for pid in self.pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1])
        return total

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def lounge_server(mode: str, database_url: str = "memory") -> ServerProcess:
    port = free_port()
    env = {"SOCKET_RATE_PER_SECOND": "1000000", "SOCKET_RATE_BURST": "1000000",
           "REST_RATE_PER_MINUTE": "100000000", "SESSION_RATE_PER_MINUTE": "100000000",
           "CONNECT_RATE_PER_MINUTE": "100000000", "MAX_CONNECTIONS_PER_USER": "100000",
           "MAX_CONNECTIONS_PER_ADDRESS": "100000",
           "SECRET_KEY": "bench-only-secret-key-0123456789abcdef",
           "DATABASE_URL": database_url}
    command = [str(REPO / ".venv" / "bin" / "lounge"), "serve", "--host", HOST,
               "--port", str(port), "--async-mode", mode]
    return ServerProcess(command, env, port)


STORES = ("memory", "sqlite", "postgres")
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def fresh_database(store: str) -> Iterator[str]:
    """A DATABASE_URL for one run: nothing, a new SQLite file, or a new schema in the
    PostgreSQL database ``test`` on 127.0.0.1 (dropped afterwards)."""
    if store == "memory":
        yield "memory"
    elif store == "sqlite":
        with tempfile.TemporaryDirectory(prefix="lounge-bench-") as folder:
            yield f"sqlite:///{folder}/lounge.db"
    else:
        from sqlalchemy import create_engine, text

        schema = f"lounge_bench_{os.getpid()}_{random.randrange(1 << 30)}"
        admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            yield f"{POSTGRES}?options=-csearch_path%3D{schema}"
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()


def relay_process(mode: str, nagle: bool = False) -> ServerProcess:
    port = free_port()
    command = [str(PYTHON), __file__, "relay", "--async-mode", mode, "--port", str(port)]
    return ServerProcess(command + (["--nagle"] if nagle else []), {}, port)


# -- measuring ----------------------------------------------------------------------------------

@dataclass
class Tally:
    """Latencies and completed moves inside the measuring window."""

    start: float = 0.0
    stop: float = float("inf")
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    sent: dict[tuple, tuple[float, int]] = field(default_factory=dict)
    running: bool = True
    cpu: float = 0.0

    def record_send(self, key: tuple, seat: int) -> None:
        self.sent[key] = (time.perf_counter(), seat)

    def record_receive(self, key: tuple, seat: int) -> None:
        entry = self.sent.get(key)
        if entry is None or entry[1] == seat:
            return
        del self.sent[key]
        now = time.perf_counter()
        if self.start <= now <= self.stop:
            self.latencies.append(now - entry[0])
            self.moves += 1


class LeanClient:
    """A minimal Socket.IO v5 client over one aiohttp WebSocket: a load generator must be much
    cheaper per message than the server it measures, and python-socketio's client is not."""

    def __init__(self, http) -> None:
        self.http = http
        self.ws = None
        self.handlers: dict[str, object] = {}
        self.acks: dict[int, asyncio.Future] = {}
        self.next_id = 0
        self.reader: asyncio.Task | None = None

    def on(self, event: str, handler) -> None:
        self.handlers[event] = handler

    async def connect(self, url: str, auth: dict) -> None:
        ws_url = url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket"
        self.ws = await self.http.ws_connect(ws_url, autoping=False, max_msg_size=1 << 20)
        opened = await self.ws.receive_str(timeout=20)
        assert opened.startswith("0"), opened
        await self.ws.send_str("40" + json.dumps(auth))
        reply = await self.ws.receive_str(timeout=20)
        assert reply.startswith("40"), reply
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            text = msg.data
            if not isinstance(text, str):
                continue
            if text == "2":
                await self.ws.send_str("3")
            elif text.startswith("42"):
                event, *args = json.loads(text[2:])
                handler = self.handlers.get(event)
                if handler is not None:
                    await handler(*args)
            elif text.startswith("43"):
                cut = text.index("[")
                future = self.acks.pop(int(text[2:cut]), None)
                if future is not None and not future.done():
                    future.set_result(json.loads(text[cut:])[0])

    async def emit(self, event: str, data: dict) -> None:
        await self.ws.send_str("42" + json.dumps([event, data], separators=(",", ":")))

    async def call(self, event: str, data: dict, timeout: float = 20) -> dict:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.acks[self.next_id] = future
        await self.ws.send_str(f"42{self.next_id}" + json.dumps([event, data]))
        return await asyncio.wait_for(future, timeout)

    async def disconnect(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()


async def lounge_room(url: str, http, tally: Tally, index: int) -> list:
    """One Tic-Tac-Toe room of two clients that move as soon as they may."""
    sessions = []
    for _ in range(2):
        async with http.post(f"{url}/api/session") as response:
            sessions.append(await response.json())
    headers = {"Authorization": f"Bearer {sessions[0]['token']}"}
    async with http.post(f"{url}/api/rooms", json={"game": "tic-tac-toe", "name": "Host"},
                         headers=headers) as response:
        room = await response.json()
    rng = random.Random(index)
    clients = []
    for seat, session in enumerate(sessions):
        client = LeanClient(http)
        asked: set[int] = set()

        async def on_state(state, client=client, seat=seat, asked=asked):
            key = (index, state["round"], state["version"])
            tally.record_receive(key, seat)
            if not tally.running:
                return
            if state["result"] is not None:
                if seat == 0 and state["round"] not in asked:
                    asked.add(state["round"])
                    await client.emit("rematch", {})
                return
            if state["legal_moves"]:
                move = rng.choice(state["legal_moves"])
                tally.record_send((index, state["round"], state["version"] + 1), seat)
                await client.emit("move", move)

        client.on("state", on_state)
        await client.connect(url, {"token": session["token"]})
        ack = await client.call("join", {"room": room["code"], "name": f"P{seat}"})
        assert ack["ok"], ack
        clients.append(client)
    await clients[1].call("ready", {"ready": True})
    return clients


async def relay_room(url: str, http, tally: Tally, index: int) -> list:
    """Two clients that pass a message back and forth through the relay."""
    clients = []
    for seat in range(2):
        client = LeanClient(http)

        async def on_state(data, client=client, seat=seat):
            tally.record_receive((index, 0, data["n"]), seat)
            if tally.running and data["next"] == seat:
                tally.record_send((index, 0, data["n"] + 1), seat)
                await client.emit("move", {"n": data["n"] + 1, "next": 1 - seat,
                                           "move": "place", "args": [4]})

        client.on("state", on_state)
        await client.connect(url, {"room": f"r{index}"})
        clients.append(client)
    return clients


async def run_rooms(kind: str, url: str, first: int, count: int, start_at: float,
                    seconds: float) -> Tally:
    """Set up rooms ``first..first+count``, start them at wall time ``start_at``, then measure
    for ``seconds`` after a one-second warm-up."""
    import aiohttp

    tally = Tally()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        rooms = []
        for low in range(first, first + count, 25):
            batch = range(low, min(first + count, low + 25))
            maker = lounge_room if kind == "lounge" else relay_room
            rooms.extend(await asyncio.gather(*(maker(url, http, tally, i) for i in batch)))
        await asyncio.sleep(max(0.0, start_at - time.time()))
        tally.start = time.perf_counter() + 1.0
        tally.stop = tally.start + seconds
        for index, clients in zip(range(first, first + count), rooms, strict=True):
            if kind == "lounge":
                await clients[0].emit("start", {})
            else:
                tally.record_send((index, 0, 1), 0)
                await clients[0].emit("move", {"n": 1, "next": 1, "move": "place", "args": [4]})
        cpu_before = time.process_time()
        await asyncio.sleep(1.0 + seconds)
        tally.cpu = (time.process_time() - cpu_before) / (1.0 + seconds)
        tally.running = False
        await asyncio.sleep(0.2)
        await asyncio.gather(*(c.disconnect() for clients in rooms for c in clients),
                             return_exceptions=True)
    return tally


def worker(kind: str, url: str, first: int, count: int, start_at: float, seconds: float) -> None:
    """A load-generating process: prints its latencies and move count as JSON."""
    tally = asyncio.run(asyncio.wait_for(run_rooms(kind, url, first, count, start_at, seconds),
                                         MAX_PHASE_SECONDS))
    print(json.dumps({"latencies": tally.latencies, "moves": tally.moves,
                      "cpu": tally.cpu}), flush=True)


def drive(kind: str, url: str, rooms: int, seconds: float,
          workers: int) -> tuple[list, int, float]:
    """Spread the rooms over worker processes that start together: all latencies, all moves,
    the workers' CPU (in cores)."""
    workers = max(1, min(workers, rooms))
    start_at = time.time() + 3.0 + rooms * 0.03
    procs, first = [], 0
    for w in range(workers):
        count = rooms // workers + (1 if w < rooms % workers else 0)
        command = [str(PYTHON), __file__, "worker", "--kind", kind, "--url", url,
                   "--first", str(first), "--count", str(count), "--start-at", str(start_at),
                   "--seconds", str(seconds)]
        procs.append(subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE))
        first += count
    latencies, moves, cpu = [], 0, 0.0
    for proc in procs:
        out, _ = proc.communicate(timeout=MAX_PHASE_SECONDS + 30)
        if proc.returncode != 0:
            raise RuntimeError(f"a load worker failed ({proc.returncode})")
        data = json.loads(out.decode().strip().splitlines()[-1])
        latencies.extend(data["latencies"])
        moves += data["moves"]
        cpu += data["cpu"]
    return latencies, moves, cpu


def measure(kind: str, mode: str, rooms: int, seconds: float, workers: int,
            store: str = "memory") -> dict:
    """One run against a fresh server process (and a fresh database for a durable store)."""
    with fresh_database(store if kind == "lounge" else "memory") as url:
        row = measure_server(kind, mode, rooms, seconds, workers, url)
    return {**row, "store": store if kind == "lounge" else "-"}


def measure_server(kind: str, mode: str, rooms: int, seconds: float, workers: int,
                   database_url: str) -> dict:
    server = (lounge_server(mode, database_url) if kind == "lounge"
              else relay_process(mode, kind == "nagle"))
    try:
        cpu_before, wall_before = server.cpu_seconds(), time.perf_counter()
        client_kind = "relay" if kind == "nagle" else kind
        latencies, moves, client_cpu = drive(client_kind, server.url, rooms, seconds, workers)
        cpu = (server.cpu_seconds() - cpu_before) / (time.perf_counter() - wall_before)
        peak = server.memory_kib()
    finally:
        server.stop()
    lat = sorted(latencies) or [float("nan")]
    pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    return {"kind": kind, "mode": mode, "rooms": rooms, "moves_per_s": moves / seconds,
            "p50_ms": pick(0.50), "p95_ms": pick(0.95), "p99_ms": pick(0.99),
            "cpu_pct": cpu * 100, "peak_mib": peak / 1024, "samples": len(latencies),
            "client_cpu_pct": client_cpu * 100}


def idle_room_memory(mode: str, rooms: int) -> dict:
    """RSS growth per room created over REST and left idle."""
    import requests

    server = lounge_server(mode)
    try:
        http = requests.Session()
        http.get(f"{server.url}/api/games", timeout=10)
        before = server.memory_kib("VmRSS")
        for _ in range(rooms):
            token = http.post(f"{server.url}/api/session", timeout=10).json()["token"]
            http.post(f"{server.url}/api/rooms", json={"game": "tic-tac-toe", "name": "Idle"},
                      headers={"Authorization": f"Bearer {token}"}, timeout=10)
        time.sleep(0.5)
        after = server.memory_kib("VmRSS")
    finally:
        server.stop()
    return {"mode": mode, "rooms": rooms, "kib_per_room": (after - before) / rooms}


def median_of(runs: list[dict]) -> dict:
    keys = ("moves_per_s", "p50_ms", "p95_ms", "p99_ms", "cpu_pct", "peak_mib", "samples",
            "client_cpu_pct")
    out = {k: runs[0][k] for k in ("kind", "mode", "rooms", "store")}
    out.update({k: statistics.median(r[k] for r in runs) for k in keys})
    out["runs"] = len(runs)
    return out


def table(rows: list[dict]) -> str:
    lines = ["| server | mode | rooms | moves/s | p50 ms | p95 ms | p99 ms | server CPU % "
             "| peak MiB | clients CPU % |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    names = {"lounge": "lounge", "relay": "bare relay", "nagle": "bare relay, Nagle on"}
    for r in rows:
        durable = r.get("store") in ("sqlite", "postgres")
        name = names[r["kind"]] + (f", {r['store']} store" if durable else "")
        lines.append(f"| {name} | {r['mode']} | {r['rooms']} | "
                     f"{r['moves_per_s']:.0f} | {r['p50_ms']:.2f} | {r['p95_ms']:.2f} | "
                     f"{r['p99_ms']:.2f} | {r['cpu_pct']:.0f} | {r['peak_mib']:.0f} | "
                     f"{r['client_cpu_pct']:.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="bench", choices=["bench", "relay", "worker"])
    parser.add_argument("--workers", type=int, default=2, help="load-generating processes")
    parser.add_argument("--modes", nargs="+", default=["eventlet", "gevent"])
    parser.add_argument("--rooms", nargs="+", type=int, default=[1, 200])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--idle-rooms", type=int, default=1000)
    parser.add_argument("--nagle-check", action="store_true",
                        help="also run the relay at 1 room with Nagle's algorithm on")
    parser.add_argument("--json", help="write the results here too")
    parser.add_argument("--store", nargs="+", choices=STORES, default=["memory"],
                        help="room stores for the lounge: the in-memory one is always run too, "
                             "as the yardstick of the cost of durability")
    parser.add_argument("--async-mode", default="eventlet", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--nagle", action="store_true", help=argparse.SUPPRESS)
    for hidden in ("--kind", "--url"):
        parser.add_argument(hidden, help=argparse.SUPPRESS)
    for hidden in ("--first", "--count"):
        parser.add_argument(hidden, type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.what == "relay":
        relay_server(args.async_mode, args.port, args.nagle)
        return 0
    if args.what == "worker":
        worker(args.kind, args.url, args.first, args.count, args.start_at, args.seconds)
        return 0
    args.runs = max(1, min(args.runs, 9))
    args.seconds = max(1.0, min(args.seconds, 60.0))
    rows = []
    for mode in args.modes:
        stores = ["memory", *[s for s in STORES[1:] if s in args.store]]
        kinds = [("lounge", store) for store in stores] + [("relay", "-")]
        for rooms in args.rooms:
            nagle = [("nagle", "-")] if args.nagle_check and rooms == 1 else []
            for kind, store in kinds + nagle:
                runs = [measure(kind, mode, min(rooms, 500), args.seconds, args.workers, store)
                        for _ in range(args.runs)]
                rows.append(median_of(runs))
                print(table(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(rows))
    idle = [idle_room_memory(mode, args.idle_rooms) for mode in args.modes if args.idle_rooms]
    for item in idle:
        print(f"idle rooms ({item['mode']}): {item['kib_per_room']:.1f} KiB per room "
              f"over {item['rooms']} rooms")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "idle": idle}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
