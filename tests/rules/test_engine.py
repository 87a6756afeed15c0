"""The engine's own guarantees, independent of any one game."""

import ast
import dataclasses
import random
import subprocess
import sys
from pathlib import Path

import pytest

from shared_rules import GAMES, InvalidMove, Match, from_view, new_match, replay
from shared_rules.engine import start
from shared_rules.rng import seed_state, shuffled
from tests.playouts import playout


def test_games_carry_their_info():
    info = GAMES["tic-tac-toe"]
    assert (info.slug, info.title, info.min_players, info.max_players) == (
        "tic-tac-toe", "Tic-Tac-Toe", 2, 2)
    assert info.rules.startswith("# Tic-Tac-Toe")


def test_unknown_game_and_bad_player_count_are_refused():
    with pytest.raises(InvalidMove, match="no game"):
        new_match("chess", 2)
    with pytest.raises(InvalidMove, match="2 to 2 players"):
        new_match("tic-tac-toe", 3)


def test_seeds_may_be_int_or_text_and_default_to_a_random_one():
    assert new_match("tic-tac-toe", 2, "party").seed == "party"
    assert seed_state("party") == seed_state("party") != seed_state("other")
    a, b = new_match("tic-tac-toe", 2), new_match("tic-tac-toe", 2)
    assert isinstance(a.seed, int) and a.seed != b.seed


def test_shuffle_is_deterministic_per_state_and_keeps_every_item():
    items = list(range(52))
    one, state = shuffled(items, 7)
    assert shuffled(items, 7) == (one, state)
    assert sorted(one) == items and one != items


def test_apply_returns_a_new_match_and_never_changes_the_old_one():
    match = new_match("tic-tac-toe", 2, 1)
    before = match.to_json()
    after = match.apply(0, "place", 4)
    assert match.to_json() == before
    assert (match.version, after.version) == (0, 1)
    assert after.log == [{"seat": 0, "move": "place", "args": [4]}]


@pytest.mark.parametrize(("call", "message"), [
    ((0, "place"), "place takes 1 argument"),
    ((0, "place", 1, 2), "place takes 1 argument"),
    ((0, "place", "4"), "cell must be a whole number"),
    ((0, "place", None), "cell must be a whole number"),
    ((0, "jump", 1), "There is no move 'jump'"),
    ((2, "place", 1), "There is no seat 2"),
    (("0", "place", 1), "There is no seat '0'"),
    ((None, "place", 1), "There is no seat None"),
])
def test_malformed_calls_raise_invalid_move_with_a_sentence(call, message):
    with pytest.raises(InvalidMove, match=message):
        new_match("tic-tac-toe", 2, 1).apply(*call)


def test_views_carry_the_version_and_whose_turn_it_is():
    view = new_match("tic-tac-toe", 2, 1).apply(0, "place", 4).view(None)
    assert view["version"] == 1 and view["current"] == 1 and view["active_seats"] == [1]
    assert view["seat"] is None and view["result"] is None


def test_a_view_is_a_copy_that_cannot_change_the_match():
    match = new_match("tic-tac-toe", 2, 1)
    match.view(0)["cells"][0] = "O"
    assert match.G["cells"][0] is None


def test_drop_ends_a_two_player_game_for_the_one_left_and_is_logged():
    match = new_match("tic-tac-toe", 2, 1).apply(0, "place", 4).drop(1)
    assert match.result == {"winner": 0}
    assert match.log[-1] == {"seat": 1, "move": "drop", "args": []}
    assert replay(GAMES["tic-tac-toe"], 2, 1, match.log) == match
    with pytest.raises(InvalidMove):
        match.drop(0)


def test_from_json_gives_an_equal_match():
    match = new_match("tic-tac-toe", 2, "x").apply(0, "place", 0).apply(1, "place", 8)
    assert Match.from_json(match.to_json(), match.game) == match
    assert Match.from_json(match.to_json(), match.game) != match.apply(0, "place", 1)
    with pytest.raises(ValueError):
        Match.from_json(match.to_json(), GAMES["poker99"])


def test_a_match_sampled_from_a_view_agrees_with_the_view():
    match = new_match("tic-tac-toe", 2, 1).apply(0, "place", 4)
    sample = from_view(GAMES["tic-tac-toe"], match.view(1), seed=3)
    assert sample.view(1) == match.view(1)
    assert sample.legal_moves(1) == match.legal_moves(1)


def test_log_tail_gives_the_last_actions_oldest_first():
    match = new_match("tic-tac-toe", 2, 1).apply(0, "place", 4).apply(1, "place", 0)
    match = match.apply(0, "place", 8)
    assert match.log_tail(2) == match.log[-2:] == [
        {"seat": 1, "move": "place", "args": [0]}, {"seat": 0, "move": "place", "args": [8]}]
    assert match.log_tail(10) == match.log and match.log_tail(0) == []


def test_undo_at_most_three_times_in_a_row_per_seat():
    match = new_match("tic-tac-toe", 2, 1)
    for _ in range(3):
        match = match.apply(0, "place", 4).undo(0)
    match = match.apply(0, "place", 4)
    assert not match.can_undo(0)
    with pytest.raises(InvalidMove, match="3 moves in a row"):
        match.undo(0)
    match = match.apply(1, "place", 0)  # another seat acted: the count starts again
    assert match.can_undo(1)
    match = match.undo(1).apply(1, "place", 0).apply(0, "place", 8)
    assert match.can_undo(0)


def test_a_take_back_refused_says_when_another_player_moved_first():
    match = new_match("tic-tac-toe", 2, 1)
    with pytest.raises(InvalidMove, match="^There is no move of yours to take back$"):
        match.undo(0)
    match = match.apply(0, "place", 4).apply(1, "place", 0)  # the take-back came too late
    with pytest.raises(InvalidMove, match="Another player has moved since"):
        match.undo(0)


def test_act_takes_a_move_a_drop_or_an_undo_as_the_log_has_it():
    match = new_match("tic-tac-toe", 2, 1)
    played = match.act({"seat": 0, "move": "place", "args": [4]})
    assert played == match.apply(0, "place", 4)
    assert played.act({"seat": 0, "move": "undo", "args": []}) == played.undo(0)
    assert played.act({"seat": 1, "move": "drop"}) == played.drop(1)
    with pytest.raises(InvalidMove):
        played.act({"seat": 0, "move": "place", "args": [8]})  # not seat 0's turn


def test_a_stored_log_with_more_undos_in_a_row_still_replays():
    log = [{"seat": 0, "move": m, "args": a} for _ in range(5)
           for m, a in (("place", [4]), ("undo", []))]
    match = replay(GAMES["tic-tac-toe"], 2, 1, log)
    assert match.version == 10 and match.G["cells"][4] is None


def test_a_match_whose_log_reaches_its_cap_is_a_draw():
    game = dataclasses.replace(GAMES["tic-tac-toe"], max_log=5)
    match = start(game, 2, 1)
    for seat, cell in ((0, 0), (1, 1), (0, 2), (1, 4)):
        match = match.apply(seat, "place", cell)
    assert match.result is None
    match = match.apply(0, "place", 3)  # no line: only the cap ends it
    assert match.version == 5 and match.result == {"draw": True, "reason": "too_long"}
    with pytest.raises(InvalidMove, match="over"):
        match.apply(1, "place", 8)
    again = replay(game, 2, 1, match.log)
    assert again.result == match.result


def test_every_game_caps_its_log_far_above_its_random_games():
    # The caps were set at ten times the longest bot game seen (docs/rules-engine.md); random
    # games, at the fewest and the most players, must never come near them either.
    for slug, game in GAMES.items():
        longest = 0
        for players in sorted({game.min_players, game.max_players}):
            for seed in range(5):
                *_, last = playout(slug, players, seed, random.Random(seed))
                longest = max(longest, len(last.log))
        assert game.max_log >= 5 * longest, (slug, longest, game.max_log)


def test_the_server_reaches_the_rules_through_their_public_names_only():
    """backend/ imports ``from shared_rules import ...``, never one of its modules."""
    reaching_in = []
    for path in sorted((Path(__file__).parents[2] / "backend").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            reaching_in += [f"{path.name}: {n}" for n in names if n.startswith("shared_rules.")]
    assert reaching_in == []


def test_the_rules_package_imports_nothing_of_the_server():
    check = ("import sys, shared_rules.simulate, shared_rules.replays, shared_rules.bots; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('backend', 'flask')))")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr
