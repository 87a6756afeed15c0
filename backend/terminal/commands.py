"""What a typed line means: a numbered move, a /command, or chat. Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from .keys import MAX_LINE
from .model import Choice, Model

SLAP_QUIET = 0.35  # seconds after a slap in which another press of that seat is ignored

HELP = (
    "Type a move’s number and Enter to play it; any other text is chat.",
    "/help, /?          list these commands",
    "/ready, /unready   say you are (not) ready to play",
    "/say TEXT          chat a line that starts with /",
    "/undo [SEAT]       take back your last move (SEAT: which of your seats)",
    "/back              I’m back: no bot plays my turns any more",
    "/quit              leave the room (Ctrl-C too)",
    "/bot [LEVEL]       add a bot (host only)",
    "/local NAME        add a hot-seat player you play too (host only)",
    "/kick SEAT         free a seat before the game (host only)",
    "/start, /rematch   start the game, play again (host only)",
    "/turntime SECONDS  set the turn time, or /turntime off (host only)",
    "/standin SEAT      a bot plays for a player who is gone (host only)",
)
GAME_HELP = {  # said only in that game's room
    "slapjack": (
        "Slapjack: with nothing typed, s slaps at once and space plays your card,",
        "so a chat line that starts with s needs /say first.",
    ),
}


def help_lines(game: str) -> list[str]:
    """What /help says in a room of ``game``: the commands, then that game's own keys."""
    return [*HELP, *GAME_HELP.get(game, ())]


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
    if number(text) is not None:
        return pick(number(text), model)
    if not text.startswith("/"):
        return chat(text)
    name, _, rest = text[1:].partition(" ")
    handler = COMMANDS.get(name.lower())
    if handler is None:
        return note(f"There is no command /{name[:20]}: type /help")
    return handler(rest.strip(), model)


def number(text: str) -> int | None:
    """A whole number typed in ASCII digits (a fullwidth ３ or an Arabic-Indic ٣ is not one)."""
    return int(text) if text.isascii() and text.isdigit() else None


def chat(text: str) -> Action:
    """A chat message, or why it cannot be sent (the server takes at most 500 characters)."""
    if len(text) > MAX_LINE:
        return note(f"That message is {len(text)} characters: chat takes at most {MAX_LINE}")
    return send("chat", {"text": text})


def pick(typed: int, model: Model) -> Action:
    numbered = model.numbered()
    if not numbered:
        return note(no_move(model))
    choice = dict(numbered).get(typed)
    if choice is None:
        return note(f"Pick one of the moves listed: {_numbers(list(dict(numbered)))}")
    return move_action(choice, model)


def no_move(model: Model) -> str:
    """Why a typed number plays nothing, with what comes next once the game is over."""
    if model.result() is None:
        return "You have no move to make right now"
    if model.is_host:
        return "The game is over: type /rematch to play again"
    return "The game is over: the host may start a rematch"


def _numbers(numbers: list[int]) -> str:
    if numbers == list(range(1, len(numbers) + 1)) and len(numbers) > 2:
        return f"1 to {len(numbers)}"
    return ", ".join(str(n) for n in numbers[:-1]) + (" or " if len(numbers) > 1 else "") + \
        str(numbers[-1])


def slap(model: Model) -> Action | None:
    """The ``move`` event of Slapjack's slap, carrying the version of the view I saw (None if
    I cannot slap now)."""
    slaps = [c for c in model.choices() if c.move == "slap"]
    versioned = [c for c in slaps if c.args]
    choice = (versioned or slaps or [None])[0]
    return move_action(choice, model) if choice else None


class SlapGuard:
    """One slap per seat per view: a second press on the same pile would reach the server
    after the first had won it, and be judged too late (three cards lost). Presses within
    ``SLAP_QUIET`` of a seat's slap are ignored too, whatever the version (a won pile makes a
    new version within milliseconds: a double tap would slap the empty pile). A refused slap
    took nothing: :meth:`forget` lets its seat slap again."""

    def __init__(self) -> None:
        self.sent: dict[int | None, tuple] = {}  # seat -> (round, version) of its last slap
        self.at: dict[int | None, float] = {}  # seat -> when its last slap went out

    def allow(self, seat: int | None, seen: tuple, now: float) -> bool:
        """Whether a slap of ``seat`` on the view ``seen`` (round, version) may go out now;
        if so it is remembered as sent."""
        if self.sent.get(seat) == seen or now - self.at.get(seat, -1e9) < SLAP_QUIET:
            return False
        self.sent[seat], self.at[seat] = seen, now
        return True

    def forget(self, seat: int | None) -> None:
        self.sent.pop(seat, None)
        self.at.pop(seat, None)


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
        return note("Say the hot-seat player’s name: /local NAME")
    if len(rest) > 32:
        return note("A name is at most 32 characters")
    return send("add_local", {"name": rest})


def _kick(rest: str, model: Model) -> Action:
    seat = number(rest)
    if seat is None:
        return note("Say which seat: /kick SEAT (a number)")
    shown = [s.get("name") for s in model.seats() if s.get("seat") == seat]
    # The name on screen: if the seats moved up meanwhile, the server refuses, not removes.
    return send("remove_seat", {"seat": seat, **({"name": shown[0]} if shown else {})})


def _undo(rest: str, model: Model) -> Action:
    if number(rest) is not None:
        return send("undo", {"seat": number(rest)})
    mine = [s for s, st in model.states.items() if s is not None and st.get("can_undo")]
    if len(model.my_seats) > 1 and not mine:
        # The server would only ask which seat; none can (nobody moved, another seat moved
        # since, or three take-backs in a row), so say that instead.
        return note("None of your seats can take a move back now")
    return send("undo", {"seat": mine[0]} if len(model.my_seats) > 1 else {})


def _turn_time(rest: str, model: Model) -> Action:
    if rest.lower() in ("off", "0"):
        return send("set_turn_time", {"seconds": 0})
    if number(rest) is None:
        return note("Say the turn time in seconds, or off: /turntime 60")
    return send("set_turn_time", {"seconds": number(rest)})


def _stand_in(rest: str, model: Model) -> Action:
    if number(rest) is None:
        return note("Say which seat: /standin SEAT (a number)")
    return send("stand_in", {"seat": number(rest)})


def _say(rest: str, model: Model) -> Action:
    return chat(rest) if rest else note("Say something: /say TEXT")


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
