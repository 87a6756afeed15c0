"""A human double click on Rematch (two clicks 100 ms apart, not Playwright's instant dblclick)
starts one new game and plays nothing on it: the new board comes up under the pointer, and takes no
click for a moment (Tic-Tac-Toe, the host and a hot-seat player on one screen)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .helpers import host_room, shot


def test_double_click_on_rematch_makes_no_move_on_the_new_board(open_tab, shots):
    ada = open_tab("/")
    host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    ada.get_by_role("textbox", name="Hot-seat player").fill("Bob")
    ada.get_by_role("button", name="Add hot seat").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bob")
    ada.get_by_role("button", name="Start game").click()
    for cell in (0, 3, 1, 4, 2):  # X takes the top row
        version = ada.get_by_test_id("table").get_attribute("data-version")
        ada.get_by_test_id(f"cell-{cell}").click()
        expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", version or "")
    rematch = ada.get_by_role("button", name="Rematch")
    expect(rematch).to_be_visible()
    box = rematch.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ada.mouse.click(x, y)
    ada.wait_for_timeout(100)
    ada.mouse.click(x, y)

    expect(ada.get_by_test_id("result")).to_have_count(0)
    ada.wait_for_timeout(800)  # whatever the second click did has reached the server by now
    cells = ada.locator("[data-testid^=cell-]")
    expect(cells).to_have_count(9)
    for i in range(9):
        cell = ada.get_by_test_id(f"cell-{i}")
        expect(cell).to_have_attribute("aria-label", re.compile("empty$"))
    assert ada.get_by_test_id("table").get_attribute("data-version") == "0"
    shot(ada, shots, "rematch-double-click")
    # The board takes clicks again once settled.
    ada.get_by_test_id("cell-4").click()
    expect(ada.get_by_test_id("cell-4")).not_to_have_attribute("aria-label", re.compile("empty$"))
