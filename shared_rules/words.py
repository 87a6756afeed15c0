"""What clients are told about a game (``GET /api/games``), and how a move is said in words.

A move's ``words`` are templates: text with placeholders ``{arg}`` or ``{arg:kind}``, ``arg``
one of the move's argument names. A template fits a legal move when the move has every
argument it names, each of the right kind:

- no kind: the value as it is;
- ``card``: a card code, said as the card;
- ``seat``: a whole number, said as that seat's player's name;
- ``position``: a whole number counted from 0, said counted from 1 ("pile 5" for 4);
- ``label``: a value the move's ``labels`` name (keys are the values as text).

A move is said with the first template that fits, else by its name and its arguments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .cards import CARD_SET
from .engine import Game, Move

PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w+))?\}")
KINDS = (None, "card", "seat", "position", "label")
Piece = tuple[str, Any]  # ("text", str), ("card", code) or ("seat", number)


def game_facts(game: Game) -> dict:
    """Everything generic about a game, as plain data for the clients."""
    return {
        "slug": game.slug, "title": game.title, "summary": game.summary,
        "min_players": game.min_players, "max_players": game.max_players, "rules": game.rules,
        "undoable": game.undoable, "real_time": game.real_time, "private": list(game.private),
        "moves": [move_facts(name, move) for name, move in game.moves.items()],
    }


def move_facts(name: str, move: Move) -> dict:
    return {"name": name, "args": list(move.names), "min_args": move.least_args,
            "words": list(move.words), "labels": dict(move.labels)}


def pieces(move: dict | None, name: str, args: list) -> list[Piece]:
    """A legal move in words, as pieces a client draws: its first fitting template, else its
    name and arguments. ``move`` is the move's facts (None: unknown, said by name)."""
    if move is not None:
        for template in move["words"]:
            found = fill(template, move["args"], args, move["labels"])
            if found is not None:
                return found
    return [("text", name.replace("_", " ")), *(piece for a in args
                                                 for piece in (("text", " "), _plain(a)))]


def fill(template: str, names: list[str], args: list, labels: dict[str, str]
         ) -> list[Piece] | None:
    """The template's pieces for these arguments; None when it does not fit them."""
    out: list[Piece] = []
    at = 0
    for found in PLACEHOLDER.finditer(template):
        arg, kind = found.group(1), found.group(2)
        index = names.index(arg) if arg in names else len(args)
        piece = _piece(args[index], kind, labels) if index < len(args) else None
        if piece is None:
            return None
        out += [("text", template[at:found.start()]), piece]
        at = found.end()
    out.append(("text", template[at:]))
    return [p for p in out if p != ("text", "")]


def _piece(value: Any, kind: str | None, labels: dict[str, str]) -> Piece | None:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if kind is None:
        return ("text", str(value))
    if kind == "card":
        return ("card", value) if isinstance(value, str) and value in CARD_SET else None
    if kind == "seat":
        return ("seat", value) if whole else None
    if kind == "position":
        return ("text", str(value + 1)) if whole else None
    if kind == "label":
        return ("text", labels[str(value)]) if str(value) in labels else None
    return None


def _plain(value: Any) -> Piece:
    return ("card", value) if isinstance(value, str) and value in CARD_SET else ("text", str(value))


def say(move: dict | None, name: str, args: list, seat_name: Callable[[int], str],
        card_name: Callable[[str], str]) -> str:
    """A legal move as one plain sentence."""
    words = {"text": str, "card": card_name, "seat": seat_name}
    return "".join(words[kind](value) for kind, value in pieces(move, name, args))


def template_problems(game: Game) -> list[str]:
    """What is wrong with a game's templates (an unknown argument or kind)."""
    problems = []
    for name, move in game.moves.items():
        for template in move.words:
            for arg, kind in PLACEHOLDER.findall(template):
                if arg not in move.names or (kind or None) not in KINDS:
                    problems.append(f"{game.slug} {name}: {{{arg}:{kind}}} in {template!r}")
    return problems
