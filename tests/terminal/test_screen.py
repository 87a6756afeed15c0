"""The terminal client's parts without a server: the model, the commands, the keys and the
drawing of every game, from real matches of the rules package and from hostile payloads."""

from __future__ import annotations

import io
import json
import os
import queue
import random
import re
import termios
import threading
import time
import tty

import pytest

from backend.gamelog import GameLog
from backend.terminal import app as app_module
from backend.terminal import commands
from backend.terminal.app import App
from backend.terminal.client import Incoming, Link
from backend.terminal.keys import (
    BACKSPACE,
    ENTER,
    INTERRUPT,
    KILL,
    PASTE,
    PASTE_OFF,
    PASTE_ON,
    Keyboard,
    LineEditor,
)
from backend.terminal.model import HOST_AWAY_HOLD, REMOVED, Model
from backend.terminal.render import card_text, frame, hot_seat_turn, whose_turn
from backend.terminal.text import clean
from shared_rules import GAMES, new_match
from shared_rules.words import game_facts

ME = "user-me"
PLAYERS = {"tic-tac-toe": 2, "nine-locks": 3, "slapjack": 3, "poker99": 4, "crazy-eights": 3}
FACTS = {slug: json.loads(json.dumps(game_facts(game))) for slug, game in GAMES.items()}


def new_model() -> Model:
    """A model as the client makes it: it knows what GET /api/games says."""
    model = Model(ME)
    model.games = dict(FACTS)
    return model


def room(game: str, seats: int, status: str = "playing", mine: int | None = 0) -> dict:
    """A room object in which ``mine`` is my human seat, the host (Ada, "host-id") sits in
    seat 0 when it is not mine, and the others are bots."""
    names = ["Ada", "Bob", "Cy", "Dee"]

    def user(i: int) -> str | None:
        return ME if i == mine else "host-id" if i == 0 else None

    return {"id": "host-id", "code": "K7MPQ2", "game": game, "title": GAMES[game].title,
            "host": "host-id", "status": status, "spectators": 0,
            "seats": [{"seat": i, "name": names[i % 4],
                       "kind": "human" if user(i) else "bot", "user_id": user(i),
                       "level": None if user(i) else "easy",
                       "connected": True, "ready": True, "left": False}
                      for i in range(seats)]}


def state(match, seat: int | None) -> dict:
    """A ``state`` message exactly as the server builds it."""
    return {"seat": seat, "view": match.view(seat), "legal_moves": match.legal_moves(seat),
            "active_seats": match.active_seats, "result": match.result,
            "version": match.version, "can_undo": seat is not None and match.can_undo(seat)}


def model_for(match, seat: int | None) -> Model:
    model = new_model()
    model.on_room(room(match.game.slug, match.num_players,
                       "finished" if match.result else "playing", mine=seat))
    model.on_seats({"my_seats": [] if seat is None else [seat], "spectator": seat is None})
    model.on_state(state(match, seat))
    return model


def played(slug: str, steps: int, seed: int = 7):
    """A match after up to ``steps`` random legal moves."""
    match = new_match(slug, num_players=PLAYERS[slug], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.result is not None:
            break
        seat = match.active_seats[0] if not match.game.real_time else match.ctx["current"]
        moves = match.legal_moves(seat)
        if not moves:
            break
        move = rng.choice(moves)
        match = match.apply(seat, move["move"], *move["args"])
    return match


def text_of(model: Model, width: int = 100, height: int = 40) -> str:
    return "\n".join(frame(model, width, height, color=False))


@pytest.mark.parametrize("slug", sorted(PLAYERS))
@pytest.mark.parametrize("steps", [0, 9, 5000])
def test_every_game_draws_for_a_player_and_a_spectator(slug, steps):
    match = played(slug, steps)
    for seat in (0, None):
        screen = text_of(model_for(match, seat))
        assert f"Gaming Lounge · {GAMES[slug].title} · room K7MPQ2" in screen
        assert "cannot draw" not in screen
        if match.result is not None:
            assert "wins!" in screen or "You win!" in screen or "draw" in screen
        if seat is None:
            assert "Your moves" not in screen


def test_a_number_typed_after_the_result_says_the_game_is_over_and_what_comes_next():
    match = played("tic-tac-toe", 5000)
    assert match.result is not None
    host = model_for(match, 0)
    host.room = {**host.room, "host": ME}
    assert commands.parse("5", host).text == "The game is over: type /rematch to play again"
    guest = model_for(match, 1)
    assert commands.parse("5", guest).text == "The game is over: the host may start a rematch"


def test_before_the_room_answers_the_screen_says_it_is_joining():
    screen = text_of(new_model())
    assert "Joining the room…" in screen and "Waiting for the host" not in screen


def test_tic_tac_toe_numbers_the_free_cells_and_marks_the_winner():
    """Each cell keeps its number, 1 to 9 as a phone's keypad is read, as the board fills: a
    number counted among the free cells would name another cell after every move."""
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    for seat, cell in [(0, 4), (1, 0)]:
        match = match.apply(seat, "place", cell)
    screen = text_of(model_for(match, 0))
    assert " O │ 2 │ 3 " in screen and " 4 │ X │ 6 " in screen and " 7 │ 8 │ 9 " in screen
    assert "Your turn (X)" in screen
    assert " 2) top centre" in screen and "(cell" not in screen
    model = model_for(match, 0)
    assert commands.parse("6", model).payload == {"move": "place", "args": [5]}
    for seat, cell in [(0, 2), (1, 1), (0, 6)]:
        match = match.apply(seat, "place", cell)
    screen = text_of(model_for(match, 1))
    assert "Ada wins!" in screen and "★  0 Ada" in screen


def test_tic_tac_toe_shows_the_cell_numbers_off_my_turn_too_dimmer():
    """The numbers showed only on my turn, so a player could not plan a move while waiting:
    they show on every free cell for the waiting player and a spectator (dim, not in the
    colour of a move to type now), and go once the game is over."""
    match = new_match("tic-tac-toe", num_players=2, seed=1).apply(0, "place", 4)
    for seat in (0, None):
        screen = text_of(model_for(match, seat))
        assert " 1 │ 2 │ 3 " in screen and " 4 │ X │ 6 " in screen and " 7 │ 8 │ 9 " in screen
        assert "Your moves" not in screen
    waiting = "\n".join(frame(model_for(match, 0), 100, 40))
    mine = "\n".join(frame(model_for(match, 1), 100, 40))
    cyan = re.compile(r"\x1b\[[0-9;]*36m +1 ")  # cyan: a number to type now
    assert cyan.search(mine) and not cyan.search(waiting) and re.search(r"\x1b\[2m +1 ", waiting)
    assert "Your turn (O)" in text_of(model_for(match, 1))
    for seat, cell in [(1, 0), (0, 2), (1, 1), (0, 6)]:
        match = match.apply(seat, "place", cell)
    assert "Ada wins!" in (over := text_of(model_for(match, 1))) and " 2 " not in over


def test_nine_locks_shows_my_hidden_hand_and_only_counts_of_others():
    match = new_match("nine-locks", num_players=3, seed=5)
    mine = text_of(model_for(match, 0))
    hidden = match.view(0)["hidden"]
    assert all(f"{c[:-1]}" in mine for c in hidden)
    assert mine.count("hidden ▒▒ ×3") == 2
    watcher = text_of(model_for(match, None))
    assert watcher.count("hidden ▒▒ ×3") == 3


def test_cards_use_suit_signs_and_red_suits_are_red():
    assert card_text("10H").plain == "10♥" and card_text("QS").plain == "Q♠"
    assert "red" in str(card_text("9D").style) and "red" not in str(card_text("9C").style)
    match = new_match("poker99", num_players=2, seed=3)
    screen = "\n".join(frame(model_for(match, 0), 100, 40, color=True))
    red = [c for c in match.view(0)["hands"] if c[-1] in "HD"]
    assert red, "seed 3 deals a red card to seat 0"
    assert "\x1b[1;31m" + red[0][:-1] in screen or "\x1b[31;1m" + red[0][:-1] in screen


def test_slapjack_offers_one_slap_with_the_pile_version():
    match = new_match("slapjack", num_players=2, seed=2).apply(0, "play")
    model = model_for(match, 1)
    slaps = [c for c in model.choices() if c.move == "slap"]
    assert len(slaps) == 1 and slaps[0].args == (match.version,)
    action = commands.slap(model)
    assert action.event == "move" and action.payload == {"move": "slap",
                                                         "args": [match.version]}
    assert commands.play_card(model).payload == {"move": "play", "args": []}  # my turn now
    assert commands.play_card(model_for(match, 0)) is None  # seat 0 has just played


def test_slapjack_gives_a_seat_with_no_cards_a_slap_on_any_pile():
    """The rules offer such a seat a slap only when the pile can be won: a numbered slap shown
    only then would point the jack out. It is always there; the server refuses a useless one."""
    match, rng = new_match("slapjack", num_players=2, seed=0), random.Random(0)
    for _ in range(200):
        if not match.G["stacks"][1] and match.ctx["current"] == 0 and not any(
                m["move"] == "slap" for m in match.legal_moves(1)):
            break
        seat = rng.choice([0, 1])
        moves = match.legal_moves(seat)
        if moves:
            move = rng.choice(moves)
            match = match.apply(seat, move["move"], *move["args"])
    else:
        pytest.fail("seed 0 never left seat 1 without cards on a pile it cannot win")
    model = model_for(match, 1)
    assert [c.args for c in model.choices() if c.move == "slap"] == [(match.version,)]
    assert commands.slap(model).payload == {"move": "slap", "args": [match.version]}
    finished = model_for(match.drop(0), 1)
    assert not [c for c in finished.choices() if c.move == "slap"]


def hot_seat(match) -> Model:
    """A host who plays seat 0 and, on the same screen, Grace in seat 1, told ``match``."""
    model = new_model()
    seats = room(match.game.slug, 2)
    seats["seats"][1].update(kind="local", user_id=ME, name="Grace")
    model.on_room(seats)
    model.on_seats({"my_seats": [0, 1], "spectator": False})
    for seat in (0, 1):
        model.on_state(state(match, seat))
    return model


def test_hot_seat_moves_name_their_seat():
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    model = hot_seat(match)
    assert model.my_seats == [0, 1]
    action = commands.parse("1", model)
    assert action.payload == {"move": "place", "args": [0], "seat": 0}
    undo = commands.parse("/undo", model)  # nobody has moved: nothing to take back, said here
    assert undo.kind == "note" and undo.text == "None of your seats can take a move back now"
    screen = text_of(model)
    assert "[Ada] top left" in screen and "Ada’s turn (X) · you play it" in screen
    assert hot_seat_turn("Bo", ". Anyone may slap at any moment.") == \
        "Bo’s turn · you play it. Anyone may slap at any moment."


def test_a_hot_seat_player_sees_their_own_hand_on_their_turn():
    match = new_match("poker99", num_players=2, seed=1)
    model = hot_seat(match)
    for _ in range(2):  # seat 0's turn, then seat 1's
        for seat in (0, 1):
            model.on_state(state(match, seat))
        mover = match.ctx["current"]
        assert model.main_state()["seat"] == mover
        move = match.legal_moves(mover)[0]
        match = match.apply(mover, move["move"], *move["args"])


@pytest.mark.parametrize(("width", "height"), [(80, 24), (60, 18), (60, 16), (40, 12)])
def test_a_small_window_keeps_the_newest_messages_and_fits(width, height):
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    for i in range(12):
        model.note(f"message {i}: " + "a long line that wraps in a narrow window " * 2)
    model.note("the newest")
    screen = frame(model, width, height, color=False)
    assert len(screen) <= height - 1  # the input line is the last
    assert "the newest" in screen[-1] and all(len(line) <= width for line in screen)
    if height >= 18:  # the board, the turn, nine moves, the rule and three messages
        assert any(line.endswith(" messages") for line in screen)
    else:  # the table cannot fit: said, not drawn cut
        assert screen[0].startswith(f"The window is too small ({width}×{height})")
        assert "Tic-Tac-Toe" not in "\n".join(screen)


def test_a_window_too_small_for_its_table_says_so_with_the_turn_and_the_moves():
    """Nine Locks for 4 at 60×16 cut the grid the moves speak of; below
    the minimum the player was not told it was their turn, nor their moves."""
    model = model_for(new_match("nine-locks", num_players=4, seed=3), 0)
    small = re.sub(r"\s+", " ", " ".join(frame(model, 60, 16, color=False)))
    assert small.startswith("The window is too small (60×16): this screen needs at least 60×")
    assert "Your turn" in small and "1) " in small and "pick up a card" in small
    assert "face down" not in small  # no table drawn cut
    tiny = frame(model, 60, 6, color=False)  # the turn fits, the moves do not
    assert len(tiny) <= 5 and "Your turn" in tiny and "pick up a card" not in "\n".join(tiny)
    need = int(re.search(r"needs at least 60×(\d+)", small).group(1))
    whole = "\n".join(frame(model, 60, need, color=False))
    assert all(f"{pile}: " in whole for pile in range(1, 10)) and "Your turn" in whole
    assert "too small" not in whole
    narrow = "\n".join(frame(model, 50, 40, color=False))  # the grid needs 52 columns
    assert narrow.startswith("The window is too small (50×40)") and "Your turn" in narrow


def test_lines_become_commands_chat_or_notes():
    model = Model(ME)
    model.bot_levels = ["easy", "normal"]
    assert commands.parse("   ", model) is None
    assert commands.parse(" hi all ", model).payload == {"text": "hi all"}
    assert commands.parse("/say /start is a command", model).payload == {
        "text": "/start is a command"}
    assert commands.parse("/bot", model).payload == {"level": "normal"}
    assert commands.parse("/BOT Easy", model).payload == {"level": "easy"}
    assert commands.parse("/bot hard", model).kind == "note"
    assert commands.parse("/kick x", model).kind == "note"
    assert commands.parse("/kick 2", model).payload == {"seat": 2}  # a seat not on screen
    model.on_room(room("poker99", 3, "waiting"))  # with the name shown, so a moved seat is safe
    assert commands.parse("/kick 2", model).payload == {"seat": 2, "name": "Cy"}
    assert commands.parse("/start", model).event == "start"
    assert commands.parse("/ready", model).payload == {"ready": True}
    assert commands.parse("/quit", model).kind == "quit"
    assert commands.parse("/nope", model).text.startswith("There is no command /nope")
    assert commands.parse("3", model).text == "You have no move to make right now"
    assert commands.parse("x" * 500, model).payload == {"text": "x" * 500}
    too_long = commands.parse("x" * 501, model)
    assert too_long.kind == "note" and "at most 500" in too_long.text
    assert commands.parse("/say " + "y" * 501, model).kind == "note"


def test_old_states_are_ignored_and_a_rematch_starts_afresh():
    first = new_match("tic-tac-toe", num_players=2, seed=1)
    later = first.apply(0, "place", 4)
    model = model_for(later, 0)
    model.on_state(state(first, 0))
    assert model.main_state()["version"] == later.version
    finished = room("tic-tac-toe", 2, "finished")
    model.on_room(finished)
    model.on_room(room("tic-tac-toe", 2, "playing"))
    assert model.states == {}
    model.on_state(state(first, 0))
    assert model.main_state()["version"] == 0


HOSTILE = [None, 0, "text", [], [1, 2], {}, {"seats": "x"}, {"seats": [None, 5, {"seat": "a"}]},
           {"view": None}, {"view": {"cells": "abc"}}, {"view": {"grid": [1] * 9}},
           {"view": {"pile": {"a": 1}}, "seat": 0}, {"view": {"total": "x"}, "seat": "0"},
           {"view": {"cells": [None] * 9, "line": "x"}, "legal_moves": [None, {"move": 5},
            {"move": "place", "args": "x"}, {"move": "place", "args": [True]}]},
           {"view": {"grid": [{"pile": 1, "state": "locked", "top": 5, "count": -1}] * 9,
                     "visible": "x", "num_players": 10**9}, "seat": 0, "result": {"winner": 7}},
           {"text": "\x1b[2J\x1b]0;pwned\x07 hi", "name": "\x1b[31mEve", "ts": "soon"},
           {"text": 5}, {"reason": None}, {"reason": "\x1b[5mhost_left"}]


def assert_safe(model: Model) -> None:
    for color in (True, False):
        screen = "\n".join(frame(model, 80, 24, color))
        assert "\x1b]" not in screen and "\x07" not in screen and "\x1b[2J" not in screen


@pytest.mark.parametrize("game", [*sorted(PLAYERS), "chess", None])
def test_nothing_the_server_sends_breaks_the_screen(game):
    model = Model(ME)
    base = room("tic-tac-toe", 2) | {"game": game}
    for payload in HOSTILE:
        for handler in (model.on_room, model.on_chat, model.on_closed):
            handler(payload)
        model.on_joined({"room": payload, "chat": payload, "seats": payload})
        assert_safe(model)
        model.on_room(base)
        model.on_state(payload)  # drawn by this game's drawer
        assert_safe(model)


def test_a_room_closed_because_its_game_is_withdrawn_says_so():
    model = Model(ME)
    model.on_closed({"reason": "game_withdrawn"})
    assert model.lines[-1].text == "Its game is no longer offered here, so the room was closed."


def test_a_room_whose_host_never_came_says_so():
    model = Model(ME)
    model.on_closed({"reason": "host_never_came"})
    assert model.lines[-1].text == "The host never came, so the room was closed."


def test_text_from_the_server_loses_its_control_characters():
    assert clean("a\x1b[31mb\x00c\u202ed") == "a [31mb c d"
    assert clean(None) == "" and clean(5) == "5" and len(clean("x" * 2000)) == 500


def test_keys_skip_escape_sequences_and_edit_the_line():
    keyboard = Keyboard(0)
    keys = keyboard._keys("a\x1b[A\x1b[1;5Cb\x1bOPc\x1bxd\r\x08")
    assert keys == ["a", "b", "c", "d", ENTER, BACKSPACE]
    editor = LineEditor()
    for key in "hello" + BACKSPACE + "p!":
        editor.feed(key)
    assert editor.feed(ENTER) == "hellp!" and editor.text == ""
    for key in "abc\x07\t" + KILL + "z":
        editor.feed(key)
    assert editor.text == "z"
    for _ in range(600):
        editor.feed("y")
    assert len(editor.text) == 500


def test_the_keyboard_reads_ctrl_c_as_a_key_and_restores_the_terminal():
    leader, follower = os.openpty()
    try:
        before = termios.tcgetattr(follower)
        with Keyboard(follower) as keyboard:
            mode = termios.tcgetattr(follower)
            assert not mode[tty.LFLAG] & (termios.ECHO | termios.ICANON)
            assert mode[tty.LFLAG] & termios.ISIG  # Ctrl-Z still suspends
            assert mode[tty.CC][termios.VSUSP] == b"\x1a"
            os.write(leader, b"a\x03")
            assert keyboard.read(1.0) == ["a", INTERRUPT]
        assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)


def story_of(model: Model) -> list[str]:
    return [line.text for line in model.lines if line.style == "game"]


def told(log: GameLog, match, seat: int) -> dict:
    """The state of ``seat`` after ``match``, with the log lines the server writes for it."""
    return state(match, seat) | log.advance(match, ["Ada", "Bob"])[seat]


def test_the_message_pane_shows_the_log_the_server_writes():
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    model = model_for(match, 1)
    log = GameLog(1, match, ["Ada", "Bob"])
    model.on_state(state(match, 1) | log.full(1))
    match = match.apply(0, "place", 4)
    model.on_state(told(log, match, 1))
    assert story_of(model) == ["The game begins", "Ada put X in the centre"]
    match = match.undo(0)  # a take-back removes its line from the pane, and says who took it
    model.on_state(told(log, match, 1))
    assert story_of(model) == ["The game begins", "Ada took back a move"]
    match = match.apply(0, "place", 0)
    model.on_state(told(log, match, 1))
    # A reconnect sends the whole log again: nothing is said twice.
    model.on_state(state(match, 1) | log.full(1))
    assert story_of(model) == ["The game begins", "Ada took back a move",
                               "Ada put X in the top left"]

    match = new_match("poker99", num_players=2, seed=3)
    model = model_for(match, 1)
    log = GameLog(1, match, ["Ada", "Bob"])
    card = match.legal_moves(0)[0]
    match = match.apply(0, card["move"], *card["args"])
    model.on_state(told(log, match, 1))
    assert story_of(model)[-1].startswith("Ada played ")
    assert story_of(model)[-1].endswith(f": total {match.view(1)['total']}")


def test_a_game_start_is_said_in_one_line():
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    model = new_model()
    model.on_room(room("tic-tac-toe", 2, "waiting"))
    model.on_seats({"my_seats": [0], "spectator": False})
    model.on_room(room("tic-tac-toe", 2, "playing"))
    model.on_state(state(match, 0) | GameLog(1, match, ["Ada", "Bob"]).full(0))
    assert [line.text for line in model.lines] == ["The game begins"]


def test_a_player_who_leaves_is_said_once():
    """During a game the game log says it; after the game (no log line) the client does."""
    match = new_match("tic-tac-toe", num_players=2, seed=1).apply(0, "place", 4)
    model = model_for(match, 0)
    log = GameLog(1, match, ["Ada", "Bob"])
    playing = room("tic-tac-toe", 2)
    playing["seats"][1].update(kind="human", user_id="bob")
    model.on_room(playing)
    gone = json.loads(json.dumps(playing))
    gone["seats"][1]["left"] = True
    model.on_room(gone | {"status": "finished"})  # Bob quit: Ada wins
    match = match.drop(1)
    model.on_state(told(log, match, 0))
    assert story_of(model).count("Bob left the game") == 1
    assert story_of(model)[-1] == "Ada wins!"

    after = new_model()
    after.on_room(playing | {"status": "finished"})
    after.on_seats({"my_seats": [0], "spectator": False})
    after.on_room(gone | {"status": "finished"})
    assert story_of(after) == ["Bob left the game"]


def test_you_are_away_is_said_once_each_time_you_become_away():
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    model = model_for(match, 0)
    here, away = room("tic-tac-toe", 2), room("tic-tac-toe", 2)
    away["seats"][0]["away"] = True
    mine = {"seat": 0, "ends_at": 1, "ms_left": 3_000, "away": True}
    bots = {"seat": 1, "ends_at": 1, "ms_left": 3_000, "away": False}

    def turns() -> None:  # my turns (a bot plays them) and the other seat's, in turn
        for timer in (bots, mine, bots, mine):
            model.on_state(state(match, 0) | {"turn_timer": timer})

    model.on_room(away)
    turns()
    said = [line.text for line in model.lines if line.text.startswith("You are away")]
    assert said == ["You are away: a bot plays your turns. Type /back when you are back."]
    model.on_room(here)  # back (a move, or /back), then away again
    turns()
    model.on_room(away)
    turns()
    assert sum(line.text.startswith("You are away") for line in model.lines) == 2


def test_help_says_how_to_chat_a_slapjack_line_starting_with_s():
    """/help did not list /help, and said Slapjack's keys in every game."""
    slapjack = "\n".join(commands.help_lines("slapjack")).split("Slapjack:", 1)[1]
    assert "/say" in slapjack and "starts with s" in slapjack
    for game in ("tic-tac-toe", "poker99", ""):
        assert "Slapjack" not in "\n".join(commands.help_lines(game))
    assert commands.help_lines("")[1].startswith("/help, /?")
    model = model_for(played("tic-tac-toe", 0), 0)
    app, _ = app_for(model)
    app.perform(commands.parse("/help", model))
    assert said(model)[-len(commands.HELP):] == list(commands.HELP)


def test_the_message_pane_tells_who_comes_and_goes():
    model = Model(ME)
    lobby = room("slapjack", 1, "waiting")
    model.on_room(lobby)
    model.on_joined({"room": lobby, "seats": [0], "my_seats": [0], "spectator": False,
                     "chat": []})
    bob = {"seat": 1, "name": "Bob", "kind": "human", "user_id": "bob", "level": None,
           "connected": True, "ready": False, "left": False}
    model.on_room(lobby | {"seats": [*lobby["seats"], bob]})
    model.on_room(lobby | {"seats": [*lobby["seats"], bob | {"connected": False}]})
    model.on_room(lobby | {"seats": [*lobby["seats"], bob]})
    model.on_room(lobby)
    assert story_of(model) == ["Bob sat down", "Bob lost their connection", "Bob is back",
                               "Bob left the table"]
    model.on_seats({"my_seats": [], "spectator": True})
    assert model.spectator and model.lines[-1].text == "You are now a spectator"


def test_a_removed_player_is_said_removed_and_so_is_a_kicked_hot_seat_player():
    """the other panes said "Dan left the table", and kicking a hot-seat
    player said nothing at all."""
    dan = {"seat": 2, "name": "Dan", "kind": "human", "user_id": "dan", "level": None,
           "connected": True, "ready": False, "left": False}
    lu = dan | {"seat": 3, "name": "Lu", "kind": "local", "user_id": "host-id", "ready": True}
    bo = dan | {"seat": 2, "name": "Bo", "kind": "human", "user_id": "bo"}
    told = {}
    for who, me in (("guest", ME), ("host", "host-id")):
        model = Model(me)
        lobby = room("poker99", 2, "waiting", mine=1)
        lobby["seats"][0].update(kind="human", user_id="host-id")
        model.on_room(lobby | {"seats": [*lobby["seats"], dan, lu]})
        model.on_room(lobby | {"seats": [*lobby["seats"], lu],
                               "removed": [{"user_id": "dan", "name": "Dan"}]})
        model.on_room(lobby | {"removed": [{"user_id": "dan", "name": "Dan"}]})
        model.on_room(lobby | {"seats": [*lobby["seats"], bo]})
        model.on_room(lobby)  # Bo leaves by himself: not removed
        told[who] = story_of(model)
    assert told["guest"] == ["The host removed Dan from the table",
                             "The host removed Lu from the table", "Bo sat down",
                             "Bo left the table"]
    assert told["host"] == ["You removed Dan from the table", "You removed Lu from the table",
                            "Bo sat down", "Bo left the table"]


def test_a_guest_is_told_when_the_host_changes_the_turn_time():
    """The host's own client says it on the ack; every other client says it from the room."""
    said = {}
    for who, host in (("guest", "host-id"), ("host", ME)):
        model = Model(ME)
        lobby = room("tic-tac-toe", 2, "waiting", mine=1) | {"host": host, "turn_seconds": 0}
        model.on_room(lobby)
        for seconds in (60, 60, 0):
            model.on_room(lobby | {"turn_seconds": seconds})
        said[who] = story_of(model)
    assert said == {"guest": ["Ada set the turn time to 60 s", "Ada turned the turn time off"],
                    "host": []}


def test_my_seats_come_from_the_server_never_from_the_seat_list():
    """A room that still lists my left seat does not make it mine (the stuck table of
    issue 13): only ``my_seats`` from the server counts."""
    model = Model(ME)
    gone = room("tic-tac-toe", 2)
    gone["seats"][0]["left"] = True
    model.on_joined({"room": gone, "seats": [], "my_seats": [], "spectator": True,
                     "left_game": True, "chat": []})
    assert model.spectator and model.my_seats == [] and model.left_game
    assert any("You left this game: you are watching" in line.text for line in model.lines)
    model.on_room(room("tic-tac-toe", 2))  # my seat listed, not left: still not mine
    assert model.my_seats == [] and model.spectator


def test_a_player_the_rematch_left_out_is_told_why():
    model = Model(ME)
    model.on_joined({"room": room("tic-tac-toe", 2), "seats": [], "my_seats": [],
                     "spectator": True, "left_game": True, "left_out": True, "chat": []})
    said = [line.text for line in model.lines]
    assert any("started while your connection was lost, without you" in text for text in said)
    assert not any("You left this game" in text for text in said)


def test_the_turn_clock_the_host_grace_and_the_new_commands():
    """Issue 13 in the terminal: the acting seat's clock, a player away, the host's grace
    countdown, and /back, /turntime, /standin."""
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    model = model_for(match, 1)
    timer = {"seat": 0, "ends_at": 1, "ms_left": 27_400, "away": False}
    model.on_state(state(match, 1) | {"turn_timer": timer})
    assert "Ada’s turn (X) · you play O  (0:28 left)" in text_of(model)
    model.on_state(state(match, 1) | {"turn_timer": {**timer, "ms_left": 2_000, "away": True}})
    assert "(away: a bot plays in 2 s)" in text_of(model)
    model.on_state(state(match, 1) | {"turn_timer": None})
    assert "left)" not in text_of(model) and not model.ticking()

    away = room("tic-tac-toe", 2, mine=1) | {"closes_in_ms": 17_000}
    model.on_room(away)
    model.host_gone_at -= HOST_AWAY_HOLD  # the guests are told once the host is gone a moment
    assert model.say_host_away()
    said = "Ada lost connection; the room closes in 17 s unless they come back"
    assert said in [line.text for line in model.lines] and model.ticking()
    model.on_room(room("tic-tac-toe", 2, mine=1) | {"closes_in_ms": None})
    assert model.closes_at is None

    assert commands.parse("/back", model).event == "back"
    assert commands.parse("/turntime 60", model).payload == {"seconds": 60}
    assert commands.parse("/turntime off", model).payload == {"seconds": 0}
    assert commands.parse("/turntime soon", model).kind == "note"
    assert commands.parse("/standin 1", model).payload == {"seat": 1}


def test_the_host_s_commands_say_what_they_did():
    """/turntime, /back and /standin are answered only {"ok": true}: the client says what it
    asked for, once the server agreed."""
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app = App(model, link=None, inbox=None, code="ABCDEF", name="Ada", spectate=False)
    app.on_ack("set_turn_time", {"ok": True}, {"seconds": 60})
    app.on_ack("set_turn_time", {"ok": True}, {"seconds": 0})
    app.away_when_back_sent = True
    app.on_ack("back", {"ok": True}, {})
    app.on_ack("stand_in", {"ok": True}, {"seat": 1})
    app.on_ack("stand_in", {"ok": False, "error": {"code": "bad_state",
                                                    "message": "Bob is here"}}, {"seat": 1})
    said = [line.text for line in model.lines]
    assert said[-5:] == ["Turn time set to 60 s", "Turn time off",
                         "Welcome back: you play your own turns again",
                         "A bot plays for Bob until they are back", "Bob is here"]


CRAZY = {"slug": "crazy-test", "title": "Crazy Test", "summary": "", "min_players": 2,
         "max_players": 4, "rules": "#", "undoable": False, "real_time": False,
         "private": ["hands"], "moves": [
             {"name": "play", "args": ["card", "suit"], "min_args": 1, "labels": {"H": "hearts"},
              "words": ["play {card:card}, calling {suit:label}", "play {card:card}"]},
             {"name": "pass_to", "args": ["seat"], "min_args": 1, "labels": {},
              "words": ["pass to {seat:seat}"]}]}


def test_a_game_with_no_renderer_is_drawn_from_its_view_and_said_in_the_servers_words():
    model = new_model()
    model.games["crazy-test"] = CRAZY
    model.on_room(room("tic-tac-toe", 2) | {"game": "crazy-test", "title": "Crazy Test"})
    model.on_seats({"my_seats": [0], "spectator": False})
    view = {"game": "crazy-test", "seat": 0, "version": 3, "num_players": 2, "current": 0,
            "stage": None, "direction": 1, "turn": 3, "out": [], "left": [], "active_seats": [0],
            "result": None, "pile": ["9H"], "deck_count": 30, "hands": ["8S", "9C"],
            "hands_count": [2, 5], "called": {"suit": "H"}}
    legal = [{"move": "play", "args": ["8S", "H"]}, {"move": "play", "args": ["9C"]},
             {"move": "pass_to", "args": [1]}, {"move": "draw", "args": []}]
    model.on_state({"seat": 0, "view": view, "legal_moves": legal, "active_seats": [0],
                    "result": None, "version": 3, "round": 1})
    screen = text_of(model)
    assert "cannot draw" not in screen
    assert "pile         9♥" in screen and "deck count   30" in screen
    assert "your hands   8♠ 9♣" in screen and "hands count  Ada 2  Bob 5" in screen
    assert 'called       {"suit": "H"}' in screen
    assert " 1) play 8♠, calling hearts" in screen and " 2) play 9♣" in screen
    assert " 3) pass to Bob" in screen and " 4) draw" in screen
    assert commands.parse("3", model).payload == {"move": "pass_to", "args": [1]}
    model.games["crazy-test"] = {"slug": "crazy-test", "moves": [{"name": "play", "words": 5}]}
    assert " 2) play 9♣" in text_of(model)  # words of a bad shape: the move said plainly


# -- the play-test's findings ----------------------------------------------------------------


class FakeLink:
    """The Socket.IO link, minus the network: what the app sends is kept in ``sent``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []
        self.connected = True

    def send(self, event: str, payload: dict) -> bool:
        if self.connected:
            self.sent.append((event, payload))
        return self.connected

    def call(self, event: str, payload: dict, timeout: float = 2.0) -> dict:
        self.sent.append((event, payload))
        return {"ok": True}


def app_for(model: Model) -> tuple[App, FakeLink]:
    link = FakeLink()
    app = App(model, link=link, inbox=queue.Queue(), code="k7mpq2", name="Ada", spectate=False)
    app.joined = True
    return app, link


def said(model: Model) -> list[str]:
    return [line.text for line in model.lines]


def slapjack_app(seat: int = 1):
    match = new_match("slapjack", num_players=2, seed=2).apply(0, "play")
    model = model_for(match, seat)
    app, link = app_for(model)
    app._track_instant()
    return match, model, app, link


def test_a_double_tap_slaps_once_and_a_refused_slap_may_be_sent_again():
    """the second s on the same pile would be judged too late (3 cards)."""
    match, model, app, link = slapjack_app()
    app.on_key("s")
    app.on_key("s")
    assert link.sent == [("move", {"move": "slap", "args": [match.version]})]
    app.on_ack("move", {"ok": False, "error": {"code": "rate_limited", "message": "Slow down"}},
               link.sent[0][1])
    app.on_key("s")  # the refused slap took nothing
    assert len(link.sent) == 2 and app.editor.text == ""


def test_slaps_are_one_per_seat_per_view_with_a_quiet_moment_after_each():
    guard = commands.SlapGuard()
    assert guard.allow(None, (1, 5), 0.0)
    assert not guard.allow(None, (1, 5), 5.0)  # the same pile: never twice
    assert not guard.allow(None, (1, 6), 0.2)  # a new view, but a double tap
    assert guard.allow(None, (1, 6), 0.5)
    assert guard.allow(2, (1, 6), 0.5)  # another seat of a hot seat is another hand
    assert guard.allow(None, (2, 6), 1.0)  # a new game starts its versions again
    guard.forget(None)
    assert guard.allow(None, (2, 6), 1.0)


def test_the_instant_keys_do_not_leave_an_s_in_the_line_when_the_game_ends():
    """an s pressed as the game ends was typed, and "ss/rematch" went out as
    chat. For a moment after the keys stop applying, s and space are swallowed."""
    match, model, app, link = slapjack_app()
    app.inbox.put(Incoming("room", room("slapjack", 2, "finished", mine=1)))
    app._drain()
    for key in "s s":
        app.on_key(key)
    assert app.editor.text == "" and link.sent == []
    app.instant_ended = time.monotonic() - app_module.INSTANT_AFTERGLOW
    for key in "so close":
        app.on_key(key)
    assert app.editor.text == "so close"


def test_the_space_bar_says_why_it_plays_nothing():
    """no cards left is not "It is not your turn"."""
    match, model, app, link = slapjack_app(seat=0)  # seat 0 has just played
    app.on_key(" ")
    assert said(model)[-1] == "It is not your turn"
    empty = state(match, 0)
    empty["view"]["stacks_count"] = [0, 26]
    model.on_state(empty | {"version": match.version + 1})
    app.on_key(" ")
    assert said(model)[-1] == "You have no cards to play"


def test_chat_is_shown_once_and_a_late_joiner_sees_it_before_the_game_so_far():
    """a join (and every rejoin) sends the chat history again."""
    match = new_match("tic-tac-toe", num_players=2, seed=1).apply(0, "place", 4)
    model = new_model()
    log = GameLog(1, match, ["Ada", "Bob"])
    lobby = room("tic-tac-toe", 2, mine=None)
    hello = {"id": 1, "user_id": "host-id", "name": "Ada", "text": "hello", "ts": 1_000}
    model.on_room(lobby)
    model.on_state(state(match, None) | log.full(None))  # the state comes before the answer
    model.on_joined({"room": lobby, "my_seats": [], "spectator": True, "chat": [hello]})
    assert said(model) == ["hello", "The game begins", "Ada put X in the centre"]
    gg = {"id": 2, "user_id": "bob", "name": "Bob", "text": "gg", "ts": 2_000}
    model.on_chat(gg)
    model.on_joined({"room": lobby, "my_seats": [], "spectator": True, "chat": [hello, gg]})
    model.on_chat(gg)
    later = {"id": 3, "user_id": "bob", "name": "Bob", "text": "still here?", "ts": 3_000}
    model.on_joined({"room": lobby, "my_seats": [], "spectator": True,
                     "chat": [hello, gg, later]})  # a rejoin: only what was missed, at the end
    assert said(model)[-2:] == ["gg", "still here?"] and said(model).count("hello") == 1


def test_a_move_typed_while_offline_is_said_to_be_typed_again_not_retried():
    """"(trying again…)" after "Not sent" read as if the move itself would go later; it does
    not, only the connection is tried again."""
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app, link = app_for(model)
    app.on_incoming(Incoming("disconnect", "transport close"))
    link.connected = False
    app.perform(commands.parse("5", model))
    assert said(model)[-1] == ("Not sent: there is no connection to the server. Type it again "
                               "once you are back in the room.")
    assert link.sent == []


def test_a_server_away_is_said_once_in_a_players_words():
    """each failed retry said "Cannot connect: Connection error"."""
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app, link = app_for(model)
    app.on_incoming(Incoming("disconnect", "transport close"))
    for _ in range(3):
        app.on_incoming(Incoming("connect_error", "Connection error"))
    link.connected = False
    for _ in range(2):
        app.perform(commands.parse("hello?", model))
    app.on_incoming(Incoming("connect_error", {"code": "rate_limited", "message": "Too many"}))
    app.on_incoming(Incoming("connect_error", {"code": "rate_limited", "message": "Too many"}))
    assert said(model) == [app_module.LOST, app_module.NOT_SENT,
                           "The server refused the connection: too many"]
    link.connected = True
    app.on_incoming(Incoming("connect"))
    assert said(model)[-1] == app_module.REJOINING and link.sent[-1][0] == "join"
    app.on_ack("join", {"ok": True, "room": model.room, "my_seats": [0], "spectator": False})
    assert said(model)[-1] == app_module.BACK
    app.on_incoming(Incoming("disconnect"))
    assert said(model)[-1] == app_module.LOST  # a new outage is said again


def test_the_join_on_a_reconnection_goes_out_before_the_library_says_connected():
    """The app sends its join on ``connect``, which python-socketio fires on its own thread
    before ``connect()`` sets ``sio.connected``: a join handled in that moment was dropped, and
    the player, told "Connected again", was in no room (a flaky terminal test under load)."""
    inbox: queue.Queue = queue.Queue()
    link = Link("http://127.0.0.1:9", "token", inbox, "k7mpq2")
    packets: list = []
    link.sio._send_packet = packets.append  # the network, left out
    link.sio._connect_event = threading.Event()
    link.sio._handle_connect("/", {"sid": "abc"})  # the namespace's CONNECT packet arrives
    assert inbox.get_nowait().kind == "connect" and not link.sio.connected
    assert link.send("join", {"room": "K7MPQ2"}) and packets
    link.sio.namespaces = {}  # the connection dropped
    assert not link.send("chat", {"text": "hello?"}) and link.call("leave", {}) is None


def test_tic_tac_toe_says_whose_mark_is_whose():
    """"Ada's turn   (playing O)" read as if Ada played O."""
    match = new_match("tic-tac-toe", num_players=2, seed=1)
    assert "Ada’s turn (X) · you play O" in text_of(model_for(match, 1))
    assert "Your turn (X)" in text_of(model_for(match, 0))
    assert "Ada’s turn (X)\n" in text_of(model_for(match, None))


def test_moves_that_each_name_a_pile_are_numbered_as_their_pile():
    """"5) unlock pile 6" made 5 unlock pile 6. The numbers come from the server's
    words (a ``position`` argument), not from the rules."""
    match = new_match("nine-locks", num_players=3, seed=5).apply(0, "pick_up")
    model = model_for(match, 0)
    piles = [m["args"][0] + 1 for m in match.legal_moves(0)]
    assert [n for n, _ in model.numbered()] == piles and 5 not in piles
    assert " 6) unlock pile 6" in text_of(model)
    assert commands.parse("6", model).payload == {"move": "unlock", "args": [5]}
    assert commands.parse("5", model).text.startswith("Pick one of the moves listed: 1, 2,")
    pair = hot_seat(new_match("nine-locks", num_players=2, seed=5).apply(0, "pick_up"))
    assert all(n == c.args[0] + 1 for n, c in pair.numbered())  # one seat acts: piles too
    start = model_for(new_match("nine-locks", num_players=3, seed=5), 0)
    assert [n for n, _ in start.numbered()] == list(range(1, len(start.choices()) + 1))


def test_only_ascii_digits_are_move_numbers():
    """A fullwidth ３ or an Arabic-Indic ٣ is chat, not move 3."""
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    assert commands.parse("1", model).event == "move"
    for typed in ("３", "٣", "²", "1５"):
        assert commands.parse(typed, model).payload == {"text": typed}
    for line in ("/kick ３", "/standin ٣", "/turntime ６0"):
        assert commands.parse(line, model).kind == "note"


def test_bracketed_paste_is_text_and_is_turned_off_again():
    """a pasted line break ran the line."""
    leader, follower = os.openpty()
    screen = os.fdopen(os.dup(follower), "w")
    try:
        with Keyboard(follower, screen) as keyboard:
            assert os.read(leader, 100).decode() == PASTE_ON
            os.write(leader, b"\x1b[200~/ready\r5\rhi\x1b[201~x")
            keys = keyboard.read(1.0)
        assert os.read(leader, 100).decode() == PASTE_OFF
    finally:
        screen.close()
        os.close(leader)
        os.close(follower)
    # the terminal turns \r into \n; the x came in the same read as the paste's line breaks,
    # so it is pasted text too
    assert keys == [PASTE + "/ready\n5\nhix"]
    editor = LineEditor()
    assert editor.feed(keys[0]) is None and editor.text == "/ready 5 hix"
    editor.feed(PASTE + "y" * 600)
    assert len(editor.text) == 500 and editor.overflowed
    assert editor.feed(ENTER) and not editor.overflowed


def test_a_paste_split_over_reads_and_a_lone_esc_eat_nothing():
    keyboard = Keyboard(0)
    assert keyboard._keys("\x1b[200~a\rb") == []
    assert keyboard._keys("c\x1b[201~d") == [PASTE + "a\rbc", "d"]


def read_written(*writes: bytes) -> list[list[str] | None]:
    """What a keyboard on a pseudo-terminal reads after each write (a thread writes, so a
    write larger than the terminal's buffer does not block the test)."""
    leader, follower = os.openpty()
    try:
        keyboard = Keyboard(follower, io.StringIO()).__enter__()
        out = []
        for data in writes:
            writer = threading.Thread(target=os.write, args=(leader, data))
            writer.start()
            out.append(keyboard.read(1.0))
            writer.join()
        keyboard.pause()
        return out
    finally:
        os.close(leader)
        os.close(follower)


def test_a_paste_without_markers_runs_nothing_and_enter_still_sends():
    """pasting "3⏎/quit⏎hello" without bracketed paste played 3, then
    quit. A read with a line break and more after it is a paste; Enter alone or last sends."""
    pasted, enter, typed = read_written(b"3\r/quit\rhello", b"\r", b"hi\r")
    assert pasted == [PASTE + "3\n/quit\nhello"]
    assert enter == [ENTER] and typed == ["h", "i", ENTER]
    editor = LineEditor()
    assert editor.feed(pasted[0]) is None and editor.text == "3 /quit hello"
    assert read_written(b"ab\r\r") == [[PASTE + "ab\n\n"]]  # two Enters at once: pasted
    assert read_written(b"\x03x\ry") == [[PASTE + "\x03x\ny"]]  # the editor drops the Ctrl-C


def test_a_big_paste_is_one_read_however_the_terminal_cuts_it():
    """A paste longer than the terminal's buffer arrives in pieces: all are read as one."""
    text = ("word " * 2000 + "\r/quit\r").encode()
    keys = read_written(text)[0]
    assert keys is not None and len(keys) == 1 and keys[0].startswith(PASTE)
    assert keys[0].endswith("\n/quit\n")


def test_an_end_marker_inside_a_paste_does_not_break_out_of_it():
    """"abc ESC[201~ ⏎ /quit" pasted between the markers quit."""
    keys = read_written(b"\x1b[200~abc\x1b[201~\r/quit\x1b[201~")[0]
    assert keys == [PASTE + "abc\n/quit"]
    editor = LineEditor()
    assert editor.feed(keys[0]) is None and editor.text == "abc /quit"


def test_an_esc_waits_only_a_moment_for_the_rest_of_its_sequence():
    """Esc, a pause, then "bell" gave "ell"."""
    leader, follower = os.openpty()
    try:
        keyboard = Keyboard(follower, io.StringIO()).__enter__()
        os.write(leader, b"\x1b")
        assert keyboard.read(1.0) == []
        time.sleep(0.3)
        os.write(leader, b"bell")
        assert keyboard.read(1.0) == list("bell")
        os.write(leader, b"\x1b[")
        assert keyboard.read(1.0) == []  # a sequence cut short is dropped, not continued
        os.write(leader, b"A")
        assert keyboard.read(1.0) == ["A"]
        os.write(leader, b"a\x1b[Ab")  # an arrow key in between: still skipped
        assert keyboard.read(1.0) == ["a", "b"]
        keyboard.pause()
    finally:
        os.close(leader)
        os.close(follower)


def test_back_ready_unready_and_local_say_what_happened():
    """Findings 9 and 10."""
    lobby = room("poker99", 2, "waiting") | {"host": ME}
    model = new_model()
    model.on_room(lobby)
    model.on_seats({"my_seats": [0], "spectator": False})
    app, link = app_for(model)
    app.perform(commands.parse("/back", model))
    app.on_ack("back", {"ok": True}, {})
    app.on_ack("ready", {"ok": True}, {"ready": True})
    app.on_ack("ready", {"ok": True}, {"ready": False})
    cy = lobby["seats"][1] | {"seat": 2, "name": "Cy (2)", "kind": "local", "user_id": ME}
    model.on_room(lobby | {"seats": [*lobby["seats"], cy]})
    app.on_ack("add_local", {"ok": True, "seat": 2}, {"name": "Cy"})
    app.on_ack("add_local", {"ok": True, "seat": 2}, {"name": "Cy (2)"})
    assert said(model) == [
        "You were not away: no bot was playing for you",
        "The host is always ready: type /start when everyone is",
        "The host is always ready: /unready changes nothing for you",
        "The name Cy was taken: the hot-seat player is Cy (2) at seat 2",
        "Cy (2) joins at seat 2: you play their turns too"]
    guest = new_model()
    guest.on_room(room("tic-tac-toe", 2, "waiting", mine=1))
    guest_app, _ = app_for(guest)
    guest_app.on_ack("ready", {"ok": True}, {"ready": True})
    assert said(guest) == ["You are ready: the host starts the game"]


def test_a_player_the_host_removed_is_told_so():
    """"You are now a spectator" did not say why."""
    model = new_model()
    lobby = room("tic-tac-toe", 2, "waiting", mine=1)
    model.on_joined({"room": lobby, "my_seats": [1], "spectator": False, "chat": []})
    kicked = lobby | {"seats": lobby["seats"][:1], "removed": [{"user_id": ME, "name": "Bob"}]}
    model.on_room(kicked)
    model.on_seats({"my_seats": [], "spectator": True, "left_game": False})
    assert said(model)[-1] == REMOVED


def test_help_marks_every_host_command_and_lists_undo_with_a_seat():
    """The host's commands are those of the host's events (docs/protocol.md: add_bot,
    add_local, remove_seat, start, rematch, set_turn_time, stand_in); each line fits 80
    columns."""
    for command in ("/bot", "/local", "/kick", "/start", "/turntime", "/standin"):
        line = next(x for x in commands.HELP if x.startswith(command))
        assert line.endswith("(host only)"), line
    for command in ("/help", "/ready", "/say", "/undo", "/back", "/quit"):
        assert "host only" not in next(x for x in commands.HELP if x.startswith(command))
    assert any(x.startswith("/undo [SEAT]") for x in commands.HELP)
    assert all(len(x) <= 80 - len("00:00 ") for x in commands.help_lines("slapjack"))


def test_long_lines_wrap_under_their_text_and_players_stay_whole():
    """a wrapped message starts under its text, not under the time; "(in)" is
    never alone on a line; below 60 columns the screen says it is too small."""
    model = model_for(played("poker99", 3), 0)
    model.note("Not everyone is ready: " + "a player with a long name, " * 5)
    screen = text_of(model, 80, 40).splitlines()
    at = next(i for i, x in enumerate(screen) if "Not everyone is ready" in x)
    assert screen[at + 1].startswith(" " * 6) and screen[at + 1][6] != " "
    for width in (60, 64, 70, 80):
        lines = text_of(model, width, 40).splitlines()
        start = next(i for i, x in enumerate(lines) if x.startswith("Players: "))
        rows = [lines[start]] + [x for x in lines[start + 1:start + 4] if x.startswith(" " * 9)]
        for row in rows:
            assert re.fullmatch(r"(Players: | {9})(▶ )?\w+ \d+ cards? \((in|out)\)"
                                r"(  (▶ )?\w+ \d+ cards? \((in|out)\))*\s*", row), row
    small = text_of(model, 59, 40)
    assert small.startswith("The window is too small (59×40)") and "Players:" not in small


def guest_of_a_lobby(closes_in_ms: int) -> tuple[Model, dict, dict]:
    """A guest's model of a lobby, the room as it is, and the room once the host's connection
    is gone (told to the model)."""
    model = new_model()
    lobby = room("tic-tac-toe", 2, "waiting", mine=1)
    lobby["seats"][0].update(kind="human", user_id="host-id")
    model.on_room(lobby)
    gone = json.loads(json.dumps(lobby)) | {"closes_in_ms": closes_in_ms}
    gone["seats"][0]["connected"] = False
    model.on_room(gone)
    return model, lobby, gone


def test_the_host_losing_connection_is_said_once():
    """Guests were told twice ("lost connection; the room closes..." and "lost their
    connection")."""
    model, lobby, gone = guest_of_a_lobby(20_000)
    assert said(model) == [] and not model.say_host_away()  # held a moment
    model.host_gone_at -= HOST_AWAY_HOLD  # the host is still gone a moment later
    model.closes_at -= HOST_AWAY_HOLD
    assert model.say_host_away() and not model.say_host_away()
    model.on_room(gone)
    model.on_room(lobby)
    assert said(model) == ["Ada lost connection; the room closes in 18 s unless they come back",
                           "Ada is back"]


def test_a_host_back_within_a_moment_is_not_said_gone_nor_back():
    """after a server restart, guests saw "Ada lost connection; the room
    closes in 16 s unless they come back", then "Ada is back" at once."""
    model, lobby, gone = guest_of_a_lobby(16_000)
    assert not model.say_host_away()
    model.on_room(lobby)
    assert not model.say_host_away() and said(model) == []
    soon = gone | {"closes_in_ms": 1_500}  # a room about to close is said at once
    model.on_room(soon)
    assert model.say_host_away()
    assert said(model) == ["Ada lost connection; the room closes in 2 s unless they come back"]


def test_small_words():
    """A name ending in a bracket takes no ’s; play goes clockwise, as the rules pages say; a
    player who left is "left", not "0 cards"."""
    assert whose_turn("Bot 1 (hard)") == "Turn: Bot 1 (hard)"
    assert whose_turn("Ada") == "Ada’s turn"
    match = new_match("poker99", num_players=3, seed=1)
    screen = text_of(model_for(match, 0))
    assert "Play goes clockwise" in screen and "seats" not in screen
    left = state(match.drop(1), 0)
    model = model_for(match, 0)
    model.on_state(left)
    assert re.search(r"Players: ▶ Ada 5 cards \(in\)\s+Bob left\s+Cy 5 cards", text_of(model))
    ttt = new_match("tic-tac-toe", num_players=2, seed=1)
    for seat, cell in [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]:
        ttt = ttt.apply(seat, "place", cell)
    assert "You win!" in text_of(model_for(ttt, 0)) and "Ada wins!" in text_of(model_for(ttt, 1))
    assert clean_start("Cannot reach the server at http://x") == "Cannot reach the server at http://x"


def clean_start(message: str) -> str:
    return app_module._start_problem(app_module.ServerError("unreachable", message), {})


def test_quitting_says_the_same_for_every_way_out():
    """Ctrl-C said "Bye." and /quit "You left the room."."""
    for key in ("\x03", "\x04"):
        model = new_model()
        model.on_room(room("tic-tac-toe", 2, "waiting") | {"host": ME})
        app, link = app_for(model)
        app.on_key(key)
        assert link.sent == [("leave", {})]
        assert app.farewell == "You left room K7MPQ2. As you were its host, it is closed for " \
            "everyone."
    guest = new_model()
    guest.on_room(room("tic-tac-toe", 2, "waiting", mine=1))
    app, _ = app_for(guest)
    app.perform(commands.parse("/quit", guest))
    assert app.farewell == "You left room K7MPQ2."


def test_a_full_line_is_said_once():
    """the editor stopped at 500 characters without a word."""
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app, link = app_for(model)
    for _ in range(520):
        app.on_key("x")
    assert said(model) == ["The line is full: a message is at most 500 characters"]
    app.on_key(ENTER)
    assert link.sent == [("chat", {"text": "x" * 500})]


def test_a_room_back_in_its_lobby_says_why_once():
    model = new_model()
    model.on_room(room("tic-tac-toe", 2, "playing", mine=1))
    why = "The game being played could not be picked up again after the server restarted."
    back = room("tic-tac-toe", 2, "waiting", mine=1) | {"notice": why}
    model.on_room(back)
    model.on_room(back | {"spectators": 1})
    assert [line.text for line in model.lines].count(why) == 1
    assert why in text_of(model)
    model.on_room(room("tic-tac-toe", 2, "playing", mine=1) | {"notice": None})
    model.on_room(back)
    assert [line.text for line in model.lines].count(why) == 2
