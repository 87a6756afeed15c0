"""Poker 99, rule by rule (RULES.md), with the decisions of its rules page."""

import json
import random
from collections import Counter

import pytest

from shared_rules import GAMES, Match, from_view, new_match
from shared_rules.bots import make_bot
from shared_rules.bots.poker99 import Poker99Bot
from shared_rules.cards import DECK
from shared_rules.describe import describe
from shared_rules.games.poker99 import GAME
from tests import playouts
from tests.rules import helpers
from tests.rules.helpers import cards_in, position


def table(hands: list[list[str]], total: int = 0, last: str | None = None,
          deck: list[str] | None = None, discards: list[str] | None = None,
          status: list[str] | None = None) -> dict:
    """A state with these hands, total and last card. The deck is ``deck`` (drawn from the end)
    or else every unused card; cards left over go to the discards, so all 52 are there."""
    used = {c for hand in hands for c in hand} | set(deck or []) | set(discards or [])
    if last is not None:
        used.add(last)
    spare = [c for c in DECK if c not in used]
    deck = spare if deck is None else list(deck)
    rest = [c for c in spare if c not in deck]
    G = {
        "total": total, "hands": [list(h) for h in hands], "deck": deck,
        "discards": list(discards or []) + rest,
        "last": None if last is None else {"card": last, "seat": len(hands) - 1, "choice": None},
        "status": status or ["in"] * len(hands), "reshuffles": 0,
    }
    assert Counter(all_cards(G)) == Counter(DECK), "a card is given twice"
    return G


def at(G: dict, **ctx: object) -> Match:
    """A match of Poker 99 in exactly this position (seat 0 to move unless told)."""
    ctx.setdefault("current", 0)
    return position(new_match("poker99", len(G["hands"]), seed=1), G, **ctx)


def all_cards(G: dict) -> list[str]:
    cards = G["deck"] + G["discards"] + [c for h in G["hands"] for c in h]
    return cards + ([G["last"]["card"]] if G["last"] else [])


def plays(match: Match, seat: int) -> list[list]:
    return [m["args"] for m in match.legal_moves(seat)]


def refused(match: Match, seat: int, *args: object) -> str:
    """The message of the InvalidMove a play raises; the match must not change."""
    return helpers.refused(match, seat, "play", *args)


# Hands with only number cards too big for a high total: such a player is out at 95.
STUCK = ["9C", "8C", "7C", "6C", "9D"]
STUCK2 = ["9H", "8H", "7H", "6H", "8D"]


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 7))
def test_the_deal_gives_five_cards_each_and_the_rest_is_the_deck(n):
    G = new_match("poker99", n, seed=n).G
    assert [len(h) for h in G["hands"]] == [5] * n
    assert len(G["deck"]) == 52 - 5 * n and G["discards"] == [] and G["last"] is None
    assert Counter(all_cards(G)) == Counter(DECK)


def test_the_deal_is_shuffled():
    hands = {tuple(new_match("poker99", 2, seed=s).G["hands"][0]) for s in range(10)}
    assert len(hands) == 10


def test_the_total_starts_at_0_and_seat_0_starts_going_up():
    m = new_match("poker99", 3, seed=5)
    assert m.G["total"] == 0 and m.ctx["current"] == 0 and m.ctx["direction"] == 1
    m = at(table([["2H"], ["3H"], ["6H"]], deck=["7S", "7H", "7D"]))
    for seat in (0, 1, 2):
        assert m.ctx["current"] == seat
        m = m.apply(seat, "play", m.G["hands"][seat][0])
    assert m.ctx["current"] == 0


def test_after_playing_you_draw_the_top_card_of_the_deck():
    m = at(table([["2H", "3H", "6H", "7H", "8H"], STUCK], deck=["KS", "QS"]))
    m2 = m.apply(0, "play", "2H")
    assert m2.G["hands"][0] == ["3H", "6H", "7H", "8H", "QS"]
    assert m2.G["deck"] == ["KS"]


def test_the_card_played_is_the_last_card_and_the_one_before_goes_under_it():
    m = at(table([["2H", "3H"], STUCK], last="9S"))
    m2 = m.apply(0, "play", "2H")
    assert m2.G["last"] == {"card": "2H", "seat": 0, "choice": None}
    assert "9S" in m2.G["discards"] and "2H" not in m2.G["discards"]
    assert Counter(all_cards(m2.G)) == Counter(DECK)


def test_an_empty_deck_is_rebuilt_from_the_played_cards_but_the_last_one():
    m = at(table([["2H", "3H", "4H", "JH", "KH"], STUCK, STUCK2], total=10, last="9S", deck=[]))
    under = list(m.G["discards"])
    m2 = m.apply(0, "play", "2H")
    assert m2.G["discards"] == [] and m2.G["last"]["card"] == "2H" and m2.G["reshuffles"] == 1
    drawn = m2.G["hands"][0][-1]
    assert sorted([*m2.G["deck"], drawn]) == sorted([*under, "9S"])
    assert Counter(all_cards(m2.G)) == Counter(DECK)


def test_the_rebuilt_deck_is_shuffled():
    orders = set()
    for seed in range(5):
        m = position(new_match("poker99", 3, seed=seed),
                     table([["2H", "3H"], STUCK, STUCK2], last="9S", deck=[]), current=0)
        orders.add(tuple(m.apply(0, "play", "2H").G["deck"]))
    assert len(orders) > 1


def test_decision_with_nothing_at_all_to_draw_you_play_on_with_fewer_cards():
    G = table([["2H", "3H"], ["4H"]], deck=[])
    G = {**G, "discards": [], "hands": [["2H", "3H"], [c for c in DECK if c not in ("2H", "3H")]]}
    m2 = at(G).apply(0, "play", "2H")
    assert m2.G["hands"][0] == ["3H"] and m2.G["deck"] == [] and m2.G["reshuffles"] == 0


# -- what each card does ---------------------------------------------------------------------------


@pytest.mark.parametrize("card, value", [("AH", 1), ("AD", 1), ("AC", 1), ("2S", 2), ("3H", 3),
                                         ("6D", 6), ("7C", 7), ("8S", 8), ("9H", 9)])
def test_number_cards_add_their_face_value(card, value):
    m = at(table([[card], ["KS"]], total=40)).apply(0, "play", card)
    assert m.G["total"] == 40 + value and m.ctx["current"] == 1


@pytest.mark.parametrize("total", [0, 50, 99])
def test_the_ace_of_spades_makes_the_total_1(total):
    assert at(table([["AS"], STUCK], total=total)).apply(0, "play", "AS").G["total"] == 1


def test_a_4_adds_nothing_and_reverses_the_direction():
    m = at(table([["4H"], ["2H"], ["3H"], ["6H"]], total=30)).apply(0, "play", "4H")
    assert m.G["total"] == 30 and m.ctx["direction"] == -1 and m.ctx["current"] == 3
    m = m.apply(3, "play", "6H")
    assert m.ctx["current"] == 2


def test_a_second_4_reverses_back():
    m = at(table([["4H"], ["4D"], ["3H"]], total=30))
    m = m.apply(0, "play", "4H").apply(2, "play", "3H")
    assert m.ctx["current"] == 1
    m = m.apply(1, "play", "4D")
    assert m.ctx["direction"] == 1 and m.ctx["current"] == 2


def test_a_5_adds_nothing_and_the_chosen_player_plays_next():
    m = at(table([["5H"], ["2H"], ["3H"], ["6H"]], total=30)).apply(0, "play", "5H", 2)
    assert m.G["total"] == 30 and m.ctx["current"] == 2
    assert m.G["last"] == {"card": "5H", "seat": 0, "choice": 2}


def test_decision_after_a_5_play_goes_on_from_the_chosen_player():
    m = at(table([["5H"], ["2H"], ["3H"], ["6H"]], total=30)).apply(0, "play", "5H", 2)
    assert m.apply(2, "play", "3H").ctx["current"] == 3
    m = at(table([["5H"], ["2H"], ["3H"], ["6H"]], total=30), direction=-1)
    m = m.apply(0, "play", "5H", 2)
    assert m.apply(2, "play", "3H").ctx["current"] == 1


def test_a_5_may_name_any_other_player_still_in_and_only_them():
    m = at(table([["5H"], ["2H"], [], ["6H"], ["7H"]], status=["in", "in", "out", "in", "left"]),
           out=[2], left=[4])
    assert sorted(plays(m, 0)) == [["5H", 1], ["5H", 3]]
    assert refused(m, 0, "5H", 0) == "With the 5 of hearts you must choose another player, " \
                                     "not yourself"
    assert refused(m, 0, "5H", 2) == "Seat 2 is no longer in the game"
    assert refused(m, 0, "5H", 4) == "Seat 4 is no longer in the game"
    assert refused(m, 0, "5H", 9) == "There is no seat 9"
    assert refused(m, 0, "5H", -1) == "There is no seat -1"


def test_a_5_needs_a_seat_number():
    m = at(table([["5H"], ["2H"]]))
    assert "choose who plays next" in refused(m, 0, "5H")
    assert refused(m, 0, "5H", "+") == "The 5 of hearts takes the seat number of who plays " \
                                       "next, not '+'"


def test_decision_a_5_in_a_two_player_game_hands_the_turn_to_the_opponent():
    m = at(table([["5H"], ["2H"]]))
    assert plays(m, 0) == [["5H", 1]]
    assert m.apply(0, "play", "5H", 1).ctx["current"] == 1


def test_decision_a_4_in_a_two_player_game_still_hands_the_turn_to_the_opponent():
    m = at(table([["4H"], ["2H"]], total=30)).apply(0, "play", "4H")
    assert m.ctx["direction"] == -1 and m.ctx["current"] == 1 and m.G["total"] == 30


def test_a_jack_adds_nothing_and_the_turn_simply_passes():
    m = at(table([["JH"], ["2H"], ["3H"]], total=77)).apply(0, "play", "JH")
    assert m.G["total"] == 77 and m.ctx["current"] == 1 and m.ctx["direction"] == 1


@pytest.mark.parametrize("total", [0, 42, 99])
def test_a_king_makes_the_total_99(total):
    assert at(table([["KH"], ["AS"]], total=total)).apply(0, "play", "KH").G["total"] == 99


@pytest.mark.parametrize("card, step", [("10C", 10), ("QD", 20)])
def test_a_10_adds_or_subtracts_10_and_a_queen_20(card, step):
    m = at(table([[card], ["2H"]], total=50))
    assert m.apply(0, "play", card, "+").G["total"] == 50 + step
    assert m.apply(0, "play", card, "-").G["total"] == 50 - step
    assert m.apply(0, "play", card, "-").G["last"]["choice"] == "-"


@pytest.mark.parametrize("card, name, step", [("10C", "10 of clubs", 10),
                                              ("QD", "queen of diamonds", 20)])
def test_decision_a_10_or_queen_always_needs_a_sign(card, name, step):
    m = at(table([[card], ["2H"]], total=95))
    assert refused(m, 0, card) == f'Say whether the {name} adds or subtracts {step}: "+" or "-"'
    assert "adds or subtracts" in refused(m, 0, card, "x")
    assert "adds or subtracts" in refused(m, 0, card, 1)


@pytest.mark.parametrize("card", ["7H", "AS", "KH", "4H", "JH"])
def test_other_cards_take_no_second_argument(card):
    m = at(table([[card], ["2H"]], total=10))
    name = {"7H": "7 of hearts", "AS": "ace of spades", "KH": "king of hearts",
            "4H": "4 of hearts", "JH": "jack of hearts"}[card]
    assert refused(m, 0, card, "+") == f"The {name} takes no choice: play it on its own"
    assert refused(m, 0, card, 1) == f"The {name} takes no choice: play it on its own"


# -- the limits ------------------------------------------------------------------------------------


def test_a_play_that_takes_the_total_above_99_is_invalid():
    m = at(table([["7H", "QH", "10H", "9D"], ["2H"]], total=93))
    assert refused(m, 0, "7H") == "The 7 of hearts would take the total to 100, above 99"
    assert refused(m, 0, "QH", "+") == "The queen of hearts would take the total to 113, above 99"
    assert refused(m, 0, "10H", "+") == "The 10 of hearts would take the total to 103, above 99"
    assert ["7H"] not in plays(m, 0) and ["QH", "+"] not in plays(m, 0)


def test_a_play_that_reaches_exactly_99_is_allowed():
    assert at(table([["9D"], ["AS"]], total=90)).apply(0, "play", "9D").G["total"] == 99


def test_decision_a_play_that_takes_the_total_below_0_is_invalid():
    m = at(table([["10C", "QS"], ["2H"]], total=5))
    assert refused(m, 0, "10C", "-") == "The 10 of clubs would take the total to -5, below 0"
    assert refused(m, 0, "QS", "-") == "The queen of spades would take the total to -15, below 0"
    assert sorted(plays(m, 0)) == [["10C", "+"], ["QS", "+"]]
    assert at(table([["10C"], ["2H"]], total=10)).apply(0, "play", "10C", "-").G["total"] == 0


def test_legal_plays_are_exactly_the_held_cards_that_keep_the_total_in_range():
    m = at(table([["9D", "3C", "10H", "5S", "KD"], ["2H"], ["2D"]], total=92))
    assert sorted(plays(m, 0)) == sorted([["3C"], ["10H", "-"], ["5S", 1], ["5S", 2], ["KD"]])


# -- errors ----------------------------------------------------------------------------------------


def test_you_cannot_play_a_card_you_do_not_hold():
    m = at(table([["2H"], ["QS"]]))
    assert refused(m, 0, "QS", "+") == "You do not hold the queen of spades"


@pytest.mark.parametrize("card", ["ZZ", "7h", "1H", "", "10"])
def test_something_that_is_not_a_card_is_refused(card):
    assert refused(at(table([["2H"], ["3H"]])), 0, card) == (
        f"{card!r} is not a card: write cards like 7H, 10C or QS")


def test_only_the_player_whose_turn_it_is_may_play():
    m = at(table([["2H"], ["3H"]]))
    assert refused(m, 1, "3H") == "It is not your turn"
    assert plays(m, 1) == []


def test_wrong_argument_types_and_counts_get_a_sentence():
    m = at(table([["2H"], ["3H"]]))
    assert "card must be a text" in refused(m, 0, 7)
    assert "takes 1 to 2 argument(s)" in refused(m, 0)
    assert "takes 1 to 2 argument(s)" in refused(m, 0, "2H", 1, 2)
    assert "choice must be" in refused(m, 0, "2H", True)


# -- going out -------------------------------------------------------------------------------------


def test_a_player_who_cannot_keep_the_total_in_range_is_out_when_their_turn_comes():
    m = at(table([["JH", "2S"], STUCK, ["2H"]], total=95))
    m2 = m.apply(0, "play", "JH")
    assert m2.ctx["out"] == (1,) and m2.G["status"] == ["in", "out", "in"]
    assert m2.G["hands"][1] == [] and set(STUCK) <= set(m2.G["discards"])
    assert m2.ctx["current"] == 2 and m2.result is None
    assert Counter(all_cards(m2.G)) == Counter(DECK)


def test_a_player_is_not_out_before_their_turn_comes():
    m = at(table([["2S", "JH"], ["2H"], STUCK], total=93)).apply(0, "play", "2S")
    assert m.ctx["out"] == () and m.ctx["current"] == 1


@pytest.mark.parametrize("saver", ["4C", "5C", "JC", "KC", "10C", "QC", "AS", "3C"])
def test_one_card_that_fits_keeps_you_in(saver):
    m = at(table([["JH"], [*STUCK[:4], saver], ["2H"]], total=96)).apply(0, "play", "JH")
    assert m.ctx["out"] == () and m.ctx["current"] == 1


def test_an_out_player_gets_no_more_turns():
    m = at(table([["JH", "2S"], STUCK, ["2H", "3H"]], total=95, deck=["JD", "JC"]))
    m = m.apply(0, "play", "JH")
    m = m.apply(2, "play", "2H")
    assert m.ctx["current"] == 0
    assert m.apply(0, "play", "2S").ctx["current"] == 2


def test_an_out_players_cards_are_never_shown():
    m = at(table([["JH", "2S"], STUCK, ["2H"]], total=95)).apply(0, "play", "JH")
    for seat in (None, 0, 1, 2):
        assert not cards_in(m.view(seat)) & set(STUCK)


def test_decision_the_player_chosen_with_a_5_is_checked_too():
    m = at(table([["5H"], ["2H"], STUCK, ["3H"]], total=95)).apply(0, "play", "5H", 2)
    assert m.ctx["out"] == (2,) and m.ctx["current"] == 3


def test_several_players_can_go_out_one_after_another():
    m = at(table([["JH", "2S"], STUCK, STUCK2, ["KS"]], total=95)).apply(0, "play", "JH")
    assert m.ctx["out"] == (1, 2) and m.ctx["current"] == 3


# -- winning ---------------------------------------------------------------------------------------


def test_the_last_player_still_in_wins():
    m = at(table([["JH", "2S"], STUCK], total=95)).apply(0, "play", "JH")
    assert m.result == {"winner": 0} and m.active_seats == []
    assert refused(m, 0, "2S") == "The game is over"


def test_decision_the_last_player_in_wins_even_holding_no_card_that_fits():
    m = at(table([["KH", "2S"], STUCK, STUCK2], deck=["9S"]))
    m2 = m.apply(0, "play", "KH")
    assert m2.G["hands"][0] == ["2S", "9S"]
    assert m2.ctx["out"] == (1, 2) and m2.result == {"winner": 0}


def test_there_is_no_winner_while_two_players_are_in():
    m = at(table([["JH", "2S"], STUCK, ["2H"]], total=95)).apply(0, "play", "JH")
    assert m.result is None


# -- leaving ---------------------------------------------------------------------------------------


def test_a_player_who_leaves_is_dropped_and_their_cards_go_face_down():
    m = at(table([["2H"], ["3H", "4D"], ["6H"]])).drop(1)
    assert m.G["status"] == ["in", "left", "in"] and m.G["hands"][1] == []
    assert {"3H", "4D"} <= set(m.G["discards"])
    assert m.apply(0, "play", "2H").ctx["current"] == 2
    assert Counter(all_cards(m.G)) == Counter(DECK)


def test_decision_when_the_player_to_move_leaves_play_passes_on_in_the_direction():
    m = at(table([["2H"], ["3H"], ["6H"]]), current=1, direction=-1).drop(1)
    assert m.ctx["current"] == 0


def test_the_next_player_is_checked_when_a_leaver_passes_the_turn_on():
    m = at(table([["2H"], ["3H"], STUCK, ["2D"]], total=95), current=1).drop(1)
    assert m.ctx["out"] == (2,) and m.ctx["current"] == 3


def test_when_only_one_player_is_left_they_win():
    assert at(table([["2H"], ["3H"]])).drop(0).result == {"winner": 1}


def test_an_out_player_who_leaves_stays_out():
    m = at(table([["JH", "2S"], STUCK, ["2H"]], total=95)).apply(0, "play", "JH").drop(1)
    assert m.G["status"] == ["in", "out", "in"] and m.ctx["left"] == (1,)


# -- what each seat sees ---------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_rest():
    m = at(table([["2H", "3H"], ["6H", "7H", "8H"], ["9H"]], total=12, last="KS"))
    v = m.view(1)
    assert v["hands"] == ["6H", "7H", "8H"] and v["hands_count"] == [2, 3, 1]
    assert v["deck_count"] == len(m.G["deck"]) and v["discards_count"] == len(m.G["discards"])
    assert "deck" not in v and "discards" not in v
    assert v["total"] == 12 and v["last"]["card"] == "KS" and v["last_card"] == "KS"
    assert v["status"] == ["in", "in", "in"] and v["max_total"] == 99
    assert cards_in(v) == {"6H", "7H", "8H", "KS"}


def test_the_spectator_sees_no_hand():
    v = at(table([["2H"], ["3H"]], last="KS")).view(None)
    assert v["hands"] is None and v["hands_count"] == [1, 1] and cards_in(v) == {"KS"}
    assert v["signed_amounts"] is None


def test_a_seat_is_told_what_its_tens_and_queens_add_or_subtract():
    v = at(table([["10H", "QS", "7C"], ["QD"]], total=40)).view(0)
    assert v["signed_amounts"] == {"10H": 10, "QS": 20}
    assert at(table([["2H"], ["QD"]])).view(0)["signed_amounts"] == {}


def test_only_the_last_card_played_is_shown():
    m = at(table([["2H", "3H"], ["6H", "7H"]])).apply(0, "play", "2H").apply(1, "play", "6H")
    v = m.view(0)
    assert v["last"] == {"card": "6H", "seat": 1, "choice": None} and "2H" not in cards_in(v)
    assert v["direction"] == 1 and v["current"] == 0
    json.dumps(v)


def test_the_log_names_the_card_played_with_its_article():
    m = at(table([["10H", "2C"], ["AS", "3D"], ["6H"]], total=40))
    played = m.apply(0, "play", "10H", "-")
    names = ["Ada", "Bob", "Cy"]
    assert describe(GAME, m.view(None), played.view(None), names, 0, "play") == [
        "Ada played the 10 of hearts (subtracting): total 30"]
    ace = played.apply(1, "play", "AS")
    assert describe(GAME, played.view(None), ace.view(None), names, 1, "play") == [
        "Bob played the ace of spades: total 1"]


# -- sampling a match from a view ------------------------------------------------------------------


def random_positions(count: int, rand: random.Random) -> list[Match]:
    return playouts.random_positions("poker99", count, rand, drop=0.005)


def test_a_sampled_match_shows_the_seat_exactly_its_view():
    rand = random.Random(7)
    helpers.assert_samples_show_views(random_positions(25, rand), rand, all_cards)


def test_a_sampled_match_deals_the_unseen_cards_at_random_and_plays_on():
    first = new_match("poker99", 4, seed=3)
    m = first.apply(0, "play", *first.legal_moves(0)[0]["args"])
    view = m.view(1)
    hands = {tuple(from_view(GAME, view, seed=s).G["hands"][0]) for s in range(8)}
    assert len(hands) > 1
    sample = from_view(GAME, view, seed=1)
    assert sample.G["hands"][1] == m.G["hands"][1]
    move = sample.legal_moves(1)[0]
    assert sample.apply(1, move["move"], *move["args"]).version == m.version + 1


def test_a_view_whose_counts_do_not_add_up_cannot_be_sampled():
    view = new_match("poker99", 3, seed=3).view(0)
    view["deck_count"] -= 1
    with pytest.raises(ValueError):
        from_view(GAME, view, seed=1)


# -- the bot ---------------------------------------------------------------------------------------


def bot_game(levels: list[str], seed: int) -> Match:
    return playouts.bot_game("poker99", levels, seed)


def test_the_normal_bot_is_the_rule_of_thumb_bot():
    assert isinstance(make_bot("poker99", "normal", 1), Poker99Bot)
    assert "poker99" in GAMES


def test_bot_games_always_end_with_legal_moves_only():
    playouts.mixed_bot_games("poker99", 150)


def test_normal_beats_easy_more_often_than_not():
    assert playouts.normal_wins("poker99") > 60


def test_the_bot_plays_its_lowest_number_card_while_one_fits():
    m = at(table([["KH", "8D", "3C", "JS", "QH"], ["2H"]], total=40))
    move = Poker99Bot(1).choose(m.view(0), m.legal_moves(0))
    assert move == {"move": "play", "args": ["3C"]}


def test_the_bot_keeps_its_saved_cards_while_a_number_card_fits():
    m = at(table([["KH", "9D", "2C", "AS", "QH"], ["2H"]], total=97))
    assert Poker99Bot(1).choose(m.view(0), m.legal_moves(0))["args"] == ["2C"]


def test_when_the_total_is_high_the_bot_spends_its_cheapest_saved_card():
    m = at(table([["KH", "9D", "JC", "AS", "QH"], ["2H"]], total=95))
    assert Poker99Bot(1).choose(m.view(0), m.legal_moves(0))["args"] == ["JC"]
    m = at(table([["KH", "9D", "QH", "AS", "8C"], ["2H"]], total=95))
    assert Poker99Bot(1).choose(m.view(0), m.legal_moves(0))["args"] == ["QH", "-"]


def test_the_bot_names_the_next_player_in_turn_with_a_5():
    m = at(table([["5H", "9D"], ["2H"], ["3H"], ["6H"]], total=95), direction=-1)
    assert Poker99Bot(1).choose(m.view(0), m.legal_moves(0))["args"] == ["5H", 3]
