"""A player the host removed only watches, until the host lets them back in (issue 12): the
host sees them under "Removed", the player sees why they are watching, and once let back in
they take a seat again from the same tab."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import host_room, join_by_code, shot


def test_the_host_removes_a_player_and_lets_them_back_in(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    mallory = open_tab("/")
    join_by_code(mallory, "Mallory", code)
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Mallory")

    ada.get_by_role("button", name="Remove Mallory").click()
    expect(ada.get_by_test_id("seat-1")).to_have_count(0)
    expect(mallory.get_by_text("The host took you off the seats")).to_be_visible()
    expect(mallory.get_by_role("button", name="Take a seat")).to_have_count(0)
    mallory.reload()  # joining again does not give the seat back
    expect(mallory.get_by_text("The host took you off the seats")).to_be_visible()
    expect(ada.get_by_test_id("seat-1")).to_have_count(0)
    removed = ada.get_by_role("list", name="Removed players")
    expect(removed).to_contain_text("Mallory")
    shot(ada, shots, "host-removed-list")

    ada.get_by_role("button", name="Let Mallory back in").click()
    expect(removed).to_have_count(0)
    take = mallory.get_by_role("button", name="Take a seat")
    expect(take).to_be_visible()
    take.click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Mallory")
    expect(mallory.get_by_role("button", name="I’m ready")).to_be_visible()
