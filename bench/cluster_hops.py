"""The cost of each hop a cluster adds to a move, measured alone (a benchmark, not a test).

    .venv/bin/python bench/cluster_hops.py                  # both, a few seconds each
    .venv/bin/python bench/cluster_hops.py redis --seconds 3
    .venv/bin/python bench/cluster_hops.py fence --saves 2000
    .venv/bin/python bench/cluster_hops.py pool --runs 1   # many publishes at once

- ``redis``: a message's round trip through Redis pub/sub between two processes: a publish of a
  state-sized JSON message and a listener that wakes the waiting sender with an event, as
  ``ClusterNode`` wakes a forwarded event's sender; with OS threads and with eventlet, each
  in three ways: ``polled`` (a synchronous publish on a pooled connection, a listener polling
  ``get_message(timeout=1.0)``: how the cluster first did it), ``outbox`` (a redis-py
  connection with ``CLIENT REPLY OFF`` that nothing is read from, a listener blocked in
  ``get_message(timeout=None)``: how it did it next) and ``sockets`` (plain sockets the bus
  reads and writes itself, backend/cluster/link.py and resp.py: how backend/cluster/bus.py
  does it now). Reported: the round trip (two publishes,
  two deliveries), and each side's CPU per message handled (a receive and a publish).
- ``pool``: 150 green threads publishing 20 messages each at once through a real
  ``ClusterBus`` (backend/cluster/bus.py), as the owner of many rooms does, with redis-py's
  default connection pool (100 connections) and with ``?max_connections=10000`` in the URL:
  how long it took, how many connections Redis accepted, and how many messages were lost.
- ``fence``: one save of a move to PostgreSQL as the store writes it (one SQL text, BEGIN,
  statements, COMMIT, in one round trip; backend/db/queries.py ``Writes.commit_many``), with
  and without the lease fence (``SELECT lounge_fence(room, epoch)``) before it, alternating,
  in a schema of its own (dropped after). Reported: the time of a save and the PostgreSQL
  backend's CPU per save (its process's CPU time, read from /proc).

Only 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTHON = REPO / ".venv" / "bin" / "python"
REDIS = "redis://127.0.0.1:6379/0"
POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
# A Tic-Tac-Toe state as a player receives it is about 600 bytes of JSON.
STATE = {"k": "emit", "to": "x" * 20, "e": "state",
         "d": {"room": "r" * 36, "round": 1, "version": 3, "seat": 1, "result": None,
               "data": {"cells": [None, "X", None, "O", None, None, None, None, None]},
               "legal_moves": [{"move": "place", "args": [i]} for i in range(7)],
               "log": [{"seat": s, "move": "place", "args": [s]} for s in range(3)],
               "players": [{"name": "P0", "connected": True}, {"name": "P1", "connected": True}],
               "ctx": {"current": 1, "stage": None, "out": []}}}


# -- Redis pub/sub -------------------------------------------------------------------------------

def replies_off(redis: object, options: dict) -> object:
    """A connection on which Redis answers nothing: a publish is one write (as bus.Outbox)."""
    connection = redis.ConnectionPool.from_url(
        REDIS, **{**options, "health_check_interval": 0}).make_connection()
    connection.connect()
    connection.send_command("CLIENT", "REPLY", "OFF", check_health=False)

    class Publisher:
        def publish(self, channel: str, payload: bytes) -> None:
            connection.send_packed_command(connection.pack_commands(
                [("PUBLISH", channel, payload)]), check_health=False)

    return Publisher()


class OwnSockets:
    """Both sides as backend/cluster/bus.py now has them: plain sockets that it reads and
    writes itself (backend/cluster/link.py, backend/cluster/resp.py), the publisher with
    replies off, the listener taking in whatever has arrived in one ``recv``."""

    def __init__(self) -> None:
        sys.path.insert(0, str(REPO))
        from backend.cluster.link import open_connection
        from backend.cluster.resp import Replies, pack

        self.pack = pack
        self.out = open_connection(REDIS, 2.0)
        self.out.sendall(pack("CLIENT", "REPLY", "OFF"))
        self.sub = open_connection(REDIS, None)
        self.replies = Replies()
        self.ready: list[bytes] = []

    def publish(self, channel: str, payload: bytes) -> None:
        self.out.sendall(self.pack("PUBLISH", channel, payload))

    def subscribe(self, channel: str) -> None:
        self.sub.sendall(self.pack("SUBSCRIBE", channel))

    def get_message(self, timeout: object = None) -> dict:
        while not self.ready:
            self.ready = [r[2] for r in self.replies.feed(self.sub.recv(65536))
                          if r[0] == b"message"]
        return {"data": self.ready.pop(0)}


WAYS = ("polled", "outbox", "sockets")


def peer(role: str, green: bool, prefix: str, count: int, seconds: float,
         way: str = "polled") -> None:
    """One side of the ping-pong: ``echo`` answers every message on ``<prefix>:in`` on
    ``<prefix>:out``; ``ping`` sends ``count`` messages one at a time and prints its figures."""
    if green:
        import eventlet

        eventlet.monkey_patch()
    import orjson
    import redis

    options = {"socket_timeout": 2.0, "socket_connect_timeout": 2.0,
               "health_check_interval": 5, "retry_on_timeout": False}
    outbox = way == "outbox"
    if way == "sockets":
        publisher = listener = OwnSockets()
    else:
        publisher = replies_off(redis, options) if outbox else redis.Redis.from_url(
            REDIS, **options)
        listen_options = {**options, "socket_timeout": None, "health_check_interval": 0}
        listener = redis.Redis.from_url(REDIS, **(listen_options if outbox else options)
                                        ).pubsub(ignore_subscribe_messages=True)
    wait = 1.0 if way == "polled" else None
    own, other = (f"{prefix}:in", f"{prefix}:out") if role == "echo" else (
        f"{prefix}:out", f"{prefix}:in")
    listener.subscribe(own)
    payload = orjson.dumps(STATE)
    deadline = time.monotonic() + seconds
    if role == "echo":
        handled = 0
        cpu = time.process_time()
        while time.monotonic() < deadline:
            message = listener.get_message(timeout=wait)
            if message is None:
                continue
            if message["data"] == b"stop":
                break
            orjson.loads(message["data"])
            publisher.publish(other, payload)
            handled += 1
        print(json.dumps({"handled": handled, "cpu": time.process_time() - cpu}), flush=True)
        return
    # ping: a listener (green thread or OS thread) hands each answer to the waiting sender.
    if green:
        import eventlet
        from eventlet.event import Event

        make_event, spawn = Event, eventlet.spawn
    else:
        import threading

        class Once:
            def __init__(self) -> None:
                self.flag = threading.Event()

            def send(self, _value: object = None) -> None:
                self.flag.set()

            def wait(self, timeout: float) -> bool:
                return self.flag.wait(timeout)

        def spawn(fn):
            thread = threading.Thread(target=fn, daemon=True)
            thread.start()
            return thread

        make_event = Once
    box: dict = {"event": None, "stop": False}

    def listen() -> None:
        while not box["stop"]:
            message = listener.get_message(timeout=wait)
            if message is not None and box["event"] is not None:
                orjson.loads(message["data"])
                box["event"].send(True)

    spawn(listen)
    time.sleep(0.2)  # both subscribed
    trips: list[float] = []
    cpu = time.process_time()
    while len(trips) < count and time.monotonic() < deadline:
        event = box["event"] = make_event()
        sent = time.perf_counter()
        publisher.publish(other, payload)
        if green:
            with eventlet.Timeout(2.0, False):
                event.wait()
        else:
            event.wait(2.0)
        trips.append(time.perf_counter() - sent)
    cpu = time.process_time() - cpu
    box["stop"] = True
    publisher.publish(other, b"stop")
    print(json.dumps({"trips": trips, "cpu": cpu}), flush=True)


def redis_round_trips(green: bool, count: int, seconds: float, way: str) -> dict:
    """Ping-pong between two fresh processes; the figures."""
    prefix = f"lounge-hops-{os.getpid()}-{random.randrange(1 << 30)}"
    command = [str(PYTHON), __file__, "peer", "--prefix", prefix, "--count", str(count),
               "--seconds", str(seconds), "--way", way] + (["--green"] if green else [])
    echo = subprocess.Popen([*command, "--role", "echo"], stdout=subprocess.PIPE, cwd=REPO)
    time.sleep(1.0)  # subscribed
    ping = subprocess.Popen([*command, "--role", "ping"], stdout=subprocess.PIPE, cwd=REPO)
    try:
        out_ping, _ = ping.communicate(timeout=seconds + 30)
        out_echo, _ = echo.communicate(timeout=seconds + 30)
    finally:
        for proc in (ping, echo):
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
    p = json.loads(out_ping.decode().strip().splitlines()[-1])
    e = json.loads(out_echo.decode().strip().splitlines()[-1])
    trips = sorted(p["trips"]) or [float("nan")]
    n = len(p["trips"])
    return {"variant": ("eventlet" if green else "threads") + ", " + way, "trips": n,
            "rtt_p50_us": trips[n // 2] * 1e6,
            "rtt_p99_us": trips[min(n - 1, int(n * 0.99))] * 1e6,
            "sender_cpu_us": p["cpu"] / max(1, n) * 1e6,
            "echo_cpu_us": e["cpu"] / max(1, e["handled"]) * 1e6,
            "bytes": len(json.dumps(STATE))}


# -- many publishes at once through the cluster's bus ----------------------------------------------

def storm(greenlets: int, each: int, query: str) -> None:
    """``greenlets`` green threads publishing ``each`` messages at once through a real
    ``ClusterBus`` (as an owner of many rooms does); prints what Redis and the bus saw."""
    import eventlet

    eventlet.monkey_patch()
    import redis

    sys.path.insert(0, str(REPO))
    from backend.cluster.bus import BusDown, ClusterBus

    url = REDIS + (f"?{query}" if query else "")
    name = f"hops{os.getpid()}x{random.randrange(1 << 30):x}"
    bus = ClusterBus(url, name, "sender", lambda *_: None)
    probe = redis.Redis.from_url(REDIS, socket_timeout=2.0)
    accepted = probe.info("stats")["total_connections_received"]
    failed = 0

    def publish() -> None:
        nonlocal failed
        for _ in range(each):
            try:
                bus.to_node("nobody", STATE)
            except BusDown:
                failed += 1

    started = time.perf_counter()
    pool = eventlet.GreenPool(greenlets)
    for _ in range(greenlets):
        pool.spawn(publish)
    with eventlet.Timeout(60, False):
        pool.waitall()
    elapsed = time.perf_counter() - started
    opened = probe.info("stats")["total_connections_received"] - accepted - 1
    probe.close()
    print(json.dumps({"greenlets": greenlets, "publishes": greenlets * each, "query": query,
                      "seconds": elapsed, "redis_connections_opened": opened,
                      "lost": bus.lost, "failed": failed}), flush=True)


def storms(greenlets: int, each: int) -> list[dict]:
    """The storm with redis-py's default pool (100) and with a pool of 10,000."""
    out = []
    for query in ("", "max_connections=10000"):
        command = [str(PYTHON), __file__, "storm", "--greenlets", str(greenlets),
                   "--each", str(each)] + (["--query", query] if query else [])
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120)
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return out


# -- the fence in a save -------------------------------------------------------------------------

def backend_cpu(pid: int) -> float:
    """CPU seconds of a PostgreSQL backend process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def fenced_saves(saves: int, seconds: float) -> dict:
    """Saves of one move each, with and without the fence, alternating; their figures."""
    sys.path.insert(0, str(REPO))
    from sqlalchemy import create_engine, text

    from backend.db.database import make_engine, upgrade
    from backend.db.queries import Writes

    schema = f"lounge_hops_{os.getpid()}_{random.randrange(1 << 30)}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine = make_engine(f"{POSTGRES}?options=-csearch_path%3D{schema}")
    try:
        upgrade(engine)
        now = int(time.time() * 1000)
        room, match = "r" * 36, "m" * 16
        with engine.connect() as conn:
            first = Writes()
            first.add("insert_room", {"id": room, "code": "ABCDEF", "game": "tic-tac-toe",
                                      "public": False, "status": "playing", "round": 1,
                                      "created": now, "updated": now, "turn_seconds": 0,
                                      "turn_deadline": None, "removed": "{}",
                                      "left_out": "[]", "host_came": True})
            first.add("lease", {"room": room, "owner": "bench", "epoch": 1, "seconds": 60.0})
            first.add("insert_match", {"id": match, "room_id": room, "round": 1,
                                       "game": "tic-tac-toe", "num_players": 2, "seed": "1",
                                       "players": "[]", "result": None, "moves": 0,
                                       "started": now, "finished": None})
            Writes.commit_many(conn, [first])
            pid = conn.execute(text("SELECT pg_backend_pid()")).scalar()
            conn.commit()
            times: dict[bool, list[float]] = {False: [], True: []}
            cpu = {False: 0.0, True: 0.0}
            deadline = time.monotonic() + seconds
            for version in range(1, saves + 1):
                if time.monotonic() > deadline:
                    break
                fenced = version % 2 == 0
                save = Writes()
                if fenced:
                    save.add("fence", {"room": room, "epoch": 1})
                save.add("moves", {"match_id": match, "version": version, "seat": version % 2,
                                   "move": "place", "args": "[4]", "actor": None})
                before = backend_cpu(pid)
                started = time.perf_counter()
                Writes.commit_many(conn, [save])
                times[fenced].append(time.perf_counter() - started)
                cpu[fenced] += backend_cpu(pid) - before
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    out = {}
    for fenced in (False, True):
        values = sorted(times[fenced])
        name = "fenced" if fenced else "unfenced"
        out[name] = {"saves": len(values), "p50_us": values[len(values) // 2] * 1e6,
                     "mean_us": statistics.fmean(values) * 1e6,
                     "postgres_cpu_us": cpu[fenced] / max(1, len(values)) * 1e6}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", default="all",
                        choices=["all", "redis", "fence", "pool", "peer", "storm"])
    parser.add_argument("--greenlets", type=int, default=150,
                        help="pool: green threads publishing at once")
    parser.add_argument("--each", type=int, default=20, help="pool: publishes per green thread")
    parser.add_argument("--query", default="", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=3000, help="round trips per variant")
    parser.add_argument("--saves", type=int, default=4000, help="saves (half of them fenced)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time bound of each part")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--role", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", help=argparse.SUPPRESS)
    parser.add_argument("--green", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--way", choices=WAYS, default="polled", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.seconds = max(0.5, min(args.seconds, 30.0))
    args.count = max(1, min(args.count, 100_000))
    args.runs = max(1, min(args.runs, 9))
    if args.what == "peer":
        peer(args.role, args.green, args.prefix, args.count, args.seconds, args.way)
        return 0
    args.greenlets = max(1, min(args.greenlets, 1000))
    args.each = max(1, min(args.each, 1000))
    if args.what == "storm":
        storm(args.greenlets, args.each, args.query)
        return 0
    if args.what == "pool":
        for _run in range(args.runs):
            for row in storms(args.greenlets, args.each):
                print(json.dumps(row), flush=True)
        return 0
    results: dict[str, list] = {"redis": [], "fence": []}
    for _run in range(args.runs):
        if args.what in ("all", "redis"):
            for green in (False, True):
                for way in WAYS:
                    row = redis_round_trips(green, args.count, args.seconds, way)
                    results["redis"].append(row)
                    print(json.dumps(row), flush=True)
        if args.what in ("all", "fence"):
            row = fenced_saves(args.saves, args.seconds)
            results["fence"].append(row)
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
