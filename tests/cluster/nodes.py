"""A real cluster for the tests: several ``lounge serve`` processes on the machine's Redis and
PostgreSQL, with a schema and a cluster name of their own, and helpers to play through it."""

from __future__ import annotations

import os
import random
import secrets
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

import requests

from tests.balancer import Balanced
from tests.live_server import Server, start_servers
from tests.postgres import Schema
from tests.server.harness import TIMEOUT, Player, choose

REDIS = os.environ.get("LOUNGE_TEST_REDIS", "redis://127.0.0.1:6379/0")
FAST = {
    "HOST_GRACE_SECONDS": 8.0, "PLAYER_GRACE_SECONDS": 8.0, "BOT_DELAY_SECONDS": 0.05,
    "BOT_SLAP_DELAY_SECONDS": 0.1, "BOT_HARD_SECONDS": 0.05, "LOUNGE_DEBUG_MATCHES": 1,
    "SOCKET_RATE_PER_SECOND": 100000, "SOCKET_RATE_BURST": 100000,
    "SESSION_RATE_PER_MINUTE": 1000000, "CONNECT_RATE_PER_MINUTE": 1000000,
    "REPLAY_RATE_PER_MINUTE": 1000000, "REST_RATE_PER_MINUTE": 1000000,
    "LEASE_SECONDS": 2.0, "FORWARD_SECONDS": 6.0,
    # Rooms stay where the tests open them (the owner and the players' processes are what
    # these tests are about); test_follow.py turns it on.
    "FOLLOW_PLAYERS": 0,
    "SECRET_KEY": "cluster-tests-secret-cluster-tests-secret",
}


class Cluster:
    """``count`` lounge processes serving one lounge. Processes can be added, killed,
    stopped (SIGTERM), paused (SIGSTOP) and resumed."""

    def __init__(self, count: int, redis_url: str = REDIS, **env: object) -> None:
        self.schema = Schema()
        self.name = f"test{secrets.token_hex(4)}"
        self.env = {**FAST, "DATABASE_URL": self.schema.url, "REDIS_URL": redis_url,
                    "CLUSTER_NAME": self.name, **env}
        # Side by side, as a platform starts its dynos: they race on the migrations, which
        # their advisory lock settles.
        self.nodes: list[Server] = start_servers(count, **self.env) if count else []

    def add(self) -> Server:
        """One more process."""
        server = Server(**self.env)
        self.nodes.append(server)
        return server

    def url(self, index: int) -> str:
        return self.nodes[index].url

    def health(self, index: int) -> dict:
        return requests.get(f"{self.url(index)}/api/health", timeout=TIMEOUT).json()

    def signal(self, index: int, sig: int) -> None:
        os.kill(self.nodes[index].process.pid, sig)

    def kill(self, index: int) -> None:
        """kill -9: the process dies at once."""
        self.nodes[index].kill()

    def owner(self, room_id: str) -> tuple[str, int]:
        """(process, epoch) of the room's lease, as the database has it."""
        return self.owner_in(self.schema, room_id)

    @staticmethod
    def owner_in(schema: Schema, room_id: str) -> tuple[str, int]:
        """(process, epoch) of the room's lease in ``schema``."""
        rows = schema.query("SELECT owner, epoch FROM room_leases WHERE room_id = :r",
                            r=room_id)
        return (rows[0].owner, rows[0].epoch) if rows else ("", -1)

    def node_id(self, index: int) -> str:
        return self.health(index)["cluster"]["node"]

    def stop(self) -> list[str]:
        """Kill every process (a hand-over at the end of a test is time wasted); what each
        printed."""
        for server in self.nodes:
            if server.process.poll() is None:
                server.process.send_signal(signal.SIGKILL)
        outputs = [server.stop() for server in self.nodes]
        self.schema.drop()
        return outputs


@contextmanager
def behind_balancer(count: int = 2, by_room: bool = True,
                    **env: object) -> Iterator[tuple[Balanced, Schema]]:
    """``count`` cluster processes behind the balancer of ``lounge cluster`` (``by_room=False``:
    every client placed by its cookie), on a schema and a cluster name of their own, with the
    tests' settings (``env`` over them): ``(balanced, schema)``. At the end the processes are
    killed (a hand-over would only cost time) and their output must hold no traceback."""
    schema = Schema()
    try:
        balanced = Balanced(count, by_room=by_room, DATABASE_URL=schema.url, REDIS_URL=REDIS,
                            CLUSTER_NAME=f"bal{secrets.token_hex(4)}", **{**FAST, **env})
    except BaseException:
        schema.drop()
        raise
    try:
        yield balanced, schema
    finally:
        for name in balanced.servers:
            balanced.kill(name)
        outputs = balanced.stop()
        schema.drop()
    for name, output in outputs.items():
        assert "Traceback" not in output, f"{name}: {output[-4000:]}"


def wait_until(check, seconds: float, step: float = 0.02, what: str = "the condition"):
    """The first true value of ``check()``; fails after ``seconds`` (with the last value)."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not within {seconds} s: {value!r}")
        time.sleep(step)


def connect(url: str, session: dict | None = None) -> Player:
    """A connected player on one process."""
    return Player(url, session).connect()


def create(url: str, host: Player, game: str) -> dict:
    """A room opened through REST on the process at ``url`` (which then owns it)."""
    response = requests.post(f"{url}/api/rooms", json={"game": game, "name": "Host"},
                             headers={"Authorization": f"Bearer {host.token}"}, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


def call(player: Player, event: str, data: dict, seconds: float = 15.0) -> dict:
    """An event, sent again while the answer is ``internal`` (try again), as a client would."""
    deadline = time.monotonic() + seconds
    while True:
        ack = player.sio.call(event, data, timeout=10)
        if ack["ok"] or ack["error"]["code"] != "internal" or time.monotonic() > deadline:
            return ack
        time.sleep(0.1)


def play(players: list[Player], seed: int, actions: int = 5000, seconds: float = 60.0,
         stop_after: int | None = None, acked: list[dict] | None = None) -> dict | None:
    """Move for whichever player may until the game ends (or ``stop_after`` moves); the
    result. Every acknowledged move goes into ``acked`` (as its log entry, with its version)."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    done = 0
    for _ in range(actions):
        assert time.monotonic() < deadline, "the game did not end in time"
        latest = max((s for p in players for s in p.states.values()),
                     key=lambda s: (s["round"], s["version"]))
        if latest["result"] is not None:
            return latest["result"]
        if stop_after is not None and done >= stop_after:
            return None
        for player in players:
            state = player.states.get(_seat_of(player, latest))
            if state is None or state["version"] != latest["version"]:
                continue
            move = choose(state, rng)
            if move is None:
                continue
            ack = call(player, "move", {**move, "seat": state["seat"]})
            if ack["ok"]:
                done += 1
                if acked is not None:
                    acked.append({"version": ack["version"], "seat": state["seat"],
                                  "move": move["move"], "args": move["args"]})
                version = ack["version"]
                for other in players:
                    other.wait_for(lambda p=other, v=version: p.version() >= v, 10)
                break
            assert ack["error"]["code"] == "invalid_move", ack
        else:
            time.sleep(0.01)
    raise AssertionError("the game did not end within the action budget")


def _seat_of(player: Player, latest: dict) -> int | None:
    seats = [s for s in player.states if s is not None]
    return seats[0] if seats else None


def mid_game(host: Player, players: list[Player], seed: int, moves: int,
             acked: list[dict]) -> int:
    """Play ``moves`` moves into a game that is still going after them; its round. A game
    that ends sooner (a deal can end Poker 99 in one move) is followed by a rematch, and its
    moves are dropped from ``acked``, which then holds only this round's."""
    for attempt in range(5):
        acked.clear()
        if play(players, seed=seed + attempt, stop_after=moves, acked=acked) is None:
            return max(s["round"] for p in players for s in p.states.values())
        played = max(s["round"] for s in host.states.values())
        host.ok("rematch")
        for player in players:
            player.wait_for(lambda p=player, r=played: any(
                s["round"] > r and s["result"] is None for s in p.states.values()))
    raise AssertionError(f"five games in a row ended within {moves} moves")


def versions(player: Player, round_: int) -> list[int]:
    """The versions of the states a player received in a round, in order."""
    return [s["version"] for s in player.received("state") if s["round"] == round_]


def contiguous(seen: list[int]) -> bool:
    """Whether versions came in order with no gap (a repeat is a state sent again)."""
    return bool(seen) and all(b - a in (0, 1) for a, b in zip(seen, seen[1:], strict=False))


def match_log(url: str, room_id: str) -> dict:
    """The room's match as its owner has it (the debug endpoint, through any process)."""
    response = requests.get(f"{url}/api/debug/rooms/{room_id}/match", timeout=TIMEOUT)
    assert response.ok, response.text
    return response.json()


def assert_kept(acked: list[dict], log: list[dict]) -> None:
    """Every acknowledged move is in the match's log, at its version."""
    for entry in acked:
        assert len(log) >= entry["version"], (entry, len(log))
        kept = log[entry["version"] - 1]
        assert (kept["seat"], kept["move"], kept["args"]) == (
            entry["seat"], entry["move"], entry["args"]), (entry, kept)


def hosted(cluster: Cluster, owner: int, at: int, game: str) -> tuple[Player, dict]:
    """A room opened over REST on process ``owner`` (which then owns it), its host connected
    to process ``at`` and joined: (host, room)."""
    host = connect(cluster.url(at))
    room = create(cluster.url(owner), host, game)
    host.ok("join", {"room": room["code"]})
    return host, room
