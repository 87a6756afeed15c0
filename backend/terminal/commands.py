"""What a typed line means: a numbered move, a /command, or chat. Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Choice, Model

HELP = (
    "Type a move's number and Enter to play it; any other text is chat.",
    "/ready /unready  say you are ready (players)   /say TEXT  chat (e.g. a line starting "
    "with /)",
    "/bot [LEVEL] add a bot   /local NAME add a hot-seat player   /kick SEAT free a seat",
    "/start  start the game   /rematch  play again   (host only)",
    "/undo  take back your last move   /back  I'm back (no bot plays for me)   "
    "/quit  leave the room (Ctrl-C too)",
    "/turntime SECONDS|off  the turn time   /standin SEAT  a bot plays for a player who is gone"
    "   (host only)",
    "Slapjack: with nothing typed, s slaps at once and the space bar plays your card (so type "
    "/say first to chat a line that starts with s).",
)


@dataclass(frozen=True)
class Action:
    """``send``: emit ``event`` with ``payload``; ``quit``; ``note``: show ``text`` only."""

    kind: str
    event: str = ""
    payload: dict = field(default_factory=dict)
    text: str = ""


def note(text: str) -> Action:
    return Action("note", text=text)


def send(event: str, payload: dict | None = None) -> Action:
    return Action("send", event, payload or {})


def move_action(choice: Choice, model: Model) -> Action:
    """The ``move`` event for one legal move; ``seat`` only when I play several seats."""
    payload: dict = {"move": choice.move, "args": list(choice.args)}
    if len(model.my_seats) > 1:
        payload["seat"] = choice.seat
    return send("move", payload)


def parse(line: str, model: Model) -> Action | None:
    """The action for one typed line (None for an empty line)."""
    text = line.strip()
    if not text:
        return None
    if text.isdigit():
        return pick(int(text), model)
    if not text.startswith("/"):
        return send("chat", {"text": text[:500]})
    name, _, rest = text[1:].partition(" ")
    handler = COMMANDS.get(name.lower())
    if handler is None:
        return note(f"There is no command /{name[:20]}: type /help")
    return handler(rest.strip(), model)


def pick(number: int, model: Model) -> Action:
    choices = model.choices()
    if not choices:
        return note("You have no move to make right now")
    if not 1 <= number <= len(choices):
        return note(f"Pick a move from 1 to {len(choices)}")
    return move_action(choices[number - 1], model)


def slap(model: Model) -> Action | None:
    """Slapjack's slap, carrying the pile version I saw (None if I cannot slap now)."""
    slaps = [c for c in model.choices() if c.move == "slap"]
    if not slaps:
        return None
    versioned = [c for c in slaps if c.args]
    return move_action((versioned or slaps)[0], model)


def play_card(model: Model) -> Action | None:
    """Slapjack's play, when it is my turn."""
    plays = [c for c in model.choices() if c.move == "play"]
    return move_action(plays[0], model) if plays else None


def _bot(rest: str, model: Model) -> Action:
    levels = model.bot_levels or ["easy", "normal"]
    level = rest.lower() or ("normal" if "normal" in levels else levels[0])
    if level not in levels:
        return note(f"Bot levels are: {', '.join(levels)}")
    return send("add_bot", {"level": level})


def _local(rest: str, model: Model) -> Action:
    if not rest:
        return note("Say the hot-seat player's name: /local NAME")
    return send("add_local", {"name": rest[:32]})


def _kick(rest: str, model: Model) -> Action:
    if not rest.isdigit():
        return note("Say which seat: /kick SEAT (a number)")
    seat = int(rest)
    shown = [s.get("name") for s in model.seats() if s.get("seat") == seat]
    # The name on screen: if the seats moved up meanwhile, the server refuses, not removes.
    return send("remove_seat", {"seat": seat, **({"name": shown[0]} if shown else {})})


def _undo(rest: str, model: Model) -> Action:
    if rest.isdigit():
        return send("undo", {"seat": int(rest)})
    mine = [s for s, st in model.states.items() if s is not None and st.get("can_undo")]
    if len(model.my_seats) > 1 and not mine:  # the server would ask which seat
        return note("There is no move of yours to take back")
    return send("undo", {"seat": mine[0]} if len(model.my_seats) > 1 else {})


def _turn_time(rest: str, model: Model) -> Action:
    if rest.lower() in ("off", "0"):
        return send("set_turn_time", {"seconds": 0})
    if not rest.isdigit():
        return note("Say the turn time in seconds, or off: /turntime 60")
    return send("set_turn_time", {"seconds": int(rest)})


def _stand_in(rest: str, model: Model) -> Action:
    if not rest.isdigit():
        return note("Say which seat: /standin SEAT (a number)")
    return send("stand_in", {"seat": int(rest)})


def _say(rest: str, model: Model) -> Action:
    return send("chat", {"text": rest[:500]}) if rest else note("Say something: /say TEXT")


COMMANDS = {
    "help": lambda rest, model: Action("help"),
    "?": lambda rest, model: Action("help"),
    "ready": lambda rest, model: send("ready", {"ready": True}),
    "unready": lambda rest, model: send("ready", {"ready": False}),
    "bot": _bot,
    "local": _local,
    "kick": _kick,
    "start": lambda rest, model: send("start"),
    "rematch": lambda rest, model: send("rematch"),
    "undo": _undo,
    "back": lambda rest, model: send("back"),
    "turntime": _turn_time,
    "standin": _stand_in,
    "say": _say,
    "quit": lambda rest, model: Action("quit"),
    "leave": lambda rest, model: Action("quit"),
    "exit": lambda rest, model: Action("quit"),
}
