"""The game engine: a game is data plus pure functions; the engine runs turns, stages, randomness,
end detection, views, the log, replay and undo.

A game author writes a :class:`Game` whose moves are ``fn(G, t, *args) -> new G``. ``G`` is the
game's own plain-data state and must not be changed in place; ``t`` is the :class:`Turn` through
which a move draws random numbers and steers the turn order. See ``docs/rules-engine.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import rng
from .errors import InvalidMove
from .view import redact

State = dict[str, Any]
Result = dict[str, Any] | None
ENGINE_ACTIONS = ("drop", "undo")
UNDO_LIMIT = 3  # undos in a row by one seat (with no other seat acting in between)
DEFAULT_MAX_LOG = 10_000
TOO_LONG = {"draw": True, "reason": "too_long"}  # the result of a match that reached its cap


@dataclass(frozen=True)
class Move:
    """A move: its function, argument types and an enumerator of its legal arguments.

    ``options(G, ctx, seat)`` gives every argument list (or tuple) that ``fn`` accepts for that
    seat now; the engine builds ``legal_moves`` from it, so the two must agree (the tests check
    it). Fresh lists are used as they are, which saves a copy on the hot path.
    """

    fn: Callable[..., State]
    options: Callable[[State, dict, int], Iterable[list | tuple]]
    args: tuple[Any, ...] = ()
    names: tuple[str, ...] = ()
    min_args: int | None = None
    stages: tuple[str | None, ...] = (None,)
    anyone: bool = False
    ends_turn: bool = True
    idle: Callable[[State, dict, int, tuple], str | None] | None = None
    words: tuple[str, ...] = ()
    labels: dict[str, str] = field(default_factory=dict)

    # ``idle(G, ctx, seat, args)``: the sentence refusing a move that would change nothing of
    # the game (a Slapjack slap by a player with no cards), or None. It guards new moves only:
    # replaying a stored log accepts what was accepted when it was played.
    # ``words``: how clients say the move, as templates (see :mod:`shared_rules.words`).

    @property
    def least_args(self) -> int:
        return len(self.args) if self.min_args is None else self.min_args


@dataclass(frozen=True)
class Game:
    """Everything about one game: its rules for the engine, and what clients are told of it
    (``GET /api/games``: see :func:`shared_rules.words.game_facts`)."""

    slug: str
    title: str
    min_players: int
    max_players: int
    rules: str
    setup: Callable[[Turn], State]
    moves: dict[str, Move]
    end_if: Callable[[State, dict], Result]
    view: Callable[[dict, int | None], dict] | None = None
    secret: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    on_turn_begin: Callable[[State, Turn], State] | None = None
    on_drop: Callable[[State, Turn, int], State] | None = None
    skip: Callable[[State, int], bool] | None = None
    out_is_eliminated: bool = False
    undoable: bool = False
    determinize: Callable[[dict, Turn], State] | None = None
    stage_hints: dict[str, str] = field(default_factory=dict)
    max_log: int = DEFAULT_MAX_LOG  # a safety cap: the match is a draw when its log reaches it
    summary: str = ""  # one line for the list of games
    describe: Callable[[dict, dict, list[str], int | None], list[str]] | None = None

    # ``describe(prev, nxt, names, actor)``: the game log's lines for one action, from two
    # views of one reader (never the match nor the move's arguments: see shared_rules.describe).

    @property
    def real_time(self) -> bool:
        """Whether some move may be made by any seat at any moment (Slapjack's slap)."""
        return self._real_time

    def __post_init__(self) -> None:
        object.__setattr__(self, "_real_time", any(m.anyone for m in self.moves.values()))


class Turn:
    """What a move (or setup) may know and do besides changing ``G``.

    It works on its own copy of the match's ctx, which becomes the next match's ctx."""

    __slots__ = ("seat", "ctx", "version", "rng", "_next", "_ended", "_stage_set")

    def __init__(self, ctx: dict, rng_state: int, version: int, seat: int | None) -> None:
        self.seat = seat
        self.ctx = ctx.copy()
        self.version = version
        self.rng = rng_state
        self._next: int | None = None
        self._ended = False
        self._stage_set = False

    num_players = property(lambda self: self.ctx["num_players"])
    current = property(lambda self: self.ctx["current"])
    stage = property(lambda self: self.ctx["stage"])
    out = property(lambda self: self.ctx["out"])
    left = property(lambda self: self.ctx["left"])
    direction = property(lambda self: self.ctx["direction"])
    turn = property(lambda self: self.ctx["turn"])

    def shuffle(self, items: Iterable) -> list:
        """A shuffled list of the items, drawn from the match's seeded generator."""
        out, self.rng = rng.shuffled(list(items), self.rng)
        return out

    def randbelow(self, n: int) -> int:
        value, self.rng = rng.randbelow(n, self.rng)
        return value

    def end_turn(self, next_seat: int | None = None) -> None:
        """End the turn now; the next seat is ``next_seat`` or the next in turn order."""
        self._ended = True
        self._next = next_seat

    def set_stage(self, stage: str) -> None:
        """Keep the turn going in a stage: only moves allowed in that stage may follow."""
        self.ctx["stage"] = stage
        self._stage_set = True

    def set_out(self, seat: int) -> None:
        """Take a seat out of the turn order for the rest of the game."""
        if seat not in self.ctx["out"]:
            self.ctx["out"] = tuple(sorted((*self.ctx["out"], seat)))

    def reverse(self) -> None:
        self.ctx["direction"] = -self.ctx["direction"]

    def in_play(self, seat: int) -> bool:
        """Whether a seat still takes turns (not out, not left)."""
        return seat not in self.ctx["out"] and seat not in self.ctx["left"]


class Match:
    """One game in progress. Immutable: every action returns a new Match."""

    __slots__ = ("game", "num_players", "seed", "G", "ctx", "rng", "version", "result",
                 "_log", "_prev")

    def __init__(self, game: Game, num_players: int, seed: int | str, G: State, ctx: dict,
                 rng_state: int, version: int, result: Result, log: tuple | None,
                 prev: Match | None = None) -> None:
        self.game = game
        self.num_players = num_players
        self.seed = seed
        self.G = G
        self.ctx = ctx
        self.rng = rng_state
        self.version = version
        self.result = result
        self._log = log  # a linked list (parent, entry): O(1) to extend
        self._prev = prev  # the match before the last action, kept only for undo

    # -- reading -----------------------------------------------------------------------------

    @property
    def log(self) -> list[dict]:
        return self.log_tail(self.version)

    def log_tail(self, count: int) -> list[dict]:
        """The last ``count`` actions of the log, oldest first. It walks back only that far, so
        saving each new action of a long game stays cheap."""
        entries = []
        node = self._log
        while node is not None and len(entries) < count:
            node, entry = node
            entries.append(entry)
        entries.reverse()
        return [{"seat": s, "move": m, "args": list(a)} for s, m, a in entries]

    @property
    def active_seats(self) -> list[int]:
        if self.result is not None:
            return []
        left = self.ctx["left"]
        if self.game.real_time:
            return [s for s in range(self.num_players) if s not in left]
        current = self.ctx["current"]
        return [] if current is None or current in left else [current]

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator). Hidden cards are removed first, so a
        game's own view hook never even receives them."""
        if seat is not None and not self._valid_seat(seat):
            raise InvalidMove(f"There is no seat {seat!r}")
        out = redact(self.G, self.game.secret, self.game.private, seat)
        if self.game.view is not None:
            out.update(self.game.view(out, seat))
        ctx = self.ctx
        out.update(
            game=self.game.slug, seat=seat, version=self.version, num_players=self.num_players,
            current=ctx["current"], stage=ctx["stage"], direction=ctx["direction"],
            turn=ctx["turn"], out=list(ctx["out"]), left=list(ctx["left"]),
            active_seats=self.active_seats,
            result=None if self.result is None else dict(self.result),
        )
        return out

    def legal_moves(self, seat: int | None) -> list[dict]:
        """Every move ``apply`` accepts from this seat now, as ``{"move", "args"}``."""
        return [{"move": name, "args": a if type(a) is list else [*a]}
                for name, options in self._options(seat) for a in options]

    def legal_actions(self, seat: int | None) -> list[tuple[str, tuple]]:
        """:meth:`legal_moves` as ``(move, args)`` tuples: the searching bots' fast path."""
        return [(name, tuple(a)) for name, options in self._options(seat) for a in options]

    def _options(self, seat: int | None) -> list[tuple[str, Iterable]]:
        """Each move this seat may make now, with its game's list of legal arguments."""
        if self.result is not None or not self._valid_seat(seat) or seat in self.ctx["left"]:
            return []
        ctx, G = self.ctx, self.G
        is_current = seat == ctx["current"]
        return [(name, move.options(G, ctx, seat)) for name, move in self.game.moves.items()
                if move.anyone or (is_current and ctx["stage"] in move.stages)]

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back the last move: only in games that allow it, only its own
        move, only until anyone else acts or the game ends, and at most UNDO_LIMIT times in a
        row."""
        return self._undoable(seat) and self._undo_streak(seat) < UNDO_LIMIT

    def _undoable(self, seat: int) -> bool:
        last = self._log[1] if self._log else None
        return (self.game.undoable and self.result is None and self._prev is not None
                and last is not None and last[0] == seat and last[1] not in ENGINE_ACTIONS)

    def _why_no_undo(self, seat: int) -> str:
        """The refusal of a take-back: most often another player moved first (a race)."""
        last = self._log[1] if self._log else None
        if self.result is None and last is not None and last[0] != seat:
            node = self._log
            while node is not None:  # an error's path: the whole log may be read
                if node[1][0] == seat and node[1][1] not in ENGINE_ACTIONS:
                    return "Another player has moved since: your move can no longer be taken back"
                node = node[0]
        return "There is no move of yours to take back"

    def _undo_streak(self, seat: int) -> int:
        """How many undos ``seat`` made since another seat last acted (looking back only as
        far as the limit needs)."""
        undos, node = 0, self._log
        for _ in range(4 * UNDO_LIMIT):
            if node is None or node[1][0] != seat:
                break
            undos += node[1][1] == "undo"
            node = node[0]
        return undos

    # -- acting ------------------------------------------------------------------------------

    def apply(self, seat: int, move: str, *args: Any) -> Match:
        """A new Match with the move applied; raises InvalidMove (and changes nothing) if the
        rules do not allow it, or if it would change nothing (see :attr:`Move.idle`)."""
        spec = self._check(seat, move, args)
        if spec.idle is not None:
            reason = spec.idle(self.G, self.ctx, seat, args)
            if reason is not None:
                raise InvalidMove(reason)
        return self._play(spec, seat, move, args)

    def _play(self, spec: Move, seat: int, move: str, args: tuple) -> Match:
        t = Turn(self.ctx, self.rng, self.version, seat)
        G = spec.fn(self.G, t, *args)
        return self._next_match(G, t, spec.ends_turn, (seat, move, args))

    def apply_legal(self, seat: int, move: str, args: tuple) -> Match:
        """:meth:`apply` for a move taken from :meth:`legal_actions`, unchecked, unlogged and
        with no undo history: the searching bots' fast path. Anything else is undefined."""
        spec = self.game.moves[move]
        t = Turn(self.ctx, self.rng, self.version, seat)
        G = spec.fn(self.G, t, *args)
        return self._next_match(G, t, spec.ends_turn, None)

    def act(self, entry: dict) -> Match:
        """The match after one log entry (``{"seat", "move", "args"}``: a move, a drop or an
        undo). The rules are checked as for a new move, but not the guards added against abuse
        (idle moves, undos in a row), so that logs stored before them still replay."""
        seat, move, args = entry["seat"], entry["move"], tuple(entry.get("args", ()))
        if move == "drop":
            return self.drop(seat)
        if move == "undo":
            return self._take_back(seat)
        return self._play(self._check(seat, move, args), seat, move, args)

    def drop(self, seat: int) -> Match:
        """A new Match in which that seat's player has left for good."""
        if self.result is not None:
            raise InvalidMove("The game is over")
        if not self._valid_seat(seat):
            raise InvalidMove(f"There is no seat {seat!r}")
        if seat in self.ctx["left"]:
            raise InvalidMove("That player has already left")
        t = Turn(self.ctx, self.rng, self.version, seat)
        t.ctx["left"] = tuple(sorted((*t.left, seat)))
        G = self.G if self.game.on_drop is None else self.game.on_drop(self.G, t, seat)
        if t.current == seat:
            t._ended = True
        return self._next_match(G, t, False, (seat, "drop", ()))

    def undo(self, seat: int) -> Match:
        """A new Match with ``seat``'s last move taken back (see :meth:`can_undo`)."""
        if self._undoable(seat) and self._undo_streak(seat) >= UNDO_LIMIT:
            raise InvalidMove(f"You have taken back {UNDO_LIMIT} moves in a row: play on")
        return self._take_back(seat)

    def _take_back(self, seat: int) -> Match:
        if not self.game.undoable:
            raise InvalidMove(f"Moves cannot be taken back in {self.game.title}")
        if not self._undoable(seat):
            raise InvalidMove(self._why_no_undo(seat))
        before = self._prev
        return Match(self.game, self.num_players, self.seed, before.G, before.ctx, before.rng,
                     self.version + 1, before.result, (self._log, (seat, "undo", ())),
                     before._prev)

    # -- serialising -------------------------------------------------------------------------

    def to_json(self) -> str:
        return json.dumps({
            "game": self.game.slug, "num_players": self.num_players, "seed": self.seed,
            "version": self.version, "log": self.log, "result": self.result,
            "state": {"G": self.G, "ctx": self.ctx, "rng": self.rng},
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: str | dict, game: Game) -> Match:
        """The match that :meth:`to_json` gave, of ``game`` (the registry finds it by slug)."""
        if isinstance(data, str):
            data = json.loads(data)
        if data["game"] != game.slug:
            raise ValueError(f"A match of {data['game']!r} is not one of {game.slug!r}")
        if game.undoable:  # undo needs the earlier states: rebuild them
            return replay(game, data["num_players"], data["seed"], data["log"])
        state = data["state"]
        ctx = dict(state["ctx"], out=tuple(state["ctx"]["out"]), left=tuple(state["ctx"]["left"]))
        log = None
        for e in data["log"]:
            log = (log, (e["seat"], e["move"], tuple(e["args"])))
        return cls(game, data["num_players"], data["seed"], state["G"], ctx, state["rng"],
                   data["version"], data["result"], log)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.game.slug, self.seed, self.version))

    def __repr__(self) -> str:
        return f"<Match {self.game.slug} seed={self.seed!r} version={self.version}>"

    # -- internals ---------------------------------------------------------------------------

    def _valid_seat(self, seat: object) -> bool:
        return type(seat) is int and 0 <= seat < self.num_players

    def _check(self, seat: object, move: object, args: tuple) -> Move:
        if self.result is not None:
            raise InvalidMove("The game is over")
        if not self._valid_seat(seat):
            raise InvalidMove(f"There is no seat {seat!r}")
        if seat in self.ctx["left"]:
            raise InvalidMove("You have left this game")
        spec = self.game.moves.get(move) if isinstance(move, str) else None
        if spec is None:
            raise InvalidMove(f"There is no move {move!r} in {self.game.title}")
        stage = self.ctx["stage"]
        if not spec.anyone:
            if seat != self.ctx["current"]:
                raise InvalidMove("It is not your turn")
            if stage not in spec.stages:
                hint = self.game.stage_hints.get(stage) if stage else None
                raise InvalidMove(hint or f"You cannot {move} now")
        _check_args(move, spec, args)
        return spec

    def _next_match(self, G: State, t: Turn, ends_turn: bool, entry: tuple | None) -> Match:
        """The match after an action; ``entry`` None (the fast path) keeps no log or undo."""
        if not t._stage_set and (t._ended or ends_turn):
            G = _advance(self.game, G, t)
        ctx = t.ctx
        result = _remaining_winner(self.game, ctx) or self.game.end_if(G, ctx)
        if result is None and entry is not None and self.version + 1 >= self.game.max_log:
            result = dict(TOO_LONG)
        if entry is None:
            return Match(self.game, self.num_players, self.seed, G, ctx, t.rng, self.version + 1,
                         result, None)
        prev = self if self.game.undoable else None
        return Match(self.game, self.num_players, self.seed, G, ctx, t.rng, self.version + 1,
                     result, (self._log, entry), prev)


def _check_args(move: str, spec: Move, args: tuple) -> None:
    if len(args) == len(spec.args):
        for value, kind in zip(args, spec.args, strict=True):
            if type(value) is not kind:
                break
        else:
            return  # the common case, decided quickly
    if not spec.least_args <= len(args) <= len(spec.args):
        names = ", ".join(spec.names) or "no arguments"
        count = (str(len(spec.args)) if spec.least_args == len(spec.args)
                 else f"{spec.least_args} to {len(spec.args)}")
        raise InvalidMove(f"{move} takes {count} argument(s): {names}")
    for value, kind, name in zip(args, spec.args, spec.names, strict=False):
        if isinstance(value, bool) or not isinstance(value, kind):
            raise InvalidMove(f"{name} must be {_kind_name(kind)}, not {value!r}")


def _kind_name(kind: Any) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    words = {int: "a whole number", str: "a text"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)


def _advance(game: Game, G: State, t: Turn) -> State:
    """Pass the turn on, running the game's turn-begin hook, which may pass it on again."""
    ctx = t.ctx
    for _ in range(ctx["num_players"] + 1):
        nxt = t._next if t._next is not None else _round_robin(game, G, ctx)
        ctx["current"], ctx["stage"], ctx["turn"] = nxt, None, ctx["turn"] + 1
        t._next, t._ended, t._stage_set = None, False, False
        if nxt is None or game.on_turn_begin is None:
            return G
        t.seat = nxt
        G = game.on_turn_begin(G, t)
        if not t._ended:
            return G
    ctx["current"] = None
    return G


def _round_robin(game: Game, G: State, ctx: dict) -> int | None:
    """The next seat in the current direction that still takes turns, if any."""
    n, direction, current = ctx["num_players"], ctx["direction"], ctx["current"]
    out, left, skip = ctx["out"], ctx["left"], game.skip
    if current is not None and not out and not left and skip is None:
        return (current + direction) % n  # the common case: nobody is skipped
    start = current if current is not None else (0 if direction > 0 else n - 1) - direction
    for step in range(1, n + 1):
        seat = (start + step * direction) % n
        if seat not in out and seat not in left and (skip is None or not skip(G, seat)):
            return seat
    return None


def _remaining_winner(game: Game, ctx: dict) -> Result:
    """When fewer than two seats are still playing, the one left wins."""
    if not ctx["left"] and not (game.out_is_eliminated and ctx["out"]):
        return None
    gone = set(ctx["left"])
    if game.out_is_eliminated:
        gone.update(ctx["out"])
    if ctx["num_players"] - len(gone) >= 2:
        return None
    remaining = [s for s in range(ctx["num_players"]) if s not in gone]
    return {"winner": remaining[0]} if remaining else {"draw": True}


def start(game: Game, num_players: int, seed: int | str | None) -> Match:
    """A new match of ``game`` (:func:`shared_rules.new_match` starts one by slug)."""
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
            game.min_players <= num_players <= game.max_players):
        raise InvalidMove(f"{game.title} is for {game.min_players} to {game.max_players} players")
    if seed is None:
        seed = rng.seed_state(None)
    ctx = {"num_players": num_players, "current": 0, "stage": None, "out": (), "left": (),
           "direction": 1, "turn": 0}
    t = Turn(ctx, rng.seed_state(seed), 0, None)
    G = game.setup(t)
    if game.on_turn_begin is not None:
        t.seat = 0
        G = game.on_turn_begin(G, t)
        if t._ended:
            G = _advance(game, G, t)
    ctx = t.ctx
    return Match(game, num_players, seed, G, ctx, t.rng, 0, game.end_if(G, ctx), None)


def from_view(game: Game, view: dict, seed: int | str | None = None) -> Match:
    """A full match that agrees with everything one seat's view shows, its hidden cards dealt at
    random from those that seat has not seen. Searching bots plan on such samples, never on the
    true hidden state. The game's ``determinize(view, t)`` hook builds ``G``."""
    if game.determinize is None:
        raise ValueError(f"{game.title} cannot be sampled from a view")
    ctx = {"num_players": view["num_players"], "current": view["current"], "stage": view["stage"],
           "out": tuple(view["out"]), "left": tuple(view["left"]),
           "direction": view["direction"], "turn": view["turn"]}
    t = Turn(ctx, rng.seed_state(seed), view["version"], view["seat"])
    G = game.determinize(view, t)
    return Match(game, view["num_players"], 0, G, ctx, t.rng, view["version"], view["result"],
                 None)


def replay(game: Game, num_players: int, seed: int | str, log: Iterable[dict]) -> Match:
    """Rebuild a match of ``game`` from its seed and action log."""
    match = start(game, num_players, seed)
    for entry in log:
        match = match.act(entry)
    return match
