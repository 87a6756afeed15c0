"""The player's own hand and the turn line are in the window at the start of their turn, on every
game, at desktop (1280x800) and phone (390x844) sizes, without scrolling; the Nine Locks piles to
choose from come into view clear of them, and the result comes into view when the game ends."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import has_result, host_room, shot, take_turn

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


def wait_until_still(page: Page) -> None:
    """Waits for a smooth scroll to end."""
    last = None
    for _ in range(50):
        now = page.evaluate("window.scrollY")
        if now == last:
            return
        last = now
        page.wait_for_timeout(100)


def box_of(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box


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


# Phones, and the bots beside the player: one opponent, and five (the most, in two rows there).
SLAP_PHONES = [(320, 568), (360, 640), (390, 844)]
SLAP_BOTS = [1, 4, 5]

UNCOVERED_JS = """e => { const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && e.contains(at); }"""


def assert_slap_and_pile_in_view(page: Page) -> None:
    """The slap button and the pile lie in the window between the turn line and the player's
    stack, uncovered, with no sideways scrolling."""
    head, mine = box_of(page, ".table-head"), box_of(page, ".me-area")
    for selector in (".slap-btn", "[data-testid=sj-pile]"):
        assert_in_window(page, selector)
        box = box_of(page, selector)
        clear = head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= mine["y"]
        assert clear, (selector, head, box, mine)
        assert page.locator(selector).evaluate(UNCOVERED_JS), f"{selector} is under something else"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def assert_others_in_view(page: Page) -> None:
    """Every other player's box lies in the window between the turn line and the player's
    stack, uncovered, none over another: in two rows on a phone, the second once sat under the
    stack."""
    head, mine = box_of(page, ".table-head"), box_of(page, ".me-area")
    width = page.viewport_size["width"]
    boxes = []
    for other in page.locator(".opponents .player-box").all():
        box = other.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        clear = head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= mine["y"]
        assert clear, (head, box, mine)
        assert other.evaluate(UNCOVERED_JS), f"{other.get_attribute('aria-label')} is covered"
        boxes.append(box)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)


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
    wait_for_my_turn(ada)
    # The board takes no clicks (nor answers elementFromPoint) while the new game settles.
    expect(ada.get_by_test_id("board")).not_to_have_attribute("data-settling", "true")
    wait_until_still(ada)
    shot(ada, shots, f"slapjack-{width}x{height}-{bots + 1}", full_page=False)
    assert_slap_and_pile_in_view(ada)
    assert_others_in_view(ada)
    # The next turn, cards on the pile (and maybe a slap's news under it): still in view.
    version = ada.get_by_test_id("table").get_attribute("data-version")
    ada.get_by_role("button", name="Turn up a card").click()
    expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", version)
    wait_for_my_turn(ada)
    shot(ada, shots, f"slapjack-{width}x{height}-{bots + 1}-later", full_page=False)
    assert_slap_and_pile_in_view(ada)
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
    wait_for_my_turn(ada)
    expect(ada.get_by_test_id("turn")).to_have_text(
        "Slap at any time · your turn to turn up a card, Ada")
    expect(ada.get_by_test_id("board")).not_to_have_attribute("data-settling", "true")
    wait_until_still(ada)
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
    wait_for_my_turn(ada)
    expect(ada.get_by_test_id("board")).not_to_have_attribute("data-settling", "true")
    wait_until_still(ada)
    shot(ada, shots, f"poker99-{width}x{height}-6", full_page=False)
    head, mine = box_of(ada, ".table-head"), box_of(ada, ".me-area")
    box = box_of(ada, ".p99-center")
    clear = head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= mine["y"]
    assert clear, (head, box, mine)
    assert ada.locator(".p99-center").evaluate(UNCOVERED_JS), "the total is under something else"
    assert_others_in_view(ada)


@pytest.mark.parametrize(("width", "height"), SHORT_PHONES, ids=["320x568", "360x640"])
def test_crazy_eights_discard_pile_sits_beside_the_stock_on_a_narrow_phone(
        open_tab, shots, width, height):
    """The discard pile (the card to follow) shares the stock's row on a 320 or 360 px phone: it
    went under the stock, where the hand kept at the window's bottom covered it whole. With the
    stock and the pile first under the turn line, the whole card is above the hand."""
    ada = open_tab("/", viewport={"width": width, "height": height})
    start_with_bots(ada, "Crazy Eights", 1)
    wait_for_my_turn(ada)
    expect(ada.get_by_test_id("board")).not_to_have_attribute("data-settling", "true")
    wait_until_still(ada)
    shot(ada, shots, f"crazy-eights-{width}x{height}", full_page=False)
    stock, discard = box_of(ada, ".deck-col:not(.discard-col)"), box_of(ada, ".discard-col")
    assert discard["y"] < stock["y"] + stock["height"], (stock, discard)
    assert discard["x"] + discard["width"] <= width
    assert discard["y"] + discard["height"] <= box_of(ada, ".me-area")["y"], discard
    assert ada.locator(".discard-col").evaluate(UNCOVERED_JS), "the card to follow is covered"
    assert ada.evaluate("document.documentElement.scrollWidth") <= width
