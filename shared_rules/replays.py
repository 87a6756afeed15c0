"""A finished match as a spectator may watch it again: its players, result, and every step with
the spectator's view after it.

The seed is never given out (it decides every hidden card), and a move's argument that names a
card is shown only if that card is on the table, in the spectator's view, just before or just
after the move; otherwise it is replaced by None.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .cards import CARD_SET
from .describe import StandInLines, describe
from .registry import GAMES, new_match


def replay_document(stored: dict) -> dict:
    """The replay of a stored finished match: its summary, ``seed`` and ``log`` (entries may
    carry the ``actor`` that played for the seat), as the server's history store gives it."""
    game = GAMES[stored["game"]]
    names = [p["name"] for p in sorted(stored["players"], key=lambda p: p["seat"])]
    match = new_match(game.slug, stored["num_players"], stored["seed"])
    before = match.view(None)
    steps = [_step(0, None, before, describe(game, None, before, names))]
    stood_in = StandInLines()
    for entry in stored["log"]:
        match = match.act(entry)
        after = match.view(None)
        lines = stood_in.line(entry.get("actor"), names, entry["seat"], before["turn"]) + describe(
            game, before, after, names, entry["seat"], entry["move"])
        steps.append(_step(match.version, _shown_entry(entry, before, after), after, lines))
        before = after
    return {
        "id": stored["id"], "game": game.slug, "title": game.title, "round": stored["round"],
        "room_id": stored["room_id"], "num_players": stored["num_players"],
        "players": stored["players"], "result": stored["result"], "started": stored["started"],
        "finished": stored["finished"], "moves": len(stored["log"]), "steps": steps,
    }


def _step(version: int, entry: dict | None, view: dict, lines: list[str]) -> dict:
    action = entry or {"seat": None, "move": None, "args": []}
    return {"version": version, **action, "view": view, "log": lines}


def _shown_entry(entry: dict, before: dict, after: dict) -> dict:
    """The log entry with every card argument the table never showed replaced by None."""
    visible = set(strings(before)) | set(strings(after))
    args = [None if isinstance(a, str) and a in CARD_SET and a not in visible else a
            for a in entry["args"]]
    return {"seat": entry["seat"], "move": entry["move"], "args": args,
            "actor": entry.get("actor") or "player"}


def strings(value: Any) -> Iterator[str]:
    """Every string inside plain JSON-like data, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)
