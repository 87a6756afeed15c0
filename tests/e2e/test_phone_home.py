"""The home page on a 320 px phone: nothing sticks out of its panel or past the screen's edge,
and the top bar keeps to one line."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import shot


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
