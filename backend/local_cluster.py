"""``lounge cluster``: a local cluster in one command.

Brings the database's schema up to date once (so that the processes do not race on it), starts
N ``lounge serve`` processes on free loopback ports with one ``REDIS_URL``, ``DATABASE_URL`` and
``SECRET_KEY`` (a token signed by one process is good on all of them), puts HAProxy in front of
them on one port (:mod:`backend.balancer`), prints the URL and watches them. A process that ends
is reported and started again on its port a second later, as a platform restarts a dyno that
crashed (HAProxy sends its clients to the others meanwhile, and back once it passes its health
checks); one that keeps ending within seconds of its start is left out. The cluster stops
when HAProxy has ended or every process is left out, or on Ctrl-C / SIGTERM: SIGTERM to each
lounge process (in cluster mode, each hands its rooms over), SIGKILL to any still running
after ``STOP_SECONDS``, then HAProxy. The children run in sessions of their own, so a Ctrl-C in
the terminal reaches only this supervisor, and on Linux they get SIGTERM if it dies.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit, urlunsplit

from .balancer import (
    Balancer,
    BalancerError,
    accepts,
    free_port,
    haproxy_path,
    server_names,
    set_parent_death_signal,
)
from .config import REDIS_SCHEMES

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/test"
START_SECONDS = 60.0
STOP_SECONDS = 10.0
RESTART_SECONDS = 1.0  # a process that ended is started again this long after
QUICK_END_SECONDS = 10.0  # a process that ends this soon after its start...
QUICK_ENDS = 3  # ...this many times in a row is left out: it would only crash again
POSTGRES_SCHEMES = ("postgres", "postgresql")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``lounge cluster``."""
    parser.add_argument("--processes", type=int, default=2,
                        help="how many lounge processes (default 2)")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"),
                        help="where HAProxy listens (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 5000),
                        help="HAProxy's port (default 5000)")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
                        help=f"default: $REDIS_URL, or {DEFAULT_REDIS_URL}")
    parser.add_argument("--database-url",
                        default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
                        help=f"a PostgreSQL URL; default: $DATABASE_URL, or {DEFAULT_DATABASE_URL}")


def lounge_command() -> list[str]:
    """How to run ``lounge``: the script beside this Python, or the module."""
    script = Path(sys.executable).parent / "lounge"
    return [str(script)] if script.exists() else [sys.executable, "-m", "backend.cli"]


def redact(url: str) -> str:
    """``url`` without its password, for printing."""
    parts = urlsplit(url)
    if not parts.password:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def problems(args: argparse.Namespace) -> list[str]:
    """What stops these options from making a cluster."""
    found = []
    if args.processes < 1:
        found.append("--processes must be at least 1")
    database = urlsplit(args.database_url)
    if database.scheme.split("+")[0] not in POSTGRES_SCHEMES:
        found.append(f"a cluster needs PostgreSQL, not {redact(args.database_url)}: set "
                     "DATABASE_URL (or --database-url) to postgresql://...")
    elif database.hostname and not accepts(database.hostname, database.port or 5432,
                                           seconds=2.0):
        found.append(f"PostgreSQL is not reachable at {redact(args.database_url)}: start it, "
                     "or set DATABASE_URL (or --database-url)")
    redis = urlsplit(args.redis_url)
    if not args.redis_url.startswith(REDIS_SCHEMES):
        found.append(f"REDIS_URL must be redis://... or rediss://..., not {redact(args.redis_url)}")
    elif not accepts(redis.hostname or "127.0.0.1", redis.port or 6379, seconds=2.0):
        found.append(f"Redis is not reachable at {redact(args.redis_url)}: start it "
                     "(redis-server), or set REDIS_URL (or --redis-url)")
    if haproxy_path() is None:
        found.append("HAProxy is not installed: `make haproxy` (or apt-get install haproxy)")
    if accepts(args.host, args.port):
        found.append(f"{args.host}:{args.port} is taken: choose another with --port")
    return found


class Output:
    """Copies the lines of children's output to one stream, each with its child's name."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def say(self, text: str) -> None:
        """Print a line of the supervisor's own."""
        # A closed terminal must not stop the copying: the children would stall on full pipes.
        with self.lock, contextlib.suppress(OSError, ValueError):
            self.stream.write(text + "\n")
            self.stream.flush()

    def follow(self, name: str, pipe: IO[bytes]) -> None:
        """Copy ``pipe`` until it ends, in a thread (a pipe nobody reads would stall its child)."""
        def copy() -> None:
            with pipe:
                for line in pipe:
                    self.say(f"[{name}] {line.decode(errors='replace').rstrip()}")

        thread = threading.Thread(target=copy, name=f"output-{name}", daemon=True)
        thread.start()
        self.threads.append(thread)

    def join(self, seconds: float = 2.0) -> None:
        """Wait a little for the copying threads to reach the ends of their pipes."""
        deadline = time.monotonic() + seconds
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))


def spawn(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    """A child in a session of its own, its output on a pipe."""
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=set_parent_death_signal if sys.platform == "linux" else None)


def healthy(port: int) -> bool:
    """Whether the lounge process on ``port`` answers ``/api/health``."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as reply:
            return reply.status == 200
    except OSError:
        return False


class LoungeProcess:
    """One ``lounge serve`` on a free loopback port."""

    def __init__(self, name: str, env: dict[str, str], output: Output) -> None:
        self.name = name
        self.env = env
        self.output = output
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.launches = 0
        self.started = 0.0  # monotonic
        self.ended: float | None = None  # when supervise saw it end (monotonic)
        self.quick_ends = 0
        self.left_out = False

    def launch(self, port: int | None = None) -> None:
        """Start it on ``port`` (a free one by default), without waiting."""
        self.port = port or free_port()
        self.process = spawn([*lounge_command(), "serve", "--host", "127.0.0.1",
                              "--port", str(self.port)], self.env)
        self.output.follow(self.name, self.process.stdout)
        self.launches += 1
        self.started, self.ended = time.monotonic(), None

    def ready(self, deadline: float, stopping: Callable[[], bool]) -> bool:
        """Wait until it is healthy; whether it is. One that ends at once is started again
        on another port, twice at most (another program may have taken its port)."""
        while time.monotonic() < deadline and not stopping():
            if self.process.poll() is not None:
                if self.launches >= 3:
                    return False
                self.launch()
            elif healthy(self.port):
                return True
            time.sleep(0.1)
        return False

    def running(self) -> bool:
        """Whether the process is still running."""
        return self.process is not None and self.process.poll() is None

    def signal(self, signum: int) -> None:
        """Send ``signum`` if it is still running."""
        if self.running():
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signum)


def stop_all(processes: list[LoungeProcess], force: Callable[[], bool]) -> None:
    """SIGTERM to every process at once; SIGKILL to those still running after
    ``STOP_SECONDS`` (or at once when ``force()`` turns true)."""
    for process in processes:
        process.signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    while any(p.running() for p in processes):
        if force() or time.monotonic() > deadline:
            for process in processes:
                process.signal(signal.SIGKILL)
        time.sleep(0.05)
    for process in processes:
        if process.process is not None:
            process.process.wait()


def run(args: argparse.Namespace) -> int:
    """Start the cluster, watch it, stop it; the exit status."""
    output = Output(sys.stdout)
    found = problems(args)
    if found:
        for problem in found:
            output.say(f"lounge cluster: {problem}")
        return 2
    env = environment(args, output)
    processes = [LoungeProcess(name, env, output) for name in server_names(args.processes)]
    balancer: Balancer | None = None
    with Signals() as signals:
        try:
            status = migrate_schema(env, output, signals.stopping)
            if status is None:
                status = start_processes(processes, output, signals.stopping)
            if status is not None:
                return status
            try:
                balancer = Balancer([("127.0.0.1", p.port) for p in processes], port=args.port,
                                    host=args.host, stdout=subprocess.PIPE, die_with_parent=True)
            except BalancerError as exc:
                output.say(f"lounge cluster: {exc}")
                return 1
            output.follow("haproxy", balancer.process.stdout)
            announce(balancer, processes, env, output)
            return supervise(processes, balancer, output, signals.stopping)
        finally:
            stop_all(processes, signals.hurried)
            if balancer is not None:
                balancer.stop()
            output.join()
            output.say("lounge cluster: stopped")


class Signals:
    """SIGINT and SIGTERM, counted while the cluster runs: the first stops it in order, a
    second hurries the stop."""

    def __init__(self) -> None:
        self.count = 0
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> Signals:
        self.previous = {s: signal.signal(s, self._on_signal)
                         for s in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)

    def _on_signal(self, signum: int, frame: object) -> None:
        self.count += 1

    def stopping(self) -> bool:
        """Whether the cluster was asked to stop."""
        return self.count > 0

    def hurried(self) -> bool:
        """Whether it was asked twice."""
        return self.count > 1


def environment(args: argparse.Namespace, output: Output) -> dict[str, str]:
    """The lounge processes' environment: this one's, with the cluster's settings."""
    # HAProxy, on this machine, is the one proxy whose forwarded headers the processes trust.
    env = {"FORWARDED_ALLOW_IPS": "127.0.0.1", **os.environ, "REDIS_URL": args.redis_url,
           "DATABASE_URL": args.database_url, "PYTHONUNBUFFERED": "1"}
    if not env.get("SECRET_KEY"):
        env["SECRET_KEY"] = secrets.token_urlsafe(48)
        output.say("SECRET_KEY is not set: the processes share a random one, so tokens end "
                   "with this cluster")
    return env


def migrate_schema(env: dict[str, str], output: Output,
                   stopping: Callable[[], bool]) -> int | None:
    """Bring the schema up to date, once, before any process starts (processes starting
    together would race on it); None when done, else the exit status (0 if stopped)."""
    upgrade = spawn([*lounge_command(), "db", "upgrade"], env)
    output.follow("db", upgrade.stdout)
    status = wait_or_stop(upgrade, stopping)
    if status is None:
        return 0
    if status != 0:
        output.say("lounge cluster: the database's schema could not be brought up to date")
        return 1
    return None


def start_processes(processes: list[LoungeProcess], output: Output,
                    stopping: Callable[[], bool]) -> int | None:
    """Launch the processes side by side (each takes a few seconds to start) and wait until
    all serve; None when they do, else the exit status (0 if stopped)."""
    for process in processes:
        process.launch()
    deadline = time.monotonic() + START_SECONDS
    for process in processes:
        if not process.ready(deadline, stopping):
            if stopping():
                return 0
            output.say(f"lounge cluster: {process.name} did not start")
            return 1
    return None


def announce(balancer: Balancer, processes: list[LoungeProcess], env: dict[str, str],
             output: Output) -> None:
    """Say where the cluster is, and on what."""
    output.say(f"Lounge cluster on {balancer.url}: {len(processes)} processes behind "
               f"HAProxy ({', '.join(f'{p.name} on 127.0.0.1:{p.port}' for p in processes)})")
    output.say(f"  Redis {redact(env['REDIS_URL'])} (CLUSTER_NAME "
               f"{env.get('CLUSTER_NAME') or 'lounge'}), "
               f"database {redact(env['DATABASE_URL'])}. Ctrl-C stops them all.")


def wait_or_stop(process: subprocess.Popen, stopping: Callable[[], bool]) -> int | None:
    """Wait for ``process`` to end; its status, or None if stopped first (it is then killed)."""
    while process.poll() is None:
        if stopping():
            process.kill()
            process.wait()
            return None
        time.sleep(0.1)
    return process.returncode


def supervise(processes: list[LoungeProcess], balancer: Balancer, output: Output,
              stopping: Callable[[], bool]) -> int:
    """Watch until stopped (0) or until HAProxy has ended or every process is left out (1);
    a process that ends is started again on its port."""
    while not stopping():
        if balancer.process.poll() is not None:
            output.say(f"lounge cluster: HAProxy ended (status {balancer.process.returncode})")
            return 1
        for process in processes:
            look_after(process, output)
        if all(p.left_out for p in processes):
            output.say("lounge cluster: every lounge process has ended")
            return 1
        time.sleep(0.2)
    output.say("lounge cluster: stopping")
    return 0


def look_after(process: LoungeProcess, output: Output) -> None:
    """Report a process that ended, and start it again ``RESTART_SECONDS`` later (or leave it
    out when it keeps ending soon after its start)."""
    if process.left_out or process.running():
        return
    now = time.monotonic()
    if process.ended is None:
        process.ended = now
        quick = now - process.started < QUICK_END_SECONDS
        process.quick_ends = process.quick_ends + 1 if quick else 0
        status = process.process.returncode if process.process else None
        if process.quick_ends >= QUICK_ENDS:
            process.left_out = True
            output.say(f"lounge cluster: {process.name} ended (status {status}) {QUICK_ENDS} "
                       "times within seconds of its start: left out; the others go on")
        else:
            output.say(f"lounge cluster: {process.name} ended (status {status}); the others "
                       f"go on, and it starts again on 127.0.0.1:{process.port}")
    elif now - process.ended >= RESTART_SECONDS:
        process.launch(process.port)
        output.say(f"lounge cluster: {process.name} started again")
