"""Crazy Eights in the browser: Ada against two easy bots and Grace on the same screen (hot seat),
played through the board until the result shows."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .helpers import PHONE_VIEWPORT, host_room, play_until_result, shot, show_hand_of, take_turn

DESKTOP_800 = {"width": 1280, "height": 800}
HAND = ".me-area [data-card]"


def test_crazy_eights_against_bots_and_a_hot_seat_player(open_tab, shots):
    ada = open_tab("/", viewport=DESKTOP_800)
    host_room(ada, "Ada", "Crazy Eights", public=False)
    ada.get_by_label("Bot level").select_option("easy")
    for _ in range(2):
        ada.get_by_role("button", name="Add bot").click()
    # The bot's level is said once, in its name; its pill says what it is.
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Bot 2 (easy)")
    expect(ada.get_by_test_id("seat-2").locator(".pill-bot")).to_have_text("Bot")
    ada.get_by_placeholder("Name").fill("Grace")
    ada.get_by_role("button", name="Add hot seat").click()
    expect(ada.get_by_test_id("seat-3")).to_contain_text("Hot seat")
    ada.get_by_role("button", name="Start game").click()

    # The server says hands are private, so Ada's cards wait behind the curtain.
    curtain = ada.get_by_test_id("curtain")
    expect(curtain).to_contain_text("Pass the device to Ada")
    assert ada.locator(HAND).count() == 0
    curtain.get_by_role("button", name=re.compile("Show my hand")).click()
    expect(ada.locator(HAND)).to_have_count(5)  # four players: five cards each
    expect(ada.get_by_test_id("top-card")).to_be_visible()
    expect(ada.get_by_role("status", name=re.compile("Suit to follow: "))).to_be_visible()
    expect(ada.get_by_role("img", name=re.compile(r"Stock: \d+ cards"))).to_be_visible()
    shot(ada, shots, "crazy-eights-desktop", full_page=False)

    # Ada plays until the turn reaches Grace: Ada's hand is put away before Grace's is shown.
    seen_grace_curtain = False
    done: set[str] = set()
    for _ in range(200):
        if ada.get_by_role("button", name="Show my hand (Grace)").count():
            seen_grace_curtain = True
            break
        if has_result(ada):
            break
        step_for_ada(ada, shots, done)
    if not has_result(ada):
        assert seen_grace_curtain
        assert ada.locator(HAND).count() == 0
        ada.get_by_role("button", name="Show my hand (Grace)").click()
        expect(ada.get_by_role("group", name="Grace's hand")).to_be_visible()
        assert ada.locator(HAND).count() > 0
        ada.set_viewport_size(PHONE_VIEWPORT)
        shot(ada, shots, "crazy-eights-phone", full_page=False)
        ada.set_viewport_size(DESKTOP_800)

    play_until_result([ada], max_seconds=45)
    expect(ada.get_by_test_id("result")).to_contain_text(re.compile("win|draw", re.I))
    shot(ada, shots, "crazy-eights-result")


def has_result(page: Page) -> bool:
    return page.get_by_test_id("result").count() > 0


def step_for_ada(page: Page, shots, done: set[str]) -> None:
    """One step for Ada's seat only (stops short of opening Grace's hand); the first time an 8
    can be played, its suit chooser is opened and pictured."""
    if show_hand_of(page, "Ada"):
        return
    eight = page.locator(".me-area button.card-playable[data-card^='8']")
    if eight.count() and "eight" not in done:
        done.add("eight")
        eight.first.click()
        chooser = page.get_by_role("group", name=re.compile("Suit to name"))
        expect(chooser.get_by_role("button", name=re.compile("^Name "))).to_have_count(4)
        shot(page, shots, "crazy-eights-choice", full_page=False)
        chooser.get_by_role("button", name="Name clubs").click()
        expect(page.get_by_test_id("game-log")).to_contain_text(
            re.compile("Ada played the 8 of .+ and named clubs"))
        return
    if not take_turn(page, allow_curtain=False):
        page.wait_for_timeout(50)


SMALL_PHONE = {"width": 320, "height": 640}
# The suit chooser's buttons: their names, boxes, and whether their words are cut.
CHOOSER_BUTTONS_JS = """box => [...box.querySelectorAll('button')].map((b) => ({
  name: b.getAttribute('aria-label') ?? b.textContent.trim(), cut: b.scrollWidth > b.clientWidth,
  ...b.getBoundingClientRect().toJSON()}))"""
# On Ada's turn: an 8 that can be played is pressed, else a card is drawn, else she passes (the
# drawn card kept), so that she comes to hold an 8. What was pressed, or null.
EIGHT_OR_DRAW_JS = """() => {
  for (const selector of ["button.card-playable[data-card^='8']", "button[data-move=draw]",
                          "button[data-move=pass]"]) {
    const el = document.querySelector(`.table ${selector}`);
    if (el && !el.disabled) { el.click(); return selector; }
  }
  return null;
}"""


def assert_suits_two_by_two(chooser) -> None:
    """Four suits two to a line, as wide as each other, Cancel centred under them; each a
    fingertip high, its words whole, inside the box."""
    box = chooser.bounding_box()
    spades, hearts, diamonds, clubs, cancel = chooser.evaluate(CHOOSER_BUTTONS_JS)
    rows = [(spades, hearts), (diamonds, clubs)]
    for left, right in rows:
        assert left["top"] == right["top"] and left["width"] == right["width"], (left, right)
        assert left["right"] < right["left"], (left, right)
    assert (spades["left"], spades["width"]) == (diamonds["left"], diamonds["width"])
    assert cancel["top"] >= diamonds["bottom"], (diamonds, cancel)
    middle = (spades["left"] + hearts["right"]) / 2
    assert abs((cancel["left"] + cancel["right"]) / 2 - middle) < 1, cancel
    for button in (spades, hearts, diamonds, clubs, cancel):
        assert button["height"] >= 44 and not button["cut"], button
        assert box["x"] <= button["left"] and button["right"] <= box["x"] + box["width"], button


def test_the_suit_chooser_is_two_by_two_on_a_phone(open_tab, shots):
    ada = open_tab("/", viewport=SMALL_PHONE)
    host_room(ada, "Ada", "Crazy Eights", public=False)
    ada.get_by_label("Bot level").select_option("easy")
    ada.get_by_role("button", name="Add bot").click()
    ada.get_by_role("button", name="Start game").click()
    chooser = ada.get_by_role("group", name=re.compile("Suit to name"))
    for _ in range(1500):  # a rematch if the bot wins first
        if chooser.count():
            break
        if has_result(ada):
            ada.get_by_role("button", name="Rematch").click()
            expect(ada.get_by_test_id("result")).to_have_count(0)
        elif ada.evaluate(EIGHT_OR_DRAW_JS) is None:
            ada.wait_for_timeout(50)
    expect(chooser).to_be_visible()
    assert_suits_two_by_two(chooser)
    shot(ada, shots, "crazy-eights-choice-320", full_page=False)
    ada.set_viewport_size(PHONE_VIEWPORT)
    assert_suits_two_by_two(chooser)
    chooser.get_by_role("button", name="Name clubs").click()
    expect(ada.get_by_test_id("game-log")).to_contain_text(
        re.compile("Ada played the 8 of .+ and named clubs"))
