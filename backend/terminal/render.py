"""Drawing the screen with ``rich``: the room, each game's table, the moves, the messages.

:func:`frame` turns a :class:`~backend.terminal.model.Model` into the text of one screen. Any
game is drawn from its view (:func:`generic`) and its moves said with the server's words
(``GET /api/games``); a game may have its own :class:`Renderer` in :data:`RENDERERS`. A drawer
that meets a view it cannot read falls back to a plain line, so nothing the server sends can
crash the client. Player text is always ``rich.text.Text`` (never markup), so a chat message
like ``[red]hi`` is shown as typed.
"""

from __future__ import annotations

import io
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from shared_rules import CARD_SET, SUIT_NAMES, Piece, pieces

from .model import Choice, Line, Model
from .text import clean

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = "HD"
LINE_STYLES = {"info": "cyan", "error": "bold red", "good": "bold green", "chat": "",
               "me": "", "game": "italic"}
ENGINE_KEYS = frozenset(("game", "seat", "version", "num_players", "current", "stage",
                         "direction", "turn", "out", "left", "active_seats", "result"))
MIN_MESSAGES = 3
MAX_SEATS = 12
MIN_WIDTH, MIN_HEIGHT = 60, 16  # at least: a screen needs more when its table does


# -- cards ---------------------------------------------------------------------------------------

def card_text(card: Any) -> Text:
    """``9H`` as ``9♥`` in red; black suits in bold; anything else as plain text."""
    if not isinstance(card, str) or len(card) < 2 or card[-1] not in SUIT_SIGNS:
        return Text(clean(card, 8) or "?")
    style = "bold red" if card[-1] in RED_SUITS else "bold"
    return Text(clean(card[:-1], 4) + SUIT_SIGNS[card[-1]], style=style)


def cards_text(cards: Any, sep: str = " ") -> Text:
    if not isinstance(cards, list) or not cards:
        return Text("none", style="dim")
    return Text(sep).join(card_text(c) for c in cards[:60])


def face_down(count: Any) -> Text:
    n = count if isinstance(count, int) and not isinstance(count, bool) else 0
    return Text(f"▒▒ ×{n}", style="dim") if n else Text("none", style="dim")


def named(text: str, model: Model) -> str:
    """The rules' "Seat 1" replaced by that seat's name."""
    return re.sub(r"\bSeat (\d+)\b", lambda m: model.seat_name(int(m.group(1))), text)


# -- moves ---------------------------------------------------------------------------------------

def describe(choice: Choice, model: Model) -> Text:
    """A move in words, e.g. "play 9♥ on pile 5": the game's renderer's, else the server's."""
    text = Text()
    if len(model.my_seats) > 1:
        text.append(f"[{model.seat_name(choice.seat)}] ", style="magenta")
    renderer = RENDERERS.get(model.game)
    own = renderer.move(choice, model) if renderer and renderer.move else None
    return text.append_text(own if own is not None else said(choice, model))


def said(choice: Choice, model: Model) -> Text:
    """A move in the server's words for its game (its name and arguments when there are none)."""
    facts = move_facts(choice.move, model)
    try:
        found = pieces(facts, choice.move, list(choice.args))
    except Exception:  # words of an unexpected shape: say the move plainly
        found = pieces(None, choice.move, list(choice.args))
    return Text().join(_piece_text(piece, model) for piece in found)


def move_facts(name: str, model: Model) -> dict | None:
    """What ``GET /api/games`` says of one move of the room's game (its words, its labels)."""
    info = model.game_info()
    moves = info.get("moves") if isinstance(info, dict) else None
    return next((m for m in moves if isinstance(m, dict) and m.get("name") == name),
                None) if isinstance(moves, list) else None


def _piece_text(piece: Piece, model: Model) -> Text:
    kind, value = piece
    if kind == "card":
        return card_text(value)
    if kind == "seat":
        return Text(model.seat_name(value))
    return Text(clean(value, 40))


def moves_block(model: Model) -> RenderableType | None:
    numbered = model.numbered()
    if not numbered:
        return None
    grid = Table.grid(padding=(0, 2))
    columns = 2 if len(numbered) > 6 else 1
    for _ in range(columns):
        grid.add_column()
    cells = [Text(f"{i:>2}) ", style="bold cyan").append_text(describe(c, model))
             for i, c in numbered]
    for start in range(0, len(cells), columns):
        grid.add_row(*cells[start:start + columns])
    title = Text("Your moves (type the number, then Enter)", style="bold")
    return Group(title, grid)


# -- the tables ------------------------------------------------------------------------------

def tic_tac_toe(view: dict, model: Model) -> RenderableType:
    cells = view.get("cells")
    if not isinstance(cells, list) or len(cells) != 9:
        raise ValueError("no cells")
    numbers = {c.args[0]: i for i, c in model.numbered()
               if c.move == "place" and c.args and _int(c.args[0])}
    # Off my turn each free cell still shows its number, dimmer, so that a move can be planned
    # (and is typed as seen); once the game is over, no number is worth reading.
    later = not numbers and view.get("result") is None
    line = view.get("line") if isinstance(view.get("line"), list) else []
    rows = []
    for r in range(3):
        row = Text()
        for c in range(3):
            i = r * 3 + c
            number = numbers.get(i, i + 1 if later else None)
            row.append_text(_ttt_cell(cells[i], number, i in line, mine=i in numbers))
            if c < 2:
                row.append("│", style="dim")
        rows.append(row)
    rule = Text("───┼───┼───", style="dim")
    return Group(rows[0], rule, rows[1], rule, rows[2])


def _ttt_cell(mark: Any, number: int | None, winning: bool, mine: bool) -> Text:
    if mark in ("X", "O"):
        style = ("bold cyan" if mark == "X" else "bold magenta") + (" reverse" if winning else "")
        return Text(f" {mark} ", style=style)
    if number is not None:  # the number to type for this cell (now when `mine`, else later)
        return Text(f"{number:^3}", style="dim cyan" if mine else "dim")
    return Text("   ")


def nine_locks(view: dict, model: Model) -> RenderableType:
    grid = view.get("grid")
    if not isinstance(grid, list) or len(grid) != 9:
        raise ValueError("no grid")
    table = Table(show_header=False, show_lines=True, padding=(0, 1))
    for _ in range(3):
        table.add_column(min_width=14)
    piles = [_pile_cell(p) for p in grid]
    for r in range(3):
        table.add_row(*piles[r * 3:r * 3 + 3])
    hands = Table.grid(padding=(0, 2))
    hands.add_column()
    hands.add_column()
    hands.add_column()
    visible = _list(view.get("visible"))
    hidden_count = _list(view.get("hidden_count"))
    for seat in seat_range(view):
        hidden: Text = face_down(_at(hidden_count, seat))
        if seat == view.get("seat") and isinstance(view.get("hidden"), list):
            hidden = cards_text(view["hidden"])
        hands.add_row(Text(_turn_mark(view, seat) + model.seat_name(seat), style="bold"),
                      Text("visible ").append_text(cards_text(_at(visible, seat))),
                      Text("hidden ").append_text(hidden))
    facts = [Text(f"Deck: {_count(view.get('deck_count'))} cards", style="dim")]
    stage = view.get("stage")
    if stage in ("key", "unlock"):
        facts.append(Text(f"{model.seat_name(view.get('current'))} must now "
                          f"{'use the key on a pile' if stage == 'key' else 'unlock a pile'}",
                          style="yellow"))
    info = Flow(Text(), facts, "   ")
    return Group(table, info, hands)


def _pile_cell(pile: Any) -> Text:
    if not isinstance(pile, dict):
        return Text("?")
    number = pile.get("pile")
    text = Text(f"{number + 1 if _int(number) else clean(number, 2)}: ", style="dim")
    state, count = pile.get("state"), _count(pile.get("count"))
    if state == "down":
        return text.append("▒▒ face down", style="dim")
    text.append_text(card_text(pile.get("top")) if pile.get("top") else Text("empty"))
    text.append(f" ×{count} ")
    return text.append("locked" if state == "locked" else "open",
                       style="yellow" if state == "locked" else "green")


def slapjack(view: dict, model: Model) -> RenderableType:
    pile = view.get("pile")
    if not isinstance(pile, list):
        raise ValueError("no pile")
    cards = Text()
    if pile:
        shown = pile[-3:]
        if len(pile) > 3:
            cards.append("… ", style="dim")
        for i, card in enumerate(shown):
            text = card_text(card)
            if i == len(shown) - 1:
                text = Text("[").append_text(text).append("]")
            cards.append_text(text).append(" " if i < len(shown) - 1 else "")
        parts = [cards, Text(f"({_cards(len(pile))}, top card on the right)", style="dim")]
    else:
        parts = [Text("empty", style="dim")]
    if view.get("pile_slapped"):
        parts.append(Text("already slapped", style="yellow"))
    top = Flow(Text("Pile: ", style="bold"), parts, "   ")
    stacks = _list(view.get("stacks_count"))
    counts = _players(view, model, lambda seat: str(_count(_at(stacks, seat))), "Stacks: ")
    plays = Text(f"Plays: {_count(view.get('plays'))} of {_count(view.get('play_limit'))}",
                 style="dim")
    events = [Text(named(clean(e.get("text"), 120), model), style="italic")
              for e in _list(view.get("events"))[-3:] if isinstance(e, dict)]
    return Group(top, counts, plays, *events)


def poker99(view: dict, model: Model) -> RenderableType:
    total = view.get("total")
    if not _int(total):
        raise ValueError("no total")
    way = "clockwise" if view.get("direction", 1) == 1 else "counter-clockwise (reversed)"
    head = Flow(Text(), [
        Text(f"Total: {total} / {_count(view.get('max_total')) or 99}", style="bold"),
        Text("Last card: ").append_text(card_text(view.get("last_card"))
                                        if view.get("last_card") else Text("none")),
        Text(f"Play goes {way}", style="dim")], "   ")
    hand = Text("Your hand: ", style="bold").append_text(cards_text(view.get("hands")))
    counts, status = _list(view.get("hands_count")), _list(view.get("status"))
    players = _players(view, model, lambda seat: f"{_cards(_count(_at(counts, seat)))} "
                                                 f"({clean(_at(status, seat), 8) or 'in'})")
    deck = Text(f"Deck {_count(view.get('deck_count'))} · played "
                f"{_count(view.get('discards_count'))}", style="dim")
    return _hand_table(view, head, hand, players, deck)


def crazy_eights(view: dict, model: Model) -> RenderableType:
    """The top card and the suit to follow (which an 8 names), the hands, the stock."""
    top, suit = view.get("top"), view.get("suit")
    if top not in CARD_SET or suit not in SUIT_NAMES:
        raise ValueError("no top card")
    head = Text("Top card: ", style="bold").append_text(card_text(top))
    head.append("   Suit to follow: ").append(f"{SUIT_SIGNS[suit]} {SUIT_NAMES[suit]}",
                                            style="bold red" if suit in RED_SUITS else "bold")
    if top[:-1] == "8":
        head.append(" (named with the 8)", style="yellow")
    hand = Text("Your hand: ", style="bold").append_text(cards_text(view.get("hands")))
    if view.get("drawn"):
        hand.append("   you drew ").append_text(card_text(view["drawn"]))
    counts = _list(view.get("hands_count"))
    players = _players(view, model, lambda seat: _cards(_count(_at(counts, seat))))
    stock = Text(f"Stock {_count(view.get('stock_count'))} · discard pile "
                 f"{_count(view.get('discards_count')) + 1}", style="dim")
    return _hand_table(view, head, hand, players, stock)


def _players(view: dict, model: Model, about: Callable[[int], str],
             lead: str = "Players: ") -> Flow:
    """``lead`` and each seat's name (``▶`` on whose turn it is) with ``about(seat)``, or
    "left" for a player who left; a player is never split over two lines."""
    left = _list(view.get("left"))
    return Flow(Text(lead), [Text(f"{_turn_mark(view, seat)}{model.seat_name(seat)} "
                                  f"{'left' if seat in left else about(seat)}")
                             for seat in seat_range(view)])


class Flow:
    """Items in a row, ``sep`` between them, wrapped between items only (a player's name and
    card count, or "already slapped", never split); later lines start under the first item."""

    def __init__(self, lead: Text, items: list[Text], sep: Text | str = "  ") -> None:
        self.lead, self.items = lead, items
        self.sep = sep if isinstance(sep, Text) else Text(sep)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, indent = options.max_width, self.lead.cell_len
        line, empty = self.lead.copy(), True
        for item in self.items:
            if not empty and line.cell_len + self.sep.cell_len + item.cell_len > width:
                yield line
                line, empty = Text(" " * indent), True
            if not empty:
                line.append_text(self.sep)
            line.append_text(item)
            empty = False
        yield line


def _hand_table(view: dict, head: RenderableType, hand: Text, players: Flow,
                piles: Text) -> Group:
    """A card game's table: its head line, your hand (for a player only), the players, the
    piles."""
    parts: list[RenderableType] = [head, players, piles]
    if isinstance(view.get("hands"), list):
        parts.insert(1, hand)
    return Group(*parts)


def generic(view: dict, model: Model) -> RenderableType:
    """Any game's table: the view's own keys as they are, each seat's counts by its name."""
    info = model.game_info() or {}
    private = info.get("private") if isinstance(info.get("private"), list) else []
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    if view.get("stage"):
        grid.add_row(Text("stage"), Text(clean(view["stage"], 40), style="yellow"))
    for key in [k for k in view if k not in ENGINE_KEYS][:40]:
        name = clean(key, 30).replace("_", " ")
        if key in private:
            name = f"your {name}"
        grid.add_row(Text(name), _value_text(key, view[key], model))
    return grid


def _value_text(key: str, value: Any, model: Model) -> Text:
    if key.endswith("_count") and isinstance(value, list):
        return Text("  ".join(f"{model.seat_name(s)} {clean(v, 8)}"
                              for s, v in enumerate(value[:MAX_SEATS])))
    if isinstance(value, str) and value in CARD_SET:
        return card_text(value)
    if isinstance(value, list) and value and all(isinstance(v, str) and v in CARD_SET
                                                 for v in value):
        return cards_text(value)
    if value == []:
        return Text("none", style="dim")
    plain = value if isinstance(value, str | int | float) else json.dumps(value, default=str)
    return Text(clean(plain, 200))


def _slapjack_move(choice: Choice, model: Model) -> Text | None:
    """Slapjack's moves with the keys that make them."""
    if choice.move == "slap":
        return Text("SLAP! (key s)", style="bold yellow")
    if choice.move == "play":
        return Text("play your top card (space bar)")
    return None


def _tic_tac_toe_move(choice: Choice, model: Model) -> Text | None:
    """A cell by its label alone ("top left"): the board shows the number to type in the cell,
    and the server's "(cell 0)" next to a "1)" would say two numbers for one cell."""
    labels = (move_facts(choice.move, model) or {}).get("labels")
    if len(choice.args) != 1 or not isinstance(labels, dict):
        return None
    label = labels.get(str(choice.args[0]))
    return Text(clean(label, 40)) if isinstance(label, str) and label else None


def _slapjack_turn(view: dict, model: Model) -> str:
    return ". Anyone may slap at any moment."


def _tic_tac_toe_turn(view: dict, model: Model) -> str:
    """The mark of the player to move, and which mark I play when it is not my turn: "Ada’s
    turn (X) · you play O", "Your turn (X)"."""
    marks, current = _list(view.get("marks")), view.get("current")
    theirs = _at(marks, current) if _int(current) else None
    text = f" ({clean(theirs, 2)})" if theirs else ""
    if model.my_seats and current not in model.my_seats and _at(marks, model.my_seats[0]):
        text += f" · you play {clean(marks[model.my_seats[0]], 2)}"
    return text


@dataclass(frozen=True)
class Renderer:
    """A game's own drawing: its table, and optionally its moves' words and a turn-line
    ending (a game without one is drawn by :func:`generic` and said in the server's words)."""

    table: Callable[[dict, Model], RenderableType]
    move: Callable[[Choice, Model], Text | None] | None = None
    turn: Callable[[dict, Model], str] | None = None


RENDERERS: dict[str, Renderer] = {
    "tic-tac-toe": Renderer(tic_tac_toe, move=_tic_tac_toe_move, turn=_tic_tac_toe_turn),
    "nine-locks": Renderer(nine_locks),
    "slapjack": Renderer(slapjack, move=_slapjack_move, turn=_slapjack_turn),
    "poker99": Renderer(poker99),
    "crazy-eights": Renderer(crazy_eights),
}


def table_block(model: Model) -> RenderableType | None:
    state = model.main_state()
    if state is None:
        return None
    view = state.get("view")
    renderer = RENDERERS.get(model.game)
    try:
        if not isinstance(view, dict):
            raise ValueError("no view")
        return (renderer.table if renderer else generic)(view, model)
    except Exception:  # a view this client cannot read: say so instead of crashing
        return Text(f"(This client cannot draw this table; version {state.get('version')})",
                    style="yellow")


# -- the room ------------------------------------------------------------------------------------

def header(model: Model) -> Flow:
    room = model.room or {}
    parts = [Text("Gaming Lounge", style="bold magenta"),
             Text(clean(room.get("title") or model.game, 40) or "…", style="bold"),
             Text("room ").append(clean(room.get("code"), 12) or "…", style="bold yellow"),
             Text(model.status)]
    watchers = room.get("spectators")
    if _int(watchers) and watchers > 0:
        parts.append(Text(f"{watchers} watching", style="dim"))
    if model.spectator:
        parts.append(Text("spectating", style="yellow"))
    if not model.connected:
        parts.append(Text("reconnecting…", style="bold red"))
    elif model.rejoining:
        parts.append(Text("rejoining…", style="bold yellow"))
    return Flow(Text(), parts, " · ")


def seats_block(model: Model) -> RenderableType:
    state = model.main_state()
    view = state.get("view") if state else None
    current = view.get("current") if isinstance(view, dict) else None
    result = model.result() or {}
    grid = Table.grid(padding=(0, 1))
    for _ in range(4):
        grid.add_column()
    for s in model.seats():
        seat = s.get("seat")
        mark = "  "
        if result.get("winner") == seat:
            mark = "★ "
        elif model.status == "playing" and current == seat:
            mark = "▶ "
        name = Text(clean(s.get("name"), 32), style="bold" if seat in model.my_seats else "")
        if seat in model.my_seats:
            name.append(" (you)", style="green")
        grid.add_row(Text(mark, style="bold yellow"), Text(f"{clean(seat, 3)}"), name,
                     _seat_status(s, model))
    return grid


def _seat_status(seat: dict, model: Model) -> Text:
    words = [clean(seat.get("kind"), 8)]
    if seat.get("kind") == "bot" and seat.get("level"):
        words[0] = f"bot, {clean(seat['level'], 10)}"
    if model.is_host_seat(seat):
        words.append("host")
    text = Text(", ".join(words), style="dim")
    if seat.get("left"):
        return text.append("  left the game", style="red")
    if not seat.get("connected"):
        text.append("  disconnected", style="red")
    if model.status == "waiting":
        text.append("  ready" if seat.get("ready") else "  not ready",
                    style="green" if seat.get("ready") else "yellow")
    return text


def hint_block(model: Model) -> Text | None:
    """What to do next, in one line."""
    result = model.result()
    if result is not None:
        if "winner" in result and model.my_seats == [result["winner"]]:
            text = Text("You win!", style="bold green")
        elif "winner" in result:
            text = Text(f"{model.seat_name(result['winner'])} wins!", style="bold green")
        else:
            text = Text("The game is a draw.", style="bold yellow")
        return text.append("  The host may /rematch." if not model.is_host
                           else "  Type /rematch to play again.", style="")
    if model.room is None:
        return Text("Joining the room…")
    if model.status == "playing":
        return turn_line(model)
    if model.status == "waiting":
        code = clean((model.room or {}).get("code"), 12)
        if model.is_host:
            return Text(f"Share the code {code}. Add bots with /bot, then /start. /help for "
                        "more.")
        me = model.my_human_seat()
        if me is not None and not me.get("ready"):
            return Text("Type /ready when you are ready to play. /help for more.")
        return Text("Waiting for the host to start. /help for more.")
    return None


def turn_line(model: Model) -> Text | None:
    """Whose turn it is, and which mark or role is mine."""
    state = model.main_state()
    view = state.get("view") if state else None
    if not isinstance(view, dict):
        return None
    current = view.get("current")
    mine = current in model.my_seats
    renderer = RENDERERS.get(model.game)
    about = renderer.turn(view, model) if renderer and renderer.turn else ""
    if mine and len(model.my_seats) > 1:  # hot seat: say whose turn, it is mine to play
        text = Text(hot_seat_turn(model.seat_name(current), about), style="bold green")
    else:
        text = Text("Your turn" if mine else whose_turn(model.seat_name(current)),
                    style="bold green" if mine else "bold")
        text.append(about, style="")
    clock = model.clock
    left = model.seconds_left(clock[1]) if clock and clock[0] == current else None
    if left is not None:
        text.append(f"  (away: a bot plays in {left} s)" if clock[2]
                    else f"  ({left // 60}:{left % 60:02d} left)", style="yellow")
    return text


def hot_seat_turn(name: str, about: str) -> str:
    """"Bo’s turn (O) · you play it"; a game's sentence comes last ("Bo’s turn · you play it.
    Anyone may slap at any moment.")."""
    if about.startswith("."):
        return f"{whose_turn(name)} · you play it{about}"
    return f"{whose_turn(name)}{about} · you play it"


def whose_turn(name: str) -> str:
    """"Ada’s turn"; "Turn: Bot 1 (hard)" for a name that ends in a bracket ("(hard)’s")."""
    return f"Turn: {name}" if name.endswith(")") else f"{name}’s turn"


def message_lines(lines: list[Line], count: int) -> list[RenderableType]:
    """The newest ``count`` messages, each after its time; a long one wraps under its text."""
    out: list[RenderableType] = []
    for line in lines[-count:] if count > 0 else []:
        stamp = Text(time.strftime("%H:%M", time.localtime(line.at)), style="dim")
        text = Text()
        if line.who is not None:
            text.append(f"{line.who}: ", style="bold green" if line.style == "me" else "bold")
            text.append(line.text)
        else:
            text.append(line.text, style=LINE_STYLES.get(line.style, ""))
        grid = Table.grid(padding=(0, 1, 0, 0))
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        grid.add_row(stamp, text)
        out.append(grid)
    return out


# -- the whole screen ----------------------------------------------------------------------------

def render_lines(renderables: list[RenderableType], width: int, color: bool) -> list[str]:
    console = Console(file=io.StringIO(), force_terminal=color, width=width,
                      color_system="standard" if color else None, highlight=False,
                      emoji=False, legacy_windows=False, soft_wrap=False)
    for item in renderables:
        console.print(item, overflow="ellipsis", crop=True)
    return console.file.getvalue().splitlines()


def frame(model: Model, width: int, height: int, color: bool = True) -> list[str]:
    """The screen as lines (without the input line): everything above, messages below."""
    width = max(30, width)
    table = table_block(model)
    hint = _drawn(hint_block(model), width, color)
    moves = _drawn(moves_block(model), width, color)
    body = _drawn(table, width, color) + hint + moves
    need = needed_size(table, body)
    if width < need[0] or height < need[1]:
        return too_small(model, (width, height), need, color, (hint, moves))
    top = render_lines([header(model)], width, color)
    lines = top + render_lines([seats_block(model)], width, color) + body
    if len(lines) + MIN_MESSAGES + 2 > height and model.status != "waiting":
        # a short window: the table already names the players, so the seat list goes first
        lines = top + body
    room = max(MIN_MESSAGES, height - len(lines) - 2)
    # A message may take several lines: the newest lines are kept, the oldest give way.
    messages = render_lines(message_lines(list(model.lines), room), width, color)[-room:]
    # Still too tall: the header gives way (the table, the turn and the moves fit, see
    # needed_size), not the messages.
    lines = lines[max(0, len(lines) + len(messages) + 2 - height):]
    rule = Text("─" * (min(width, 69) - len(" messages")) + " messages", style="dim")
    return lines + render_lines([rule], width, color) + messages


def _drawn(block: RenderableType | None, width: int, color: bool) -> list[str]:
    """The lines of one part of the screen (none for a part not shown)."""
    return render_lines([block], width, color) if block is not None else []


def needed_size(table: RenderableType | None, body: list[str]) -> tuple[int, int]:
    """The smallest window this screen fits in, whole: the table at its narrowest, and the
    ``body`` (the table, the turn and the moves as drawn at the window's width) above the
    rule, a few messages and the input line (never less than ``MIN_WIDTH``×``MIN_HEIGHT``)."""
    narrowest = 0
    if table is not None:
        console = Console(file=io.StringIO(), width=1000, legacy_windows=False)
        narrowest = Measurement.get(console, console.options, table).minimum
    tall = len(body) + MIN_MESSAGES + 2
    return max(MIN_WIDTH, narrowest), max(MIN_HEIGHT, tall)


def too_small(model: Model, size: tuple[int, int], need: tuple[int, int], color: bool,
              blocks: tuple[list[str], ...]) -> list[str]:
    """A window too small for this screen: say so, whose turn it is and the moves when they
    fit (``blocks``: their lines as drawn at this width), and the newest messages."""
    width, height = size
    say = Text(f"The window is too small ({width}×{height}): this screen needs at least "
               f"{need[0]}×{need[1]}. Chat and commands still work.", style="bold yellow")
    lines = render_lines([say], width, color)
    for drawn in blocks:
        if len(lines) + len(drawn) + 2 <= height:  # one message line and the input line
            lines += drawn
    room = max(1, height - len(lines) - 2)
    messages = render_lines(message_lines(list(model.lines), room), width, color)[-room:]
    return (lines + messages)[-max(1, height - 1):]


def _turn_mark(view: dict, seat: int) -> str:
    """``▶ `` before the name of the seat whose turn it is (the seat list may be hidden)."""
    return "▶ " if view.get("current") == seat and view.get("result") is None else ""


def seat_range(view: dict) -> range:
    """The seats a view speaks of, bounded (no game has more than a handful)."""
    return range(min(_count(view.get("num_players")), MAX_SEATS))


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: Any) -> int:
    return value if _int(value) and value >= 0 else 0


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _at(items: list, index: int) -> Any:
    return items[index] if 0 <= index < len(items) else None


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"
