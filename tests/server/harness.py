"""Test clients for the real server: REST helpers and a recording Socket.IO player."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import requests
import socketio

from shared_rules import new_match
from tests.live_server import Server, free_port  # noqa: F401 (used by the tests)

CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
TIMEOUT = 5.0


def new_session(url: str) -> dict:
    response = requests.post(f"{url}/api/session", timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


def create_room(url: str, token: str, game: str, name: str = "Host", public: bool = False) -> dict:
    response = requests.post(f"{url}/api/rooms", json={"game": game, "name": name,
                                                       "public": public},
                             headers={"Authorization": f"Bearer {token}"}, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


class Player:
    """A Socket.IO client that records every message it receives."""

    def __init__(self, url: str, session: dict | None = None) -> None:
        self.url = url
        self.session = session or new_session(url)
        self.user_id = self.session["user_id"]
        self.token = self.session["token"]
        self.messages: list[tuple[str, Any]] = []
        self.states: dict[int | None, dict] = {}
        self.cond = threading.Condition()
        self.sio = self._client()

    def _client(self) -> socketio.Client:
        sio = socketio.Client(reconnection=False)
        sio.on("*", self._record)
        return sio

    def _record(self, event: str, data: Any = None) -> None:
        with self.cond:
            self.messages.append((event, data))
            if event == "state":
                self._keep(data)
            self.cond.notify_all()

    def _keep(self, state: dict) -> None:
        """The latest state of each seat, of the latest round only: a rematch moves the seats
        round, so a seat's number in the last game may be another player's now."""
        if any(s["round"] > state["round"] for s in self.states.values()):
            return
        self.states = {seat: s for seat, s in self.states.items() if s["round"] == state["round"]}
        known = self.states.get(state["seat"])
        if known is None or state["version"] >= known["version"]:
            self.states[state["seat"]] = state

    def connect(self) -> Player:
        self.sio.connect(self.url, auth={"token": self.token}, transports=["websocket"],
                         wait_timeout=TIMEOUT)
        return self

    def reconnect(self) -> Player:
        """A new connection with the same token (a reloaded tab)."""
        self.drop()
        self.sio = self._client()
        return self.connect()

    def drop(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()

    def call(self, event: str, data: Any = None) -> dict:
        return self.sio.call(event, {} if data is None else data, timeout=TIMEOUT)

    def ok(self, event: str, data: Any = None) -> dict:
        ack = self.call(event, data)
        assert ack["ok"], (event, data, ack)
        return ack

    def wait_for(self, check: Callable[[], Any], seconds: float = TIMEOUT) -> Any:
        deadline = time.monotonic() + seconds
        with self.cond:
            while True:
                value = check()
                if value:
                    return value
                left = deadline - time.monotonic()
                assert left > 0, "timed out waiting"
                self.cond.wait(left)

    def last(self, event: str) -> Any:
        with self.cond:
            for name, data in reversed(self.messages):
                if name == event:
                    return data
        return None

    def snapshot(self) -> list[tuple[str, Any]]:
        """Every message received so far, in order."""
        with self.cond:
            return list(self.messages)

    def received(self, event: str) -> list:
        with self.cond:
            return [data for name, data in self.messages if name == event]

    def version(self) -> int:
        with self.cond:
            return max((s["version"] for s in self.states.values()), default=-1)


def start_game(room: dict, host: Player, guests: list[Player]) -> list[Player]:
    """The guests join ``room`` (whose host has joined) and get ready, the host starts, and
    everyone has the first state; everyone, host first."""
    for guest in guests:
        guest.ok("join", {"room": room["code"], "name": "Guest"})
        guest.ok("ready", {"ready": True})
    host.ok("start")
    everyone = [host, *guests]
    for player in everyone:
        player.wait_for(lambda p=player: p.states)
    return everyone


def choose(state: dict, rng: random.Random) -> dict | None:
    """A random legal move: always on the seat's own turn, rarely out of turn (a slap)."""
    legal = state["legal_moves"]
    if not legal or state["result"] is not None:
        return None
    if state["view"].get("current") != state["seat"] and rng.random() > 0.15:
        return None
    return rng.choice(legal)


def play_out(players: list[Player], seed: int = 1, max_actions: int = 5000,
             seconds: float = 90.0) -> dict:
    """Every player moves when it may until the game ends; the result."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    for _ in range(max_actions):
        assert time.monotonic() < deadline, "the game did not end in time"
        latest = max((s for p in players for s in p.states.values()),
                     key=lambda s: s["version"])
        if latest["result"] is not None:
            return latest["result"]
        acted = False
        for player in players:
            for state in list(player.states.values()):
                if state["version"] != latest["version"] or state["seat"] is None:
                    continue
                move = choose(state, rng)
                if move is None:
                    continue
                ack = player.call("move", {**move, "seat": state["seat"]})
                if ack["ok"]:
                    _sync(players, ack["version"])
                    acted = True
                    break
                # The table moved on meanwhile (a bot's move), or a bot's move ended the game:
                # refused for what the room is now, not for a mistake of the test's.
                assert ack["error"]["code"] in ("invalid_move", "bad_state"), ack
            if acted:
                break
        if not acted:  # a bot may be thinking, or every client let this round pass
            time.sleep(0.01)
    raise AssertionError("the game did not end within the action budget")


def _sync(players: list[Player], version: int, seconds: float = TIMEOUT) -> None:
    for player in players:
        player.wait_for(lambda p=player: p.version() >= version, seconds)


def truth_views(url: str, room_id: str) -> Callable[[int, int | None], tuple[dict, list]]:
    """The server-side truth, rebuilt from the seed and log of the debug endpoint:
    a function (version, seat) -> (view, legal moves)."""
    response = requests.get(f"{url}/api/debug/rooms/{room_id}/match", timeout=TIMEOUT)
    assert response.ok, response.text
    data = response.json()
    matches = [new_match(data["game"], data["num_players"], data["seed"])]
    for entry in data["log"]:
        matches.append(matches[-1].act(entry))
    by_version = {m.version: m for m in matches}

    def truth(version: int, seat: int | None) -> tuple[dict, list]:
        match = by_version[version]
        return match.view(seat), match.legal_moves(seat)

    return truth


CARD_WORDS = re.compile(r"\b(ace|10|[2-9]|jack|queen|king) of (spades|hearts|diamonds|clubs)\b",
                        re.IGNORECASE)


def named_cards(text: str) -> set[str]:
    """The card codes a log line names in words ("the 9 of hearts" -> "9H", "the queen of
    clubs" -> "QC")."""
    return {f"{rank[0].upper() if rank != '10' else rank}{suit[0].upper()}"
            for rank, suit in CARD_WORDS.findall(text)}


def assert_no_leaks(url: str, room_id: str, players: list[Player]) -> int:
    """Every state each player received (in the room's latest round) equals the truth for its
    seat at its version, every card its log lines name was in that seat's views by then, and
    no other message carries a card. The number of states checked.

    What the players received is taken before the truth: bots and turn timers may still be
    moving, and a state sent is always in the log (write before tell), so every version
    received is in the truth."""
    received = [player.snapshot() for player in players]
    truth = truth_views(url, room_id)
    latest = max(d["round"] for messages in received for e, d in messages if e == "state")
    seen: dict[tuple[int | None, int], set[str]] = {}

    def seen_by(seat: int | None, version: int) -> set[str]:
        """Every card the seat's views showed up to this version."""
        done = max((v for s, v in seen if s == seat and v <= version), default=-1)
        cards = seen.get((seat, done), set())
        for v in range(done + 1, version + 1):
            cards = cards | set(CARD.findall(json.dumps(truth(v, seat)[0])))
            seen[(seat, v)] = cards
        return cards

    checked = 0
    for messages in received:
        for event, data in messages:
            if event == "state" and data["round"] == latest:
                view, legal = truth(data["version"], data["seat"])
                assert data["view"] == json.loads(json.dumps(view)), (data["seat"], data["version"])
                assert data["legal_moves"] == json.loads(json.dumps(legal))
                for line in data["log"]:
                    named = named_cards(line["text"])
                    assert named <= seen_by(data["seat"], data["version"]), (data["seat"], line)
                checked += 1
            elif event != "state":
                assert not CARD.search(json.dumps(data)), (event, data)
                assert not CARD_WORDS.search(json.dumps(data)), (event, data)
    return checked
