"""Navigation never costs a seat: the header's Rules link opens the rules over the table, other
pages of the app keep the room's connection, and Leave mid-game asks first (Tic-Tac-Toe)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .helpers import PHONE_VIEWPORT, host_room, join_by_code


def two_players(open_tab, grace_viewport: dict | None = None) -> tuple[Page, Page, str]:
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    grace = open_tab("/", viewport=grace_viewport)
    join_by_code(grace, "Grace", code)
    grace.get_by_role("button", name="I’m ready").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
    ada.get_by_role("button", name="Start game").click()
    for page in (ada, grace):
        expect(page.get_by_test_id("table")).to_be_visible()
    return ada, grace, code


def grace_box(ada: Page):
    return ada.get_by_test_id("player-1")


def test_rules_open_over_the_table_and_the_game_goes_on_with_my_seat(open_tab):
    ada, grace, code = two_players(open_tab, PHONE_VIEWPORT)
    ada.get_by_test_id("cell-4").click()
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")

    grace.get_by_role("navigation", name="Main").get_by_role("link", name="Rules").click()
    dialog = grace.get_by_role("dialog", name=re.compile("Rules of Tic-Tac-Toe"))
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("marks in a row")
    assert grace.url.endswith(f"/r/{code}")  # still on the room page, under the rules
    expect(grace_box(ada)).not_to_contain_text("Disconnected")
    dialog.get_by_role("button", name="Back to the table").click()
    expect(dialog).to_have_count(0)

    grace.get_by_test_id("cell-0").click()
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")
    expect(ada.get_by_test_id("cell-0")).to_have_text("O")
    expect(grace_box(ada)).not_to_contain_text(re.compile("Disconnected|Left"))


def test_another_page_of_the_app_keeps_the_room_connection(open_tab):
    ada, grace, code = two_players(open_tab)
    grace.get_by_role("navigation", name="Main").get_by_role("link", name="Play").click()
    expect(grace.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    back = grace.get_by_test_id("back-to-table")
    expect(back).to_contain_text(code)
    # The server still sees Grace at the table: Ada's turn goes on, and Grace is not disconnected.
    ada.get_by_test_id("cell-4").click()
    grace.wait_for_timeout(500)
    expect(grace_box(ada)).not_to_contain_text("Disconnected")
    back.get_by_role("link", name="Back to the table").click()
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
    grace.get_by_test_id("cell-0").click()
    expect(ada.get_by_test_id("cell-0")).to_have_text("O")


def test_leaving_mid_game_asks_first(open_tab):
    ada, grace, _code = two_players(open_tab)
    grace.get_by_role("button", name="Leave", exact=True).click()
    confirm = grace.get_by_test_id("confirm-leave")
    expect(confirm).to_contain_text("Leave this game?")
    # Tab and Shift+Tab go round its two buttons, never to the page under it.
    stay = confirm.get_by_role("button", name="Stay at the table")
    expect(stay).to_be_focused()
    for key in ["Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]:
        grace.keyboard.press(key)
        assert confirm.evaluate("box => box.contains(document.activeElement)"), key
    expect(confirm.get_by_role("button", name="Leave")).to_be_focused()
    stay.click()
    expect(confirm).to_have_count(0)
    expect(grace.get_by_test_id("table")).to_be_visible()
    expect(grace_box(ada)).not_to_contain_text("Left")

    grace.get_by_role("button", name="Leave", exact=True).click()
    grace.get_by_test_id("confirm-leave").get_by_role("button", name="Leave").click()
    expect(grace.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    expect(grace.get_by_test_id("back-to-table")).to_have_count(0)
    expect(ada.get_by_test_id("result")).to_contain_text("You win!")
