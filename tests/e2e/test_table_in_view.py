"""The player's own hand and the turn line are in the window at the start of their turn, on every
game, at desktop (1280x800) and phone (390x844) sizes, without scrolling; the Nine Locks piles to
choose from come into view clear of them, and the result comes into view when the game ends."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import has_result, shot, take_turn
from .in_view import (
    MY_TURN,
    assert_in_window,
    box_of,
    start_with_bots,
    wait_for_my_turn,
    wait_until_still,
)

DESKTOP_800 = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# game title, bots to add, and what "my hand" is on its table
GAMES = [
    ("Crazy Eights", 2, ".me-area"),
    ("Nine Locks", 2, ".me-area"),
    ("Poker 99", 3, ".me-area"),
    ("Slapjack", 2, ".me-area"),
    ("Tic-Tac-Toe", 1, ".ttt"),
]
SIZES = [("desktop", DESKTOP_800), ("phone", PHONE)]


@pytest.mark.parametrize(("size", "viewport"), SIZES, ids=[s for s, _ in SIZES])
@pytest.mark.parametrize(("title", "bots", "hand"), GAMES, ids=[g[0] for g in GAMES])
def test_my_hand_and_the_turn_line_are_in_view_at_the_start_of_my_turn(
        open_tab, shots, title, bots, hand, size, viewport):
    ada = open_tab("/", viewport=viewport)
    start_with_bots(ada, title, bots)
    wait_for_my_turn(ada)
    assert ada.evaluate("window.scrollY") == 0
    for selector in ("[data-testid=turn]", hand):
        assert_in_window(ada, selector)
    slug = title.lower().replace(" ", "-").replace("-99", "99")
    shot(ada, shots, f"in-view-{slug}-{size}", full_page=False)

    # A later turn, after the bots have played: still in view, still without scrolling.
    version = ada.get_by_test_id("table").get_attribute("data-version")
    for _ in range(20):  # a card, then the pile it goes on (Nine Locks); a bot may slap first
        if ada.get_by_test_id("table").get_attribute("data-version") != version:
            break
        take_turn(ada, allow_curtain=False)
        ada.wait_for_timeout(100)
    expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", version)
    # The bots may end the game, or put Ada out (Poker 99) before her next turn comes.
    expect(ada.locator(f"{MY_TURN}, [data-testid=result], .me-area .pill-off").first).to_be_visible(
        timeout=15_000)
    if not ada.locator(MY_TURN).count():
        return
    # The table may have scrolled since (to show the Nine Locks piles a card goes on): both stick.
    for selector in ("[data-testid=turn]", hand):
        assert_in_window(ada, selector)


@pytest.mark.parametrize(("size", "viewport"), SIZES, ids=[s for s, _ in SIZES])
def test_the_piles_to_choose_from_come_into_view_clear_of_the_turn_line_and_the_hand(
        open_tab, shots, size, viewport):
    ada = open_tab("/", viewport=viewport)
    start_with_bots(ada, "Nine Locks", 3)  # three other players: the tallest table
    wait_for_my_turn(ada)
    card = ada.locator(".me-area button.card-playable")
    if card.count():
        card.first.click()
    else:  # nothing fits: picking up asks for a pile to unlock
        ada.get_by_role("button", name=re.compile("^Pick up a card")).click()
    targets = ada.locator(".nl-pile button.is-target")
    expect(targets.first).to_be_visible()
    wait_until_still(ada)
    head = box_of(ada, ".table-head")
    hand = box_of(ada, ".me-area")
    for target in targets.all():
        box = target.bounding_box()
        clear = head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= hand["y"]
        assert clear, (head, box, hand)
    shot(ada, shots, f"piles-in-view-{size}", full_page=False)


# Down to the log, as long as the game is on (in one step, so never after the result came).
SCROLL_DOWN_BEFORE_THE_END = """() => {
  if (!document.querySelector('[data-testid=result]'))
    window.scrollTo(0, document.body.scrollHeight);
}"""


@pytest.mark.parametrize(("size", "viewport"), SIZES, ids=[s for s, _ in SIZES])
def test_the_result_comes_into_view_for_a_player_scrolled_down(open_tab, shots, size, viewport):
    ada = open_tab("/", viewport=viewport)
    start_with_bots(ada, "Poker 99", 2)  # a table taller than the window, and a long game
    for _ in range(1000):
        if has_result(ada):
            break
        take_turn(ada)
        ada.evaluate(SCROLL_DOWN_BEFORE_THE_END)
        ada.wait_for_timeout(50)
    expect(ada.get_by_test_id("result")).to_be_visible()
    ada.wait_for_timeout(200)
    wait_until_still(ada)
    assert_in_window(ada, "[data-testid=result]")
    shot(ada, shots, f"result-in-view-{size}", full_page=False)


def test_poker_99_middle_row_stays_on_the_felt_of_a_320_px_phone(open_tab):
    """The deck, the total and the last card sit in one row inside the felt's edge, not over it."""
    ada = open_tab("/", viewport={"width": 320, "height": 640})
    start_with_bots(ada, "Poker 99", 1)
    inside = ada.locator(".p99-center").evaluate("e => e.parentElement.getBoundingClientRect()")
    for column in ada.locator(".p99-center > .deck-col").all():
        box = column.bounding_box()
        assert box is not None
        left, right = box["x"], box["x"] + box["width"]
        assert inside["left"] - 0.5 <= left and right <= inside["right"] + 0.5, (box, inside)


def test_the_result_stays_on_the_felt_of_a_320_px_phone(open_tab, shots):
    """The result's buttons go one under the other rather than push its box past the screen."""
    ada = open_tab("/", viewport={"width": 320, "height": 640})
    start_with_bots(ada, "Tic-Tac-Toe", 1)
    for _ in range(200):
        if has_result(ada):
            break
        take_turn(ada)
        ada.wait_for_timeout(50)
    expect(ada.get_by_test_id("result")).to_be_visible()
    felt = ada.get_by_test_id("table").evaluate("e => e.getBoundingClientRect().toJSON()")
    box = box_of(ada, "[data-testid=result]")
    assert felt["left"] <= box["x"] and box["x"] + box["width"] <= felt["right"], (box, felt)
    assert ada.evaluate("document.documentElement.scrollWidth") <= 320
    shot(ada, shots, "result-320", full_page=False)
