"""Tic-Tac-Toe: the smallest game, and the worked example of docs/adding-a-game.md."""

from .. import describe as log
from ..engine import Game, Move, Turn
from ..errors import InvalidMove
from . import load_rules

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ("X", "O")
CELL_NAMES = ("top left", "top centre", "top right", "middle left", "centre", "middle right",
              "bottom left", "bottom centre", "bottom right")


def setup(t: Turn) -> dict:
    return {"cells": [None] * 9}


def place(G: dict, t: Turn, cell: int) -> dict:
    if not 0 <= cell < 9:
        raise InvalidMove(f"There is no cell {cell}: cells are 0 to 8")
    if G["cells"][cell] is not None:
        raise InvalidMove(f"Cell {cell} is already taken")
    cells = list(G["cells"])
    cells[cell] = MARKS[t.seat]
    return {"cells": cells}


def place_options(G: dict, ctx: dict, seat: int) -> list[list]:
    return [[i] for i, mark in enumerate(G["cells"]) if mark is None]


def end_if(G: dict, ctx: dict) -> dict | None:
    cells = G["cells"]
    for a, b, c in LINES:
        if cells[a] is not None and cells[a] == cells[b] == cells[c]:
            return {"winner": MARKS.index(cells[a])}
    if None not in cells:
        return {"draw": True}
    return None


def view(v: dict, seat: int | None) -> dict:
    cells = v["cells"]
    line = next((list(ln) for ln in LINES
                 if cells[ln[0]] is not None and cells[ln[0]] == cells[ln[1]] == cells[ln[2]]),
                None)
    return {"marks": list(MARKS), "line": line}


def determinize(v: dict, t: Turn) -> dict:
    return {"cells": list(v["cells"])}


def describe(prev: dict, nxt: dict, names: list[str], actor: int | None) -> list[str]:
    """The log line of a move: who put which mark where."""
    mover = log.who(names, actor if actor is not None else prev.get("current"))
    return [f"{mover} put {mark} in the {CELL_NAMES[i]}"
            for i, (old, mark) in enumerate(zip(prev["cells"], nxt["cells"], strict=True))
            if mark and old != mark]


GAME = Game(
    slug="tic-tac-toe",
    title="Tic-Tac-Toe",
    summary="Three in a row. The classic warm-up.",
    min_players=2,
    max_players=2,
    rules=load_rules("tic-tac-toe"),
    setup=setup,
    moves={"place": Move(place, place_options, args=(int,), names=("cell",),
                         words=("{cell:label} (cell {cell})",),
                         labels={str(i): name for i, name in enumerate(CELL_NAMES)})},
    end_if=end_if,
    view=view,
    describe=describe,
    undoable=True,
    determinize=determinize,
    max_log=100,  # ten times the longest bot game seen (docs/rules-engine.md)
)
