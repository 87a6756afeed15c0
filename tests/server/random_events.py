"""Random mixes of honest and hostile events at one table: a host, a guest, a spectator and a
stranger send what players would (get ready, start, legal moves, rematches) and, one event in
three, anything the protocol allows them to send with wrong values (other seats, moves that are
not legal, bots and hot-seat players added or removed mid-game, undo, stand-in, turn times).

Used on one process (``tests/hardening``) and across the processes of a cluster
(``tests/cluster``), where every event but the host's is forwarded to the room's owner."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from backend.errors import CODES
from tests.server.harness import Player, assert_no_leaks, create_room

HOSTILE_SHARE = 1 / 3
# The protocol's codes, less ``internal`` and the two only REST answers.
ANSWERS = CODES - {"internal", "method_not_allowed", "already_hosting"}
EVENTS = ("join", "leave", "chat", "ready", "add_bot", "add_local", "remove_seat", "allow",
          "start", "rematch", "move", "undo", "set_turn_time", "back", "stand_in")
FIELDS = {"chat": ("text",), "ready": ("ready",), "add_bot": ("level",), "add_local": ("name",),
          "remove_seat": ("seat",), "allow": ("user_id",), "undo": ("seat",),
          "set_turn_time": ("seconds",), "stand_in": ("seat",)}


class Table:
    """Four players at one room: who they are, and what each would send next."""

    def __init__(self, host_url: str, game: str, rng: random.Random,
                 others_url: str | None = None) -> None:
        """The host on ``host_url``, where the room is opened; the others on ``others_url``
        (the same process unless given)."""
        self.rng = rng
        self.host = Player(host_url)
        self.guest, self.watcher, self.stranger = (Player(others_url or host_url)
                                                   for _ in range(3))
        self.room = create_room(host_url, self.host.token, game)
        for player in self.everyone:
            player.connect()
        self.host.ok("join", {"room": self.room["code"]})
        self.guest.ok("join", {"room": self.room["code"], "name": "Guest"})
        self.watcher.ok("join", {"room": self.room["code"], "spectate": True})

    def leave(self) -> None:
        """Every player's connection closed."""
        for player in self.everyone:
            player.drop()

    @property
    def everyone(self) -> list[Player]:
        return [self.host, self.guest, self.watcher, self.stranger]

    def next_event(self) -> tuple[Player, str, dict]:
        """Who sends what next."""
        if self.rng.random() < HOSTILE_SHARE:
            player = self.rng.choice(self.everyone)
            return player, *self.hostile(player)
        return self.honest()

    def honest(self) -> tuple[Player, str, dict]:
        """What the players would do next: the one whose turn it is moves; otherwise someone
        gets ready, starts, or asks for a rematch."""
        playing = [(state["round"], state["version"], i, player, state)
                   for i, player in enumerate(self.everyone)
                   if (state := latest(player)) and state["legal_moves"]]
        if playing and self.rng.random() < 0.9:
            *_, player, state = max(playing)
            move = self.rng.choice(state["legal_moves"])
            return player, "move", {"move": move["move"], "args": list(move.get("args", [])),
                                    "seat": state["seat"]}
        others = [self.guest, self.watcher, self.stranger]
        return self.rng.choice([
            (self.rng.choice(others), "ready", {"ready": True}),
            (self.rng.choice(others), "ready", {"ready": True}),
            (self.guest, "join", {"room": self.room["code"]}),
            (self.host, "start", {}), (self.host, "rematch", {}),
            (self.host, "add_bot", {"level": "easy"}), (self.watcher, "chat", {"text": "hi"})])

    def hostile(self, player: Player) -> tuple[str, dict]:
        """Any event, with values that are often wrong for it (the host never leaves: that
        closes the room, which other tests cover)."""
        event = self.rng.choice([e for e in EVENTS if not (e == "leave" and player is self.host)])
        if event == "join":
            return event, {"room": self.rng.choice([self.room["code"], "ZZZZZZ"]),
                           "spectate": self.rng.choice([True, False])}
        if event == "move":
            state = latest(player)
            move = self.rng.choice(state["legal_moves"]) if state and state["legal_moves"] \
                else {"move": self.rng.choice(["place", "play", "draw", "slap"]), "args": []}
            args = [self.value() for _ in move.get("args", [])]
            return event, {"move": move["move"], "args": args,
                           "seat": self.rng.choice([0, 1, 2, 3])}
        return event, {name: self.value() for name in FIELDS.get(event, ())}

    def value(self) -> Any:
        return self.rng.choice([0, 1, 2, 3, 5, 63, -1, "", "x", "easy", "hard", True, False,
                                None, [], 0.5, 10**6, self.rng.choice(self.everyone).user_id])


def latest(player: Player) -> dict | None:
    """The newest state the player has received."""
    with player.cond:
        states = list(player.states.values())
    return max(states, key=lambda s: (s["round"], s["version"])) if states else None


@dataclass
class Tally:
    """What came back from the events sent."""

    sent: int = 0
    moves: int = 0
    refused: int = 0
    wrong: list[tuple[str, dict, dict]] = field(default_factory=list)


def send_events(table: Table, actions: int, tally: Tally) -> Tally:
    """Send ``actions`` events, counting what came back in ``tally``."""
    for _ in range(actions):
        player, event, data = table.next_event()
        if not player.sio.connected:  # left, or dropped by the server: back, as a tab would
            player.reconnect()
        ack = player.call(event, data)
        tally.sent += 1
        if ack.get("ok"):
            tally.moves += event == "move"
        elif ack.get("error", {}).get("code") in ANSWERS:
            tally.refused += 1
        else:
            tally.wrong.append((event, data, ack))
    return tally


def check(table: Table, tally: Tally, url: str) -> None:
    """Every answer ``ok`` or one of the protocol's error codes, never ``internal``; moves
    made and events refused; and every state each player received the truth for its seat
    (as the process at ``url`` tells it), with no card it may not see."""
    assert not tally.wrong, tally.wrong[:5]
    assert tally.moves > 0 and tally.refused >= tally.sent / 10, vars(tally)  # both were tried
    players = [p for p in table.everyone if p.received("state")]
    assert len(players) >= 2, "no game was played"
    assert assert_no_leaks(url, table.room["id"], players) > 0


def play_randomly(table: Table, actions: int) -> None:
    """Send ``actions`` events and :func:`check` what came back; the players leave after."""
    try:
        check(table, send_events(table, actions, Tally()), table.host.url)
    finally:
        table.leave()
