"""A real ``lounge serve`` process on a free loopback port: the one way every test suite (server,
database, terminal, browser) starts the lounge."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
LOUNGE = [str(BIN / "lounge")] if (BIN / "lounge").exists() else [sys.executable, "-m",
                                                                  "backend.cli"]


TEST_SECRET_KEY = "tests-only-secret-key-0123456789abcdef"  # 32+ bytes, as the server requires


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """``lounge serve`` with the given settings. It gets a database of its own unless
    ``DATABASE_URL`` is given, and its output goes to a file (a pipe nobody reads could fill
    and stall the server)."""

    def __init__(self, mode: str = "eventlet", **env: object) -> None:
        self.environ = {**os.environ, "SECRET_KEY": TEST_SECRET_KEY,
                        **{k: str(v) for k, v in env.items()}}
        if "DATABASE_URL" not in env:  # never a shared or real database
            self.db_folder = tempfile.TemporaryDirectory(prefix="lounge-")
            self.environ["DATABASE_URL"] = f"sqlite:///{self.db_folder.name}/lounge.db"
        self.mode = mode
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop())
        for _attempt in range(3):  # another process may take the port before the server binds
            if self._start():
                return
        raise RuntimeError(f"the server did not start: {self.output()[-3000:]}")

    def _start(self, port: int | None = None) -> bool:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [*LOUNGE, "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--async-mode", self.mode],
            env=self.environ, cwd=REPO, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if requests.get(f"{self.url}/api/health", timeout=1).ok:
                    return True
            except requests.RequestException:
                time.sleep(0.1)
        self.kill()
        return False

    def output(self) -> str:
        """Everything the server has printed so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: the server dies at once, as in a crash."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def restart(self) -> None:
        """Start the stopped (or killed) server again on its port and database, as a laptop's
        lounge comes back: its open pages reconnect to the same address."""
        if self.process.poll() is None:
            raise RuntimeError("the server is still running")
        for _attempt in range(3):  # the port may be held a moment by another test's probe
            if self._start(self.port):
                return
            time.sleep(1)
        raise RuntimeError(f"the server did not start again: {self.output()[-3000:]}")

    def stop(self) -> str:
        """Stop the server; everything it printed."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()
        output = self.output()
        self.log.close()
        return output


def start_servers(count: int, **env: object) -> list[Server]:
    """``count`` servers with the same settings, started side by side (each start is mostly
    Python importing the lounge); if any fails, the others are stopped and its error raised."""
    with ThreadPoolExecutor(count) as pool:
        started = [pool.submit(Server, **env) for _ in range(count)]
        servers = [future.exception() or future.result() for future in started]
    failed = [s for s in servers if isinstance(s, BaseException)]
    if failed:
        for server in servers:
            if isinstance(server, Server):
                server.stop()
        raise failed[0]
    return servers  # type: ignore[return-value]
