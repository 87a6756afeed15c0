"""Bad settings and lost services: Redis going away and coming back, a cluster without
PostgreSQL, two lounges on one Redis."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import redis

from backend.cluster.bus import RETRY_SECONDS, ClusterBus
from tests.live_server import LOUNGE, REPO, free_port
from tests.server.harness import start_game

from .nodes import FAST, call, connect, create, hosted, match_log, play

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class ThrowawayRedis:
    """A redis-server of the test's own, on a free port, that keeps nothing on disk; with
    ``tls_in`` (a folder for its self-signed certificate) it speaks only TLS, as a platform's
    Redis add-on does, and with ``password`` it asks for one."""

    def __init__(self, tls_in: Path | None = None, password: str | None = None) -> None:
        self.port = free_port()
        self.options = ["--port", str(self.port)]
        if tls_in is not None:
            cert, key = tls_in / "redis.crt", tls_in / "redis.key"
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                            "-keyout", str(key), "-out", str(cert), "-days", "1",
                            "-subj", "/CN=redis.example"], check=True, capture_output=True)
            self.options = ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file",
                            str(cert), "--tls-key-file", str(key), "--tls-auth-clients", "no"]
        if password is not None:
            self.options += ["--requirepass", password]
        auth = f":{password}@" if password else ""
        self.url = (f"rediss://{auth}127.0.0.1:{self.port}/0?ssl_cert_reqs=none" if tls_in
                    else f"redis://{auth}127.0.0.1:{self.port}/0")
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, *self.options, "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(5)


class MutingProxy:
    """A TCP relay to the machine's Redis whose connections can be made to go silent at once
    without closing (a half-open socket: a dead router, a lost route); connections made
    after that are relayed again."""

    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 6379)) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}/0"
        self.muted: set[int] = set()  # generations whose bytes go nowhere
        self.generation = 0
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def mute(self) -> None:
        """Every connection open now goes silent both ways."""
        self.muted.add(self.generation)
        self.generation += 1

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink, self.generation),
                                 daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, generation: int) -> None:
        try:
            while data := source.recv(65536):
                if generation not in self.muted:
                    sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            sock.close()


def split_game(cluster) -> tuple:
    """A Tic-Tac-Toe game whose host is on process 0, which owns it, and its other player on
    process 1: (host, remote)."""
    host = connect(cluster.url(0))
    room = create(cluster.url(0), host, "tic-tac-toe")
    host.ok("join", {"room": room["code"]})
    remote = connect(cluster.url(1))
    start_game(room, host, [remote])
    return host, remote


@pytest.fixture
def throwaway_redis():
    """A factory of :class:`ThrowawayRedis` servers (its options), all stopped at the end."""
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    made: list[ThrowawayRedis] = []

    def make(**options: object) -> ThrowawayRedis:
        made.append(ThrowawayRedis(**options))
        return made[-1]

    yield make
    for server in made:
        server.stop()


@pytest.fixture
def own_redis(throwaway_redis):
    return throwaway_redis()


def test_redis_going_away_and_coming_back(cluster_of, own_redis):
    cluster = cluster_of(2, redis_url=own_redis.url)
    alone = connect(cluster.url(0))  # a room whose players are all on its owner
    local_room = create(cluster.url(0), alone, "tic-tac-toe")
    alone.ok("join", {"room": local_room["code"]})
    neighbour = connect(cluster.url(0))
    start_game(local_room, alone, [neighbour])
    host = connect(cluster.url(0))  # a room with a player on the other process
    split_room = create(cluster.url(0), host, "nine-locks")
    host.ok("join", {"room": split_room["code"]})
    remote = connect(cluster.url(1))
    start_game(split_room, host, [remote])
    play([host, remote], seed=1, stop_after=2)

    own_redis.stop()
    assert play([alone, neighbour], seed=2) is not None  # the local room plays to the end
    version = len(match_log(cluster.url(0), split_room["id"])["log"])
    state = remote.states[1]
    started = time.monotonic()
    refused = remote.sio.call("chat", {"text": "anyone?"}, timeout=10)
    assert time.monotonic() - started < 3
    assert refused == {"ok": False, "error": {
        "code": "internal", "message": "The room's server could not be reached in time: "
                                        "try again"}}
    if state["legal_moves"]:
        move = state["legal_moves"][0]
        assert remote.sio.call("move", {**move, "seat": 1}, timeout=10)["error"]["code"] == \
            "internal"
    assert len(match_log(cluster.url(0), split_room["id"])["log"]) == version  # nothing changed

    own_redis.start()
    came_back = time.monotonic()
    assert call(remote, "chat", {"text": "back"}, seconds=10)["ok"]
    assert time.monotonic() - came_back < 10
    host.wait_for(lambda: any(m["text"] == "back" for m in host.received("chat")))
    assert play([host, remote], seed=3) is not None
    for index in (0, 1):
        assert cluster.health(index)["cluster"]["redis"] is True


def test_what_was_said_while_redis_was_away_reaches_the_other_process(cluster_of, own_redis):
    """Redis pub/sub keeps nothing: the state of a move the owner's own player made while Redis
    was away never reached the player on the other process, nor did the chat said meanwhile.
    Once that process is subscribed again, its connections are told their room afresh, and
    its chat history again, without anyone doing anything."""
    host, remote = split_game(cluster_of(2, redis_url=own_redis.url))
    host.ok("chat", {"text": "before"})
    remote.wait_for(lambda: remote.received("chat"))

    own_redis.stop()
    played = host.ok("move", {"move": "place", "args": [4], "seat": 0})["version"]
    host.ok("chat", {"text": "your turn"})
    time.sleep(RETRY_SECONDS * 2)
    assert remote.states[1]["version"] < played  # its state was lost with Redis

    own_redis.start()
    remote.wait_for(lambda: remote.states[1]["version"] == played, seconds=15)
    assert remote.states[1]["view"]["cells"][4] == "X"
    remote.wait_for(lambda: any(m["text"] == "your turn" for m in remote.received("chat")))
    assert call(remote, "move", {"move": "place", "args": [0], "seat": 1})["ok"]
    host.wait_for(lambda: host.states[0]["view"]["cells"][0] == "O")


def test_a_cluster_on_redis_over_tls_with_a_password(cluster_of, throwaway_redis, tmp_path):
    """As on a platform whose Redis add-on gives a ``rediss://`` URL with a password and a
    self-signed certificate: a game across processes, and chat."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    server = throwaway_redis(tls_in=tmp_path, password="add-on-password")
    cluster = cluster_of(2, redis_url=server.url)
    host, room = hosted(cluster, 0, 0, "nine-locks")
    guest = connect(cluster.url(1))
    players = start_game(room, host, [guest])
    assert play(players, seed=5) is not None
    guest.ok("chat", {"text": "over TLS"})
    host.wait_for(lambda: (host.last("chat") or {}).get("text") == "over TLS")
    for index in (0, 1):
        assert cluster.health(index)["cluster"]["redis"] is True
        assert cluster.health(index)["cluster"]["lost_messages"] == 0


def test_a_subscription_refused_by_redis_is_said_once(caplog, throwaway_redis):
    """A wrong password: the listener is not up, keeps trying, and says why once."""
    url = throwaway_redis(password="right").url.replace(":right@", ":wrong@")
    bus = ClusterBus(url, "refused", "node", lambda *_: None)
    threading.Thread(target=lambda: next(bus._listen(), None), daemon=True).start()
    time.sleep(3 * RETRY_SECONDS + 0.3)
    assert bus.up is False
    said = [r.getMessage() for r in caplog.records if "refused the subscription" in r.getMessage()]
    assert len(said) == 1 and "WRONGPASS" in said[0], said


def test_a_cluster_needs_postgresql(tmp_path):
    env = {"REDIS_URL": "redis://127.0.0.1:6379/0", "SECRET_KEY": FAST["SECRET_KEY"],
           "DATABASE_URL": f"sqlite:///{tmp_path}/lounge.db", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([*LOUNGE, "serve", "--port", str(free_port())], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "REDIS_URL runs the lounge as a cluster" in done.stderr
    assert "DATABASE_URL to a postgresql:// URL" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_two_lounges_on_one_redis_never_hear_each_other(cluster_of):
    first, second = cluster_of(1), cluster_of(1)
    host = connect(first.url(0))
    room = create(first.url(0), host, "slapjack")
    host.ok("join", {"room": room["code"]})
    stranger = connect(second.url(0))
    assert stranger.call("join", {"room": room["code"]})["error"]["code"] == "not_found"
    public = connect(second.url(0))
    create(second.url(0), public, "poker99")
    assert first.health(0)["cluster"]["name"] != second.health(0)["cluster"]["name"]
    host.ok("chat", {"text": "only for the first lounge"})
    time.sleep(0.3)
    assert not stranger.received("chat") and not public.received("chat")


def test_a_silent_redis_connection_is_found_out_and_made_again(cluster_of):
    proxy = MutingProxy()
    try:
        host, remote = split_game(cluster_of(2, redis_url=proxy.url))
        assert call(remote, "chat", {"text": "before"})["ok"]

        proxy.mute()  # nothing arrives any more, and no socket is closed
        muted = time.monotonic()
        assert call(remote, "chat", {"text": "after"}, seconds=20)["ok"]
        assert time.monotonic() - muted < 15
        host.wait_for(lambda: any(m["text"] == "after" for m in host.received("chat")))
        assert play([host, remote], seed=4) is not None
    finally:
        proxy.close()
