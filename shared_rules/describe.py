"""The game log in words: what happened between two views of one seat (or of a spectator).

It reads only the two views that seat may see and who acted: never the match itself nor a
move's arguments, so a line can never name a card hidden from its reader. Each game says what
its moves did (its ``describe`` hook, in its own module); this module adds the lines every
game shares (the start, players leaving, the result). The same sentences go to the web and
the terminal clients, and to the replays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import cards
from .cards import CARD_SET

if TYPE_CHECKING:
    from .engine import Game

Names = list[str]
BEGINS = "The game begins"
# What a game's describe hook may raise on a view of a shape it did not expect.
UNEXPECTED_SHAPE = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def card_name(code: Any) -> str:
    """A card as the log says it, with its article: "the 9 of hearts" for "9H", "the queen of
    clubs" for "QC"; anything else as it is."""
    if not isinstance(code, str) or code not in CARD_SET:
        return str(code)
    return f"the {cards.card_name(code)}"


def who(names: Names, seat: Any) -> str:
    """A seat's name, or a stand-in when there is none."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}" if isinstance(seat, int) else "Someone"


def describe(game: Game, prev: dict | None, nxt: dict, names: Names, actor: int | None = None,
             move: str | None = None) -> list[str]:
    """What happened between two views of one reader, as short sentences. ``actor`` and
    ``move`` say who did what (as the match log has it), never with which cards."""
    if prev is None:
        return [BEGINS] if nxt.get("version") == 0 else []
    if nxt.get("version", 0) <= prev.get("version", 0):
        return []
    lines: list[str] = []
    if move == "undo":  # the lines of the move taken back are removed: this says who did it
        lines.append(f"{who(names, actor)} took back a move")
    else:
        lines += _move_lines(game, prev, nxt, names, actor, move)
    for seat in nxt.get("left") or []:
        said = any(line.startswith(f"{who(names, seat)} left") for line in lines)
        if seat not in (prev.get("left") or []) and not said:
            lines.append(f"{who(names, seat)} left the game")
    result = nxt.get("result")
    if result and not prev.get("result"):
        lines.append(f"{who(names, result['winner'])} wins!" if "winner" in result
                     else "The game is a draw")
    return lines


def stand_in_line(reason: str | None, names: Names, seat: int) -> list[str]:
    """The line saying a bot played for a player (before the line of the move itself)."""
    if reason is None:
        return []
    name = who(names, seat)
    if reason == "timeout":
        return [f"{name}’s time ran out: a bot played for them"]
    if reason == "gone":
        return [f"A bot played for {name}, who lost their connection"]
    return [f"A bot played for {name}, who is away"]


class StandInLines:
    """Says once a turn that a bot played for a player: a turn of several steps (a pick-up,
    then an unlock) played by the bot has one line, before its first step."""

    def __init__(self) -> None:
        self.last: tuple[str, int, int] | None = None

    def line(self, reason: str | None, names: Names, seat: int, turn: int) -> list[str]:
        """The line for an action of ``seat`` in turn number ``turn``, if it is the first
        one the bot played in that turn."""
        key = None if reason is None else (reason, seat, turn)
        said = [] if key == self.last else stand_in_line(reason, names, seat)
        self.last = key
        return said


def _move_lines(game: Game, prev: dict, nxt: dict, names: Names, actor: int | None,
                move: str | None) -> list[str]:
    """The game's own lines for an action; a game without them says who made which move."""
    if game.describe is None:
        silent = move in (None, "drop")  # a drop has its own line below
        return [] if silent else [f"{who(names, actor)}: {move.replace('_', ' ')}"]
    try:
        return game.describe(prev, nxt, names, actor)
    except UNEXPECTED_SHAPE:  # say nothing rather than something wrong
        return []
