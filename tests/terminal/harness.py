"""Test parts for the terminal client: a real server process, terminal clients driven through a
pseudo-terminal (pexpect), and a loopback TCP proxy whose connections a test can cut."""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import socket
import threading
import time

import pexpect

from tests.live_server import LOUNGE, REPO

ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[()][A-Z0-9]|[=>])")
HOME = "\x1b[H"
ROWS, COLS = 60, 120
TYPING_GAP = 0.2  # seconds between two sends: two lines sent at once would be a paste


class Term:
    """One ``lounge play`` in a pseudo-terminal. ``screen()`` is the last frame it drew, as
    plain text: every redraw starts at the top left of the screen."""

    def __init__(self, *args: str, color: bool = False, sigint_ignored: bool = False) -> None:
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(COLS),
               "LINES": str(ROWS)}
        env.pop("NO_COLOR", None)
        env["PYTHONFAULTHANDLER"] = "1"  # so that a client stuck at exit can be made to tell where
        if not color:
            env["NO_COLOR"] = "1"
        self.child = pexpect.spawn(LOUNGE[0], [*LOUNGE[1:], "play", *args], cwd=str(REPO),
                                   env=env, dimensions=(ROWS, COLS), encoding="utf-8",
                                   codec_errors="replace", timeout=10,
                                   preexec_fn=_ignore_sigint if sigint_ignored else None)
        self.raw = ""
        self.sent_at = 0.0

    def _pump(self, wait: float) -> bool:
        """Read what is there (waiting up to ``wait`` s); False once the program has ended."""
        try:
            self.raw += self.child.read_nonblocking(65536, timeout=wait)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            return False
        if len(self.raw) > 400_000:
            self.raw = self.raw[-200_000:]
        return True

    def screen(self) -> str:
        return ANSI.sub("", self.raw.rsplit(HOME, 1)[-1]).replace("\r", "")

    def wait(self, pattern: str, timeout: float = 10.0) -> re.Match:
        """Wait until the screen matches ``pattern``; the match."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.screen())
            if found:
                return found
            alive = self._pump(0.05)
            if not alive or time.monotonic() > deadline:
                found = re.search(pattern, self.screen())
                if found:
                    return found
                raise AssertionError(f"{pattern!r} not on the screen:\n{self.screen()}")

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> str:
        """Read until nothing new arrives for ``quiet`` seconds; the screen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = len(self.raw)
            if not self._pump(quiet) or len(self.raw) == before:
                break
        return self.screen()

    def type(self, text: str) -> None:
        """Send ``text`` as keys, a moment after the last send: the client takes a line break
        with more after it in one read as a paste, as a person's typing never is."""
        time.sleep(max(0.0, self.sent_at + TYPING_GAP - time.monotonic()))
        self.child.send(text)
        self.sent_at = time.monotonic()

    def line(self, text: str) -> None:
        self.type(text + "\r")

    def exit_status(self, timeout: float = 10.0) -> int:
        """Wait for the program to end; its exit status."""
        deadline = time.monotonic() + timeout
        while self._pump(0.1):
            if time.monotonic() > deadline:
                screen = self.screen()
                self.child.kill(signal.SIGABRT)  # faulthandler prints every thread's stack
                self.settle(timeout=2.0)
                stacks = self.raw.rsplit("Fatal Python error", 1)[-1]
                raise AssertionError(f"the client did not exit:\n{screen}\n{stacks}")
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -1

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def _ignore_sigint() -> None:
    """In the child before it runs: SIGINT ignored, as for a background job of a script."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Proxy:
    """A loopback TCP proxy to the server whose live connections :meth:`cut` closes, so that a
    client loses its connection while the server stays up."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.running = True
        self.refusing = False  # new connections are closed at once, as by a server that is down
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        while self.running:
            try:
                ready, _, _ = select.select([a, b], [], [], 0.5)
                for src in ready:
                    data = src.recv(65536)
                    if not data:
                        raise OSError("closed")
                    (b if src is a else a).sendall(data)
            except (OSError, ValueError):
                break
        for s in (a, b):
            s.close()

    def cut(self) -> None:
        """Close every connection that goes through the proxy now."""
        with self.lock:
            victims, self.sockets = self.sockets, []
        for s in victims:
            with contextlib.suppress(OSError):  # already closed by the other side
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def stop(self) -> None:
        self.running = False
        self.listener.close()
        self.cut()
