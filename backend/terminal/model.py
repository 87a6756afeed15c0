"""What the terminal client knows about its room, kept from the server's events.

Pure data: no I/O, no drawing. Every ``on_*`` method accepts anything at all (the server is
trusted to follow the protocol, but a bad message must never crash the client): a payload of
the wrong shape is ignored with a note instead.
"""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .text import clean

MAX_LINES = 200
LEFT_GAME = "You left this game: you are watching. Type /quit to go back."
LEFT_OUT = ("This game started while your connection was lost, without you: you are watching. "
            "Type /quit to go back.")
REMOVED = "The host removed you from your seat: you can still watch this room."
CLOSED = {  # why a room closed, in the web client's words
    "host_left": "The host closed the room.",
    "host_disconnected": "The host lost their connection, so the room was closed.",
    "host_never_came": "The host never came, so the room was closed.",
    "abandoned": "Nothing had happened here for hours, so the room was closed.",
    "game_withdrawn": "Its game is no longer offered here, so the room was closed.",
}
HOST_AWAY_HOLD = 2.0  # seconds the host is gone before the guests are told (a restart is quicker)


@dataclass(frozen=True)
class Line:
    """One line of the message pane: a chat message (``who`` set) or a note from the client."""

    text: str
    who: str | None = None
    style: str = "info"  # info, error, chat, me, good, game
    at: float = field(default_factory=time.time)
    log: tuple | None = None  # a game log line: (round, version), so a take-back can remove it


@dataclass(frozen=True)
class Choice:
    """One legal move, numbered on screen: ``seat`` is the seat that would make it."""

    seat: int
    move: str
    args: tuple


class Model:
    """The room, my seats, the latest state per seat, and the message pane."""

    def __init__(self, user_id: str) -> None:
        self.user_id = user_id
        self.room: dict | None = None
        self.my_seats: list[int] = []
        self.spectator = False
        self.left_game = False  # I gave up (or lost) my seat in this game: I watch it
        self.left_out = False  # ... because the rematch started while I was gone
        self.away = False  # a bot plays my turns (the room says so): told once each time
        self.game_log: list[tuple] = []  # (round, version, text) of the log lines shown
        self.clock: tuple[int, float, bool] | None = None  # (seat, monotonic end, away)
        self.closes_at: float | None = None  # the host is away: the room closes then
        self.host_gone_at: float | None = None  # when I saw the host's connection gone
        self.host_gone_said = False  # whether the pane said so (the host is gone a while)
        self.states: dict[int | None, dict] = {}
        self.lines: deque[Line] = deque(maxlen=MAX_LINES)
        self.connected = False
        self.rejoining = False  # connected, and getting back into the room
        self.closed_reason: str | None = None
        self.joined = False
        self.bot_levels: list[str] = []
        self.games: dict[str, dict] = {}  # what GET /api/games says of each game, by slug
        self.chat_seen: set[int] = set()  # the ids of the chat messages shown (join replays)

    # -- reading -----------------------------------------------------------------------------

    @property
    def status(self) -> str:
        return _text(self.room, "status") or "waiting"

    @property
    def game(self) -> str:
        return _text(self.room, "game")

    def game_info(self) -> dict | None:
        """What the server says of the room's game (its moves' words, its private keys)."""
        return self.games.get(self.game)

    @property
    def is_host(self) -> bool:
        return self.room is not None and self.room.get("host") == self.user_id

    def seats(self) -> list[dict]:
        seats = self.room.get("seats") if self.room else None
        return [s for s in seats if isinstance(s, dict)] if isinstance(seats, list) else []

    def seat_name(self, seat: Any) -> str:
        for s in self.seats():
            if s.get("seat") == seat:
                return clean(s.get("name"), 32) or f"Seat {seat}"
        return f"Seat {seat}"

    def my_human_seat(self) -> dict | None:
        return self._human_seat(self.user_id)

    def is_host_seat(self, seat: dict) -> bool:
        """Whether a seat is the host's own, not a hot-seat player of theirs (a rematch moves
        the seats round: the host's is not always 0)."""
        return self._is_human_of(seat, (self.room or {}).get("host"))

    def host_name(self) -> str:
        seat = next((s for s in self.seats() if self.is_host_seat(s)), None)
        return clean(seat.get("name"), 32) if seat else "The host"

    def _human_seat(self, user_id: Any) -> dict | None:
        return next((s for s in self.seats() if self._is_human_of(s, user_id)), None)

    @staticmethod
    def _is_human_of(seat: dict, user_id: Any) -> bool:
        return seat.get("kind") == "human" and seat.get("user_id") == user_id

    def main_state(self) -> dict | None:
        """The state to draw: that of my seat whose turn it is (a hot seat's players share
        the screen), else my first seat's, else the spectator's."""
        mine = sorted(s for s in self.states if s is not None)
        for seat in mine:
            view = self.states[seat].get("view")
            if isinstance(view, dict) and view.get("current") == seat:
                return self.states[seat]
        return self.states[mine[0]] if mine else self.states.get(None)

    def choices(self) -> list[Choice]:
        """Every legal move of every seat I play, in the server's order, seat by seat."""
        out: list[Choice] = []
        for seat in sorted(s for s in self.states if s is not None):
            moves = self.states[seat].get("legal_moves")
            for m in moves if isinstance(moves, list) else []:
                if isinstance(m, dict) and isinstance(m.get("move"), str):
                    args = m.get("args") if isinstance(m.get("args"), list) else []
                    out.append(Choice(seat, m["move"], tuple(args)))
            out.extend(_unoffered_slap(seat, self.states[seat], out))
        return _without_plain_slaps(out)

    def numbered(self) -> list[tuple[int, Choice]]:
        """My moves with the number to type for each. When every move names one place (the
        server says its argument is a ``position``, "unlock pile 6", or names every value of it,
        "top left"), the number is the place's, so that typing 6 unlocks pile 6 and a cell keeps
        its number as the board fills; otherwise moves are numbered from 1."""
        choices = self.choices()
        piles = [self._position(c) for c in choices]
        if choices and len({c.seat for c in choices}) == 1 and None not in piles \
                and len(set(piles)) == len(piles):
            return [(pile, c) for pile, c in zip(piles, choices, strict=True) if pile is not None]
        return list(enumerate(choices, 1))

    def _position(self, choice: Choice) -> int | None:
        """The number a one-argument move's argument is said as when the server's words call
        it a position or it has a label of its own (shown plus one, as the table numbers piles
        and cells), else None."""
        moves = (self.game_info() or {}).get("moves")
        facts = next((m for m in moves if isinstance(m, dict) and m.get("name") == choice.move),
                     None) if isinstance(moves, list) else None
        if not isinstance(facts, dict) or len(choice.args) != 1 or not _int(choice.args[0]):
            return None
        labels = facts.get("labels")
        if isinstance(labels, dict) and str(choice.args[0]) in labels:
            return choice.args[0] + 1
        names, words = _list(facts.get("args")), _list(facts.get("words"))
        if not names or not words or not isinstance(names[0], str):
            return None
        slot = re.compile(r"\{" + re.escape(names[0]) + r":position\}")
        if all(isinstance(w, str) and slot.search(w) for w in words):
            return choice.args[0] + 1
        return None

    def result(self) -> dict | None:
        state = self.main_state()
        result = state.get("result") if state else None
        return result if isinstance(result, dict) else None

    # -- notes -------------------------------------------------------------------------------

    def note(self, text: str, style: str = "info") -> None:
        self.lines.append(Line(clean(text), None, style))

    # -- server events -----------------------------------------------------------------------

    def on_room(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
            self.note("The server sent a room update I could not read", "error")
            return
        before = self.status if self.room else None
        people, turn_seconds = self._people(), (self.room or {}).get("turn_seconds")
        notice = (self.room or {}).get("notice")
        self.room = data
        if isinstance(data.get("notice"), str) and data["notice"] != notice:
            self.note(clean(data["notice"]), "error")
        self._host_away(data.get("closes_in_ms"))
        self._check_away()
        if before is not None:
            self._tell_people(people, self._people(), in_game=before == "playing")
            self._tell_turn_time(turn_seconds)
            if before != self.status:
                self._status_changed(before)

    def _check_away(self) -> None:
        """Say once that a bot plays my turns, when the room first marks a seat of mine away
        (again only after I was back)."""
        away = any(s.get("away") is True for s in self.seats() if s.get("seat") in self.my_seats)
        if away and not self.away:
            self.note("You are away: a bot plays your turns. Type /back when you are back.",
                      "error")
        self.away = away

    def _tell_turn_time(self, before: Any) -> None:
        """Say when the host changes the turn time (the host's own client says it on the ack)."""
        seconds = self.room.get("turn_seconds")
        if seconds == before or not _int(seconds) or self.is_host:
            return
        host = self.host_name()
        self.note(f"{host} set the turn time to {seconds} s" if seconds
                  else f"{host} turned the turn time off", "game")

    def _host_away(self, left_ms: Any) -> None:
        """The host lost their connection: the room closes then (the host is not told).
        :meth:`say_host_away` says so a moment later."""
        if not _int(left_ms) or self.is_host:
            self.closes_at = self.host_gone_at = None
            return
        self.closes_at = time.monotonic() + left_ms / 1000
        if self.host_gone_at is None:
            self.host_gone_at, self.host_gone_said = time.monotonic(), False

    def say_host_away(self) -> bool:
        """Say once when the room closes, if the host is still gone ``HOST_AWAY_HOLD`` seconds
        after I saw them go (or sooner when the room closes soon): after a server restart
        the host is back within a second, and "lost connection", then "is back" only flashed.
        Whether it said it now."""
        if self.closes_at is None or self.host_gone_at is None or self.host_gone_said:
            return False
        now = time.monotonic()
        if now < min(self.host_gone_at + HOST_AWAY_HOLD, self.closes_at - HOST_AWAY_HOLD):
            return False
        self.host_gone_said = True
        self.note(f"{self.host_name()} lost connection; the room closes in "
                  f"{self.seconds_left(self.closes_at)} s unless they come back", "error")
        return True

    def seconds_left(self, end: float | None) -> int | None:
        """Whole seconds until a monotonic moment (None without one)."""
        return None if end is None else max(0, int(end - time.monotonic() + 0.999))

    def ticking(self) -> bool:
        """Whether a countdown is on screen (the screen is then redrawn every second)."""
        return self.clock is not None or self.closes_at is not None

    def on_seats(self, data: Any) -> None:
        """The seats the server says this connection plays (the ``seats`` event, and the
        ``join`` answer): the only source of ``my_seats``."""
        if not isinstance(data, dict) or not isinstance(data.get("my_seats"), list):
            self.note("The server sent a seats update I could not read", "error")
            return
        was_playing = bool(self.my_seats)
        self.my_seats = [s for s in data["my_seats"] if isinstance(s, int)]
        self.spectator = not self.my_seats
        self.left_game = bool(data.get("left_game"))
        self.left_out = bool(data.get("left_out"))
        for seat in [s for s in self.states if s is not None and s not in self.my_seats]:
            del self.states[seat]  # a seat no longer mine is never drawn as mine
        self._check_away()
        if self.joined and was_playing and self.spectator:
            self.note(self._left_note() if self.left_game else REMOVED
                      if self._removed(self.user_id) else "You are now a spectator")

    def _left_note(self) -> str:
        return LEFT_OUT if self.left_out else LEFT_GAME

    def _removed(self, user_id: object) -> bool:
        """Whether the host removed ``user_id`` from their seat (the room lists them in
        ``removed``)."""
        removed = (self.room or {}).get("removed")
        return any(isinstance(r, dict) and r.get("user_id") == user_id for r in _list(removed))

    def _people(self) -> dict[tuple, str]:
        """The players at the table: (kind, user, name) -> "here", "away" or "left"."""
        return {(s.get("kind"), s.get("user_id"), clean(s.get("name"), 32)):
                "left" if s.get("left") else "here" if s.get("connected") else "away"
                for s in self.seats()}

    def _tell_people(self, before: dict[tuple, str], after: dict[tuple, str],
                     in_game: bool = False) -> None:
        """Who sat down, left or lost their connection. A player who leaves during a game is
        said by the game log (``in_game``), so not here."""
        words = {(None, "here"): "sat down", ("here", None): "left the table",
                 ("away", None): "left the table", ("here", "away"): "lost their connection",
                 ("away", "here"): "is back", ("here", "left"): "left the game",
                 ("away", "left"): "left the game"}
        host = (self.room or {}).get("host")
        for key in sorted({*before, *after}, key=str):
            change = words.get((before.get(key), after.get(key)))
            if in_game and after.get(key) == "left":
                continue
            if key[:2] == ("human", host) and change in ("lost their connection", "is back") \
                    and not self._say_host_change(change):
                continue
            if change == "left the table" and self._was_removed(key):
                self.note(f"{'You' if self.is_host else 'The host'} removed {key[2]} from "
                          "the table", "game")
            elif change and key[1] != self.user_id:
                self.note(f"{key[2]} {change}", "game")

    def _say_host_change(self, change: str) -> bool:
        """Whether to say that the host lost their connection or is back: the first is said
        by :meth:`say_host_away` when the room will close, the second only after it."""
        if change == "is back":
            return self.host_gone_said
        self.host_gone_said = self.closes_at is None
        return self.host_gone_said

    def _was_removed(self, key: tuple) -> bool:
        """Whether a seat that is gone was removed by the host: a human the room lists in
        ``removed``, or a bot or hot-seat player (only the host's /kick takes those away)."""
        kind, user_id, _ = key
        if kind in ("bot", "local"):
            return True
        return kind == "human" and user_id != self.user_id and self._removed(user_id)

    def _status_changed(self, before: str) -> None:
        if self.status == "playing":
            self.states.clear()  # a new game (the game log says it begins): versions from 0
        elif self.status == "waiting" and before != "waiting":
            self.states.clear()

    def on_joined(self, reply: dict) -> None:
        """The acknowledgement of ``join``: the room, my seats, the chat history."""
        if isinstance(reply.get("room"), dict):
            self.on_room(reply["room"])
        self.on_seats(reply)
        if self.left_game:
            self.note(self._left_note())
        first = not self.joined
        self.joined = True
        before = list(self.lines)
        self.lines.clear()
        for msg in _list(reply.get("chat")):
            self.on_chat(msg, quiet_errors=True)
        history = list(self.lines)
        self.lines.clear()
        # The first join: the chat from before I came goes above the game's story so far (its
        # lines arrived just before, stamped now), so the pane reads oldest first. Later joins
        # (a reconnect) add only what was said while I was away, at the end.
        self.lines.extend(history + before if first else before + history)

    def on_state(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("view"), dict):
            self.note("The server sent a game state I could not read", "error")
            return
        seat = data.get("seat")
        if seat is not None and not isinstance(seat, int):
            return
        held = self.states.get(seat)
        version = data.get("version")
        if (held is not None and held.get("result") is None and isinstance(version, int)
                and isinstance(held.get("version"), int) and version < held["version"]):
            return  # an older state that arrived late
        self.states[seat] = data
        timer = data.get("turn_timer")
        if isinstance(timer, dict) and _int(timer.get("seat")) and _int(timer.get("ms_left")):
            self.clock = (timer["seat"], time.monotonic() + timer["ms_left"] / 1000,
                          timer.get("away") is True)
        elif "turn_timer" in data:
            self.clock = None
        if seat == self._story_seat():
            self._take_log(data)

    def _story_seat(self) -> int | None:
        """The one seat whose game log is shown (a hot-seat host gets one per seat)."""
        mine = [s for s in self.states if s is not None]
        return min(mine) if mine else None

    def _take_log(self, data: dict) -> None:
        """The game log lines the server wrote for this state: the whole log (after a join:
        only the lines not shown yet are added), or new lines and lines taken back."""
        round_ = data.get("round") if isinstance(data.get("round"), int) else 0
        lines = [(round_, x["version"], clean(x["text"])) for x in _list(data.get("log"))
                 if isinstance(x, dict) and isinstance(x.get("version"), int)
                 and isinstance(x.get("text"), str)]
        if data.get("log_full") is True:
            gone = {key[:2] for key in self.game_log if key not in lines and key[0] == round_}
            new = [key for key in lines if key not in self.game_log]
            self.game_log = lines
        else:
            gone = {(round_, v) for v in _list(data.get("log_undone")) if isinstance(v, int)}
            new = lines
            self.game_log = [key for key in self.game_log if key[:2] not in gone] + new
        if gone:
            kept = [line for line in self.lines if line.log not in gone]
            self.lines.clear()
            self.lines.extend(kept)
        for key in new:
            self.lines.append(Line(key[2], None, "game", log=key[:2]))

    def on_chat(self, data: Any, quiet_errors: bool = False) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            if not quiet_errors:
                self.note("The server sent a chat message I could not read", "error")
            return
        if _int(data.get("id")):
            if data["id"] in self.chat_seen:
                return  # the join's history repeats what was already shown
            self.chat_seen.add(data["id"])
        mine = data.get("user_id") == self.user_id
        self.lines.append(Line(clean(data["text"]), clean(data.get("name"), 32) or "?",
                               "me" if mine else "chat", _seconds(data.get("ts"))))

    def on_closed(self, data: Any) -> None:
        reason = data.get("reason") if isinstance(data, dict) else None
        self.closed_reason = clean(reason, 40) or "closed"
        said = CLOSED.get(self.closed_reason, f"The room was closed ({self.closed_reason}).")
        self.note(said, "error")


def _unoffered_slap(seat: int, state: dict, choices: list[Choice]) -> list[Choice]:
    """A Slapjack seat with no cards is offered a slap only when the pile can be won: listed
    only then, the slap would point the jack out. Every seat still in the game is given one;
    the server refuses, in words, a slap that cannot win the pile back."""
    view = state.get("view")
    if not isinstance(view, dict) or view.get("game") != "slapjack" or state.get("result"):
        return []
    version = view.get("version")
    if seat in _list(view.get("left")) or not _int(version):
        return []
    if any(c.seat == seat and c.move == "slap" for c in choices):
        return []
    return [Choice(seat, "slap", (version,))]


def _without_plain_slaps(choices: list[Choice]) -> list[Choice]:
    """Slapjack offers ``slap()`` and ``slap(version)``; one numbered slap is enough, and the
    versioned one is fairer (a slap on a pile that is already gone counts as late)."""
    versioned = {c.seat for c in choices if c.move == "slap" and c.args}
    return [c for c in choices if not (c.move == "slap" and not c.args and c.seat in versioned)]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _text(data: Any, key: str) -> str:
    value = data.get(key) if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def _seconds(ts: Any) -> float:
    if isinstance(ts, int | float) and not isinstance(ts, bool) and 0 < ts < 1e14:
        return ts / 1000.0
    return time.time()
