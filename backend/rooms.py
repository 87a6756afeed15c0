"""Rooms and seats: the lobby, readiness, starting, moves through ``shared_rules``.

Nothing here knows about Socket.IO or a database (:class:`~backend.lounge.Lounge` finds rooms
through a :class:`~backend.store.RoomStore`). A *connection* is an opaque id (the transport's
session id); the service (:mod:`backend.service`) attaches connections to rooms, saves each
change and sends each connection what :mod:`backend.views` makes of the room for it.
Every method that changes a room must be called with ``room.lock`` held.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass
from itertools import count

from shared_rules import LEVELS, Game, InvalidMove, Match, make_bot, new_match

from .errors import LoungeError
from .gamelog import GameLog

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"
NAME_MAX = 32


def now_ms() -> int:
    """Unix time in milliseconds."""
    return int(time.time() * 1000)


def new_code() -> str:
    """A random join code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def free_colour(seats: list[Seat]) -> int:
    """The lowest avatar colour no seat at the table has."""
    taken = {seat.colour for seat in seats}
    return next(c for c in count() if c not in taken)


@dataclass(slots=True)
class Seat:
    """One place at the table. ``user_id`` is who plays it (a local seat's adder; None: bot)."""

    kind: str
    name: str
    user_id: str | None
    level: str | None = None
    ready: bool = False
    left: bool = False
    away: bool = False  # its player is away: a bot plays its turns after a short pause
    colour: int = 0  # its avatar's colour, kept when the seats move round at a rematch

    @property
    def played(self) -> bool:
        """Whether a person plays it (its own or a local player, not a bot) and has not left."""
        return self.kind != "bot" and not self.left


class Room:
    """One room: its seats, spectators, connections and the match being played."""

    def __init__(self, room_id: str, code: str, game: Game, host_name: str, public: bool) -> None:
        self.id = room_id
        self.code = code
        self.game = game
        self.public = public
        self.created = now_ms()
        self.status = WAITING
        self.seats: list[Seat] = [Seat("human", host_name, room_id, ready=True)]
        self.spectators: dict[str, str] = {}
        self.removed: dict[str, str] = {}  # users the host removed (by id: name): they only watch
        self.let_back: dict[str, str] = {}  # of those, the ones let back in (by id: name)
        self.gone: set[str] = set()  # players whose grace ran out in a game, seats kept away
        self.left_out: set[str] = set()  # of those, the ones the game being played started without
        self.connections: dict[str, str] = {}
        self.match: Match | None = None
        self.bots: dict[int, object] = {}
        self.closed = False
        self.chat_seq = 0
        self.round = 0
        self.hard_seconds = 1.0
        self.lock = threading.RLock()
        self.told_mark: tuple[int, int] | None = None  # what the service last told of the table
        self.told_status: str | None = None
        self.told_deadline: int | None = None
        self.told_seats: dict[str, list[int]] = {}  # what each connection was told it plays
        self.closes_at: int | None = None  # the host is away: the room closes then (ms)
        self.host_came = False  # the host has joined it (else it closes as host_never_came)
        self.turn_seconds = 0  # the host's turn time (0: none)
        self.turn_deadline: int | None = None  # when the turn being played runs out (ms)
        self.timeouts: dict[int, int] = {}  # turns in a row each seat let run out
        self.turn_armed: tuple | None = None  # the turns.TurnKey the clock was last set for
        self.turn_ended: tuple = (None, None)  # the turn armed before it, and its deadline
        self.stand_ins: dict[int, str] = {}  # match version -> who acted for the seat's player
        self.game_log: GameLog | None = None
        self.log_news: dict[int | None, dict] = {}  # per reader: the log lines of this change
        self.notice: str | None = None  # why the room is back in its lobby (until a game starts)

    @property
    def host(self) -> str:
        """The host's user id, which is also the room's id."""
        return self.id

    # -- reading -----------------------------------------------------------------------------

    def seats_of(self, user_id: str) -> list[int]:
        """The seats this user plays (their own and the local ones they added), not left."""
        return [i for i, s in enumerate(self.seats)
                if s.user_id == user_id and s.played]

    def spectated(self) -> bool:
        """Whether a connection here sees the spectator view (its user plays no seat)."""
        seated = {s.user_id for s in self.seats if s.played}
        return any(user_id not in seated for user_id in self.connections.values())

    def left_game(self, user_id: str) -> bool:
        """Whether the user held a seat in this game and gave it up (left, or lost it), or a
        seat in the game before it that the rematch left out (they were gone)."""
        return user_id in self.left_out or any(
            s.user_id == user_id and s.kind == "human" and s.left for s in self.seats)

    def connections_of(self, user_id: str) -> list[str]:
        """The user's connections in this room."""
        return [conn for conn, user in self.connections.items() if user == user_id]

    def is_connected(self, user_id: str | None) -> bool:
        """Whether the user has a live connection in this room."""
        return user_id is not None and user_id in self.connections.values()

    def member_name(self, user_id: str) -> str:
        """The name the user goes by here: their seat's, or their spectator name."""
        for seat in self.seats:
            if seat.user_id == user_id and seat.kind == "human":
                return seat.name
        return self.spectators.get(user_id, "Guest")

    def unique_name(self, wanted: str, user_id: str | None = None) -> str:
        """``wanted``, or ``wanted (2)``, ``(3)``... so that no two members of the room go by
        the same name (ignoring case); ``user_id``'s own names do not count."""
        taken = {s.name.casefold() for s in self.seats
                 if user_id is None or s.user_id != user_id or s.kind != "human"}
        taken |= {n.casefold() for u, n in self.spectators.items() if u != user_id}
        if wanted.casefold() not in taken:
            return wanted
        for n in count(2):
            suffix = f" ({n})"
            name = wanted[:NAME_MAX - len(suffix)].rstrip() + suffix
            if name.casefold() not in taken:
                return name
        raise AssertionError("unreachable")

    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [s.name for s in self.seats]

    def mark(self) -> tuple[int, int]:
        """Where the table is: (round, match version). Any action changes it."""
        return self.round, -1 if self.match is None else self.match.version

    def bot_turns(self) -> list[tuple[int, tuple[int, int]]]:
        """(seat, mark) for every bot seat that may act now."""
        m = self.match
        if m is None or self.status != PLAYING:
            return []
        return [(seat, self.mark()) for seat in m.active_seats
                if seat in self.bots and m.legal_moves(seat)]

    # -- joining and leaving -----------------------------------------------------------------

    def attach(self, conn: str, user_id: str, name: str | None, spectate: bool) -> dict:
        """Connect ``conn`` for ``user_id``: their seats back, a new seat, or a spectator place."""
        self._check_open()
        self.connections[conn] = user_id
        if user_id == self.host:
            self.host_came = True
        self.gone.discard(user_id)
        seats = self.seats_of(user_id)
        if seats:
            self.spectators.pop(user_id, None)
            return {"seats": seats, "spectator": False}
        if user_id in self.removed:  # the host removed them: they may only watch
            spectate = True
            name = name or self.removed[user_id]
        if not spectate and self.status == WAITING and len(self.seats) < self.game.max_players:
            self.spectators.pop(user_id, None)
            name = name or self.let_back.pop(user_id, None) or f"Player {len(self.seats) + 1}"
            label = self.unique_name(name, user_id)
            return {"seats": [self._add_seat(Seat("human", label, user_id))], "spectator": False}
        if name or user_id not in self.spectators:
            self.spectators[user_id] = self.unique_name(name or "Spectator", user_id)
        return {"seats": [], "spectator": True}

    def detach(self, conn: str) -> str | None:
        """Forget a connection; the user id if that user has no connection left here."""
        user_id = self.connections.pop(conn, None)
        if user_id is None or self.is_connected(user_id):
            return None
        if not self.seats_of(user_id):
            self.spectators.pop(user_id, None)
        return user_id

    def leave(self, user_id: str) -> bool:
        """The user goes for good; True when that closes the room (the host left)."""
        for conn in self.connections_of(user_id):
            del self.connections[conn]
        self.spectators.pop(user_id, None)
        if user_id == self.host:
            self.closed = True
            return True
        self._vacate(user_id)
        return False

    def expire(self, user_id: str) -> bool:
        """The grace period of a disconnected user ran out. True when the room must close. A
        player of the game being played, or just finished, keeps their seats (during the game
        away: a bot plays their turns) and may come back to them until the rematch: a phone put
        away a minute must not cost its player the game, nor the next. The rematch leaves them
        out if they are still gone, and says so."""
        if self.closed or self.is_connected(user_id):
            return False
        seats = self.seats_of(user_id)
        if self.status in (PLAYING, FINISHED) and seats and user_id != self.host:
            self.gone.add(user_id)
            if self.status == PLAYING:  # after the result there is no turn to play for them
                for seat in seats:
                    self.seats[seat].away = True
            return False
        return self.leave(user_id)

    def _vacate(self, user_id: str) -> None:
        seats = self.seats_of(user_id)
        if self.status == WAITING:
            self.seats = [s for i, s in enumerate(self.seats) if i not in seats]
            return
        for seat in seats:
            self.seats[seat].left = True
            self.seats[seat].away = False  # gone, not away: nobody will be back for it
            self.bots.pop(seat, None)
            if self.status == PLAYING:
                self._drop(seat)

    def _drop(self, seat: int) -> None:
        try:
            self.match = self.match.drop(seat)
        except InvalidMove:
            return  # already left, or the game just ended: nothing to drop
        self._after_change()

    # -- the host's lobby actions ------------------------------------------------------------

    def set_ready(self, user_id: str, ready: bool) -> None:
        """Mark the user's own seat ready or not (before the start)."""
        self._check_status(WAITING, "You can only get ready before the game starts")
        own = [i for i in self.seats_of(user_id) if self.seats[i].kind == "human"]
        if not own:
            raise LoungeError("forbidden", "Only players with a seat can get ready")
        self.seats[own[0]].ready = ready

    def add_bot(self, user_id: str, level: str) -> int:
        """The host adds a bot seat at ``level``; its seat number."""
        self._check_host(user_id)
        if level not in LEVELS:
            raise LoungeError("bad_request",
                              f"There is no bot level {level!r}; choose one of {', '.join(LEVELS)}")
        return self._add_seat(Seat("bot", self._bot_name(level), None, level=level, ready=True))

    def _bot_name(self, level: str) -> str:
        """"Bot 1 (hard)", "Bot 2 (easy)": a number no bot at the table has, in a name nobody in
        the room goes by (a player may have joined as "Bot 1 (easy)")."""
        numbers = {seat.name.split(" ")[1] for seat in self.seats if seat.kind == "bot"}
        names = {s.name.casefold() for s in self.seats}
        names |= {n.casefold() for n in self.spectators.values()}
        for n in count(1):
            name = f"Bot {n} ({level})"
            if str(n) not in numbers and name.casefold() not in names:
                return name
        raise AssertionError("unreachable")

    def add_local(self, user_id: str, name: str) -> int:
        """The host adds a hot-seat player that the host's connection plays; its seat."""
        self._check_host(user_id)
        return self._add_seat(Seat("local", self.unique_name(name), user_id, ready=True))

    def _add_seat(self, seat: Seat) -> int:
        self._check_status(WAITING, "Seats can only be added before the game starts")
        if len(self.seats) >= self.game.max_players:
            raise LoungeError("bad_state", f"{self.game.title} has at most "
                                           f"{self.game.max_players} seats")
        seat.colour = free_colour(self.seats)
        self.seats.append(seat)
        return len(self.seats) - 1

    def remove_seat(self, user_id: str, index: int, name: str | None = None) -> None:
        """The host frees a seat before the start; a removed human may only watch this room
        from now on (until the host lets them back in with :meth:`allow`). ``name``: who the
        host saw there; seats move up when a player leaves, and the next one must not pay."""
        self._check_host(user_id)
        self._check_status(WAITING, "Seats can only be removed before the game starts")
        if index < len(self.seats) and self.is_hosts_seat(self.seats[index]):
            raise LoungeError("forbidden", "The host’s seat cannot be removed")
        changed = name is not None and (
            index >= len(self.seats) or self.seats[index].name.casefold() != name.casefold())
        if changed:
            raise LoungeError("bad_state", "That seat has changed (someone left): look again")
        if index >= len(self.seats):
            raise LoungeError("not_found", f"There is no seat {index}")
        seat = self.seats.pop(index)
        if seat.kind == "human":
            self.removed[seat.user_id] = seat.name
            if self.is_connected(seat.user_id):
                self.spectators[seat.user_id] = seat.name

    def allow(self, user_id: str, removed: str) -> None:
        """The host lets a player they removed take a seat again (they join again for one,
        under their name unless they give another)."""
        self._check_host(user_id)
        name = self.removed.pop(removed, None)
        if name is None:
            raise LoungeError("not_found", "Nobody with that id was removed from this room")
        self.let_back[removed] = name

    def start(self, user_id: str, seed: int | str | None = None) -> None:
        """The host starts the game: enough seats, every human ready."""
        self._check_host(user_id)
        self._check_status(WAITING, "The game has already started")
        self._check_enough(len(self.seats))
        waiting = [s.name for s in self.seats
                   if s.kind == "human" and not s.ready and not self.is_hosts_seat(s)]
        if waiting:
            raise LoungeError("not_ready", f"Not everyone is ready: {', '.join(waiting)}")
        self._begin(seed)

    def rematch(self, user_id: str, seed: int | str | None = None) -> None:
        """The host starts a new game after the end, with the seats still there, each moved
        one place round the table (the first goes last), so that who starts takes turns."""
        self._check_host(user_id)
        self._check_status(FINISHED, "A rematch can only start when the game is over")
        kept = [s for s in self.seats if not s.left and s.user_id not in self.gone]
        gone = [s for s in self.seats if not s.left and s.user_id in self.gone]
        self._check_enough(len(kept), [s.name for s in gone])
        self.seats = kept[1:] + kept[:1]
        self._begin(seed)
        self.left_out = {s.user_id for s in gone}

    def _check_enough(self, players: int, gone: list[str] | None = None) -> None:
        if players < self.game.min_players:
            why = f": {', '.join(gone)} lost their connection" if gone else ""
            raise LoungeError("not_ready", f"{self.game.title} needs at least "
                                           f"{self.game.min_players} players{why}")

    def _begin(self, seed: int | str | None) -> None:
        self.match = new_match(self.game.slug, len(self.seats), seed)
        self.round += 1
        self.stand_ins, self.timeouts = {}, {}
        for seat in self.seats:
            seat.away = False
        self.make_bots()
        self.status, self.notice, self.left_out = PLAYING, None, set()
        self._after_change()

    def make_bots(self) -> None:
        """A fresh bot for each bot seat still at the table (at a start, or a restart)."""
        self.bots = {i: make_bot(self.game.slug, s.level, secrets.randbits(32),
                                 seconds=self.hard_seconds)
                     for i, s in enumerate(self.seats) if s.kind == "bot" and not s.left}

    def back_to_lobby(self, notice: str) -> None:
        """The game cannot go on (it could not be rebuilt after a restart): the room goes back
        to its lobby with its players, and says why until the next game starts."""
        self.match, self.bots, self.stand_ins, self.timeouts = None, {}, {}, {}
        self.seats = [s for s in self.seats if not s.left]
        for seat in self.seats:
            seat.ready = seat.away = False
        self.status, self.turn_deadline, self.notice = WAITING, None, notice
        self.left_out = set()

    # -- playing -----------------------------------------------------------------------------

    def move(self, user_id: str, move: str, args: list, seat: int | None = None) -> int:
        """Apply a move for one of the user's seats; the new version."""
        index = self._acting_seat(user_id, seat)
        try:
            version = self.apply_seat(index, move, args)
        except LoungeError as exc:
            if exc.code == "invalid_move" and self._bot_just_played(index, move):
                raise LoungeError("invalid_move", "Too late: a bot has just played that turn "
                                                  "for you") from None
            raise
        self.timeouts.pop(index, None)  # the player is here: any move of theirs ends "away"
        self.seats[index].away = False
        return version

    def _bot_just_played(self, seat: int, move: str) -> bool:
        """Whether the latest action was a bot's, playing a turn for this seat: a turn's move
        of theirs refused now was sent as the bot played (the rules' reason would mislead)."""
        spec = self.game.moves.get(move)
        return spec is not None and not spec.anyone and self._bot_moved_last(seat)

    def apply_seat(self, seat: int, move: str, args: list) -> int:
        """Apply a move for a seat (a checked user's, or a bot's); the new version."""
        self._check_status(PLAYING, "No game is being played in this room")
        try:
            self.match = self.match.apply(seat, move, *args)
        except InvalidMove as exc:
            raise LoungeError("invalid_move", exc.message) from None
        self._after_change()
        return self.match.version

    def undo(self, user_id: str, seat: int | None = None) -> int:
        """Take back the user's last move (where the game allows it); the new version."""
        index = self._acting_seat(user_id, seat, for_undo=True)
        if self._bot_moved_last(index):
            raise LoungeError("invalid_move", "A bot made that move for you: it cannot be "
                                              "taken back")
        try:
            self.match = self.match.undo(index)
        except InvalidMove as exc:
            raise LoungeError("invalid_move", exc.message) from None
        return self.match.version

    def can_undo(self, seat: int) -> bool:
        """Whether the seat may take back the last move: its own, as the rules allow, and not
        one a bot made for it (a take-back would give its player the turn's time again)."""
        return self.match is not None and not self._bot_moved_last(seat) and (
            self.match.can_undo(seat))

    def _bot_moved_last(self, seat: int) -> bool:
        """Whether the latest action was a bot's, playing for this seat's player."""
        m = self.match
        return m is not None and m.version in self.stand_ins and m.log_tail(1)[0]["seat"] == seat

    def _acting_seat(self, user_id: str, seat: int | None, for_undo: bool = False) -> int:
        self._check_status(PLAYING, "No game is being played in this room")
        own = self.seats_of(user_id)
        if not own:
            raise LoungeError("forbidden", "Spectators cannot play")
        if seat is not None:
            if seat not in own:
                raise LoungeError("forbidden", f"Seat {seat} is not yours to play")
            return seat
        if len(own) == 1:
            return own[0]
        m = self.match
        able = [s for s in own if (self.can_undo(s) if for_undo else m.legal_moves(s))]
        if len(able) == 1:
            return able[0]
        raise LoungeError("bad_request", "You play several seats: say which one with \"seat\"")

    # -- turn timers and stand-ins ------------------------------------------------------------

    def set_turn_time(self, user_id: str, seconds: int, choices: tuple[int, ...]) -> None:
        """The host sets the turn time (0: none); a turn being played starts its clock again."""
        self._check_host(user_id)
        if seconds != 0 and seconds not in choices:
            allowed = ", ".join(f"{c} s" for c in choices)
            raise LoungeError("bad_request", f"The turn time can be {allowed}, or off")
        self.turn_seconds = seconds

    def back(self, user_id: str) -> None:
        """The player is back: their seats are no longer away."""
        own = self.seats_of(user_id)
        if not own:
            raise LoungeError("forbidden", "Only players with a seat can be back")
        for seat in own:
            self.seats[seat].away = False
            self.timeouts.pop(seat, None)

    def stand_in(self, user_id: str, seat: int) -> None:
        """The host hands an away or disconnected player's seat to a bot, until they are
        back (the ``stand_in`` event)."""
        self._check_host(user_id)
        self._check_status(PLAYING, "Seats can only be handed to a bot during a game")
        if not 0 <= seat < len(self.seats):
            raise LoungeError("not_found", f"There is no seat {seat}")
        info = self.seats[seat]
        if info.kind == "bot" or info.left:
            raise LoungeError("bad_state", f"{info.name} has no player to stand in for")
        if not info.away and self.is_connected(info.user_id):
            raise LoungeError("bad_state", f"{info.name} is here: only a player who is away "
                                           "or disconnected can be handed to a bot")
        info.away = True

    def play_for(self, seat: int, move: str, args: list, reason: str) -> None:
        """A bot plays one action of the seat's turn for its player; ``reason``: "timeout" (the
        time ran out), "away", or "gone" (the player's grace period ran out in the game). The
        room keeps why, as its record of stand-ins."""
        self.apply_seat(seat, move, args)
        self.stand_ins[self.match.version] = reason

    def ran_out(self, seat: int) -> bool:
        """A bot played the seat's turn because its time ran out; True when that made the seat
        away (its second turn in a row)."""
        self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
        if self.timeouts[seat] < 2:
            return False
        self.seats[seat].away = True
        return True

    def _after_change(self) -> None:
        if self.status == PLAYING and self.match is not None and self.match.result is not None:
            self.status = FINISHED
            self.bots = {}

    # -- checks ------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.closed:
            raise LoungeError("not_found", "This room has closed")

    def is_hosts_seat(self, seat: Seat) -> bool:
        """Whether ``seat`` is the host's own (a rematch moves it round: not always seat 0)."""
        return seat.kind == "human" and seat.user_id == self.host

    def _check_host(self, user_id: str) -> None:
        if user_id != self.host:
            raise LoungeError("forbidden", "Only the host can do that")

    def _check_status(self, status: str, message: str) -> None:
        if self.status != status:
            raise LoungeError("bad_state", message)
