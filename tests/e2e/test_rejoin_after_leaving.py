"""A player who left a game and opens its link again (and joins again) watches it (issue 13): the
server says which seats are theirs, so the old seat still listed with their id never makes the
table wait for a state that cannot come ("Dealing the cards…" forever)."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import left_mid_game, shot


def test_rejoin_after_leaving_shows_the_game_to_watch_and_a_way_back(open_tab, shots):
    _, grace, code = left_mid_game(open_tab)

    grace.goto(f"/r/{code}")  # the invite link again, in the same tab (same player)
    # Left on purpose from this tab: the page asks before joining again (test_back_after_leaving).
    expect(grace.get_by_test_id("left-room-note")).to_contain_text("You left this room.")
    grace.get_by_role("button", name="Watch", exact=True).click()  # a game is on: back in to watch
    note = grace.get_by_test_id("left-game")
    expect(note).to_contain_text("You left this game: you are watching.")
    table = grace.get_by_test_id("table")
    expect(table).to_be_visible()
    expect(grace.get_by_text("Dealing the cards…")).to_have_count(0)
    expect(grace.get_by_test_id("chat-log")).to_be_attached()
    assert grace.locator(".card-playable").count() == 0  # nothing of a seat to play
    shot(grace, shots, "rejoin-after-leaving")
    # On a phone the note wraps, and its eye keeps its size (a flex item, it was squeezed thin).
    grace.set_viewport_size({"width": 320, "height": 700})
    assert note.locator("svg").evaluate("e => e.getBoundingClientRect().width") == 18
    # and its button goes under its words, not beside them (a narrow column of six lines).
    eye, button = note.locator("svg").bounding_box(), note.get_by_role("button").bounding_box()
    assert eye and button and button["y"] >= eye["y"] + eye["height"], (eye, button)
    assert button["x"] >= eye["x"] + eye["width"], (eye, button)  # under the words, not the eye
    shot(grace, shots, "rejoin-after-leaving-320")

    note.get_by_role("button", name="Back to the lounge").click()
    expect(grace.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    expect(grace.get_by_test_id("back-to-table")).to_have_count(0)
