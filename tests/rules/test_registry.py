"""What each game declares for the clients (GET /api/games), and how its moves are said."""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import islice

import pytest

from shared_rules import GAMES, new_match
from shared_rules.bots import RULE_OF_THUMB, RandomBot, make_bot
from shared_rules.bots.mcts import MctsBot
from shared_rules.describe import card_name, describe
from shared_rules.words import fill, game_facts, pieces, say, template_problems
from tests.playouts import playout

NAMES = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"]


def said(slug: str, move: str, *args: object) -> str:
    facts = next(m for m in game_facts(GAMES[slug])["moves"] if m["name"] == move)
    return say(facts, move, list(args), NAMES.__getitem__, card_name)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_states_its_facts_as_plain_data(slug):
    game = GAMES[slug]
    facts = json.loads(json.dumps(game_facts(game)))
    assert facts["slug"] == slug and facts["title"] == game.title and facts["summary"]
    assert facts["min_players"] == game.min_players <= game.max_players == facts["max_players"]
    assert facts["private"] == list(game.private) and facts["undoable"] == game.undoable
    assert facts["real_time"] == game.real_time and facts["rules"].startswith("#")
    assert [m["name"] for m in facts["moves"]] == list(game.moves)
    assert template_problems(game) == []


def test_private_hands_are_those_of_the_card_games_that_hide_them():
    private = {"tic-tac-toe": [], "nine-locks": ["hidden"], "poker99": ["hands"], "slapjack": []}
    for slug, keys in private.items():
        assert game_facts(GAMES[slug])["private"] == keys


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_legal_move_of_a_random_game_fits_one_of_its_templates(slug):
    moves = {m["name"]: m for m in game_facts(GAMES[slug])["moves"]}
    rand = random.Random(3)
    for match in islice(playout(slug, GAMES[slug].max_players, 3, rand), 300):
        for seat in match.active_seats:
            for legal in match.legal_moves(seat):
                facts = moves[legal["move"]]
                assert any(fill(t, facts["args"], legal["args"], facts["labels"]) is not None
                           for t in facts["words"]), legal


def test_moves_in_words():
    assert said("nine-locks", "play", "9H", 4) == "play the 9 of hearts on pile 5"
    assert said("nine-locks", "pick_up") == "pick up a card"
    assert said("nine-locks", "key", 0) == "use the key on pile 1"
    assert said("poker99", "play", "10H", "+") == "play the 10 of hearts (adding)"
    assert said("poker99", "play", "5S", 2) == "play the 5 of spades, Cy plays next"
    assert said("poker99", "play", "KD") == "play the king of diamonds"
    assert said("tic-tac-toe", "place", 1) == "top centre (cell 1)"
    assert said("slapjack", "slap", 7) == "slap the pile"


def test_a_template_fits_only_arguments_of_its_kinds():
    assert fill("{c:card}", ["c"], ["ZZ"], {}) is None
    assert fill("{s:seat}", ["s"], ["+"], {}) is None
    assert fill("{s:seat}", ["s"], [True], {}) is None
    assert fill("{x:label}", ["x"], ["?"], {"+": "plus"}) is None
    assert fill("{x}", ["x"], [], {}) is None  # an optional argument not given
    assert fill("on {p:position}!", ["p"], [0], {}) == [("text", "on "), ("text", "1"),
                                                         ("text", "!")]


def test_a_move_nobody_described_is_said_by_its_name_and_arguments():
    assert pieces(None, "pick_up", ["9H", 3]) == [
        ("text", "pick up"), ("text", " "), ("card", "9H"), ("text", " "), ("text", "3")]
    blank = {"name": "go", "args": ["n"], "min_args": 1, "words": [], "labels": {}}
    assert say(blank, "go", [2], str, str) == "go 2"


def test_a_game_without_its_own_log_lines_says_who_made_which_move():
    game = dataclasses.replace(GAMES["tic-tac-toe"], slug="plain", describe=None)
    start = new_match("tic-tac-toe", 2, 1)
    moved = start.apply(0, "place", 4)
    assert describe(game, start.view(None), moved.view(None), NAMES, 0, "place") == ["Ada: place"]
    dropped = moved.drop(1)
    assert describe(game, moved.view(None), dropped.view(None), NAMES, 1, "drop") == [
        "Bob left the game", "Ada wins!"]


@pytest.mark.parametrize("determinize", [True, False])
def test_a_game_with_no_bot_of_its_own_gets_bots_that_play_legal_moves(monkeypatch, determinize):
    ttt = GAMES["tic-tac-toe"]
    game = dataclasses.replace(ttt, slug="plain",
                               determinize=ttt.determinize if determinize else None)
    monkeypatch.setitem(GAMES, "plain", game)
    assert "plain" not in RULE_OF_THUMB
    assert isinstance(make_bot("plain", "normal", 1), RandomBot)
    hard = make_bot("plain", "hard", 1, seconds=None, iterations=20)
    assert isinstance(hard, MctsBot) == determinize
    with pytest.raises(ValueError, match="no game"):
        make_bot("chess", "normal")
    match = new_match("plain", 2, 1)
    while match.result is None:
        seat = match.active_seats[0]
        move = hard.choose(match.view(seat), match.legal_moves(seat))
        match = match.apply(seat, move["move"], *move["args"])
