"""Crazy Eights, rule by rule (RULES.md), with the decisions of its rules page."""

import json
import random
from collections import Counter

import pytest

from shared_rules import GAMES, InvalidMove, Match, from_view, new_match, replay
from shared_rules.bots import make_bot
from shared_rules.bots.crazy_eights import CrazyEightsBot, careful, casual
from shared_rules.bots.mcts import MctsBot
from shared_rules.bots.rollouts import crazy_eights_kind
from shared_rules.bots.sharp import CrazyEightsSharpBot
from shared_rules.cards import DECK
from shared_rules.describe import describe
from shared_rules.games.crazy_eights import GAME, MAX_ACTIONS
from shared_rules.rng import seed_state, shuffled
from tests import playouts
from tests.rules.helpers import assert_samples_show_views, cards_in, position, refused

SLUG = "crazy-eights"


def table(hands: list[list[str]], top: str, suit: str | None = None,
          stock: list[str] | None = None, discards: list[str] | None = None,
          **fields: object) -> dict:
    """A state with these hands and top card (``suit`` to follow: the top's own unless told).
    The stock is ``stock`` (drawn from the end) or else every unused card; cards left over go
    under the top discard, so all 52 are there."""
    used = {c for hand in hands for c in hand} | set(stock or []) | set(discards or []) | {top}
    spare = [c for c in DECK if c not in used]
    stock = spare if stock is None else list(stock)
    rest = [c for c in spare if c not in stock]
    G = {
        "hands": [list(h) for h in hands], "stock": stock,
        "discards": list(discards or []) + rest, "top": top,
        "suit": suit if suit is not None else top[-1], "last": None, "passes": 0, "actions": 0,
        "reshuffles": 0,
    }
    G.update(fields)
    assert Counter(all_cards(G)) == Counter(DECK), "a card is given twice"
    return G


def at(G: dict, **ctx: object) -> Match:
    """A match of Crazy Eights in exactly this position (seat 0 to move unless told)."""
    ctx.setdefault("current", 0)
    return position(new_match(SLUG, len(G["hands"]), seed=1), G, **ctx)


def all_cards(G: dict) -> list[str]:
    return G["stock"] + G["discards"] + [c for h in G["hands"] for c in h] + [G["top"]]


def legal(match: Match, seat: int = 0) -> list[tuple]:
    return [(m["move"], *m["args"]) for m in match.legal_moves(seat)]


EIGHTS = ("8S", "8H", "8D", "8C")
NOTHING_FITS = ["2C", "3C", "4C"]  # on a heart that is not a 2, 3 or 4


# -- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 8))
def test_two_players_get_7_cards_three_or_more_get_5_and_a_card_is_turned_up(n):
    G = new_match(SLUG, n, seed=n).G
    size = 7 if n == 2 else 5
    assert [len(h) for h in G["hands"]] == [size] * n
    assert len(G["stock"]) == 52 - size * n - 1 and G["discards"] == []
    assert G["top"][:-1] != "8" and G["suit"] == G["top"][-1]
    assert G["last"] is None and G["passes"] == 0 and G["actions"] == 0
    assert Counter(all_cards(G)) == Counter(DECK)


def test_only_2_to_7_players_may_play():
    for n in (1, 8):
        with pytest.raises(InvalidMove, match="2 to 7 players"):
            new_match(SLUG, n, seed=1)


def test_the_deal_is_shuffled():
    hands = {tuple(new_match(SLUG, 2, seed=s).G["hands"][0]) for s in range(10)}
    assert len(hands) == 10


def first_turned_up(seed: int, n: int) -> tuple[list[str], str]:
    """The hands dealt and the card that would be turned up first, with this seed."""
    deck, _ = shuffled(list(DECK), seed_state(seed))
    size = 7 if n == 2 else 5
    return deck[:size * n], deck[-1]


def test_an_8_turned_up_to_start_goes_back_into_the_stock_and_another_is_turned():
    seed = next(s for s in range(1000) if first_turned_up(s, 2)[1][:-1] == "8")
    dealt, eight = first_turned_up(seed, 2)
    G = new_match(SLUG, 2, seed=seed).G
    assert G["hands"] == [dealt[:7], dealt[7:]]  # the hands are not dealt again
    assert G["top"][:-1] != "8" and eight in G["stock"]
    assert Counter(all_cards(G)) == Counter(DECK)


def test_the_first_card_is_never_an_8():
    assert all(new_match(SLUG, 2 + s % 6, seed=s).G["top"][:-1] != "8" for s in range(300))


def test_seat_0_starts_and_play_goes_up_the_seat_numbers():
    m = at(table([["5H", "2S"], ["6H", "2D"], ["7H", "2C"]], top="4H"))
    for seat in (0, 1, 2):
        assert m.ctx["current"] == seat and m.active_seats == [seat]
        m = m.apply(seat, "play", m.G["hands"][seat][0])
    assert m.ctx["current"] == 0 and m.ctx["direction"] == 1


# -- playing a card ---------------------------------------------------------------------------


def test_a_card_of_the_same_suit_or_rank_fits():
    m = at(table([["QH", "9S", "2C"], ["3D"]], top="9H"))
    assert sorted(legal(m)) == [("draw",), ("play", "9S"), ("play", "QH")]
    after = m.apply(0, "play", "9S")
    assert after.G["top"] == "9S" and after.G["suit"] == "S"
    assert after.G["hands"][0] == ["QH", "2C"] and after.G["discards"][-1] == "9H"
    assert after.G["last"] == {"seat": 0, "move": "play"} and after.ctx["current"] == 1
    assert m.apply(0, "play", "QH").G["suit"] == "H"


def test_a_card_that_does_not_fit_is_refused_with_what_would_fit():
    m = at(table([["2C", "QH"], ["3D"]], top="9H"))
    assert refused(m, 0, "play", "2C") == "The 2 of clubs does not fit: play a heart, a 9 or an 8"
    m = at(table([["2C", "QH"], ["3D"]], top="AH"))
    assert refused(m, 0, "play", "2C") == "The 2 of clubs does not fit: play a heart, an ace or " \
                                          "an 8"


def test_you_cannot_play_a_card_you_do_not_hold_or_that_is_no_card():
    m = at(table([["QH"], ["3D"]], top="9H"))
    assert refused(m, 0, "play", "KH") == "You do not hold the king of hearts"
    assert refused(m, 0, "play", "9h") == "'9h' is not a card: write cards like 7H, 10C or QS"
    assert refused(m, 1, "play", "3D") == "It is not your turn"
    assert "takes 1 to 2 argument(s)" in refused(m, 0, "play")
    assert refused(m, 0, "play", 7) == "card must be a text, not 7"


@pytest.mark.parametrize("eight", EIGHTS)
def test_an_8_fits_on_anything_and_names_any_suit_its_own_included(eight):
    m = at(table([[eight, "2C"], ["3D"]], top="KH"))
    assert sorted(a for a in legal(m) if a[:2] == ("play", eight)) == sorted(
        ("play", eight, s) for s in "SHDC")
    for suit in "SHDC":
        after = m.apply(0, "play", eight, suit)
        assert after.G["top"] == eight and after.G["suit"] == suit


def test_an_8_needs_a_suit_and_only_an_8_takes_one():
    m = at(table([["8C", "QH"], ["3D"]], top="9H"))
    assert refused(m, 0, "play", "8C") == "Name the suit to follow your 8 of clubs: S, H, D or C"
    assert refused(m, 0, "play", "8C", "X") == "'X' is not a suit: name S, H, D or C"
    assert refused(m, 0, "play", "8C", "s") == "'s' is not a suit: name S, H, D or C"
    assert refused(m, 0, "play", "QH", "S") == "Only an 8 names a suit: play the queen of hearts " \
                                               "on its own"


def test_after_an_8_the_next_card_must_have_the_named_suit_or_be_an_8():
    m = at(table([["8H", "2C"], ["3S", "7H", "4D", "8D"]], top="KH")).apply(0, "play", "8H", "S")
    assert sorted(legal(m, 1)) == sorted([("draw",), ("play", "3S"),
                                          *(("play", "8D", s) for s in "SHDC")])
    assert refused(m, 1, "play", "7H") == "The 7 of hearts does not fit: play a spade or an 8"


def test_decision_the_named_suit_replaces_the_8s_own_and_ranks_do_not_match_it():
    G = table([["2C"], ["AH", "8D", "QS"]], top="8H", suit="S")
    assert sorted(legal(at(G, current=1), 1)) == sorted([
        ("draw",), *(("play", "8D", s) for s in "SHDC"), ("play", "QS")])


def test_decision_an_8_may_go_on_an_8_and_may_be_played_when_other_cards_fit():
    m = at(table([["8D", "5S"], ["3C"]], top="8H", suit="S"))
    assert ("play", "8D", "C") in legal(m) and ("play", "5S") in legal(m)
    assert m.apply(0, "play", "8D", "C").G["suit"] == "C"


def test_decision_the_named_suit_stays_through_draws_and_passes():
    m = at(table([["8H", "2C"], ["3D"], ["4D"]], top="KH", stock=["5D", "6D"]))
    m = m.apply(0, "play", "8H", "C")
    m = m.apply(1, "draw").apply(1, "pass").apply(2, "draw").apply(2, "pass")
    assert m.G["top"] == "8H" and m.G["suit"] == "C" and m.ctx["current"] == 0
    assert legal(m)[0] == ("play", "2C")


# -- drawing ----------------------------------------------------------------------------------


def test_decision_you_may_draw_even_when_you_could_play():
    m = at(table([["QH", "2C"], ["3D"]], top="9H", stock=["KS", "JD"]))
    assert ("draw",) in legal(m)
    after = m.apply(0, "draw")
    assert after.G["hands"][0] == ["QH", "2C", "JD"] and after.G["stock"] == ["KS"]
    assert after.ctx["current"] == 0 and after.ctx["stage"] == "drawn"
    assert after.G["last"] == {"seat": 0, "move": "draw"}


def test_decision_one_draw_per_turn():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["KS", "JD"])).apply(0, "draw")
    assert ("draw",) not in legal(m)
    assert refused(m, 0, "draw") == "You have drawn this turn: play the card you drew, or pass"


def test_after_drawing_only_the_drawn_card_may_be_played_if_it_fits():
    m = at(table([["QH", "2C"], ["3D"]], top="9H", stock=["KS", "5H"])).apply(0, "draw")
    assert sorted(legal(m)) == [("pass",), ("play", "5H")]
    assert refused(m, 0, "play", "QH") == "After drawing you may only play the card you drew, " \
                                          "the 5 of hearts, or pass"
    after = m.apply(0, "play", "5H")
    assert after.G["top"] == "5H" and after.ctx["current"] == 1 and after.ctx["stage"] is None


def test_a_drawn_8_may_be_played_naming_a_suit():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["KS", "8S"])).apply(0, "draw")
    assert sorted(legal(m)) == [("pass",), *(("play", "8S", s) for s in "CDHS")]
    assert m.apply(0, "play", "8S", "D").G["suit"] == "D"


def test_a_drawn_card_that_does_not_fit_leaves_only_the_pass():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["KS", "5C"])).apply(0, "draw")
    assert legal(m) == [("pass",)]
    assert refused(m, 0, "play", "5C") == "The 5 of clubs does not fit: play a heart, a 9 or an 8"
    after = m.apply(0, "pass")
    assert after.ctx["current"] == 1 and after.ctx["stage"] is None
    assert after.G["hands"][0] == [*NOTHING_FITS, "5C"] and after.G["passes"] == 0
    assert after.G["last"] == {"seat": 0, "move": "pass"}


def test_decision_you_may_keep_a_drawn_card_that_fits_and_pass():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["KS", "5H"])).apply(0, "draw")
    after = m.apply(0, "pass")
    assert "5H" in after.G["hands"][0] and after.ctx["current"] == 1


def test_you_may_not_pass_without_drawing_while_there_is_a_card_to_draw():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["KS"]))
    assert legal(m) == [("draw",)]
    assert refused(m, 0, "pass") == "Draw a card before passing: there are cards to draw"
    empty_stock = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=[]))
    assert legal(empty_stock) == [("draw",)]  # the discard pile under the top becomes the stock
    assert refused(empty_stock, 0, "pass") == "Draw a card before passing: there are cards to draw"


def test_only_the_drawer_sees_the_drawn_card():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["KS", "5C"])).apply(0, "draw")
    assert m.view(0)["drawn"] == "5C" and m.view(0)["hands"][-1] == "5C"
    assert m.view(1)["drawn"] is None and m.view(None)["drawn"] is None
    assert "5C" not in cards_in(m.view(1)) | cards_in(m.view(None))
    assert m.apply(0, "pass").view(0)["drawn"] is None


# -- when the stock runs out ------------------------------------------------------------------


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_but_its_top_card():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", suit="H", stock=[]))
    under = list(m.G["discards"])
    after = m.apply(0, "draw")
    assert after.G["top"] == "9H" and after.G["suit"] == "H"
    assert after.G["discards"] == [] and after.G["reshuffles"] == 1
    drawn = after.G["hands"][0][-1]
    assert sorted([*after.G["stock"], drawn]) == sorted(under)
    assert Counter(all_cards(after.G)) == Counter(DECK)


def test_the_rebuilt_stock_is_shuffled():
    orders = set()
    for seed in range(5):
        m = position(new_match(SLUG, 2, seed=seed), table([NOTHING_FITS, ["3D"]], top="9H",
                                                          stock=[]), current=0)
        orders.add(tuple(m.apply(0, "draw").G["stock"]))
    assert len(orders) > 1


def test_decision_the_stock_is_rebuilt_only_when_somebody_draws_from_it_empty():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["JS"]))
    after = m.apply(0, "draw")
    assert after.G["stock"] == [] and after.G["discards"] == m.G["discards"]
    assert after.G["reshuffles"] == 0


def nothing_to_draw(hand0: list[str], hand1: list[str], top: str = "9H") -> dict:
    """A state whose stock is empty and whose discard pile is its top card alone: seat 1 holds
    every card that seat 0 does not."""
    rest = [c for c in DECK if c not in hand0 and c not in hand1 and c != top]
    return table([hand0, [*hand1, *rest]], top=top, stock=[], discards=[])


def test_with_nothing_to_draw_a_player_who_cannot_play_passes():
    m = at(nothing_to_draw(NOTHING_FITS, []))
    assert legal(m) == [("pass",)]
    assert refused(m, 0, "draw") == "There is no card to draw: the stock is empty and the " \
                                    "discard pile has only its top card"
    after = m.apply(0, "pass")
    assert after.G["passes"] == 1 and after.ctx["current"] == 1 and after.result is None


def test_decision_with_nothing_to_draw_a_player_who_can_play_must_play():
    m = at(nothing_to_draw(["QH", "2C"], []))
    assert legal(m) == [("play", "QH")]
    assert refused(m, 0, "pass") == "There is nothing to draw, so play: the queen of hearts fits"


# -- the end ----------------------------------------------------------------------------------


def test_the_first_player_to_empty_their_hand_wins_at_once():
    m = at(table([["QH"], ["3D", "4D"], ["5D"]], top="9H")).apply(0, "play", "QH")
    assert m.result == {"winner": 0} and m.active_seats == []
    assert all(m.legal_moves(s) == [] for s in range(3))


def test_decision_an_8_as_the_last_card_still_names_a_suit_and_wins():
    m = at(table([["8C"], ["3D"]], top="9H"))
    assert sorted(legal(m)) == [("draw",), *(("play", "8C", s) for s in "CDHS")]
    assert m.apply(0, "play", "8C", "S").result == {"winner": 0}


NO_HEART_NINE_OR_8 = [c for c in DECK if c[-1] != "H" and c[:-1] not in ("9", "8")]


def blocked_game(hands: list[list[str]]) -> Match:
    """Nothing to draw, and no card of these hands fits the ``9H`` on top. With all 52 cards in
    play this cannot happen in a real game (the hearts, 9s and 8s must be in some hand, whose
    player can then play), so the rule is tested on a position built by hand: the cards that
    would fit are held by one more seat, which has left."""
    rest = [c for c in DECK if c != "9H" and all(c not in h for h in hands)]
    return at(table([*hands, rest], top="9H", stock=[], discards=[]), left=[len(hands)])


def test_a_blocked_game_goes_to_the_fewest_cards():
    spare = NO_HEART_NINE_OR_8
    m = blocked_game([spare[:5], spare[5:7], spare[7:12]])
    m = m.apply(0, "pass").apply(1, "pass")
    assert m.result is None and m.G["passes"] == 2
    m = m.apply(2, "pass")
    assert m.result == {"winner": 1}


def test_a_blocked_game_with_a_tie_for_the_fewest_cards_is_a_draw():
    spare = NO_HEART_NINE_OR_8
    m = blocked_game([spare[:3], spare[3:6]])
    assert m.apply(0, "pass").apply(1, "pass").result == {"draw": True}


def test_decision_a_play_or_a_draw_starts_the_count_of_passes_again():
    spare = NO_HEART_NINE_OR_8
    m = blocked_game([spare[:3], [*spare[3:6], "QH"]])
    m = m.apply(0, "pass")
    assert m.G["passes"] == 1
    m = m.apply(1, "play", "QH")
    assert m.G["passes"] == 0 and m.result is None


def test_decision_a_player_leaving_starts_the_count_of_passes_again():
    spare = NO_HEART_NINE_OR_8
    m = blocked_game([spare[:3], spare[3:6], spare[6:9]])
    m = m.apply(0, "pass").apply(1, "pass")
    m = m.drop(2)  # seat 3 had already left; now seat 2's cards go under the stock
    assert m.G["passes"] == 0 and m.result is None
    assert sorted(m.G["stock"]) == sorted(spare[6:9])


def test_after_1000_actions_the_fewest_cards_win():
    G = table([["QH", "2C"], ["3D", "4D", "5D"]], top="9H", actions=MAX_ACTIONS - 1)
    assert at(G).apply(0, "play", "QH").result == {"winner": 0}
    G = table([["QH", "2C", "3C"], ["3D", "4D"]], top="9H", actions=MAX_ACTIONS - 1)
    assert at(G).apply(0, "play", "QH").result == {"draw": True}
    G = table([["QH", "2C", "3C"], ["3D", "4D"]], top="9H", actions=MAX_ACTIONS - 1)
    assert at(G).apply(0, "draw").result == {"winner": 1}
    G = table([["QH", "2C", "3C"], ["3D", "4D"]], top="9H", actions=MAX_ACTIONS - 2)
    assert at(G).apply(0, "play", "QH").result is None


def test_decision_every_action_counts_a_player_leaving_too():
    m = at(table([["QH"], ["3D"], ["4D"]], top="9H"))
    m = m.apply(0, "draw").apply(0, "pass").drop(2)
    assert m.G["actions"] == 3 == m.version


def test_the_fewest_cards_count_only_the_players_still_in():
    G = table([["QH", "2C"], ["3D", "4D", "5D"], []], top="9H", actions=MAX_ACTIONS - 1)
    m = at(G, left=[2])  # seat 2, with no card, left: it does not win
    assert m.apply(0, "play", "QH").result == {"winner": 0}


# -- leaving ----------------------------------------------------------------------------------


def test_a_leavers_cards_go_under_the_stock_and_their_turns_are_skipped():
    m = at(table([["QH", "2S"], ["3D", "4D"], ["5D", "6C"]], top="9H", stock=["KS", "JD"]))
    m = m.drop(1)
    assert m.G["hands"][1] == [] and m.ctx["left"] == (1,)
    assert sorted(m.G["stock"][:2]) == ["3D", "4D"] and m.G["stock"][2:] == ["KS", "JD"]
    assert m.view(None)["hands_count"] == [2, 0, 2]
    assert m.apply(0, "play", "QH").ctx["current"] == 2
    assert Counter(all_cards(m.G)) == Counter(DECK)


def test_decision_a_leavers_cards_go_under_the_stock_in_an_order_nobody_knows():
    orders = set()
    hand = ["3D", "4D", "5D", "6D", "7D"]
    for seed in range(6):
        m = position(new_match(SLUG, 3, seed=seed),
                     table([["QH"], hand, ["5C"]], top="9H"), current=0)
        orders.add(tuple(m.drop(1).G["stock"][:5]))
    assert len(orders) > 1


def test_decision_a_leaver_whose_turn_it_was_passes_it_on_even_after_drawing():
    m = at(table([NOTHING_FITS, ["3D"], ["5D"]], top="9H", stock=["KS", "2D"])).apply(0, "draw")
    m = m.drop(0)
    assert m.ctx["current"] == 1 and m.ctx["stage"] is None
    assert sorted(m.G["stock"][:4]) == sorted([*NOTHING_FITS, "2D"])


def test_when_only_one_player_is_left_they_win():
    m = at(table([["QH", "2S"], ["3D", "4D"]], top="9H"))
    assert m.drop(0).result == {"winner": 1}
    m = at(table([["QH"], ["3D"], ["4D"]], top="9H")).drop(1)
    assert m.result is None
    assert m.drop(0).result == {"winner": 2}


# -- what each seat sees ----------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_the_top_card_and_only_counts_of_the_rest():
    m = at(table([["2H", "3H"], ["6S", "7S", "8S"], ["9C"]], top="KH", stock=["AS", "AD"]))
    v = m.view(1)
    assert v["hands"] == ["6S", "7S", "8S"] and v["hands_count"] == [2, 3, 1]
    assert v["stock_count"] == 2 and v["discards_count"] == len(m.G["discards"])
    assert "stock" not in v and "discards" not in v
    assert v["top"] == "KH" and v["suit"] == "H" and v["max_actions"] == MAX_ACTIONS
    assert v["hand_size"] == 5 and v["drawn"] is None
    assert cards_in(v) == {"6S", "7S", "8S", "KH"}
    json.dumps(v)


def test_the_spectator_sees_only_the_top_card():
    v = at(table([["2H"], ["3H"]], top="KS")).view(None)
    assert v["hands"] is None and v["hands_count"] == [1, 1] and cards_in(v) == {"KS"}


def test_the_cards_under_the_top_discard_are_never_shown():
    m = at(table([["2H", "3H"], ["6H", "7H"]], top="9H")).apply(0, "play", "2H")
    m = m.apply(1, "play", "6H")
    for seat in (None, 0, 1):
        assert "2H" not in cards_in(m.view(seat)) and "9H" not in cards_in(m.view(seat))


# -- replaying and sampling -------------------------------------------------------------------


def random_positions(count: int, rand: random.Random) -> list[Match]:
    return playouts.random_positions(SLUG, count, rand, drop=0.01)


def test_the_same_seed_and_moves_replay_to_the_same_match():
    rand = random.Random(3)
    positions = random_positions(12, rand)
    assert any(m.G["reshuffles"] for m in positions) and any(m.ctx["left"] for m in positions)
    for m in positions:
        assert replay(GAME, m.num_players, m.seed, m.log) == m
        assert Match.from_json(m.to_json(), GAME) == m


def test_a_sampled_match_shows_the_seat_exactly_its_view():
    rand = random.Random(7)
    assert_samples_show_views(random_positions(20, rand), rand, all_cards, same_moves=True)


def test_a_sampled_match_deals_the_unseen_cards_at_random_and_plays_on():
    m = new_match(SLUG, 3, seed=3).apply(0, "draw")
    view = m.view(0)
    hands = {tuple(from_view(GAME, view, seed=s).G["hands"][1]) for s in range(8)}
    assert len(hands) > 1
    sample = from_view(GAME, view, seed=1)
    assert sample.G["hands"][0] == m.G["hands"][0] and sample.ctx["stage"] == "drawn"
    assert sample.legal_moves(0) == m.legal_moves(0)


def test_a_view_whose_counts_do_not_add_up_cannot_be_sampled():
    view = new_match(SLUG, 3, seed=3).view(0)
    view["stock_count"] -= 1
    with pytest.raises(ValueError):
        from_view(GAME, view, seed=1)


# -- the log in words -------------------------------------------------------------------------


def said(before: Match, after: Match, reader: int | None = None) -> list[str]:
    last = after.log[-1]
    return describe(GAME, before.view(reader), after.view(reader), ["Ada", "Bob", "Cy"],
                    last["seat"], last["move"])


def test_each_move_is_described_without_naming_a_hidden_card():
    m = at(table([["8C", "QH", "2S"], ["3D", "4D"], ["5D"]], top="9H", stock=["JS", "6H"]))
    m1 = m.apply(0, "play", "8C", "S")
    assert said(m, m1) == ["Ada played the 8 of clubs and named spades"]
    m2 = m1.apply(1, "draw")
    assert said(m1, m2, 1) == ["Bob drew a card"]  # not which, even to Bob
    m3 = m2.apply(1, "pass")
    assert said(m2, m3) == ["Bob passed"]
    m4 = m3.drop(1)
    assert said(m3, m4) == ["Bob left the game"]
    m5 = m4.apply(2, "draw").apply(2, "pass")
    assert said(m5, m5.apply(0, "play", "2S")) == ["Ada played the 2 of spades",
                                                    "Ada has one card left"]


def test_a_reshuffle_is_described():
    m = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=[]))
    assert said(m, m.apply(0, "draw")) == ["The discard pile was shuffled into a new stock",
                                           "Ada drew a card"]


# -- the bots ---------------------------------------------------------------------------------


def bot_game(levels: list[str], seed: int, **budget: object) -> Match:
    return playouts.bot_game(SLUG, levels, seed, MAX_ACTIONS, **budget)


def test_the_normal_bot_is_the_rule_of_thumb_bot():
    assert isinstance(make_bot(SLUG, "normal", 1), CrazyEightsBot)
    assert SLUG in GAMES


def test_bot_games_always_end_with_legal_moves_only():
    playouts.mixed_bot_games(SLUG, 60)


def test_the_hard_bot_plays_whole_games_with_legal_moves_only():
    for seed, n in ((1, 2), (2, 4)):
        levels = ["hard", *["normal"] * (n - 1)]
        assert bot_game(levels, seed, seconds=None, iterations=12).result is not None


def test_normal_beats_easy_more_often_than_not():
    assert playouts.normal_wins(SLUG) > 70


def choose(rule, m: Match, seed: int = 1, **kw: object) -> tuple:
    """The move ``rule`` makes for seat 0, as a tuple."""
    actions = [(x["move"], tuple(x["args"])) for x in m.legal_moves(0)]
    name, args = rule(m.G["hands"][0], actions, random.Random(seed), **kw)
    return (name, *args)


def test_the_casual_rule_plays_any_card_that_fits_and_names_the_suit_it_holds_most():
    m = at(table([["8C", "QH", "2S", "3S"], ["3D"]], top="9H"))
    assert {choose(casual, m, seed)[:2] for seed in range(20)} == {("play", "8C"), ("play", "QH")}
    eight_only = at(table([["8C", "2S", "3S", "4D"], ["3D"]], top="9H"))
    assert choose(casual, eight_only) == ("play", "8C", "S")
    nothing = at(table([NOTHING_FITS, ["3D"]], top="9H", stock=["JS"]))
    assert choose(casual, nothing) == ("draw",)


def test_the_careful_rule_keeps_pairs_plays_from_its_longest_suit_and_saves_a_lone_8():
    m = at(table([["QH", "2H", "9S", "3S", "4S", "5C", "5D"], ["6D"]], top="9H"))
    # 9S changes to spades, the suit held most; 2H and QH stay in hearts.
    assert choose(careful, m, fewest_other=7) == ("play", "9S")
    paired = at(table([["QH", "2H", "QC", "7D"], ["6D"]], top="9H"))
    assert choose(careful, paired, fewest_other=7) == ("play", "2H")  # keeps the pair of queens
    lone8 = at(table([["8C", "2S", "4D", "5D", "6D"], ["7C"]], top="9H", stock=["JS"]))
    assert choose(careful, lone8, fewest_other=7) == ("draw",)
    assert choose(careful, lone8, fewest_other=2) == ("play", "8C", "D")  # nearly out: spend it
    small = at(table([["8C", "2S", "3S", "4D"], ["6D"]], top="9H", stock=["JS"]))
    assert choose(careful, small, fewest_other=7)[:2] == ("play", "8C")
    two8 = at(table([["8C", "8D", "3S", "4D", "5D"], ["6D"]], top="9H", stock=["JS"]))
    assert choose(careful, two8, fewest_other=7)[:2] == ("play", "8C")


def test_the_careful_rule_keeps_a_lone_8_it_has_just_drawn():
    m = at(table([["2S", "3S", "4D", "5D", "6C"], ["6D"]], top="9H", stock=["JS", "8C"]))
    m = m.apply(0, "draw")
    assert choose(careful, m, fewest_other=7) == ("pass",)
    assert choose(careful, m, fewest_other=1)[:2] == ("play", "8C")


def test_the_hard_bot_starts_from_the_careful_rule():
    bot = make_bot(SLUG, "hard", 1, seconds=None, iterations=10)
    assert isinstance(bot, MctsBot) and isinstance(bot.guide, CrazyEightsSharpBot)


def test_the_hard_bot_overrules_its_rule_only_within_the_kind_of_move():
    kinds = [crazy_eights_kind((0, name, args)) for name, args in (
        ("play", ("8C", "S")), ("play", ("8D", "H")), ("play", ("9C",)), ("play", ("QC",)),
        ("draw", ()), ("pass", ()))]
    assert kinds[0] == kinds[1] and kinds[2] == kinds[3] and len(set(kinds)) == 4
    # The rule draws to save its lone 8: that is the only move of its kind, so no search runs.
    m = at(table([["8C", "2S", "3S", "4D", "5D"], ["6D", "7D", "2C"]], top="9H", stock=["JS"]))
    bot = make_bot(SLUG, "hard", 1, seconds=None, iterations=50)
    assert bot.choose(m.view(0), m.legal_moves(0)) == {"move": "draw", "args": []}
    assert bot.last_iterations == 0
    # Between two plain cards the search runs, and plays one of them.
    m = at(table([["QH", "2H", "8C", "3S", "4S"], ["6D", "7D", "2C"]], top="9H"))
    move = bot.choose(m.view(0), m.legal_moves(0))
    assert bot.last_iterations == 50 and move["move"] == "play" and move["args"][0] in ("QH", "2H")
