"""A player who leaves a room on purpose and then presses the browser's Back is not taken back in
without asking: the room page says they left, shows the room as an invite does, and joins again
only on "Join again" (Nine Locks). The same after leaving a game mid-way, where the button says
"Watch"."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .helpers import host_room, join_by_code, left_mid_game, shot


def test_back_after_leaving_the_lobby_asks_before_taking_a_seat_again(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")

    grace.get_by_role("button", name="Leave", exact=True).click()
    expect(grace.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    expect(ada.get_by_test_id("seat-1")).to_have_count(0)

    grace.go_back()
    assert grace.url.endswith(f"/r/{code}")
    expect(grace.get_by_test_id("left-room-note")).to_contain_text("You left this room.")
    line = grace.get_by_test_id("join-room-line")
    expect(line).to_contain_text("Nine Locks, hosted by Ada: 1 of")
    expect(line).to_contain_text("waiting to start")
    expect(grace.get_by_role("link", name="Back to the lounge")).to_be_visible()
    # Nothing joined: the host's lobby still shows the seat open, and Grace has no lobby.
    grace.wait_for_timeout(700)
    expect(ada.get_by_test_id("seat-1")).to_have_count(0)
    expect(grace.get_by_test_id("room-code")).to_have_count(0)
    shot(grace, shots, "left-room")
    grace.set_viewport_size(PHONE)
    shot(grace, shots, "left-room-phone")
    grace.set_viewport_size(DESKTOP)

    grace.reload()  # still this tab: it still asks
    expect(grace.get_by_test_id("left-room-note")).to_be_visible()
    expect(ada.get_by_test_id("seat-1")).to_have_count(0)

    grace.get_by_role("button", name="Join again").click()
    expect(grace.get_by_test_id("room-code")).to_have_text(code)
    expect(grace.get_by_role("button", name="I’m ready")).to_be_visible()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")
    grace.reload()  # joined again: a reload keeps the seat, without asking
    expect(grace.get_by_role("button", name="I’m ready")).to_be_visible()
    expect(grace.get_by_test_id("left-room-note")).to_have_count(0)


def test_back_after_leaving_a_game_asks_before_watching_it(open_tab, shots):
    _, grace, code = left_mid_game(open_tab)

    grace.go_back()
    expect(grace.get_by_test_id("left-room-note")).to_contain_text("You left this room.")
    line = grace.get_by_test_id("join-room-line")
    expect(line).to_contain_text("a game is on, so you would watch")
    expect(grace.get_by_test_id("table")).to_have_count(0)
    shot(grace, shots, "left-room-mid-game")

    # Coming back to a game on is watching it: the button says so.
    expect(grace.get_by_role("button", name="Join again")).to_have_count(0)
    grace.get_by_role("button", name="Watch", exact=True).click()
    note = grace.get_by_test_id("left-game")
    expect(note).to_contain_text("You left this game: you are watching.")
    expect(grace.get_by_test_id("table")).to_be_visible()
