"""The player's own hand and the turn line are in the window at the start of their turn, on every
game, at desktop (1280x800) and phone (390x844) sizes, without scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .helpers import host_room, shot, take_turn

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


def start_with_bots(page: Page, title: str, bots: int) -> None:
    host_room(page, "Ada", title, public=False)
    page.get_by_label("Bot level").select_option("easy")
    for _ in range(bots):
        page.get_by_role("button", name="Add bot").click()
    expect(page.locator("[data-testid^=seat-]").filter(has_text="Bot")).to_have_count(bots)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_test_id("table")).to_be_visible()


def assert_in_window(page: Page, selector: str) -> None:
    """The element's whole box lies inside the window as it is (no scrolling done)."""
    window = page.viewport_size
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= window["height"] + 0.5, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= window["width"] + 0.5, (selector, box)


MY_TURN = "[data-testid=turn].your-turn"


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator(MY_TURN)).to_be_visible(timeout=15_000)


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
    assert ada.evaluate("window.scrollY") == 0
    for selector in ("[data-testid=turn]", hand):
        assert_in_window(ada, selector)
