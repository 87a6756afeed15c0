"""Nine Locks, rule by rule (RULES.md), with the decisions of its rules page."""

import random
from collections import Counter

import pytest

from shared_rules import GAMES, InvalidMove, Match, from_view, new_match
from shared_rules.bots import make_bot
from shared_rules.cards import DECK
from shared_rules.describe import describe
from shared_rules.games.nine_locks import GAME
from tests.playouts import play_bots
from tests.rules.helpers import position

D, U, L = "down", "unlocked", "locked"


def table(visible: list[list[str]], hidden: list[list[str]] | None = None,
          piles: dict[int, list[str]] | None = None, locked: tuple[int, ...] = (),
          deck: list[str] | None = None, down: dict[int, str] | None = None) -> dict:
    """A state: the given hands and face-up piles (``locked`` ones locked, the rest unlocked);
    every other pile face down (the card in ``down``, else an unused card that is not a 9), and
    the deck the cards left over (or exactly ``deck``)."""
    hidden = hidden or [[] for _ in visible]
    piles, down = piles or {}, down or {}
    used = {c for hand in visible + hidden for c in hand} | {c for p in piles.values() for c in p}
    used |= set(deck or []) | set(down.values())
    spare = sorted((c for c in DECK if c not in used), key=lambda c: not c.startswith("9"))
    facedown, grid, states = [], [], []
    for i in range(9):
        if i in piles:
            facedown.append(None)
            grid.append(list(piles[i]))
            states.append(L if i in locked else U)
        else:
            facedown.append(down[i] if i in down else spare.pop())
            grid.append([])
            states.append(D)
    return {"piles": grid, "pile_states": states, "facedown": facedown,
            "deck": spare if deck is None else list(deck),
            "visible": [list(h) for h in visible], "hidden": [list(h) for h in hidden]}


def at(G: dict, num_players: int | None = None, **ctx: object) -> Match:
    """A match of Nine Locks in exactly this position (seat 0 to move unless told)."""
    n = num_players or len(G["visible"])
    ctx.setdefault("current", 0)
    return position(new_match("nine-locks", n, seed=1), G, **ctx)


def said(before: Match, after: Match) -> list[str]:
    """The log lines of seat 0's action, as the spectators read them."""
    return describe(GAME, before.view(None), after.view(None), ["Ada", "Bob"], 0, None)


def all_cards(G: dict) -> list[str]:
    cards = [c for p in G["piles"] for c in p] + [c for c in G["facedown"] if c]
    cards += G["deck"] + [c for h in G["visible"] + G["hidden"] for c in h]
    return cards


def moves(match: Match, seat: int, name: str) -> list[list]:
    return [m["args"] for m in match.legal_moves(seat) if m["move"] == name]


# -- the deal --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_deal_gives_two_hands_of_three_a_grid_and_the_rest_as_deck(n):
    G = new_match("nine-locks", n, seed=5).G
    assert [len(h) for h in G["visible"]] == [3] * n
    assert [len(h) for h in G["hidden"]] == [3] * n
    assert len(G["deck"]) == 52 - 9 - 6 * n
    assert sorted(all_cards(G)) == sorted(DECK)


def test_only_the_centre_pile_starts_face_up_and_unlocked():
    G = new_match("nine-locks", 2, seed=5).G
    assert G["pile_states"] == [D, D, D, D, U, D, D, D, D]
    assert len(G["piles"][4]) == 1 and G["facedown"][4] is None
    assert all(G["facedown"][i] for i in range(9) if i != 4)


def test_the_deck_is_shuffled():
    assert new_match("nine-locks", 2, seed=1).G != new_match("nine-locks", 2, seed=2).G


def test_visible_hands_are_public_hidden_hands_private_deck_and_grid_secret():
    match = new_match("nine-locks", 3, seed=5)
    G = match.G
    mine, other, spectator = match.view(0), match.view(1), match.view(None)
    for v in (mine, other, spectator):
        assert v["visible"] == G["visible"]
        assert v["hidden_count"] == [3, 3, 3]
        assert v["deck_count"] == len(G["deck"]) and v["facedown_count"] == 8
        assert "deck" not in v and "facedown" not in v
    assert mine["hidden"] == G["hidden"][0] and other["hidden"] == G["hidden"][1]
    assert spectator["hidden"] is None


def test_a_9_turned_up_in_the_centre_at_the_deal_gives_no_key():
    seed = next(s for s in range(500)
                if new_match("nine-locks", 2, seed=s).G["piles"][4][0].startswith("9"))
    match = new_match("nine-locks", 2, seed=seed)
    assert match.ctx["stage"] is None and match.active_seats == [0]
    assert moves(match, 0, "key") == [] and moves(match, 0, "pick_up") == [[]]


def test_seat_0_starts_and_turns_go_up_the_seats():
    match = at(table([["2C"], ["3C"], ["4C"]], [["2D"], ["3D"], ["4D"]], {4: ["KH"]}))
    for seat in (0, 1, 2, 0):
        assert match.active_seats == [seat]
        match = match.apply(seat, "pick_up")
        match = match.apply(seat, "unlock", moves(match, seat, "unlock")[0][0])


# -- play ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "top"), [
    ("6H", "7D"), ("8D", "7H"), ("6H", "7H"), ("6S", "7C"), ("8C", "7S"),  # colour, one rank
    ("7S", "7H"), ("7D", "7C"),  # same rank, other colour
    ("KH", "AD"), ("AS", "KC"), ("QD", "KH"), ("2C", "AS"),  # ranks wrap
    ("10H", "JD"), ("JS", "10C"),
])
def test_a_card_may_go_on_a_top_of_the_same_colour_one_rank_away_or_same_rank_other_colour(
        card, top):
    match = at(table([[card, "5C"], ["5D"]], piles={4: [top]}))
    after = match.apply(0, "play", card, 4)
    assert after.G["piles"][4] == [top, card]
    assert card not in after.G["visible"][0]


@pytest.mark.parametrize(("card", "top"), [
    ("6S", "7H"), ("8H", "7C"),  # one rank away, other colour
    ("7D", "7H"), ("7S", "7C"), ("7H", "7D"),  # same rank, same colour
    ("5H", "7H"), ("KH", "2H"), ("KS", "AH"), ("AH", "KS"),  # too far, or wrap in other colour
])
def test_any_other_card_is_refused_and_changes_nothing(card, top):
    match = at(table([[card, "5C"], ["5D"]], piles={4: [top]}))
    before = match.to_json()
    with pytest.raises(InvalidMove, match="cannot go on"):
        match.apply(0, "play", card, 4)
    assert match.to_json() == before
    assert [card, 4] not in moves(match, 0, "play")


def test_the_refusal_names_both_cards():
    match = at(table([["7C", "5C"], ["5D"]], piles={4: ["9H"]}))
    with pytest.raises(InvalidMove, match=r"^A 7 of clubs cannot go on the 9 of hearts$"):
        match.apply(0, "play", "7C", 4)
    match = at(table([["AC", "5C"], ["5D"]], piles={4: ["9H"]}))
    with pytest.raises(InvalidMove, match=r"^An ace of clubs cannot go on the 9 of hearts$"):
        match.apply(0, "play", "AC", 4)


def test_a_card_from_the_hidden_hand_may_be_played_too():
    match = at(table([["2C", "5C"], ["5D"]], [["8D"], ["6D"]], {4: ["9D"]}))
    after = match.apply(0, "play", "8D", 4)
    assert after.G["hidden"][0] == [] and after.G["visible"][0] == ["2C", "5C"]
    assert after.G["piles"][4] == ["9D", "8D"]


def test_you_cannot_play_a_card_you_do_not_hold():
    match = at(table([["2C", "5C"], ["QS"]], piles={4: ["KS"]}))
    with pytest.raises(InvalidMove, match=r"^You do not hold the queen of spades$"):
        match.apply(0, "play", "QS", 4)


@pytest.mark.parametrize(("card", "pile", "message"), [
    ("ZZ", 4, "'ZZ' is not a card"), ("10h", 4, "'10h' is not a card"),
    ("QH", 9, "There is no pile 9"), ("QH", -1, "There is no pile -1"),
])
def test_bad_arguments_get_a_sentence(card, pile, message):
    match = at(table([["QH", "5C"], ["5D"]], piles={4: ["KH"]}))
    with pytest.raises(InvalidMove, match=message):
        match.apply(0, "play", card, pile)


def test_you_cannot_play_on_a_face_down_or_locked_pile():
    match = at(table([["QH", "5C"], ["5D"]], piles={4: ["KH"], 0: ["KD"]}, locked=(0,)))
    with pytest.raises(InvalidMove, match="^Pile 1 is locked"):
        match.apply(0, "play", "QH", 0)
    with pytest.raises(InvalidMove, match="^Pile 2 is face down"):
        match.apply(0, "play", "QH", 1)
    assert moves(match, 0, "play") == [["QH", 4]]


def test_after_a_play_the_turn_passes():
    match = at(table([["QH", "5C"], ["5D"]], piles={4: ["KH"]})).apply(0, "play", "QH", 4)
    assert match.active_seats == [1] and match.ctx["stage"] is None


def test_only_the_player_whose_turn_it_is_may_play():
    match = at(table([["QH", "5C"], ["JH", "5D"]], piles={4: ["KH"]}))
    with pytest.raises(InvalidMove, match="It is not your turn"):
        match.apply(1, "play", "JH", 4)
    assert match.legal_moves(1) == []


def test_legal_plays_are_every_held_card_on_every_unlocked_pile_it_fits():
    G = table([["QH", "5C"], ["5D"]], [["6C"], []], {4: ["KH"], 0: ["4S"], 8: ["QD"]},
              locked=(8,))
    assert sorted(moves(at(G), 0, "play")) == [["5C", 0], ["QH", 4]]


# -- five locks a pile ----------------------------------------------------------------------------


def test_a_play_that_brings_a_pile_to_five_cards_locks_it():
    match = at(table([["5H", "5C"], ["5D"]], piles={4: ["AH", "2H", "3H", "4H"]}))
    after = match.apply(0, "play", "5H", 4)
    assert after.G["pile_states"][4] == L


def test_a_pile_of_fewer_than_five_stays_unlocked():
    match = at(table([["4H", "5C"], ["5D"]], piles={4: ["AH", "2H", "3H"]}))
    assert match.apply(0, "play", "4H", 4).G["pile_states"][4] == U


def test_decision_a_pile_locks_again_at_ten_cards():
    pile = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]
    match = at(table([["10H", "5C"], ["5D"]], piles={4: pile}))
    assert match.apply(0, "play", "10H", 4).G["pile_states"][4] == L
    match = at(table([["8D", "5C"], ["5D"]], piles={4: pile[:7]}))
    assert match.apply(0, "play", "8D", 4).G["pile_states"][4] == U  # 8 cards


def test_decision_a_9_that_locks_a_pile_locks_it_first_then_the_key_may_unlock_it():
    match = at(table([["9H", "5C"], ["5D"]], piles={4: ["5H", "6H", "7H", "8H"]}))
    after = match.apply(0, "play", "9H", 4)
    assert after.G["pile_states"][4] == L and after.ctx["stage"] == "key"
    assert after.apply(0, "key", 4).G["pile_states"][4] == U


def test_the_log_says_when_a_pile_was_unlocked_with_the_key():
    with_key = at(table([["9H", "5C"], ["5D"]], piles={4: ["5H", "6H", "7H", "8H"]}))
    with_key = with_key.apply(0, "play", "9H", 4)
    piles = {i: [c] for i, c in enumerate(["AD", "2D", "3D", "4D", "KH", "5D", "6D", "7D", "8D"])}
    picked = at(table([["2C", "3C"], ["7S"]], piles=piles, locked=(2, 6))).apply(0, "pick_up")
    assert said(with_key, with_key.apply(0, "key", 4)) == ["Ada unlocked pile 5 with the key"]
    assert said(picked, picked.apply(0, "unlock", 6)) == ["Ada unlocked pile 7"]


def test_the_log_names_the_cards_played_and_turned_up_with_their_article():
    match = at(table([["9H", "QC"], ["5D"]], piles={4: ["5H", "6H", "7H", "8H"]},
                     down={2: "JD"}))
    played = match.apply(0, "play", "9H", 4)
    assert said(match, played) == ["Ada played the 9 of hearts on pile 5 and locked it"]
    assert said(played, played.apply(0, "key", 2)) == [
        "Ada turned up pile 3 with the key: the jack of diamonds"]
    lower = at(table([["QC", "5C"], ["5D"]], piles={0: ["KC"]}))
    assert said(lower, lower.apply(0, "play", "QC", 0)) == [
        "Ada played the queen of clubs on pile 1"]


# -- pick up ---------------------------------------------------------------------------------------


def test_pick_up_is_allowed_even_when_you_could_play():
    match = at(table([["QH", "5C"], ["5D"]], piles={4: ["KH"]}))
    assert moves(match, 0, "play") and moves(match, 0, "pick_up") == [[]]


def test_pick_up_is_refused_when_the_deck_is_empty():
    match = at(table([["QH", "5C"], ["5D"]], piles={4: ["KH"]}, deck=[]))
    assert moves(match, 0, "pick_up") == []
    with pytest.raises(InvalidMove, match="^The deck is empty"):
        match.apply(0, "pick_up")


@pytest.mark.parametrize(("visible", "hidden", "into"), [
    (["2C", "3C"], ["4C", "5C", "6C"], "visible"),  # the visible hand has fewer
    (["2C", "3C", "4C"], ["5C", "6C"], "hidden"),  # the hidden hand has fewer
    (["2C", "3C"], ["5C", "6C"], "hidden"),  # a tie goes to the hidden hand
])
def test_the_top_card_of_the_deck_goes_to_the_hand_with_fewer_cards(visible, hidden, into):
    match = at(table([visible, ["7S"]], [hidden, []], {4: ["KH"]}, deck=["JD", "QD"]))
    after = match.apply(0, "pick_up")
    assert after.G["deck"] == ["JD"]
    assert after.G[into][0][-1] == "QD"
    assert len(after.G["visible"][0]) + len(after.G["hidden"][0]) == len(visible + hidden) + 1


def test_after_a_pick_up_you_must_unlock_a_face_down_pile_while_there_is_one():
    G = table([["2C", "3C"], ["7S"]], piles={4: ["KH"], 0: ["KD"]}, locked=(0,))
    match = at(G).apply(0, "pick_up")
    assert match.active_seats == [0] and match.ctx["stage"] == "unlock"
    assert moves(match, 0, "unlock") == [[i] for i in (1, 2, 3, 5, 6, 7, 8)]
    assert [m["move"] for m in match.legal_moves(0)] == ["unlock"] * 7
    with pytest.raises(InvalidMove, match="^Pile 1 is already face up"):
        match.apply(0, "unlock", 0)
    with pytest.raises(InvalidMove, match="^First unlock a pile"):
        match.apply(0, "play", "2C", 4)
    card = G["facedown"][7]
    after = match.apply(0, "unlock", 7)
    assert after.G["piles"][7] == [card] and after.G["pile_states"][7] == U
    assert after.G["facedown"][7] is None
    assert after.active_seats == [1] and after.ctx["stage"] is None


def test_once_no_pile_is_face_down_you_must_unlock_a_locked_pile():
    piles = {i: [c] for i, c in enumerate(["AD", "2D", "3D", "4D", "KH",
                                           "5D", "6D", "7D", "8D"])}
    match = at(table([["2C", "3C"], ["7S"]], piles=piles, locked=(2, 6))).apply(0, "pick_up")
    assert moves(match, 0, "unlock") == [[2], [6]]
    with pytest.raises(InvalidMove, match="^Pile 5 is not locked"):
        match.apply(0, "unlock", 4)
    after = match.apply(0, "unlock", 6)
    assert after.G["pile_states"][6] == U and after.active_seats == [1]


def test_if_no_pile_is_face_down_or_locked_the_pick_up_ends_the_turn():
    piles = {i: [c] for i, c in enumerate(["AD", "2D", "3D", "4D", "KH",
                                           "5D", "6D", "7D", "8D"])}
    after = at(table([["2C", "3C"], ["7S"]], piles=piles)).apply(0, "pick_up")
    assert after.active_seats == [1] and after.ctx["stage"] is None


def test_turning_up_a_9_when_unlocking_means_using_the_key():
    G = table([["2C", "3C"], ["7S"]], piles={4: ["KH"]}, down={0: "9S"})
    match = at(G).apply(0, "pick_up").apply(0, "unlock", 0)
    assert match.G["piles"][0] == ["9S"]
    assert match.active_seats == [0] and match.ctx["stage"] == "key"


def test_unlock_is_only_for_right_after_a_pick_up():
    match = at(table([["2C", "3C"], ["7S"]], piles={4: ["KH"]}))
    assert moves(match, 0, "unlock") == []
    with pytest.raises(InvalidMove, match="^You can unlock a pile only right after picking up"):
        match.apply(0, "unlock", 0)


# -- the key ---------------------------------------------------------------------------------------


def keyed(G: dict) -> Match:
    """Seat 0 has just played a 9 (the 9 of hearts, on the centre pile)."""
    G["visible"][0] = ["9H", *G["visible"][0]]
    return at(G).apply(0, "play", "9H", 4)


def test_playing_a_9_means_using_the_key_on_any_pile_before_the_turn_ends():
    match = keyed(table([["2C"], ["7S"]], piles={4: ["10H"], 0: ["KD"]}, locked=(0,)))
    assert match.active_seats == [0] and match.ctx["stage"] == "key"
    assert [m["move"] for m in match.legal_moves(0)] == ["key"] * 9
    assert moves(match, 0, "key") == [[i] for i in range(9)]
    for move, args in (("play", ("2C", 0)), ("pick_up", ())):
        with pytest.raises(InvalidMove, match="^First use the key"):
            match.apply(0, move, *args)


def test_the_key_unlocks_a_locked_pile():
    match = keyed(table([["2C"], ["7S"]], piles={4: ["10H"], 0: ["KD"]}, locked=(0,)))
    after = match.apply(0, "key", 0)
    assert after.G["pile_states"][0] == U and after.active_seats == [1]


def test_the_key_locks_an_unlocked_pile_even_the_one_just_played_on():
    match = keyed(table([["2C"], ["7S"]], piles={4: ["10H"]}))
    after = match.apply(0, "key", 4)
    assert after.G["pile_states"][4] == L and after.active_seats == [1]


def test_the_key_turns_up_a_face_down_pile_unlocked():
    G = table([["2C"], ["7S"]], piles={4: ["10H"]}, down={8: "3S"})
    after = keyed(G).apply(0, "key", 8)
    assert after.G["piles"][8] == ["3S"] and after.G["pile_states"][8] == U
    assert after.active_seats == [1]


def test_a_9_turned_up_by_the_key_means_using_the_key_again():
    G = table([["2C"], ["7S"]], piles={4: ["10H"]}, down={8: "9S", 0: "9C"})
    match = keyed(G).apply(0, "key", 8)
    assert match.ctx["stage"] == "key" and match.active_seats == [0]
    match = match.apply(0, "key", 0)
    assert match.ctx["stage"] == "key" and match.G["piles"][0] == ["9C"]
    after = match.apply(0, "key", 0)
    assert after.G["pile_states"][0] == L and after.active_seats == [1]


def test_the_key_is_only_for_right_after_a_9():
    match = at(table([["2C"], ["7S"]], piles={4: ["10H"]}))
    assert moves(match, 0, "key") == []
    with pytest.raises(InvalidMove, match="^You can use the key only right after"):
        match.apply(0, "key", 4)
    with pytest.raises(InvalidMove, match="There is no pile 9"):
        keyed(table([["2C"], ["7S"]], piles={4: ["10H"]})).apply(0, "key", 9)


# -- locked out ------------------------------------------------------------------------------------


def test_a_player_who_can_neither_play_nor_pick_up_is_locked_out_and_skipped():
    G = table([["QH", "5C"], ["2S"], ["JD", "4C"]], piles={4: ["KH"]}, deck=[])
    after = at(G).apply(0, "play", "QH", 4)
    assert after.ctx["out"] == (1,) and after.active_seats == [2]
    assert after.result is None


def test_a_player_who_can_play_is_not_locked_out_when_the_deck_is_empty():
    G = table([["QH", "5C"], ["JD", "2S"], ["4C"]], piles={4: ["KH"]}, deck=[])
    after = at(G).apply(0, "play", "QH", 4)
    assert after.ctx["out"] == () and after.active_seats == [1]


def test_a_player_who_can_pick_up_is_not_locked_out():
    G = table([["QH", "5C"], ["2S"], ["4C"]], piles={4: ["KH"]}, deck=["3S"])
    after = at(G).apply(0, "play", "QH", 4)
    assert after.ctx["out"] == () and after.active_seats == [1]


def test_a_hidden_card_that_fits_keeps_you_in():
    G = table([["QH", "5C"], ["2S"], ["4C"]], [[], ["JD"], []], {4: ["KH"]}, deck=[])
    assert at(G).apply(0, "play", "QH", 4).ctx["out"] == ()


def test_decision_a_locked_out_player_stays_out_when_piles_open_later():
    G = table([["9H", "5C", "6C"], ["2S"], ["4C", "KC"]], piles={4: ["10H"], 0: ["3S"]},
              locked=(0,), deck=[])
    match = at(G, out=[1]).apply(0, "play", "9H", 4).apply(0, "key", 0)
    # seat 1's 2 of spades now fits the unlocked 3 of spades, yet seat 1 is passed over
    assert match.ctx["out"] == (1,) and match.active_seats == [2]
    match = match.apply(2, "play", "4C", 0)
    assert match.ctx["out"] == (1,) and match.active_seats == [0]


def test_decision_the_only_player_still_in_keeps_taking_turns():
    G = table([["QH", "5C", "JD"], ["2S"], ["4C"]], piles={4: ["KH"]}, deck=[])
    match = at(G, out=[1, 2]).apply(0, "play", "QH", 4)
    assert match.active_seats == [0] and match.result is None
    match = match.apply(0, "play", "JD", 4)
    # 5C fits nowhere, so seat 0 is locked out too; one card each, no hidden cards: a draw
    assert match.ctx["out"] == (0, 1, 2) and match.result == {"draw": True}


# -- winning ---------------------------------------------------------------------------------------


def test_emptying_your_visible_hand_wins_at_once():
    G = table([["QH"], ["JH"]], [["2C", "3C"], []], {4: ["KH"]})
    after = at(G).apply(0, "play", "QH", 4)
    assert after.result == {"winner": 0}
    assert after.active_seats == [] and after.legal_moves(1) == []
    with pytest.raises(InvalidMove, match="The game is over"):
        after.apply(1, "play", "JH", 4)


def test_decision_a_last_visible_9_wins_without_the_key():
    after = at(table([["9H"], ["JH"]], [["2C"], []], {4: ["10H"]})).apply(0, "play", "9H", 4)
    assert after.result == {"winner": 0} and after.ctx["stage"] != "key"


def test_emptying_the_hidden_hand_does_not_win():
    after = at(table([["2C"], ["JH"]], [["QH"], []], {4: ["KH"]})).apply(0, "play", "QH", 4)
    assert after.result is None and after.G["hidden"][0] == []


def all_out(visible: list[list[str]], hidden: list[list[str]]) -> Match:
    """Everyone locked out: nothing fits the lone king of hearts and the deck is empty."""
    return at(table(visible, hidden, {4: ["KH"]}, deck=[]), out=range(len(visible)),
              current=None)


def test_when_everyone_is_locked_out_the_fewest_visible_cards_win():
    match = all_out([["2C", "3C"], ["4C"], ["5C", "6C"]], [[], ["7C", "8C"], []])
    assert match.result == {"winner": 1}


def test_a_tie_on_visible_cards_goes_to_the_fewest_hidden_cards():
    match = all_out([["2C"], ["4C"], ["5C", "6C"]], [["3S", "4S"], ["7C"], []])
    assert match.result == {"winner": 1}


def test_a_full_tie_is_a_draw():
    match = all_out([["2C"], ["4C"], ["5C", "6C"]], [["3S"], ["7C"], []])
    assert match.result == {"draw": True}


def test_the_last_players_to_be_locked_out_end_the_game():
    G = table([["QH", "5C"], ["2S", "3S"], ["4C", "6C"]], [[], [], ["3C"]], {4: ["KH"]},
              deck=[])
    after = at(G, out=[2]).apply(0, "play", "QH", 4)
    # seat 1 cannot play, and seat 0 cannot follow QH with 5C: all are out
    assert after.ctx["out"] == (0, 1, 2) and after.ctx["current"] is None
    assert after.result == {"winner": 0}


def test_no_result_while_someone_can_still_move():
    match = at(table([["2C"], ["4C"]], piles={4: ["KH"]}, deck=[]), out=[1])
    assert match.result is None


# -- leaving ---------------------------------------------------------------------------------------


def test_decision_a_leavers_cards_are_shuffled_into_the_deck_and_play_goes_on():
    match = new_match("nine-locks", 3, seed=9)
    deck, gone = match.G["deck"], match.G["visible"][0] + match.G["hidden"][0]
    after = match.drop(0)
    assert after.G["visible"][0] == [] and after.G["hidden"][0] == []
    assert sorted(after.G["deck"]) == sorted(deck + gone)
    assert sorted(all_cards(after.G)) == sorted(DECK)
    assert after.result is None and after.active_seats == [1]


def test_a_leaver_in_the_middle_of_their_turn_skips_the_key():
    match = keyed(table([["2C"], ["7S"], ["8S"]], piles={4: ["10H"]}))
    after = match.drop(0)
    assert after.active_seats == [1] and after.ctx["stage"] is None


def test_when_one_of_two_leaves_the_other_wins():
    assert new_match("nine-locks", 2, seed=9).drop(0).result == {"winner": 1}


def test_decision_a_leaver_does_not_count_when_everyone_else_is_locked_out():
    G = table([["QH", "5C"], ["2S", "3S"], ["4C", "6C", "7C"]], piles={4: ["KH"]}, deck=[])
    match = at(G, out=[1, 2]).drop(0)
    # seat 0's cards went to the deck, so the others are still "locked out" ones; seat 1 wins
    assert match.result == {"winner": 1}


# -- views and sampling ----------------------------------------------------------------------------


def test_the_view_lists_each_pile_for_drawing():
    G = table([["2C"], ["7S"]], piles={4: ["KH", "QH"], 0: ["AD"]}, locked=(0,))
    grid = at(G).view(1)["grid"]
    assert grid[4] == {"pile": 4, "state": U, "cards": ["KH", "QH"], "top": "QH", "count": 2}
    assert grid[0] == {"pile": 0, "state": L, "cards": ["AD"], "top": "AD", "count": 1}
    assert grid[1] == {"pile": 1, "state": D, "cards": [], "top": None, "count": 1}


def playout(n: int, seed: int, steps: int) -> Match:
    rand = random.Random(seed)
    match = new_match("nine-locks", n, seed=seed)
    for _ in range(steps):
        if match.result is not None:
            break
        seat = match.active_seats[0]
        move = rand.choice(match.legal_moves(seat))
        match = match.apply(seat, move["move"], *move["args"])
    return match


@pytest.mark.parametrize(("n", "seed", "steps"), [(2, 1, 0), (3, 2, 15), (4, 3, 30), (2, 4, 45)])
def test_a_match_sampled_from_a_view_shows_that_seat_the_same_view(n, seed, steps):
    match = playout(n, seed, steps)
    for seat in [None, *range(n)]:
        view = match.view(seat)
        samples = [from_view(GAME, view, seed=k) for k in range(3)]
        for sample in samples:
            assert sample.view(seat) == view
            assert Counter(all_cards(sample.G)) == Counter(DECK)
        if seat is not None and view["deck_count"] > 1:
            assert len({tuple(s.G["deck"]) for s in samples}) > 1  # dealt at random


def test_sampling_keeps_the_seats_own_hidden_hand_and_everything_public():
    match = playout(3, 7, 10)
    sample = from_view(GAME, match.view(1), seed=3)
    assert sample.G["hidden"][1] == match.G["hidden"][1]
    for key in ("piles", "pile_states", "visible"):
        assert sample.G[key] == match.G[key]
    assert sample.ctx == match.ctx


def test_sampling_refuses_a_view_that_does_not_add_up_to_52_cards():
    view = new_match("nine-locks", 2, seed=3).view(0)
    view["deck_count"] += 1
    with pytest.raises(ValueError, match="52 cards"):
        from_view(GAME, view, seed=1)


# -- the bot ---------------------------------------------------------------------------------------


def bot_game(levels: list[str], seed: int) -> Match:
    bots = [make_bot("nine-locks", level, seed * 10 + i) for i, level in enumerate(levels)]
    match = play_bots(new_match("nine-locks", len(levels), seed=seed), bots, 1000)
    if match.result is None:
        raise AssertionError("the game did not end")
    return match


def test_bots_play_only_legal_moves_and_every_game_ends():
    for seed in range(300):
        n = 2 + seed % 3
        levels = [("normal", "easy")[(seed + i) % 2] for i in range(n)]
        assert bot_game(levels, seed).result is not None


def test_normal_beats_easy_more_often_than_not():
    wins = sum(bot_game(["normal", "easy"] if g % 2 == 0 else ["easy", "normal"], g)
               .result.get("winner") == g % 2 for g in range(120))
    assert wins > 60


def bot_choice(G: dict, **ctx: object) -> dict:
    match = at(G, **ctx)
    seat = match.ctx["current"]
    bot = make_bot("nine-locks", "normal", seed=1)
    return bot.choose(match.view(seat), match.legal_moves(seat))


def test_bot_plays_rather_than_picks_up_and_prefers_its_visible_hand():
    G = table([["2C", "5C"], ["7S"]], [["QH"], []], {4: ["KH"], 0: ["4C"]})
    assert bot_choice(G) == {"move": "play", "args": ["5C", 0]}


def test_bot_plays_its_last_visible_card_to_win():
    G = table([["QH"], ["7S"]], [["5C"], []], {4: ["KH"], 0: ["4C"]})
    assert bot_choice(G) == {"move": "play", "args": ["QH", 4]}


def test_bot_avoids_leaving_a_top_the_next_player_can_follow():
    G = table([["QH", "4D"], ["3D", "AS"]], piles={4: ["KH"], 0: ["5D"]})
    # 4D on 5D would let the next player follow with 3D; QH on KH leaves nothing for them
    assert bot_choice(G) == {"move": "play", "args": ["QH", 4]}


def test_bot_uses_the_key_to_lock_the_pile_the_next_player_could_use():
    match = keyed(table([["2C"], ["JH", "AS"]], piles={4: ["10H"], 0: ["QD"], 8: ["5S"]}))
    bot = make_bot("nine-locks", "normal", seed=1)
    assert bot.choose(match.view(0), match.legal_moves(0)) == {"move": "key", "args": [0]}


def test_bot_unlocks_a_locked_pile_that_helps_it_rather_than_the_opponents():
    piles = {i: [c] for i, c in enumerate(["AD", "2D", "3D", "4D", "KH",
                                           "5D", "6D", "7D", "8D"])}
    G = table([["2C", "3C"], ["9D"]], [["4S"], []], piles, locked=(2, 6))
    match = at(G).apply(0, "pick_up")
    choice = make_bot("nine-locks", "normal", seed=1).choose(match.view(0), match.legal_moves(0))
    # the 3 of diamonds (pile 2) takes seat 0's 3 of clubs; the 6 of diamonds helps nobody
    assert choice == {"move": "unlock", "args": [2]}


def test_the_game_is_registered_with_its_rules_page():
    game = GAMES["nine-locks"]
    assert (game.title, game.min_players, game.max_players) == ("Nine Locks", 2, 4)
    assert game.rules.startswith("# Nine Locks") and "**Decision:**" in game.rules
