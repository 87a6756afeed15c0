"""HAProxy in front of real lounge processes: sticky long polling, WebSocket upgrades, health
checks, and ``lounge cluster`` from start to stop.

The processes here each have a database of their own (no cluster mode), so a room exists only on
the process that created it: a player whose requests strayed to the other process would fail.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import shutil
import signal
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import psutil
import pytest
import requests

from backend.balancer import COOKIE, HEADER, accepts, free_port, haproxy_config, haproxy_path
from tests.balancer import Balanced, BalancedPlayer
from tests.live_server import LOUNGE, REPO
from tests.server.harness import TIMEOUT

from .nodes import wait_until

pytestmark = pytest.mark.usefixtures("haproxy")


@pytest.fixture(scope="module")
def pair():
    """Two processes behind HAProxy, for the tests that break nothing."""
    with Balanced(2) as balanced:
        yield balanced
        outputs = balanced.stop()
    for output in outputs.values():
        assert "Traceback" not in output, output


@pytest.fixture
def players():
    """A factory of players through a front; all are dropped at the end of the test."""
    made: list[BalancedPlayer] = []

    def make(front: str, count: int, transports: tuple[str, ...]) -> list[BalancedPlayer]:
        new = [BalancedPlayer(front, transports) for _ in range(count)]
        made.extend(new)
        return new

    yield make
    for player in made:
        player.drop()


def connections(balanced: Balanced) -> dict[str, int]:
    """Each process's own count of its Socket.IO connections, asked directly."""
    return {name: health["connections"] for name, health in balanced.health().items()}


def chat_round_trip(player: BalancedPlayer, text: str) -> None:
    """A chat message acknowledged, and its event back on this player's connection."""
    before = len(player.received("chat"))
    player.ok("chat", {"text": text})
    player.wait_for(lambda: len(player.received("chat")) > before)
    assert player.received("chat")[-1]["text"] == text


def test_long_polling_sessions_stick_to_one_process_and_spread_over_both(pair, players):
    """Several long-polling clients at once: HAProxy spreads them over both processes, and every
    request of each one's Engine.IO session reaches the process that holds it (a stray poll would
    be refused as an unknown session, and its room exists only there)."""
    polling = players(pair.url, 6, ("polling",))
    for player in polling:
        room = player.create_room()
        player.connect()
        assert player.sio.transport() == "polling"
        player.ok("join", {"room": room["code"]})
    for turn in range(3):  # interleaved, while every client holds a long poll
        for player in polling:
            chat_round_trip(player, f"turn {turn}")
    placed = Counter(player.backend for player in polling)
    assert set(placed) == {"p1", "p2"}, placed
    wait_until(lambda: connections(pair) == placed, TIMEOUT,
               what=f"connection counts {dict(placed)}")


def test_a_poll_that_reaches_another_process_is_refused(pair):
    """Why the cookie matters: an Engine.IO session exists only on the process that opened it.
    The same poll is refused by the other process and accepted by its own."""
    opened = requests.get(f"{pair.url}/socket.io/?EIO=4&transport=polling", timeout=TIMEOUT)
    assert opened.ok and opened.text.startswith("0{")
    sid = json.loads(opened.text[1:])["sid"]
    home = opened.headers[HEADER]
    assert opened.cookies[COOKIE] == home
    other = "p2" if home == "p1" else "p1"
    url = f"{pair.url}/socket.io/?EIO=4&transport=polling&sid={sid}"
    stray = requests.post(url, data="3", cookies={COOKIE: other}, timeout=TIMEOUT)
    assert stray.status_code == 400 and "Invalid session" in stray.text
    assert stray.headers[HEADER] == other
    sticky = requests.post(url, data="3", cookies={COOKIE: home}, timeout=TIMEOUT)
    assert sticky.ok and sticky.text == "OK" and sticky.headers[HEADER] == home


@pytest.mark.parametrize("transports", [("websocket",), ("polling", "websocket")],
                         ids=["websocket", "upgrade"])
def test_websockets_pass_through(pair, players, transports):
    """A WebSocket client (straight away, or upgrading from long polling as browsers do) on the
    process of its REST calls: a room created over REST, joined and chatted in over Socket.IO."""
    (player,) = players(pair.url, 1, transports)
    room = player.create_room()
    player.connect()
    assert player.sio.transport() == "websocket"
    joined = player.ok("join", {"room": room["code"]})
    assert joined["seats"] == [0]
    chat_round_trip(player, "through the tunnel")
    assert connections(pair)[player.backend] >= 1


def test_a_draining_process_keeps_its_clients_and_takes_no_new_ones(pair, players):
    """``set_state(name, "drain")``, as a rolling deploy would: new clients all go to the other
    process, the clients already there stay; ``"ready"`` puts it back."""
    kept = next(p for p in players(pair.url, 4, ("polling",)) if p.backend == "p1")
    kept.connect()
    pair.balancer.set_state("p1", "drain")
    try:
        assert pair.balancer.servers()["p1"] == "DRAIN"
        newcomers = players(pair.url, 3, ("polling",))
        assert {player.backend for player in newcomers} == {"p2"}
        room = kept.create_room()
        kept.ok("join", {"room": room["code"]})
    finally:
        pair.balancer.set_state("p1", "ready")
    pair.balancer.wait_status("p1", "UP")


def test_health_check_takes_a_killed_process_out_and_a_restarted_one_back(players):
    """A process killed: HAProxy marks it down within a second or two, its clients (cookie and
    all) come back on the survivor, and every new request goes there; once restarted it takes
    the next new client (fewest connections)."""
    with Balanced(2) as balanced:
        polling = players(balanced.url, 4, ("polling",))
        for player in polling:
            player.connect()
        orphans = [player for player in polling if player.backend == "p1"]
        assert orphans and len(orphans) < len(polling)
        started = time.monotonic()
        balanced.kill("p1")
        balanced.balancer.wait_status("p1", "DOWN", seconds=5)
        assert time.monotonic() - started < 5
        for _ in range(6):
            response = requests.get(f"{balanced.url}/api/health", timeout=TIMEOUT)
            assert response.ok, (response.status_code, balanced.balancer.servers())
            assert response.headers[HEADER] == "p2"
        for player in orphans:
            player.wait_for(lambda p=player: not p.sio.connected)
            player.reconnect()  # still carrying the cookie of p1
            assert player.backend == "p2"
            room = player.create_room()
            player.ok("join", {"room": room["code"]})

        balanced.restart("p1")
        (newcomer,) = players(balanced.url, 1, ("polling",))
        assert newcomer.backend == "p1"
        newcomer.connect()
        room = newcomer.create_room()
        newcomer.ok("join", {"room": room["code"]})


def test_a_stalled_process_is_taken_out_and_its_connections_cut(players):
    """SIGSTOP: the process still accepts connections but answers nothing. Its health checks
    time out, HAProxy marks it down and cuts its WebSockets, so its clients reconnect to the
    other process instead of waiting on a process that may never wake."""
    with Balanced(2) as balanced:
        sockets = players(balanced.url, 2, ("websocket",))
        for player in sockets:
            player.connect()
        (stalled,) = [player for player in sockets if player.backend == "p1"]
        pid = balanced.servers["p1"].process.pid
        os.kill(pid, signal.SIGSTOP)
        try:
            balanced.balancer.wait_status("p1", "DOWN", seconds=8)
            stalled.wait_for(lambda: not stalled.sio.connected)
            stalled.reconnect()
            assert stalled.backend == "p2"
            room = stalled.create_room()
            stalled.ok("join", {"room": room["code"]})
        finally:
            os.kill(pid, signal.SIGCONT)


class Lines:
    """The lines a process prints, read in a thread so that its pipe never fills."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.thread = threading.Thread(target=self._read, args=(process.stdout,), daemon=True)
        self.thread.start()

    def _read(self, pipe) -> None:
        for line in pipe:
            self.lines.put(line.decode(errors="replace").rstrip())

    def wait_for(self, start: str, seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no line starting {start!r} in:\n" + "\n".join(self.seen)
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(line)
            if line.startswith(start):
                return line

    def text(self, seconds: float = 5.0) -> str:
        self.thread.join(seconds)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return "\n".join(self.seen)


def lounge_cluster(*args: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen([*LOUNGE, "cluster", *args], cwd=REPO, env={**os.environ, **env},
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)


def test_lounge_cluster_starts_serves_and_stops_cleanly(postgres_url):
    """``lounge cluster``: two processes behind HAProxy on the given port, sharing one secret key
    (a token made on one process is good on the other); one killed is reported, the other
    serves its clients until it is started again on its port; SIGTERM stops everything, and
    nothing is left."""
    if not accepts("127.0.0.1", 6379):
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    port = free_port()
    env = {"DATABASE_URL": postgres_url, "CLUSTER_NAME": f"test-{secrets.token_hex(4)}",
           "REDIS_URL": "redis://127.0.0.1:6379/0", "SECRET_KEY": ""}
    process = lounge_cluster("--processes", "2", "--port", str(port), **env)
    lines = Lines(process)
    try:
        started = lines.wait_for(f"Lounge cluster on http://127.0.0.1:{port}", seconds=60)
        front = f"http://127.0.0.1:{port}"
        children = psutil.Process(process.pid).children(recursive=True)
        commands = [" ".join(child.cmdline()) for child in children]
        assert sum(" serve " in command for command in commands) == 2, commands
        assert sum("haproxy" in command for command in commands) == 1, commands

        served = {requests.get(f"{front}/api/health", timeout=TIMEOUT).headers[HEADER]
                  for _ in range(4)}
        assert served == {"p1", "p2"}
        made = requests.post(f"{front}/api/session", cookies={COOKIE: "p1"}, timeout=TIMEOUT)
        assert made.headers[HEADER] == "p1"
        room = requests.post(f"{front}/api/rooms", cookies={COOKIE: "p2"}, timeout=TIMEOUT,
                             json={"game": "tic-tac-toe", "name": "Host"},
                             headers={"Authorization": f"Bearer {made.json()['token']}"})
        assert room.status_code == 201 and room.headers[HEADER] == "p2", room.text

        p1_port = started.split("p1 on 127.0.0.1:")[1].split(",")[0]
        (p1,) = [c for c in children if f"--port {p1_port}" in " ".join(c.cmdline())]
        p1.kill()
        lines.wait_for("lounge cluster: p1 ended (status -9); the others go on, and it "
                       f"starts again on 127.0.0.1:{p1_port}", seconds=10)
        for _ in range(3):
            response = requests.get(f"{front}/api/health", cookies={COOKIE: "p1"},
                                    timeout=TIMEOUT)
            assert response.ok and response.headers[HEADER] == "p2"
        lines.wait_for("lounge cluster: p1 started again", seconds=10)
        deadline = time.monotonic() + 30  # its start, then HAProxy's checks let it back in
        while requests.get(f"{front}/api/health", cookies={COOKIE: "p1"},
                           timeout=TIMEOUT).headers[HEADER] != "p1":
            assert time.monotonic() < deadline, "p1 never served again"
            time.sleep(0.2)
        children = psutil.Process(process.pid).children(recursive=True)

        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
        _gone, alive = psutil.wait_procs(children, timeout=5)
        assert not alive, alive
        assert not accepts("127.0.0.1", port)
        output = lines.text()
        assert "lounge cluster: stopped" in output
        assert "SECRET_KEY is not set: the processes share a random one" in output
        assert "Traceback" not in output, output
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_lounge_cluster_refuses_a_database_that_is_not_postgresql(tmp_path):
    """No process is started on a store the processes could not share."""
    process = lounge_cluster("--port", str(free_port()),
                             DATABASE_URL=f"sqlite:///{tmp_path / 'lounge.db'}")
    output = process.communicate(timeout=30)[0].decode()
    assert process.returncode == 2
    assert "a cluster needs PostgreSQL, not sqlite:///" in output
    assert "Lounge cluster on" not in output


def test_lounge_cluster_refuses_a_postgresql_that_is_not_running():
    """Said before anything starts, as for Redis."""
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test"
    process = lounge_cluster("--port", str(free_port()), DATABASE_URL=url)
    output = process.communicate(timeout=30)[0].decode()
    assert process.returncode == 2
    assert f"PostgreSQL is not reachable at {url}: start it" in output
    assert "[db]" not in output and "Lounge cluster on" not in output


def test_the_configuration_is_valid_and_the_one_the_deployment_doc_shows(tmp_path):
    """HAProxy accepts the generated configuration, and docs/deployment.md shows it as it is."""
    config = haproxy_config([("127.0.0.1", 41001), ("127.0.0.1", 41002)], 5000,
                            stats_socket="/tmp/lounge-haproxy-.../admin.sock")
    (tmp_path / "haproxy.cfg").write_text(config)
    check = subprocess.run([haproxy_path(), "-c", "-f", str(tmp_path / "haproxy.cfg")],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stdout + check.stderr
    doc = (REPO / "docs" / "deployment.md").read_text()
    shown = doc.split("runs HAProxy as its own child")[1].split("```\n")[1]
    assert shown.strip() == "\n".join(
        line for line in config.splitlines() if not line.lstrip().startswith("#")).strip()


def test_lounge_cluster_killed_takes_its_children_with_it(postgres_url):
    """Even a supervisor killed outright (no chance to clean up) leaves no process behind: its
    children are told by the kernel (PR_SET_PDEATHSIG)."""
    if not accepts("127.0.0.1", 6379):
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    port = free_port()
    process = lounge_cluster("--processes", "2", "--port", str(port),
                             DATABASE_URL=postgres_url, REDIS_URL="redis://127.0.0.1:6379/0",
                             CLUSTER_NAME=f"test-{secrets.token_hex(4)}")
    lines = Lines(process)
    try:
        lines.wait_for(f"Lounge cluster on http://127.0.0.1:{port}", seconds=60)
        children = psutil.Process(process.pid).children(recursive=True)
        assert len(children) == 3
        (config,) = [arg for child in children for arg in child.cmdline()
                     if arg.endswith("haproxy.cfg")]
        process.kill()
        process.wait(10)
        _gone, alive = psutil.wait_procs(children, timeout=10)
        assert not alive, alive
        assert not accepts("127.0.0.1", port)
        shutil.rmtree(Path(config).parent)  # the supervisor had no chance to
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
