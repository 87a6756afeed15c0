"""Load benchmark of the lounge server beside a bare python-socketio relay of the same shape.

    .venv/bin/python bench/load.py                      # the full comparison (several minutes)
    .venv/bin/python bench/load.py --rooms 1 --runs 1 --seconds 3 --modes eventlet
    .venv/bin/python bench/load.py --store sqlite postgres   # the cost of durable rooms
    .venv/bin/python bench/load.py --cluster split balancer --cluster-only   # a cluster's cost

For each async mode and room count, M Tic-Tac-Toe rooms of 2 socket.io clients play on loopback,
each client moving as soon as it is its turn (the host asks for a rematch when a game ends). It
measures move -> the other player's update (p50/p95/p99), moves per second, the server's CPU and
peak memory. The bare relay (one message in, relayed to the room, TCP_NODELAY like the lounge)
runs the same ping-pong in the same run as the transport's floor. Also: memory per idle room.
With ``--cluster``, in the same run, 1 lounge process against 2 on one PostgreSQL store and
the machine's Redis (each run a fresh schema and ``CLUSTER_NAME``, both removed after):
``split`` has each room's host on the process that opened (and owns) the room and the other
player on the other process; ``balancer`` puts both players through HAProxy (backend/balancer.py)
wherever it places them (their REST calls by a sticky cookie each, their connections by the
room they name, as the web client's), with 1 process in cluster mode between the two, so that
cluster mode's own cost and that of the load spread over two processes show apart. CPU is
every lounge process's plus Redis's, inside the measuring window. Everything is bounded in
time; the servers are stopped at the end. Only 127.0.0.1 is used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import psutil

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

    def __init__(self, command: list[str], env: dict[str, str], port: int,
                 cwd: Path = REPO, start_seconds: float = 30.0) -> None:
        self.port = port
        self.url = f"http://{HOST}:{port}"
        # A file, not a pipe: a pipe nobody reads fills up and stalls a talkative server.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen(command, env={**os.environ, **env}, cwd=cwd,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        self._wait_up(start_seconds)

    def _wait_up(self, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.output()[-3000:])
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
        return self.cpu_of(self.pids())

    @staticmethod
    def cpu_of(pids: list[int]) -> float:
        """CPU time (user and system) of these processes."""
        total = 0
        for pid in pids:
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

    def output(self) -> str:
        """What the server wrote to its standard error so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop the server (SIGTERM, SIGKILL after 5 s; or ``sig`` first)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()


def lounge_server(mode: str, database_url: str = "memory",
                  settings: dict[str, str] | None = None) -> ServerProcess:
    """``lounge serve`` with its rate limits lifted (and any other ``settings``)."""
    port = free_port()
    env = {"SOCKET_RATE_PER_SECOND": "1000000", "SOCKET_RATE_BURST": "1000000",
           "REST_RATE_PER_MINUTE": "100000000", "SESSION_RATE_PER_MINUTE": "100000000",
           "CONNECT_RATE_PER_MINUTE": "100000000", "MAX_CONNECTIONS_PER_USER": "100000",
           "MAX_CONNECTIONS_PER_ADDRESS": "100000",
           "SECRET_KEY": "bench-only-secret-key-0123456789abcdef",
           "DATABASE_URL": database_url, **(settings or {})}
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


# -- a cluster: several lounge processes on Redis and one PostgreSQL schema ---------------------

REDIS = "redis://127.0.0.1:6379/0"
BALANCER_COOKIE = "LOUNGE_BACKEND"  # backend.balancer.COOKIE (the load workers stay light)
BALANCER_HEADER = "X-Lounge-Backend"  # backend.balancer.HEADER: the process that answered


def redis_process(url: str) -> psutil.Process | None:
    """The redis-server process listening on the URL's port (a psutil Process), or None."""
    import psutil

    port = urlsplit(url).port or 6379
    for proc in psutil.process_iter(["name"]):
        if proc.info["name"] != "redis-server":
            continue
        try:
            listening = proc.net_connections(kind="tcp")
        except psutil.Error:
            continue
        if any(c.status == psutil.CONN_LISTEN and c.laddr.port == port for c in listening):
            return proc
    return None


def redis_connections(url: str) -> float:
    """Connections Redis has accepted since it started (anyone's: the machine's Redis is
    shared, so compare with the single-process rows, which open none)."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2.0)
    try:
        # Minus this one: the meter's own connection is not the lounge's.
        return float(client.info("stats")["total_connections_received"]) - 1
    finally:
        client.close()


def migrate(database_url: str) -> None:
    """``lounge db upgrade`` once, before the processes start (as ``lounge cluster`` does)."""
    done = subprocess.run([str(REPO / ".venv" / "bin" / "lounge"), "db", "upgrade"], cwd=REPO,
                          env={**os.environ, "DATABASE_URL": database_url},
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(done.stdout + done.stderr)


class LoungeCluster:
    """``processes`` lounge processes on one PostgreSQL store: with ``redis_url`` a cluster
    (its own ``CLUSTER_NAME``, its Redis keys deleted at the end), without it a plain single
    process; with ``balanced`` behind HAProxy (backend/balancer.py, as ``lounge cluster``).
    :meth:`meter` reads the CPU seconds of the lounge processes, of the machine's Redis
    (shared: what it does for others is in it too) and of HAProxy."""

    def __init__(self, mode: str, database_url: str, processes: int, redis_url: str | None,
                 balanced: bool = False, count: bool = False) -> None:
        self.name = f"bench{os.getpid()}x{random.randrange(1 << 30):x}"
        self.redis_url = redis_url
        self.database_url = database_url
        self.servers: list[ServerProcess] = []
        self.balancer = None
        self.counter = MessageCounter(redis_url, self.name) if count and redis_url else None
        settings = {"REDIS_URL": redis_url, "CLUSTER_NAME": self.name} if redis_url else {}
        self.redis = redis_process(redis_url or REDIS)
        try:
            migrate(database_url)
            for _ in range(processes):
                self.servers.append(lounge_server(mode, database_url, settings))
            for server in self.servers:
                wait_healthy(server.url)
            if balanced:
                from backend.balancer import COOKIE, Balancer

                assert COOKIE == BALANCER_COOKIE
                self.balancer = Balancer([(HOST, s.port) for s in self.servers],
                                         check_seconds=0.5)
                for name in self.balancer.names:
                    self.balancer.wait_status(name, "UP", seconds=15)
        except BaseException:
            self.stop()
            raise

    def url(self, kind: str) -> str:
        """Where the load goes: the balancer's front, both processes (split), or the first."""
        if kind == "front":
            return self.balancer.url
        if kind == "split":
            return ",".join(s.url for s in self.servers[:2])
        return self.servers[0].url

    def owned_away(self, together: dict[str, str]) -> int:
        """Of the rooms whose players the balancer put on one process (code -> its name),
        how many are owned by another process (a room that did not follow its players)."""
        import requests
        from sqlalchemy import create_engine, text

        nodes = {name: requests.get(f"{server.url}/api/health", timeout=10).json()["cluster"]
                 ["node"] for name, server in zip(self.balancer.names, self.servers, strict=True)}
        engine = create_engine(self.database_url)
        try:
            with engine.connect() as conn:
                owners = dict(conn.execute(text(
                    "SELECT r.code, l.owner FROM rooms r JOIN room_leases l ON l.room_id = r.id"
                )).all())
        finally:
            engine.dispose()
        return sum(owners.get(code) != nodes[where] for code, where in together.items())

    def meter(self) -> dict[str, float]:
        """CPU seconds so far: the lounge processes, Redis, HAProxy."""
        lounge = sum(s.cpu_seconds() for s in self.servers)
        redis = 0.0
        if self.redis is not None:
            times = self.redis.cpu_times()
            redis = times.user + times.system
        haproxy = 0.0
        if self.balancer is not None and self.balancer.process is not None:
            haproxy = ServerProcess.cpu_of([self.balancer.process.pid])
        parts = {"lounge": lounge, "redis": redis, "haproxy": haproxy,
                 **{f"lounge_p{i + 1}": s.cpu_seconds() for i, s in enumerate(self.servers)},
                 "redis_connections": redis_connections(self.redis_url or REDIS)}
        if self.counter is not None:
            parts.update(self.counter.counts())
            parts.update(table_writes(self.database_url))
        return parts

    def stop(self) -> None:
        """HAProxy, then every process (SIGKILL: a hand-over at the end is time wasted, and
        the schema is dropped anyway), then this cluster's Redis keys."""
        if self.counter is not None:
            self.counter.stop()
        if self.balancer is not None:
            self.balancer.stop()
        for server in self.servers:
            server.stop(signal.SIGKILL)
        if self.redis_url:
            delete_cluster_keys(self.redis_url, self.name)


def delete_cluster_keys(redis_url: str, name: str) -> None:
    """Every Redis key of the cluster named ``name``."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=5)
    try:
        keys = list(client.scan_iter(match=f"{name}:*", count=1000))
        for low in range(0, len(keys), 500):
            client.delete(*keys[low:low + 500])
    finally:
        client.close()


class MessageCounter:
    """Counts the messages published on one cluster's Redis channels, by kind: ``node`` (to
    one process: forwarded events, their replies, states for remote connections), ``all`` (to
    every process) and ``socketio`` (Flask-SocketIO's queue, to every process). It is one more
    subscriber, so it adds a delivery per message: used only with --count-messages."""

    def __init__(self, redis_url: str, cluster: str) -> None:
        import threading

        import redis

        self.totals = {"msg_node": 0, "msg_all": 0, "msg_socketio": 0}
        self.client = redis.Redis.from_url(redis_url, socket_timeout=2.0)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.pubsub.psubscribe(f"{cluster}:*")
        self.prefix = len(cluster) + 1
        self.running = True
        self.thread = threading.Thread(target=self._count, daemon=True)
        self.thread.start()

    def _count(self) -> None:
        while self.running:
            message = self.pubsub.get_message(timeout=0.5)
            if message is not None and message["type"] == "pmessage":
                kind = message["channel"][self.prefix:].split(b":")[0].decode()
                key = f"msg_{kind}"
                if key in self.totals:
                    self.totals[key] += 1

    def counts(self) -> dict[str, float]:
        """Messages counted so far, by kind."""
        return {key: float(value) for key, value in self.totals.items()}

    def stop(self) -> None:
        self.running = False
        self.thread.join(2.0)
        self.pubsub.close()
        self.client.close()


def table_writes(database_url: str) -> dict[str, float]:
    """Rows written so far in the benchmark's schema, by table (PostgreSQL's statistics,
    which a backend reports at most once a second: approximate over a few seconds)."""
    from sqlalchemy import create_engine, text

    schema = database_url.rsplit("search_path%3D", 1)[1]
    engine = create_engine(POSTGRES)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(
                "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS written "
                "FROM pg_stat_user_tables WHERE schemaname = :schema"), {"schema": schema})
            return {f"pg_{row.relname}": float(row.written) for row in rows}
    finally:
        engine.dispose()


def wait_healthy(url: str, seconds: float = 30.0) -> None:
    """Until ``/api/health`` answers 200 (a cluster process has joined its cluster)."""
    import requests

    deadline = time.monotonic() + seconds
    while True:
        try:
            if requests.get(f"{url}/api/health", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} is not healthy after {seconds} s")
        time.sleep(0.1)


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
    by_seat: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: []})
    split_rooms: int = 0  # through the balancer: rooms whose players are on different processes
    together: dict[str, str] = field(default_factory=dict)  # the others: code -> their process
    placed: dict[str, int] = field(default_factory=dict)  # through the balancer: players by process
    started_at: float = 0.0  # wall time of the measuring window's start

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
            self.by_seat[entry[1]].append(now - entry[0])
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

    async def connect(self, url: str, auth: dict, headers: dict | None = None,
                      room: str = "") -> str:
        """Connect (naming ``room`` in the URL, as the web client does); the process that
        took the connection, when a balancer says so."""
        query = f"&room={room}" if room else ""
        ws_url = url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket" + query
        self.ws = await self.http.ws_connect(ws_url, autoping=False, max_msg_size=1 << 20,
                                             headers=headers)
        where = self.ws._response.headers.get(BALANCER_HEADER, "")
        opened = await self.ws.receive_str(timeout=20)
        assert opened.startswith("0"), opened
        await self.ws.send_str("40" + json.dumps(auth))
        reply = await self.ws.receive_str(timeout=20)
        assert reply.startswith("40"), reply
        self.reader = asyncio.create_task(self._read())
        return where

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


async def new_player(http, url: str, placed: bool) -> tuple[dict, dict]:
    """A session made at ``url``; through the balancer (``placed``), also the sticky-cookie
    header that keeps this player's other requests on the process HAProxy chose."""
    async with http.post(f"{url}/api/session") as response:
        session = await response.json()
        if not placed:
            return session, {}
        cookie = response.cookies[BALANCER_COOKIE].value
        return session, {"Cookie": f"{BALANCER_COOKIE}={cookie}"}


async def lounge_room(urls: list[str], http, tally: Tally, index: int,
                      placed: bool = False) -> list:
    """One Tic-Tac-Toe room of two clients that move as soon as they may. Player ``i`` talks
    to ``urls[i]`` (the room is opened at the host's, which owns it in a cluster); with
    ``placed`` both URLs are the balancer's front and each player stays where it placed them."""
    rng = random.Random(index)
    clients, placed_on, room = [], [], None
    # As people arrive: the host opens the room (over REST, where its sticky cookie places it)
    # and connects, then the guest comes. Both connections name the room, as the web client's
    # do, so HAProxy places them by it, and the room's owner hands it to where they are.
    for seat, url in enumerate(urls):
        session, sticky = await new_player(http, url, placed)
        if room is None:
            headers = {"Authorization": f"Bearer {session['token']}", **sticky}
            async with http.post(f"{url}/api/rooms", json={"game": "tic-tac-toe",
                                                          "name": "Host"},
                                 headers=headers) as response:
                room = await response.json()
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
        placed_on.append(await client.connect(urls[seat], {"token": session["token"]},
                                              sticky or None, room["code"]))
        ack = await call_again(client, "join", {"room": room["code"], "name": f"P{seat}"})
        assert ack["ok"], ack
        clients.append(client)
    if placed:
        tally.split_rooms += placed_on[0] != placed_on[1]
        if placed_on[0] == placed_on[1]:
            tally.together[room["code"]] = placed_on[0]
        for where in placed_on:
            tally.placed[where] = tally.placed.get(where, 0) + 1
    ack = await call_again(clients[1], "ready", {"ready": True})
    assert ack["ok"], ack
    return clients


async def call_again(client: LeanClient, event: str, data: dict, tries: int = 10) -> dict:
    """An event, sent again while the answer is ``internal`` ("try again"), as the clients
    do; the last answer."""
    for _ in range(tries):
        ack = await client.call(event, data)
        if ack["ok"] or ack["error"]["code"] != "internal":
            return ack
        await asyncio.sleep(0.5)
    return ack


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
    # Through the balancer every player is a client of its own, as browsers are: its own sticky
    # cookie (no shared cookie jar), and no HTTP connection kept alive for the next player's
    # requests (HAProxy would send those to the same process).
    connector = aiohttp.TCPConnector(limit=0, force_close=kind == "front")
    jar = aiohttp.DummyCookieJar() if kind == "front" else None
    urls = url.split(",")
    async with aiohttp.ClientSession(connector=connector, cookie_jar=jar) as http:
        rooms = []
        for low in range(first, first + count, 25):
            batch = range(low, min(first + count, low + 25))
            if kind == "relay":
                made = (relay_room(url, http, tally, i) for i in batch)
            else:  # lounge and front: both players at url; split: at urls[0] and urls[1]
                seats = urls if kind == "split" else [url, url]
                made = (lounge_room(seats, http, tally, i, kind == "front") for i in batch)
            rooms.extend(await asyncio.gather(*made))
        await asyncio.sleep(max(0.0, start_at - time.time()))
        tally.started_at = time.time() + 1.0
        tally.start = time.perf_counter() + 1.0
        tally.stop = tally.start + seconds
        for index, clients in zip(range(first, first + count), rooms, strict=True):
            if kind != "relay":
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
    print(json.dumps({"latencies": tally.latencies, "moves": tally.moves, "cpu": tally.cpu,
                      "by_seat": tally.by_seat, "split_rooms": tally.split_rooms,
                      "together": tally.together,
                      "placed": tally.placed, "started_at": tally.started_at}), flush=True)


def drive(kind: str, url: str, rooms: int, seconds: float, workers: int,
          meter: Callable[[], dict[str, float]] | None = None) -> dict:
    """Spread the rooms over worker processes that start together. The answer: all latencies
    (and those by the mover's seat), all moves, the workers' CPU (in cores), rooms split over
    two processes by the balancer, and with a ``meter`` (CPU seconds by part, read now) the
    CPU each part used inside the measuring window, in cores."""
    workers = max(1, min(workers, rooms))
    start_at = time.time() + 3.0 + rooms * (0.03 if kind in ("lounge", "relay") else 0.06)
    procs, first = [], 0
    for w in range(workers):
        count = rooms // workers + (1 if w < rooms % workers else 0)
        command = [str(PYTHON), __file__, "worker", "--kind", kind, "--url", url,
                   "--first", str(first), "--count", str(count), "--start-at", str(start_at),
                   "--seconds", str(seconds)]
        procs.append(subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE))
        first += count
    window: dict[str, float] = {}
    try:
        if meter is not None:
            window = meter_window(meter, start_at + 1.0, seconds)
    finally:
        outputs = []
        for proc in procs:
            try:
                out, _ = proc.communicate(timeout=MAX_PHASE_SECONDS + 30)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate(timeout=10)
            outputs.append((proc.returncode, out))
    result = {"latencies": [], "by_seat": {0: [], 1: []}, "moves": 0, "client_cpu": 0.0,
              "split_rooms": 0, "together": {}, "placed": {}, "window": window,
              "late_s": 0.0}
    for returncode, out in outputs:
        if returncode != 0:
            raise RuntimeError(f"a load worker failed ({returncode})")
        data = json.loads(out.decode().strip().splitlines()[-1])
        result["latencies"].extend(data["latencies"])
        for seat in (0, 1):
            result["by_seat"][seat].extend(data["by_seat"].get(str(seat), []))
        result["moves"] += data["moves"]
        result["client_cpu"] += data["cpu"]
        result["split_rooms"] += data["split_rooms"]
        result["together"].update(data["together"])
        for where, players in data["placed"].items():
            result["placed"][where] = result["placed"].get(where, 0) + players
        # A worker whose rooms were not ready in time starts late: its window and the
        # meter's then differ by this much.
        result["late_s"] = max(result["late_s"], data["started_at"] - (start_at + 1.0))
    return result


def meter_window(meter: Callable[[], dict[str, float]], start: float,
                 seconds: float) -> dict[str, float]:
    """The CPU (in cores) of each part the meter reads, from wall time ``start`` for
    ``seconds``: the load's measuring window."""
    time.sleep(max(0.0, min(start - time.time(), MAX_PHASE_SECONDS)))
    before, wall = meter(), time.perf_counter()
    time.sleep(seconds)
    after, elapsed = meter(), time.perf_counter() - wall
    return {part: (after[part] - before.get(part, 0.0)) / elapsed for part in after}


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
        driven = drive(client_kind, server.url, rooms, seconds, workers)
        latencies, moves, client_cpu = driven["latencies"], driven["moves"], driven["client_cpu"]
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


# -- the cluster runs ----------------------------------------------------------------------------

# (label, processes, cluster mode, how players reach it, added to REDIS_URL's query); the
# first of each is the yardstick.
CLUSTER_SETUPS = {
    "split": [("1 process", 1, False, "lounge", ""),
              ("1 process, cluster mode", 1, True, "lounge", ""),
              ("2 processes, split rooms", 2, True, "split", "")],
    "balancer": [("1 process, via HAProxy", 1, False, "front", ""),
                 ("1 process, cluster mode, via HAProxy", 1, True, "front", ""),
                 ("2 processes, via HAProxy", 2, True, "front", "")],
}


def with_query(url: str, query: str) -> str:
    """``url`` with ``query`` added to its query string."""
    if not query:
        return url
    return url + ("&" if "?" in url else "?") + query


def measure_cluster(label: str, processes: int, clustered: bool, kind: str, mode: str,
                    rooms: int, seconds: float, workers: int, redis_url: str,
                    count: bool = False) -> dict:
    """One run of one setup, on a fresh PostgreSQL schema (and a fresh cluster name); with
    ``count``, also the Redis messages and PostgreSQL rows written per move."""
    with fresh_database("postgres") as url:
        cluster = LoungeCluster(mode, url, processes, redis_url if clustered else None,
                                balanced=kind == "front", count=count)
        try:
            driven = drive(kind, cluster.url(kind), rooms, seconds, workers, cluster.meter)
            away = cluster.owned_away(driven["together"]) if clustered and kind == "front" \
                else 0
        finally:
            cluster.stop()
    window = driven["window"]
    moves_per_s = driven["moves"] / seconds
    # The cluster's CPU: every lounge process, plus Redis when the lounge uses it (Redis is
    # the machine's, shared: in the single-process rows its CPU is other people's work).
    cores = window["lounge"] + (window["redis"] if clustered else 0.0)
    per_move = cores / moves_per_s * 1e6 if moves_per_s else float("nan")
    # Who pays for a move: the first process (a split room's owner), the second (its relay),
    # Redis; in microseconds of CPU a move.
    parts = {"p1": window.get("lounge_p1", 0.0), "p2": window.get("lounge_p2", 0.0),
             "redis": window["redis"] if clustered else 0.0}
    by_part = {f"{part}_us_per_move": cpu / moves_per_s * 1e6 if moves_per_s else float("nan")
               for part, cpu in parts.items()}
    by_seat = {seat: percentile(lat, 0.5) for seat, lat in driven["by_seat"].items()}
    return {"setup": label, "kind": kind, "processes": processes, "clustered": clustered,
            "mode": mode, "rooms": rooms, "moves_per_s": moves_per_s,
            "p50_ms": percentile(driven["latencies"], 0.5),
            "p95_ms": percentile(driven["latencies"], 0.95),
            "p99_ms": percentile(driven["latencies"], 0.99),
            "p50_host_mover_ms": by_seat[0], "p50_guest_mover_ms": by_seat[1],
            "lounge_cpu_pct": window["lounge"] * 100, "redis_cpu_pct": window["redis"] * 100,
            "haproxy_cpu_pct": window["haproxy"] * 100, "cpu_us_per_move": per_move,
            "redis_connections_per_s": window["redis_connections"],
            "busiest_process_cpu_pct": max(v for k, v in window.items()
                                           if k.startswith("lounge_p")) * 100,
            "client_cpu_pct": driven["client_cpu"] * 100, "samples": len(driven["latencies"]),
            "split_rooms": driven["split_rooms"], "owned_away": away,
            "late_s": driven["late_s"],
            "busiest_share": (max(driven["placed"].values()) / sum(driven["placed"].values())
                              if driven["placed"] else float("nan")),
            "load_avg": os.getloadavg()[0],
            **by_part,
            "per_move": {part: rate / moves_per_s for part, rate in window.items()
                         if moves_per_s and part.startswith(("msg_", "pg_"))}}


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of latencies in seconds, in milliseconds (NaN if there are none)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def cluster_runs(section: str, mode: str, rooms: int, runs: int, seconds: float, workers: int,
                 redis_url: str, count: bool = False, save: Path | None = None,
                 earlier: list[dict] | None = None) -> list[dict]:
    """Every setup of a section, ``runs`` times, interleaved (run 1 of each, then run 2...)
    so that a change in the machine's load hits them alike; each run's figures (with those
    ``earlier`` written to ``save`` after every run). A run that fails (a room that could
    not be set up) is reported and counted, and the others go on."""
    out = []
    for run in range(runs):
        for label, processes, clustered, kind, query in CLUSTER_SETUPS[section]:
            try:
                row = measure_cluster(label, processes, clustered, kind, mode, rooms, seconds,
                                      workers, with_query(redis_url, query), count)
            except Exception as exc:
                print(f"  {section} run {run + 1}: {label}, {rooms} rooms: FAILED ({exc})",
                      flush=True)
                out.append({"section": section, "run": run, "setup": label, "rooms": rooms,
                            "failed": str(exc)})
                continue
            row.update(section=section, run=run)
            out.append(row)
            if save is not None:
                save.write_text(json.dumps({"cluster_runs": (earlier or []) + out}, indent=2))
            print(f"  {section} run {run + 1}: {label}, {rooms} rooms: "
                  f"{row['moves_per_s']:.0f} moves/s, p50 {row['p50_ms']:.2f} ms, "
                  f"{row['cpu_us_per_move']:.0f} us/move, busiest process "
                  f"{row['busiest_process_cpu_pct']:.0f} % CPU, Redis accepted "
                  f"{row['redis_connections_per_s']:.0f} connections/s"
                  + (f", {row['owned_away']} rooms owned away from their players"
                     if row["kind"] == "front" and row["clustered"] else "")
                  + (f" (a worker started {row['late_s']:.1f} s late)"
                     if row["late_s"] > 0.3 else ""), flush=True)
            if row["per_move"]:
                print("    per move: " + ", ".join(f"{part} {value:.2f}" for part, value
                                                    in sorted(row["per_move"].items())),
                      flush=True)
    return out


def summarize_cluster(rows: list[dict]) -> list[dict]:
    """Per section, room count and setup: the median and range of each figure over the runs,
    and the ratios to the section's first setup measured in the same run."""
    out = []
    keys = ("moves_per_s", "p50_ms", "p95_ms", "p99_ms", "p50_host_mover_ms",
            "p50_guest_mover_ms", "lounge_cpu_pct", "redis_cpu_pct", "haproxy_cpu_pct",
            "cpu_us_per_move", "client_cpu_pct", "split_rooms", "busiest_share", "load_avg",
            "redis_connections_per_s", "busiest_process_cpu_pct", "owned_away",
            "p1_us_per_move", "p2_us_per_move", "redis_us_per_move")
    groups: dict[tuple, list[dict]] = {}
    failed: dict[tuple, int] = {}
    for row in rows:
        key = (row["section"], row["rooms"], row["setup"])
        if "failed" in row:
            failed[key] = failed.get(key, 0) + 1
        else:
            groups.setdefault(key, []).append(row)
    for (section, rooms, setup), runs in groups.items():
        base = {r["run"]: r
                for r in groups.get((section, rooms, CLUSTER_SETUPS[section][0][0]), [])}
        item = {"section": section, "rooms": rooms, "setup": setup, "runs": len(runs),
                "failed_runs": failed.get((section, rooms, setup), 0)}
        for key in keys:
            values = [r.get(key, 0) for r in runs]  # owned_away: not in older files
            item[key] = statistics.median(values)
            item[key + "_range"] = (min(values), max(values))
        for key in ("moves_per_s", "cpu_us_per_move", "p50_ms"):
            ratios = [r[key] / base[r["run"]][key] for r in runs
                      if r["run"] in base and base[r["run"]][key]]
            item[key + "_ratio"] = statistics.median(ratios) if ratios else float("nan")
            item[key + "_ratio_range"] = (min(ratios), max(ratios)) if ratios else (0, 0)
        added = [r["p50_ms"] - base[r["run"]]["p50_ms"] for r in runs if r["run"] in base]
        item["p50_added_ms"] = statistics.median(added) if added else float("nan")
        item["p50_added_ms_range"] = (min(added), max(added)) if added else (0, 0)
        out.append(item)
    return out


def cluster_table(summary: list[dict]) -> str:
    """The cluster runs as a Markdown table: medians, with the range over the runs."""
    lines = ["| setup | rooms | moves/s | x 1 process | p50 ms | p50 added, ms | p99 ms "
             "| p50 ms, host / guest moved | lounge CPU % | Redis CPU % | HAProxy CPU % "
             "| CPU us/move | x 1 process | us/move: process 1 / process 2 / Redis "
             "| split rooms, owned away from their players, "
             "busiest process's players "
             "| Redis connections/s | load avg |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]

    def spread(item: dict, key: str, fmt: str) -> str:
        low, high = item[key + "_range"]
        return f"{item[key]:{fmt}} ({low:{fmt}}-{high:{fmt}})"

    def ratio(item: dict, key: str) -> str:
        low, high = item[key + "_ratio_range"]
        return f"{item[key + '_ratio']:.2f} ({low:.2f}-{high:.2f})"

    for r in summary:
        split = (f"{r['split_rooms']:.0f}/{r['rooms']}, {r['owned_away']:.0f} away, "
                 f"busiest {r['busiest_share']:.0%}"
                 if "HAProxy" in r["setup"] and r["setup"].startswith("2") else "")
        failed = f", {r['failed_runs']} failed" if r["failed_runs"] else ""
        lines.append(
            f"| {r['setup']}{failed} | {r['rooms']} | {spread(r, 'moves_per_s', '.0f')} | "
            f"{ratio(r, 'moves_per_s')} | {spread(r, 'p50_ms', '.2f')} | "
            f"{spread(r, 'p50_added_ms', '.2f')} | "
            f"{spread(r, 'p99_ms', '.2f')} | {r['p50_host_mover_ms']:.2f} / "
            f"{r['p50_guest_mover_ms']:.2f} | {r['lounge_cpu_pct']:.0f} | "
            f"{r['redis_cpu_pct']:.1f} | {r['haproxy_cpu_pct']:.1f} | "
            f"{spread(r, 'cpu_us_per_move', '.0f')} | {ratio(r, 'cpu_us_per_move')} | "
            f"{r['p1_us_per_move']:.0f} / {r['p2_us_per_move']:.0f} / "
            f"{r['redis_us_per_move']:.0f} | {split} | {r['redis_connections_per_s']:.0f} | "
            f"{r['load_avg']:.1f} |")
    return "\n".join(lines)


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
    parser.add_argument("--cluster", nargs="+", choices=sorted(CLUSTER_SETUPS), default=[],
                        help="also the cluster runs on PostgreSQL and Redis: split rooms (at "
                             "each --rooms) and/or through the balancer (at --balancer-rooms), "
                             "1 process against 2 in the same run (eventlet, the first mode)")
    parser.add_argument("--cluster-only", action="store_true",
                        help="only the cluster runs (no single-server table, no idle rooms)")
    parser.add_argument("--balancer-rooms", nargs="+", type=int, default=[200])
    parser.add_argument("--redis-url", default=REDIS, help="the cluster's Redis (127.0.0.1)")
    parser.add_argument("--count-messages", action="store_true",
                        help="cluster runs: also count Redis messages and PostgreSQL rows per "
                             "move (a subscriber of its own: not for the CPU figures)")
    parser.add_argument("--summarize", metavar="JSON",
                        help="only print the cluster table of the runs saved in this file")
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
    if args.summarize:
        print(cluster_table(summarize_cluster(
            json.loads(Path(args.summarize).read_text())["cluster_runs"])))
        return 0
    if urlsplit(args.redis_url).hostname != HOST:
        parser.error("the benchmark only talks to 127.0.0.1")
    rows, cluster_rows = [], []
    for section in args.cluster:
        for rooms in args.rooms if section == "split" else args.balancer_rooms:
            cluster_rows += cluster_runs(section, args.modes[0], min(rooms, 500), args.runs,
                                         args.seconds, args.workers, args.redis_url,
                                         args.count_messages,
                                         Path(args.json) if args.json else None, cluster_rows)
    summary = summarize_cluster(cluster_rows)
    if summary:
        print()
        print(cluster_table(summary))
    if args.cluster_only:
        if args.json:
            Path(args.json).write_text(json.dumps({"cluster_runs": cluster_rows,
                                                   "cluster": summary}, indent=2))
        return 0
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
        Path(args.json).write_text(json.dumps({"rows": rows, "idle": idle,
                                               "cluster_runs": cluster_rows,
                                               "cluster": summary}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
