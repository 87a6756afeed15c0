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


JOIN = re.compile(r'42(\d+)\["join"')
REFUSAL = '43{}[{{"ok": false, "error": {{"code": "internal", "message": "The room\'s server ' \
    'could not be reached in time: try again"}}}}]'


class _Pipe:
    """One client's connection through the proxy. Only whole frames are passed on, so that a
    frame may be dropped, or one slipped in, without breaking the stream."""

    def __init__(self, proxy: Proxy, client: socket.socket, upstream: socket.socket) -> None:
        self.proxy, self.client, self.upstream = proxy, client, upstream
        self.up, self.down = _Frames(), _Frames()
        self.pending: list[str] = []

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while self.proxy.running:
                ready, _, _ = select.select([self.client, self.upstream], [], [], 0.5)
                for src in ready:
                    data = src.recv(65536)
                    if not data:
                        raise OSError("closed")
                    if src is self.client:
                        self._to_server(data)
                    else:
                        self.client.sendall(b"".join(c for c, _ in self.down.feed(data)))
                while self.pending and self.up.websocket:
                    self.upstream.sendall(ws_frame(self.pending.pop(0), masked=True))
        for s in (self.client, self.upstream):
            s.close()
        with self.proxy.lock:
            self.proxy.pipes.remove(self)

    def _to_server(self, data: bytes) -> None:
        for chunk, text in self.up.feed(data):
            join = JOIN.match(text or "")
            fate = self.proxy.fate_of_join() if join else None
            if fate is None:
                self.upstream.sendall(chunk)
            elif fate == "refuse":
                self.client.sendall(ws_frame(REFUSAL.format(join.group(1)), masked=False))


class _Frames:
    """One direction of a connection: the HTTP request or answer as it comes, then, after a
    WebSocket upgrade, whole frames with the text they carry (masked or not)."""

    def __init__(self) -> None:
        self.buffer = b""
        self.websocket: bool | None = None  # None while the HTTP head is still coming

    def feed(self, data: bytes) -> list[tuple[bytes, str | None]]:
        """What may be passed on now: (bytes, the frame's text or None)."""
        self.buffer += data
        if self.websocket is None:
            head, sep, _ = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return []
            self.websocket = b"websocket" in head.lower()
            cut = len(head) + len(sep)
            out, self.buffer = [(self.buffer[:cut], None)], self.buffer[cut:]
            return out + self.feed(b"")
        if not self.websocket:
            out, self.buffer = [(self.buffer, None)], b""
            return out
        out = []
        while (frame := _frame(self.buffer)) is not None:
            size, text = frame
            out.append((self.buffer[:size], text))
            self.buffer = self.buffer[size:]
        return out


def _frame(buffer: bytes) -> tuple[int, str | None] | None:
    """The size of the whole WebSocket frame at the start of ``buffer`` and its text (None
    for a frame that is not text); None if the frame is not all there yet."""
    if len(buffer) < 2:
        return None
    size, at = buffer[1] & 0x7F, 2
    if size in (126, 127):
        at += 2 if size == 126 else 8
        size = int.from_bytes(buffer[2:at], "big")
    key = buffer[at:at + 4] if buffer[1] & 0x80 else b""
    at += len(key)
    if len(buffer) < at + size or (buffer[1] & 0x80 and len(key) < 4):
        return None
    payload = buffer[at:at + size]
    if key:
        payload = bytes(c ^ key[i % 4] for i, c in enumerate(payload))
    text = payload.decode("utf-8", "replace") if buffer[0] & 0x0F == 1 else None
    return at + size, text


def ws_frame(text: str, masked: bool) -> bytes:
    """One final WebSocket text frame; a client's frames are masked."""
    payload = text.encode()
    size = len(payload)
    bit = 0x80 if masked else 0
    head = bytes([0x81, bit | size]) if size < 126 else \
        bytes([0x81, bit | 126]) + size.to_bytes(2, "big") if size < 65536 else \
        bytes([0x81, bit | 127]) + size.to_bytes(8, "big")
    if not masked:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(c ^ key[i % 4] for i, c in enumerate(payload))


def _ignore_sigint() -> None:
    """In the child before it runs: SIGINT ignored, as for a background job of a script."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Proxy:
    """A loopback TCP proxy to the server whose live connections :meth:`cut` closes, so that a
    client loses its connection while the server stays up. It reads the WebSocket frames going
    through, so that it can also stand for a server that loses a ``join`` (``joins``) or a
    connection's place in its room (:meth:`to_server`)."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        self.running = True
        self.refusing = False  # new connections are closed at once, as by a server that is down
        # What becomes of the next joins, one word each: "drop" (never answered) or "refuse"
        # (answered internal, as a cluster's process does while another takes the room over).
        self.joins: list[str] = []
        self.pipes: list[_Pipe] = []
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
            pipe = _Pipe(self, client, upstream)
            with self.lock:
                self.sockets += [client, upstream]
                self.pipes.append(pipe)
            threading.Thread(target=pipe.run, daemon=True).start()

    def to_server(self, text: str) -> None:
        """Send a Socket.IO packet (``42["leave",{}]``) to the server, as if from each client
        connected now: within half a second, between two of the client's frames."""
        with self.lock:
            for pipe in self.pipes:
                pipe.pending.append(text)

    def fate_of_join(self) -> str | None:
        with self.lock:
            return self.joins.pop(0) if self.joins else None

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
