"""What just happened at the table, in words, from two views in a row ("Bob played 9♥: total
57"). The views carry no move log, so each game's sentence comes from what changed. Pure: no
I/O. Slapjack needs none: its view carries its own ``events``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .text import clean

CELL_NAMES = ("top left", "top", "top right", "left", "centre", "right", "bottom left",
              "bottom", "bottom right")
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
Namer = Callable[[Any], str]


def card(value: Any) -> str:
    text = clean(value, 4)
    return text[:-1] + SUITS[text[-1]] if len(text) >= 2 and text[-1] in SUITS else text


def changes(game: str, before: dict, after: dict, name: Namer) -> list[str]:
    """Sentences for what changed from ``before`` to ``after`` (two views of one seat)."""
    teller = TELLERS.get(game)
    if teller is None or not _newer(before, after):
        return []
    try:
        return teller(before, after, name)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return []  # a view of an unexpected shape: say nothing rather than something wrong


def _newer(before: dict, after: dict) -> bool:
    old, new = before.get("version"), after.get("version")
    return isinstance(old, int) and isinstance(new, int) and new > old


def tic_tac_toe(before: dict, after: dict, name: Namer) -> list[str]:
    out = []
    for i, (old, new) in enumerate(zip(before["cells"], after["cells"], strict=True)):
        if old is None and new is not None:
            out.append(f"{name(before['current'])} took the {CELL_NAMES[i]}")
        elif old is not None and new is None:
            out.append(f"{name(after['current'])} took back the {CELL_NAMES[i]}")
    return out


def nine_locks(before: dict, after: dict, name: Namer) -> list[str]:
    who = name(before["current"])
    parts = []
    if after["deck_count"] < before["deck_count"]:
        parts.append("picked up a card")
    for i, (old, new) in enumerate(zip(before["grid"], after["grid"], strict=True)):
        parts += _pile_change(i, old, new)
    return [f"{who} " + ", ".join(parts)] if parts else []


def _pile_change(i: int, old: dict, new: dict) -> list[str]:
    out = []
    if old["state"] == "down" and new["state"] != "down":
        out.append(f"turned up pile {i} ({card(new['top'])})")
    elif new["count"] > old["count"]:
        out.append(f"played {card(new['top'])} on pile {i}")
    if old["state"] != "down" and old["state"] != new["state"]:
        out.append(f"{'locked' if new['state'] == 'locked' else 'unlocked'} pile {i}")
    return out


def poker99(before: dict, after: dict, name: Namer) -> list[str]:
    out = []
    if after["last_card"] and after["last_card"] != before["last_card"]:
        out.append(f"{name(before['current'])} played {card(after['last_card'])}: "
                   f"total {after['total']}")
    for seat, (old, new) in enumerate(zip(before["status"], after["status"], strict=True)):
        if old == "in" and new != "in":
            who = name(seat)
            out.append(f"{who} {'are' if who == 'You' else 'is'} out")
    return out


TELLERS: dict[str, Callable[[dict, dict, Namer], list[str]]] = {
    "tic-tac-toe": tic_tac_toe, "nine-locks": nine_locks, "poker99": poker99,
}
