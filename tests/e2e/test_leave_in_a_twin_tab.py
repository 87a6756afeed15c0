"""A duplicated tab shares its player's identity (the browser copies the tab's sessionStorage):
when the player leaves the room in one of the two, the other says they left too, rather than go
on showing a seat in a room they are no longer in."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import host_room, join_by_code, shot


def test_leaving_in_one_of_two_twin_tabs_shows_the_other_that_it_left(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    # window.open from the page copies its sessionStorage, as the browser's "Duplicate" does.
    with grace.context.expect_page() as opened:
        grace.evaluate("window.open(location.href)")
    twin = opened.value
    expect(twin.get_by_role("button", name="I’m ready")).to_be_visible()
    twin.get_by_role("button", name="Leave", exact=True).click()
    expect(ada.get_by_text("1/2 seats")).to_be_visible()
    expect(grace.get_by_text("You left this room.")).to_be_visible()
    expect(grace.get_by_role("button", name="I’m ready")).to_have_count(0)
    shot(grace, shots, "twin-tab-left")
