"""Slapjack: every rule line of RULES.md, the decisions of the rules text, the bot and sampling."""

import json
import random

import pytest

from shared_rules import GAMES, Match, from_view, new_match, replay
from shared_rules.bots import make_bot
from shared_rules.bots.slapjack import SlapjackBot
from shared_rules.cards import DECK
from shared_rules.describe import describe
from shared_rules.games.slapjack import slap_reason
from tests.rules.helpers import position, refused

GAME = GAMES["slapjack"]
LIMIT = 2000  # plays, as RULES.md fixes it


# -- building positions -------------------------------------------------------------------------

def table(stacks: list[list[str]], pile: list[str] = (), *, filler: int | None = 0,
          version: int = 10, pile_version: int | None = None, slapped: bool = False,
          plays: int = 0) -> dict:
    """A state with these stack tops (top card first) and pile (bottom card first); the cards
    not named go to the bottom of seat ``filler``'s stack (None: nowhere)."""
    stacks = [list(s) for s in stacks]
    named = [c for s in stacks for c in s] + list(pile)
    assert len(set(named)) == len(named), "a card is named twice"
    if filler is not None:
        stacks[filler] += [c for c in DECK if c not in set(named)]
    return {"stacks": stacks, "pile": list(pile), "version": version,
            "pile_version": version if pile_version is None else pile_version,
            "pile_slapped": slapped, "plays": plays, "events": []}


def at(G: dict, current: int | None = 0, **ctx: object) -> Match:
    """A match of as many players as ``G`` has stacks, in state ``G`` at version G["version"]."""
    base = position(new_match("slapjack", len(G["stacks"]), 1), G, current=current, **ctx)
    return Match(base.game, base.num_players, base.seed, base.G, base.ctx, base.rng,
                 G["version"], base.result, None)


def counts(match: Match) -> list[int]:
    return match.view(None)["stacks_count"]


def cards_in(value: object) -> set[str]:
    text = json.dumps(value)
    return {c for c in DECK if f'"{c}"' in text}


# -- the deal -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "sizes"), [(2, [26, 26]), (3, [18, 17, 17]),
                                          (4, [13, 13, 13, 13]), (5, [11, 11, 10, 10, 10]),
                                          (6, [9, 9, 9, 9, 8, 8])])
def test_the_whole_deck_is_dealt_face_down_as_evenly_as_possible(n, sizes):
    match = new_match("slapjack", n, 7)
    assert counts(match) == sizes
    assert sorted(c for s in match.G["stacks"] for c in s) == sorted(DECK)
    assert match.G["pile"] == [] and match.ctx["current"] == 0
    assert match.result is None


def test_the_deal_depends_on_the_seed():
    assert new_match("slapjack", 2, 1).G["stacks"] != new_match("slapjack", 2, 2).G["stacks"]


def test_nobody_sees_any_card_of_any_stack_not_even_their_own():
    match = new_match("slapjack", 3, 11).apply(0, "play").apply(1, "play")
    spectator = dict(match.view(None), seat=None)
    for seat in (None, 0, 1, 2):
        view = match.view(seat)
        assert "stacks" not in view
        assert view["stacks_count"] == [len(s) for s in match.G["stacks"]]
        assert cards_in(view) == set(match.G["pile"])
        assert dict(view, seat=None) == spectator


def test_the_pile_is_face_up_for_everyone():
    match = new_match("slapjack", 3, 11)
    card = match.G["stacks"][0][0]
    match = match.apply(0, "play")
    for seat in (None, 0, 1, 2):
        view = match.view(seat)
        assert view["pile"] == [card] and view["top"] == card and view["pile_count"] == 1
        assert view["plays"] == 1 and view["play_limit"] == LIMIT


# -- playing ------------------------------------------------------------------------------------

def test_play_puts_the_top_card_of_your_stack_on_the_pile():
    match = at(table([["7H", "2C"], ["9S"], ["4D"]], ["KD"])).apply(0, "play")
    assert match.G["pile"] == ["KD", "7H"]
    assert match.G["stacks"][0][0] == "2C"
    assert counts(match)[0] == 52 - 3 - 1  # 9S, 4D and KD are elsewhere; 7H was played


def test_the_turn_passes_to_the_next_player_who_still_has_cards():
    match = at(table([["7H"], [], ["4D"]], ["KD"]))
    match = match.apply(0, "play")
    assert match.ctx["current"] == 2
    match = match.apply(2, "play")
    assert match.ctx["current"] == 0


def test_only_the_player_whose_turn_it_is_may_play():
    match = new_match("slapjack", 3, 5)
    assert match.legal_moves(1) == [{"move": "slap", "args": []}, {"move": "slap", "args": [0]}]
    assert refused(match, 1, "play") == "It is not your turn"


def test_play_takes_no_arguments():
    assert refused(new_match("slapjack", 2, 5), 0, "play", 3) == (
        "play takes 0 argument(s): no arguments")


def test_a_current_player_without_cards_cannot_play():
    match = at(table([[], ["9S"]], ["KD"], filler=1))
    assert {"move": "play", "args": []} not in match.legal_moves(0)
    assert refused(match, 0, "play") == "You have no cards left to play"


# -- slapping -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("pile", "reason"), [
    (["4C", "JD"], "jack"),
    (["JS"], "jack"),
    (["4C", "9H", "9S"], "pair"),
    (["QH", "4C", "QS"], "sandwich"),
    (["2C", "10H", "3D", "10S"], "sandwich"),
])
def test_a_good_slap_takes_the_whole_pile_under_the_stack_and_the_slapper_plays_next(
        pile, reason):
    match = at(table([["5C"], ["6D", "7D"], ["8S"]], pile))
    stack_before = match.G["stacks"][1]
    match = match.apply(1, "slap", 10)
    assert match.G["stacks"][1] == stack_before + pile
    assert match.G["pile"] == []
    assert match.ctx["current"] == 1
    assert match.G["events"][-1]["kind"] == "good"
    assert match.G["events"][-1]["reason"] == reason


@pytest.mark.parametrize("pile", [
    [], ["9H", "9S", "4C"], ["QH", "4C", "QS", "5D"], ["JH", "4C"], ["QD"], ["KH", "QS"],
    ["AH", "2H", "3H"],
])
def test_a_slap_on_anything_else_is_bad(pile):
    assert slap_reason(pile) is None
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], pile)).apply(1, "slap")
    assert match.G["events"][-1]["kind"] == "bad"


def test_a_bad_slap_puts_the_top_three_cards_under_the_pile_and_keeps_the_turn():
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["KH", "QS"], filler=2))
    match = match.apply(1, "slap", 10)
    assert match.G["pile"] == ["6D", "7D", "8D", "KH", "QS"]
    assert match.G["stacks"][1] == ["9D"]
    assert match.ctx["current"] == 0
    assert match.G["events"][-1]["text"] == "Seat 1 slapped wrongly and put 3 cards under the pile"


def test_a_bad_slap_with_fewer_than_three_cards_gives_them_all():
    match = at(table([["5C"], ["6D", "7D"], ["8S"]], ["KH"])).apply(1, "slap")
    assert match.G["pile"] == ["6D", "7D", "KH"] and match.G["stacks"][1] == []


def test_a_bad_slap_with_no_cards_is_refused_and_never_logged():
    match = at(table([["5C"], [], ["8S"]], ["KH"]))
    assert "no cards" in refused(match, 1, "slap")
    assert "no cards" in refused(match, 1, "slap", match.version)
    assert match.legal_moves(1) == []  # nothing to offer a player with no cards here
    assert {"move": "slap", "args": []} in match.legal_moves(2)


def test_a_stored_log_with_a_slap_by_a_player_with_no_cards_still_replays():
    match = new_match("slapjack", 2, 5)
    while match.G["stacks"][1]:  # seat 1 gives its cards away with bad slaps
        match = match.apply(1, "slap") if not slap_reason(match.G["pile"]) else match.apply(
            match.ctx["current"], "play")
    log = [*match.log, {"seat": 1, "move": "slap", "args": []}]  # played before the guard
    again = replay(GAMES["slapjack"], 2, 5, log)
    assert again.version == len(log)
    assert again.G["events"][-1]["text"].endswith("but had no cards to give")


def test_any_seat_may_slap_at_any_moment_even_with_no_cards():
    match = at(table([["5C"], [], ["8S"]], ["KH", "JH"]))
    for seat in range(3):
        legal = match.legal_moves(seat)
        assert {"move": "slap", "args": []} in legal and {"move": "slap", "args": [10]} in legal
    won = match.apply(1, "slap", 10)
    assert won.G["stacks"][1] == ["KH", "JH"] and won.ctx["current"] == 1


def test_a_slap_without_a_version_is_judged_on_the_pile_as_it_is():
    match = at(table([["5C"], ["6D"], ["8S"]], ["9H", "9S"], pile_version=4))
    assert match.apply(2, "slap").G["stacks"][2][-2:] == ["9H", "9S"]


# -- slaps in close succession ------------------------------------------------------------------

def test_only_the_first_of_two_slaps_on_the_same_pile_counts():
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["9H", "9S"]))
    first = match.apply(2, "slap", 10)
    second = first.apply(1, "slap", 10)
    assert first.G["stacks"][2][-2:] == ["9H", "9S"]
    assert second.G["stacks"][1] == ["9D"]
    assert second.G["pile"] == ["6D", "7D", "8D"]
    assert second.G["events"][-1]["kind"] == "late"
    assert second.G["events"][-1]["text"] == (
        "Seat 1 slapped too late and put 3 cards under the pile")
    assert second.G["events"][-1]["reason"] == "taken"


def test_a_second_slap_on_a_pile_slapped_wrongly_is_late_and_says_so():
    """The same player slapping the same plain pile twice: not "too late" (nobody was first)."""
    match = at(table([["5C"], ["6D", "7D", "8D", "9D", "10D", "QD"], ["8S"]], ["9H", "4S"]))
    again = match.apply(1, "slap", 10).apply(1, "slap", 11)
    first, second = again.G["events"][-2:]
    assert (first["kind"], first["reason"]) == ("bad", None)
    assert (second["kind"], second["reason"]) == ("late", "slapped")
    assert second["text"] == "Seat 1 slapped a pile already slapped and put 3 cards under the pile"


def test_a_jack_played_on_a_jack_does_not_make_a_slap_on_the_first_jack_late():
    """Seat 1 saw the jack of hearts and slapped; seat 0's jack of spades landed first."""
    match = at(table([["JS", "2C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["4C", "JH"]))
    match = match.apply(0, "play")  # version 11: a jack on a jack
    won = match.apply(1, "slap", 10)
    assert won.G["events"][-1]["kind"] == "good" and won.G["events"][-1]["reason"] == "jack"
    assert won.G["stacks"][1][-3:] == ["4C", "JH", "JS"] and won.G["pile"] == []
    assert won.ctx["current"] == 1
    late = won.apply(2, "slap", 11)  # seat 2 saw the second jack: that pile was taken since
    assert late.G["events"][-1]["kind"] == "late" and late.G["stacks"][2] == []


def test_a_pair_played_on_a_pair_does_not_make_a_slap_on_the_first_pair_late():
    """Seat 1 saw 9H 9S and slapped; seat 0's 9D landed first (a pair on a pair)."""
    match = at(table([["9D", "2C"], ["6D", "7D", "8D", "9C"], ["8S"]], ["9H", "9S"]))
    match = match.apply(0, "play")  # version 11: still a pair
    won = match.apply(1, "slap", 10)
    assert won.G["events"][-1]["kind"] == "good" and won.G["events"][-1]["reason"] == "pair"
    assert won.G["stacks"][1][-3:] == ["9H", "9S", "9D"] and won.ctx["current"] == 1
    late = won.apply(2, "slap", 10)  # seat 2 saw the same first pair, but it was taken since
    assert late.G["events"][-1]["kind"] == "late"


def test_a_slap_is_judged_on_the_pile_as_it_is_when_it_arrives():
    match = at(table([["9S", "2C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["9H"]))
    match = match.apply(0, "play")  # a pair now, at version 11
    won = match.apply(1, "slap", 10)
    assert won.G["events"][-1]["kind"] == "good" and won.G["stacks"][1][-2:] == ["9H", "9S"]


def test_a_card_that_leaves_nothing_to_slap_makes_an_earlier_slap_bad():
    match = at(table([["5C", "2C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["JH"]))
    match = match.apply(0, "play")  # the jack is covered at version 11
    bad = match.apply(1, "slap", 10)
    assert bad.G["events"][-1]["kind"] == "bad" and bad.G["stacks"][1] == ["9D"]
    assert bad.G["pile_slapped"] and bad.G["pile_version"] == 12


def test_a_play_does_not_change_the_pile_version():
    match = at(table([["5C", "2C"], ["6D"], ["8S"]], ["JH"], pile_version=7)).apply(0, "play")
    assert match.G["pile_version"] == 7 and match.version == 11


def test_a_slap_naming_a_pile_slapped_since_is_late_even_after_a_play():
    match = at(table([["7C"], ["2C", "3D", "4S", "9D"], ["8S", "6S"]], ["7H"]))
    match = match.apply(1, "slap")  # bad, at version 11
    match = match.apply(0, "play")  # 7C on 7H: a pair, at version 12
    late = match.apply(2, "slap", 10)
    assert late.G["events"][-1]["kind"] == "late"
    assert match.apply(2, "slap", 11).G["events"][-1]["kind"] == "good"


def test_a_late_slap_does_not_spoil_the_pile_for_a_slap_in_time():
    # The pile was taken at version 12; two cards played since make a pair.
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["9H", "9S"], version=14,
                     pile_version=12))
    match = match.apply(1, "slap", 10)  # names a pile taken since: late
    assert match.G["events"][-1]["kind"] == "late" and not match.G["pile_slapped"]
    won = match.apply(2, "slap", 14)
    assert won.G["events"][-1]["kind"] == "good" and won.ctx["current"] == 2


def test_a_slap_naming_a_pile_that_was_taken_is_late():
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["JH"]))
    match = match.apply(2, "slap", 10).apply(2, "play")
    late = match.apply(1, "slap", 10)
    assert late.G["events"][-1]["kind"] == "late"


def test_a_pile_that_was_already_slapped_cannot_be_won_until_the_next_play():
    match = at(table([["7C"], ["2C", "3D", "7S", "9D"], ["8S"]], ["7H"]))
    match = match.apply(1, "slap")  # bad: the three cards go under, making a pair of 7s
    assert match.G["pile"] == ["2C", "3D", "7S", "7H"] and slap_reason(match.G["pile"]) == "pair"
    late = match.apply(2, "slap")
    assert late.G["events"][-1]["kind"] == "late"
    assert late.G["pile"] == ["8S", "2C", "3D", "7S", "7H"] and late.G["stacks"][2] == []
    played = match.apply(0, "play")  # 7C on 7H: a fresh pile, and a pair
    assert played.apply(2, "slap").G["events"][-1]["kind"] == "good"


def test_a_slap_naming_a_version_not_reached_yet_is_refused():
    match = at(table([["5C"], ["6D"], ["8S"]], ["JH"]))
    assert refused(match, 1, "slap", 11) == (
        "There is no version 11 yet: the table is at version 10")
    assert refused(match, 1, "slap", -1) == "There is no version -1: versions start at 0"
    assert refused(match, 1, "slap", "10") == "version must be a whole number, not '10'"
    assert refused(match, 1, "slap", 10, 10) == "slap takes 0 to 1 argument(s): version"


def test_an_older_version_is_accepted_as_a_late_slap_though_not_listed():
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["JH"], version=12,
                     pile_version=10))
    assert {"move": "slap", "args": [3]} not in match.legal_moves(1)
    late = match.apply(1, "slap", 3)
    assert late.G["events"][-1]["kind"] == "late" and late.G["stacks"][1] == ["9D"]


def test_a_late_slap_with_no_cards_is_refused():
    match = at(table([["5C"], [], ["8S"]], ["JH"], slapped=True))
    assert "no cards" in refused(match, 1, "slap")
    assert match.apply(2, "slap").G["events"][-1]["kind"] == "late"  # with cards: it costs


# -- empty stacks -------------------------------------------------------------------------------

def test_a_bad_slap_that_empties_the_current_player_passes_the_turn():
    match = at(table([["5C", "6C"], ["6D"], ["8S"]], ["KH"], filler=2))
    match = match.apply(0, "slap")
    assert match.G["stacks"][0] == [] and match.ctx["current"] == 1


def test_when_nobody_has_cards_but_the_pile_can_be_won_only_slaps_remain():
    pile = [c for c in DECK if c not in ("JH", "5C")] + ["5C"]
    match = at(table([["JH"], [], []], pile, filler=None)).apply(0, "play")
    assert match.ctx["current"] is None
    assert match.result is None and match.active_seats == [0, 1, 2]
    assert all(m["move"] == "slap" for s in range(3) for m in match.legal_moves(s))
    won = match.apply(2, "slap")
    assert won.result == {"winner": 2} and won.G["stacks"][2] == [*pile, "JH"]


def test_a_player_with_no_cards_can_slap_the_pile_back_and_plays_next():
    match = at(table([["5C"], [], ["8S"]], ["KH", "KD"])).apply(1, "slap")
    assert match.G["stacks"][1] == ["KH", "KD"] and match.ctx["current"] == 1
    assert {"move": "play", "args": []} in match.legal_moves(1)


# -- the end ------------------------------------------------------------------------------------

def test_a_player_who_holds_all_52_cards_wins():
    pile = ["4C", "9H", "9S"]
    match = at(table([["5C"], [], []], pile), current=0)
    assert match.result is None
    match = match.apply(0, "slap")
    assert counts(match) == [52, 0, 0] and match.result == {"winner": 0}


def test_nobody_holding_a_card_and_nothing_to_slap_is_a_draw():
    pile = [c for c in DECK if c not in ("5C", "JC")] + ["JC"]
    match = at(table([["5C"], [], []], pile, filler=None))
    assert match.result is None  # the jack can still be slapped
    match = match.apply(0, "play")
    assert match.result == {"draw": True}


def test_nobody_holding_a_card_and_a_pile_already_slapped_is_a_draw():
    pile = [c for c in DECK if c not in ("7H", "7S")] + ["7S", "7H"]
    assert at(table([[], [], []], pile, filler=None, slapped=True)).result == {"draw": True}
    assert at(table([[], [], []], pile, filler=None)).result is None


def test_after_2000_plays_the_player_with_most_cards_wins():
    G = table([["5C", "6C"], ["6D"] + [c for c in DECK if c.endswith("H")], ["8S"]], [],
              filler=0, plays=LIMIT - 1)
    match = at(G)
    assert match.result is None
    match = match.apply(0, "play")
    assert match.G["plays"] == LIMIT
    assert match.result == {"winner": 0}


def test_after_2000_plays_a_tie_for_most_cards_is_a_draw():
    hearts = [c for c in DECK if c.endswith("H")]
    spades = [c for c in DECK if c.endswith("S")]
    rest = [c for c in DECK if c[-1] in "DC" and c != "2D"]
    G = table([["2D"], hearts + spades, rest], [], filler=None, plays=LIMIT - 1)
    match = at(G, current=1).apply(1, "play")
    assert counts(match) == [1, 25, 25] and match.result == {"draw": True}
    match = at(G, current=2).apply(2, "play")
    assert counts(match) == [1, 26, 24] and match.result == {"winner": 1}


def test_slaps_do_not_count_towards_the_play_limit():
    match = at(table([["5C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["KH"], plays=LIMIT - 1))
    match = match.apply(1, "slap")
    assert match.G["plays"] == LIMIT - 1 and match.result is None


# -- the known bugs of earlier implementations --------------------------------------------------

@pytest.mark.parametrize(("seat", "move", "args"), [
    (1, "play", ()), (0, "play", ("AS",)), (None, "play", ()), (7, "play", ()),
    ("0", "play", ()), (0, "deal", ()), (0, None, ()), (0, "slap", (None,)),
    (0, "slap", (1.5,)), (0, "slap", (True,)), (0, "slap", (10**9,)),
])
def test_a_play_at_the_very_start_never_crashes_and_changes_nothing(seat, move, args):
    refused(new_match("slapjack", 3, 3), seat, move, *args)


def test_a_good_slap_never_loses_the_slappers_cards():
    match = new_match("slapjack", 2, 0)
    for _ in range(200):  # play until the pile can be won, then slap with the version seen
        if slap_reason(match.G["pile"]):
            break
        match = match.apply(match.ctx["current"], "play")
    assert slap_reason(match.G["pile"])
    slapper = 1 - match.ctx["current"]
    had, pile = match.G["stacks"][slapper], match.G["pile"]
    won = match.apply(slapper, "slap", match.view(slapper)["version"])
    assert won.G["stacks"][slapper] == had + pile
    assert counts(won)[slapper] == len(had) + len(pile)


def test_the_winner_is_announced_to_everyone():
    pile = [c for c in DECK if c != "JH"] + ["JH"]
    match = at(table([[], [], []], pile, filler=None), current=None).apply(2, "slap")
    assert match.result == {"winner": 2}
    for seat in (None, 0, 1, 2):
        assert match.view(seat)["result"] == {"winner": 2}
        assert match.view(seat)["active_seats"] == []
    assert all(match.legal_moves(s) == [] for s in range(3))
    assert refused(match, 0, "slap") == "The game is over"


def test_a_play_out_of_turn_disturbs_nobody():
    match = new_match("slapjack", 4, 8).apply(0, "play")
    views = [match.view(s) for s in (None, 0, 1, 2, 3)]
    for seat in (0, 2, 3):
        assert refused(match, seat, "play") == "It is not your turn"
    assert [match.view(s) for s in (None, 0, 1, 2, 3)] == views


# -- leaving ------------------------------------------------------------------------------------

def test_a_leavers_stack_goes_face_up_under_the_pile():
    match = at(table([["5C"], ["6D", "7D"], ["8S"]], ["KH"], filler=2, pile_version=9))
    match = match.drop(1)
    assert match.G["pile"] == ["6D", "7D", "KH"] and match.G["stacks"][1] == []
    assert match.G["pile_version"] == 9 and match.ctx["current"] == 0
    assert match.legal_moves(1) == [] and 1 not in match.active_seats
    assert refused(match, 1, "slap") == "You have left this game"
    assert match.G["events"][-1]["text"] == "Seat 1 left; their 2 cards went under the pile"


def test_when_the_current_player_leaves_the_turn_passes_on():
    match = new_match("slapjack", 3, 2).drop(0)
    assert match.ctx["current"] == 1
    assert sum(counts(match)) + len(match.G["pile"]) == 52


def test_the_last_player_left_wins():
    match = new_match("slapjack", 3, 2).drop(0).drop(2)
    assert match.result == {"winner": 1}


# -- the event list -----------------------------------------------------------------------------

def test_events_are_short_public_and_name_no_card():
    match = at(table([["5C"], ["6D"], ["8S"]], ["KH"], filler=1))
    for _ in range(10):
        match = match.apply(1, "slap")
    events = match.G["events"]
    assert len(events) == 8
    assert cards_in(events) == set()
    assert [e["version"] for e in events] == list(range(13, 21))


def test_the_log_names_the_card_turned_up_with_its_article():
    match = at(table([["QH", "2C"], ["9S"]], ["KD"]))
    played = match.apply(0, "play")
    assert describe(GAME, match.view(None), played.view(None), ["Ada", "Bob"], 0, "play") == [
        "Ada turned up the queen of hearts"]


# -- the rule-of-thumb bot ----------------------------------------------------------------------

def test_the_bot_slaps_exactly_when_the_pile_can_be_won_with_the_version_it_saw():
    bot = SlapjackBot(1)
    match = at(table([["5C"], ["6D"], ["8S"]], ["9H", "9S"]))
    assert bot.choose(match.view(2), match.legal_moves(2)) == {"move": "slap", "args": [10]}
    assert bot.choose(match.view(0), match.legal_moves(0)) == {"move": "slap", "args": [10]}
    spent = at(dict(match.G, pile_slapped=True))
    assert bot.choose(spent.view(0), spent.legal_moves(0)) == {"move": "play", "args": []}
    assert bot.choose(spent.view(2), spent.legal_moves(2)) is None
    quiet = at(table([["5C"], ["6D"], ["8S"]], ["9H", "2S"]))
    assert bot.choose(quiet.view(0), quiet.legal_moves(0)) == {"move": "play", "args": []}
    assert bot.choose(quiet.view(1), quiet.legal_moves(1)) is None


def test_the_bots_slap_stays_good_when_a_jack_lands_on_its_jack_first():
    bot = SlapjackBot(1)
    match = at(table([["JS", "2C"], ["6D", "7D", "8D", "9D"], ["8S"]], ["4C", "JH"]))
    choice = bot.choose(match.view(1), match.legal_moves(1))
    assert choice == {"move": "slap", "args": [10]}
    match = match.apply(0, "play")  # the jack of spades lands before the bot's slap
    won = match.apply(1, choice["move"], *choice["args"])
    assert won.G["events"][-1]["kind"] == "good" and won.ctx["current"] == 1


def test_the_easy_bot_slaps_jacks_misses_pairs_and_now_and_then_mistakes_a_face_card():
    """Not a random slapper (which gave its stack away three cards at a time, on any pile)."""
    bot = make_bot("slapjack", "easy", 1)
    jack = at(table([["5C"], ["6D"]], ["9H", "JS"]))
    assert bot.choose(jack.view(1), jack.legal_moves(1)) == {"move": "slap", "args": [10]}
    pair = at(table([["5C"], ["6D"]], ["9H", "9S"]))
    assert bot.choose(pair.view(1), pair.legal_moves(1)) is None
    assert bot.choose(pair.view(0), pair.legal_moves(0)) == {"move": "play", "args": []}
    slapped = at(table([["5C"], ["6D"]], ["9H", "JS"], slapped=True))
    assert bot.choose(slapped.view(1), slapped.legal_moves(1)) is None
    plain = at(table([["5C"], ["6D"]], ["9H", "4S"]))
    assert all(bot.choose(plain.view(1), plain.legal_moves(1)) is None for _ in range(200))
    queen = at(table([["5C"], ["6D"]], ["9H", "QS"]))
    slaps = sum(bot.choose(queen.view(1), queen.legal_moves(1)) is not None for _ in range(1000))
    assert 100 < slaps < 200  # EASY_MISTAKES, 0.15


def bot_game(levels: list[str], seed: int, max_actions: int = 20_000) -> Match:
    """A game between bots; at each step the seats are asked in a random order (who is quickest)
    and the first that wants to act does. Every move a bot makes must be legal."""
    rand = random.Random(seed)
    bots = [make_bot("slapjack", level, seed * 10 + i) for i, level in enumerate(levels)]
    match = new_match("slapjack", len(levels), seed)
    for _ in range(max_actions):
        if match.result is not None:
            return match
        seats = match.active_seats
        rand.shuffle(seats)
        for seat in seats:
            legal = match.legal_moves(seat)
            if not legal:  # a player with no cards and nothing to win back
                continue
            move = bots[seat].choose(match.view(seat), legal)
            if move is not None:
                assert move in legal
                if levels[seat] == "normal" and move["move"] == "slap":
                    assert slap_reason(match.G["pile"]) and not match.G["pile_slapped"]
                match = match.apply(seat, move["move"], *move["args"])
                break
        else:
            raise AssertionError("no bot would act")
    raise AssertionError("the game did not end")


def test_a_few_hundred_bot_games_always_end():
    rand = random.Random(4)
    for seed in range(200):
        n = 2 + seed % 5
        normal = {rand.randrange(n)}
        levels = ["normal" if s in normal else "easy" for s in range(n)]
        assert bot_game(levels, seed).result is not None
    for seed in range(6):
        assert bot_game(["normal", "normal"], seed).result is not None


def test_normal_beats_easy_more_often_than_not():
    wins = 0
    for seed in range(40):
        normal = seed % 2
        levels = ["easy", "easy"]
        levels[normal] = "normal"
        wins += bot_game(levels, 1000 + seed).result == {"winner": normal}
    assert wins > 20


# -- sampling a match from a seat's view --------------------------------------------------------

def test_a_match_sampled_from_a_view_shows_that_seat_the_same_view():
    rand = random.Random(3)
    match = new_match("slapjack", 4, 21)
    checked = 0
    for step in range(400):
        if match.result is not None:
            break
        if step % 8 == 0:
            for seat in (0, 2, None):
                view = match.view(seat)
                sample = from_view(GAME, view, seed=step)
                assert sample.view(seat) == view
                held = [c for stack in sample.G["stacks"] for c in stack]
                assert sorted(held + sample.G["pile"]) == sorted(DECK)
                assert sample.legal_moves(0) == match.legal_moves(0)
                checked += 1
        seat = rand.choice([s for s in match.active_seats if match.legal_moves(s)])
        move = rand.choice(match.legal_moves(seat))
        match = match.apply(seat, move["move"], *move["args"])
    assert checked >= 6


def test_sampling_deals_the_unseen_cards_at_random():
    view = new_match("slapjack", 3, 9).apply(0, "play").view(1)
    a = from_view(GAME, view, seed=1).G["stacks"]
    b = from_view(GAME, view, seed=2).G["stacks"]
    assert a != b and [len(s) for s in a] == [len(s) for s in b] == view["stacks_count"]


def test_a_view_that_does_not_add_up_cannot_be_sampled():
    view = new_match("slapjack", 3, 9).view(0)
    view["stacks_count"] = [18, 17, 16]
    with pytest.raises(ValueError, match="52 cards"):
        from_view(GAME, view, seed=1)
