"""On phones, the middle of the tables whose players show only their stacks (Slapjack's pile and
slap button, Poker 99's total, Crazy Eights' card to follow) and every other player are in the
window at the start of the player's turn, above their hand, uncovered, with 2 to 6 players."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import host_room, shot
from .in_view import (
    UNCOVERED_JS,
    assert_above_the_hand,
    assert_others_in_view,
    box_of,
    start_with_bots,
    wait_for_my_settled_turn,
    wait_for_my_turn,
)

SLAP_AND_PILE = (".slap-btn", "[data-testid=sj-pile]")

# Phones, and the bots beside the player: one opponent, three, and five (the most, in two rows).
SLAP_PHONES = [(320, 568), (360, 640), (390, 844)]
SLAP_BOTS = [1, 4, 5]


@pytest.mark.parametrize("bots", SLAP_BOTS, ids=[f"{b + 1}-players" for b in SLAP_BOTS])
@pytest.mark.parametrize(("width", "height"), SLAP_PHONES, ids=[f"{w}x{h}" for w, h in SLAP_PHONES])
def test_slapjack_slap_button_and_the_pile_are_in_view_on_a_phone(
        open_tab, shots, width, height, bots):
    """The slap button and the pile are in the window and uncovered at the start of the player's
    turns, without scrolling, with one opponent or five: a phone has no space bar to slap with, and
    the button once sat under the player's stack kept at the window's bottom. So is every other
    player, none over another: at 320x568 the second row of five once sat under the stack."""
    ada = open_tab("/", viewport={"width": width, "height": height})
    start_with_bots(ada, "Slapjack", bots)
    wait_for_my_settled_turn(ada)
    shot(ada, shots, f"slapjack-{width}x{height}-{bots + 1}", full_page=False)
    assert_above_the_hand(ada, *SLAP_AND_PILE)
    assert_others_in_view(ada)
    # The next turn, cards on the pile (and maybe a slap's news under it): still in view.
    version = ada.get_by_test_id("table").get_attribute("data-version")
    ada.get_by_role("button", name="Turn up a card").click()
    expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", version)
    wait_for_my_turn(ada)
    shot(ada, shots, f"slapjack-{width}x{height}-{bots + 1}-later", full_page=False)
    assert_above_the_hand(ada, *SLAP_AND_PILE)
    assert_others_in_view(ada)


SHORT_PHONES = [(320, 568), (360, 640)]


@pytest.mark.parametrize(("width", "height"), SHORT_PHONES, ids=["320x568", "360x640"])
def test_two_hot_seat_slap_buttons_sit_beside_the_pile_on_a_phone(open_tab, shots, width, height):
    """Two hot-seat players and four bots at Slapjack: the pile and both slap buttons make one
    row, and every other player is in view above the stack; the second button once took a row of
    its own and pushed the last two players under the stack. The turn line says whose turn."""
    ada = open_tab("/", viewport={"width": width, "height": height})
    host_room(ada, "Ada", "Slapjack", public=False)
    ada.get_by_label("Hot-seat player").fill("Linus")
    ada.get_by_role("button", name="Add hot seat").click()
    for _ in range(4):
        ada.get_by_role("button", name="Add bot").click()
    expect(ada.locator("[data-testid^=seat-]").filter(has_text="Bot")).to_have_count(4)
    ada.get_by_role("button", name="Start game").click()
    wait_for_my_settled_turn(ada)
    expect(ada.get_by_test_id("turn")).to_have_text(
        "Slap at any time · your turn to turn up a card, Ada")
    shot(ada, shots, f"slapjack-hot-seat-{width}x{height}", full_page=False)
    head, mine = box_of(ada, ".table-head"), box_of(ada, ".me-area")
    pile = box_of(ada, "[data-testid=sj-pile]")
    for button in ada.get_by_test_id("slap").all():
        box = button.bounding_box()
        assert box["y"] < pile["y"] + pile["height"] and pile["y"] < box["y"] + box["height"], box
        assert head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= mine["y"]
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert button.evaluate(UNCOVERED_JS)
    assert ada.evaluate("document.documentElement.scrollWidth") <= width
    assert_others_in_view(ada)


@pytest.mark.parametrize(("width", "height"), SLAP_PHONES, ids=[f"{w}x{h}" for w, h in SLAP_PHONES])
def test_poker99_total_is_in_view_at_my_turn_on_a_phone_with_six_players(
        open_tab, shots, width, height):
    """Poker 99's total, the deck and the last card (what the player's choice hangs on) lie in the
    window above the player's hand at the start of their turn, with five others at the table, and
    so do the others: the total was under the hand at 320x568 and half under it at 360x640."""
    ada = open_tab("/", viewport={"width": width, "height": height})
    start_with_bots(ada, "Poker 99", 5)
    wait_for_my_settled_turn(ada)
    shot(ada, shots, f"poker99-{width}x{height}-6", full_page=False)
    assert_above_the_hand(ada, ".p99-center")
    assert_others_in_view(ada)


@pytest.mark.parametrize(("width", "height"), SHORT_PHONES, ids=["320x568", "360x640"])
def test_crazy_eights_discard_pile_sits_beside_the_stock_on_a_narrow_phone(
        open_tab, shots, width, height):
    """The discard pile (the card to follow) shares the stock's row on a 320 or 360 px phone: it
    went under the stock, where the hand kept at the window's bottom covered it whole. With the
    stock and the pile first under the turn line, the whole card is above the hand."""
    ada = open_tab("/", viewport={"width": width, "height": height})
    start_with_bots(ada, "Crazy Eights", 1)
    wait_for_my_settled_turn(ada)
    shot(ada, shots, f"crazy-eights-{width}x{height}", full_page=False)
    stock, discard = box_of(ada, ".deck-col:not(.discard-col)"), box_of(ada, ".discard-col")
    assert discard["y"] < stock["y"] + stock["height"], (stock, discard)
    assert_above_the_hand(ada, ".discard-col")
