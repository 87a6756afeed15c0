"""The home page on a 320 px phone: nothing sticks out of its panel or past the screen's edge,
and the top bar keeps to one line."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import host_room, shot


def test_join_with_a_code_fits_a_320_px_phone(open_tab, shots):
    page = open_tab("/", viewport={"width": 320, "height": 640})
    join = page.get_by_role("button", name="Join", exact=True)
    expect(join).to_be_visible()
    panel = page.locator("form", has=join).bounding_box()
    button = join.bounding_box()
    assert button["x"] + button["width"] <= panel["x"] + panel["width"], (button, panel)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # The lounge's name and the Play and Rules links on one line (each wrapped onto a second).
    for part in (page.locator(".brand"), *page.get_by_role("navigation", name="Main")
                 .get_by_role("link").all()):
        assert part.bounding_box()["height"] < 40, part
    shot(page, shots, "home-320")


def test_a_long_host_name_in_the_open_tables_stays_in_its_row(open_tab, shots):
    host = open_tab("/")
    host_room(host, "Maximiliana Wolfeschlegelst", "Crazy Eights")
    page = open_tab("/", viewport={"width": 320, "height": 640})
    row = page.locator(".room-item", has_text="Maximiliana")
    expect(row).to_be_visible()
    row.scroll_into_view_if_needed()
    words = row.get_by_text("Maximiliana").bounding_box()
    code = row.locator(".code").bounding_box()
    # The host's name once ran on under the room code, cut off at a word too long for its column.
    assert row.get_by_text("Maximiliana").evaluate("e => e.scrollWidth <= e.clientWidth")
    beside = words["x"] + words["width"] > code["x"]
    above = words["y"] + words["height"] <= code["y"]
    assert above or not beside, (words, code)
    shot(page, shots, "home-320-long-host")
