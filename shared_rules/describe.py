"""The game log in words: what happened between two views of one seat (or of a spectator).

It reads only the two views that seat may see and who acted: never the match itself nor a
move's arguments, so a line can never name a card hidden from its reader. The same sentences
go to the web and the terminal clients, and to the replays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import suppress
from typing import Any

from .cards import CARD_SET

Names = list[str]
CELL_NAMES = ("top left", "top centre", "top right", "middle left", "centre", "middle right",
              "bottom left", "bottom centre", "bottom right")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
BEGINS = "The game begins"


def card_name(code: Any) -> str:
    """"9 of hearts" for "9H"; anything else as it is."""
    if not isinstance(code, str) or code not in CARD_SET:
        return str(code)
    return f"{RANK_NAMES.get(code[:-1], code[:-1])} of {SUIT_NAMES[code[-1]]}"


def who(names: Names, seat: Any) -> str:
    """A seat's name, or a stand-in when there is none."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat + 1}" if isinstance(seat, int) else "Someone"


def _tic_tac_toe(prev: dict, nxt: dict, names: Names, actor: int | None) -> list[str]:
    mover = who(names, actor if actor is not None else prev.get("current"))
    return [f"{mover} put {mark} in the {CELL_NAMES[i]}"
            for i, (old, mark) in enumerate(zip(prev["cells"], nxt["cells"], strict=True))
            if mark and old != mark]


def _pile_line(mover: str, i: int, was: tuple[str, list], now: tuple[str, list]) -> str | None:
    pile = f"pile {i + 1}"
    (was_state, was_cards), (state, cards) = was, now
    top = cards[-1] if cards else None
    if was_state == "down" and state != "down":
        return f"{mover} turned up {pile}: {card_name(top)}"
    if len(cards) > len(was_cards):
        locked = " and locked it" if state == "locked" and was_state != "locked" else ""
        return f"{mover} played {card_name(top)} on {pile}{locked}"
    if was_state == "locked" and state == "unlocked":
        return f"{mover} unlocked {pile}"
    if was_state == "unlocked" and state == "locked":
        return f"{mover} locked {pile} with the key"
    return None


def _nine_locks(prev: dict, nxt: dict, names: Names, actor: int | None) -> list[str]:
    mover = who(names, actor if actor is not None else prev.get("current"))
    lines = []
    if nxt["deck_count"] < prev["deck_count"]:
        lines.append(f"{mover} picked up a card")
    for i in range(len(nxt["piles"])):
        line = _pile_line(mover, i, (prev["pile_states"][i], prev["piles"][i]),
                          (nxt["pile_states"][i], nxt["piles"][i]))
        if line:
            lines.append(line)
    return lines


def _poker99(prev: dict, nxt: dict, names: Names, actor: int | None) -> list[str]:
    lines = []
    last = nxt.get("last")
    if last and nxt["turn"] != prev["turn"] and last != prev.get("last"):
        choice = last.get("choice")
        extra = ""
        if choice in ("+", "-"):
            extra = " (adding)" if choice == "+" else " (subtracting)"
        elif isinstance(choice, int):
            extra = f", choosing {who(names, choice)}"
        lines.append(f"{who(names, last['seat'])} played {card_name(last['card'])}{extra}: "
                     f"total {nxt['total']}")
    before = prev.get("status") or []
    for seat, status in enumerate(nxt.get("status") or []):
        was = before[seat] if seat < len(before) else None
        if status == "out" and was != "out" and seat not in nxt["left"]:
            lines.append(f"{who(names, seat)} is out")
    return lines


def _slapjack(prev: dict, nxt: dict, names: Names, actor: int | None) -> list[str]:
    lines = []
    if nxt["plays"] > prev["plays"] and nxt.get("top"):
        mover = who(names, actor if actor is not None else prev.get("current"))
        lines.append(f"{mover} turned up {card_name(nxt['top'])}")
    for event in nxt.get("events") or []:
        if event["version"] > prev["version"]:
            lines.append(_seat_names(event["text"], names))
    return lines


def _crazy_eights(prev: dict, nxt: dict, names: Names, actor: int | None) -> list[str]:
    last = nxt.get("last")
    if not last or last == prev.get("last"):  # a player leaving changes no move of the game
        return []
    mover = who(names, last["seat"])
    lines = []
    if nxt["reshuffles"] > prev["reshuffles"]:
        lines.append("The discard pile was shuffled into a new stock")
    if last["move"] == "draw":
        lines.append(f"{mover} drew a card")
    elif last["move"] == "pass":
        lines.append(f"{mover} passed")
    elif last["move"] == "play":
        top = nxt["top"]
        named = f" and named {SUIT_NAMES[nxt['suit']]}" if top[:-1] == "8" else ""
        lines.append(f"{mover} played {card_name(top)}{named}")
        if nxt["hands_count"][last["seat"]] == 1:
            lines.append(f"{mover} has one card left")
    return lines


def _seat_names(text: str, names: Names) -> str:
    """The rules' "Seat 2" (numbered from 0 in the rules' texts) as the player's name."""
    words = text.split(" ")
    out = []
    i = 0
    while i < len(words):
        number = words[i + 1].rstrip(".,:;!") if i + 1 < len(words) else ""
        if words[i] == "Seat" and number.isdigit():
            tail = words[i + 1][len(number):]
            out.append(who(names, int(number)) + tail)
            i += 2
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


BY_GAME: dict[str, Callable[[dict, dict, Names, int | None], list[str]]] = {
    "tic-tac-toe": _tic_tac_toe, "nine-locks": _nine_locks, "poker99": _poker99,
    "slapjack": _slapjack, "crazy-eights": _crazy_eights,
}


def describe(prev: dict | None, nxt: dict, names: Names, actor: int | None = None,
             move: str | None = None) -> list[str]:
    """What happened between two views of one reader, as short sentences. ``actor`` and
    ``move`` say who did what (as the match log has it), never with which cards."""
    if prev is None:
        return [BEGINS] if nxt.get("version") == 0 else []
    if nxt.get("version", 0) <= prev.get("version", 0):
        return []
    lines: list[str] = []
    if move != "undo":  # a take-back removes the lines of the move it takes back instead
        # A view of an unexpected shape: say nothing rather than something wrong.
        with suppress(KeyError, IndexError, TypeError, ValueError, AttributeError):
            lines += BY_GAME.get(nxt.get("game", ""), _nothing)(prev, nxt, names, actor)
    for seat in nxt.get("left") or []:
        said = any(line.startswith(f"{who(names, seat)} left") for line in lines)
        if seat not in (prev.get("left") or []) and not said:
            lines.append(f"{who(names, seat)} left the game")
    result = nxt.get("result")
    if result and not prev.get("result"):
        lines.append(f"{who(names, result['winner'])} wins!" if "winner" in result
                     else "The game is a draw")
    return lines


def _nothing(*_args: object) -> list[str]:
    return []


def describe_all(views: Iterable[tuple[dict, int | None, str | None]],
                 names: Names) -> list[list[str]]:
    """The lines of each step of a game, from its reader's views in order: (view, actor,
    move) per step, the deal first (actor and move None)."""
    out = []
    prev = None
    for view, actor, move in views:
        out.append(describe(prev, view, names, actor, move))
        prev = view
    return out
