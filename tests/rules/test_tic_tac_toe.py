"""Tic-Tac-Toe, rule by rule (RULES.md)."""

import pytest

from shared_rules import InvalidMove, Match, new_match
from shared_rules.bots import make_bot
from tests.rules.helpers import position


def play(*cells: int) -> Match:
    match = new_match("tic-tac-toe", 2, seed=1)
    for cell in cells:
        match = match.apply(match.ctx["current"], "place", cell)
    return match


def test_seat_0_plays_x_first_and_seat_1_plays_o():
    match = play(4, 0)
    assert match.view(None)["cells"][4] == "X"
    assert match.view(None)["cells"][0] == "O"
    assert match.active_seats == [0]


def test_cells_are_numbered_row_by_row_and_a_row_wins():
    match = play(0, 3, 1, 4, 2)
    assert match.result == {"winner": 0}
    assert match.view(1)["line"] == [0, 1, 2]


@pytest.mark.parametrize("line", [(0, 3, 6), (2, 4, 6), (0, 4, 8), (6, 7, 8)])
def test_a_column_or_diagonal_wins(line):
    cells = [None] * 9
    for i in line:
        cells[i] = "O"
    match = position(new_match("tic-tac-toe", 2, 1), {"cells": cells})
    assert match.result == {"winner": 1}


def test_full_board_without_a_line_is_a_draw():
    match = play(0, 1, 2, 4, 3, 5, 7, 6, 8)
    assert match.result == {"draw": True}
    assert match.active_seats == []


def test_placing_on_an_occupied_cell_is_invalid():
    match = play(4)
    with pytest.raises(InvalidMove, match="Cell 4 is already taken"):
        match.apply(1, "place", 4)


def test_placing_out_of_turn_is_invalid_and_changes_nothing():
    match = play(4)
    before = match.to_json()
    with pytest.raises(InvalidMove, match="It is not your turn"):
        match.apply(0, "place", 0)
    assert match.to_json() == before


def test_no_move_after_the_game_is_over():
    match = play(0, 3, 1, 4, 2)
    with pytest.raises(InvalidMove, match="The game is over"):
        match.apply(1, "place", 8)


def test_a_player_may_take_back_their_move_until_the_opponent_moves():
    match = play(4)
    assert match.can_undo(0) and not match.can_undo(1)
    undone = match.undo(0)
    assert undone.view(0)["cells"] == [None] * 9
    assert undone.active_seats == [0]
    assert undone.version == 2
    assert undone.log[-1] == {"seat": 0, "move": "undo", "args": []}
    replied = match.apply(1, "place", 0)
    assert not replied.can_undo(0)
    with pytest.raises(InvalidMove):
        replied.undo(0)


def test_undo_survives_serialisation():
    match = play(4, 0)
    again = Match.from_json(match.to_json(), match.game)
    assert again.undo(1) == match.undo(1)


def test_rule_of_thumb_bot_wins_or_blocks():
    bot = make_bot("tic-tac-toe", "normal", seed=1)
    win = position(new_match("tic-tac-toe", 2, 1), {"cells": ["X", "X", None, "O", "O", None,
                                                           None, None, None]})
    assert bot.choose(win.view(0), win.legal_moves(0)) == {"move": "place", "args": [2]}
    block = position(win, {"cells": ["X", None, None, "O", "O", None, "X", None, None]})
    assert bot.choose(block.view(0), block.legal_moves(0)) == {"move": "place", "args": [5]}
