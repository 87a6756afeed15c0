"""Links: a closed room's link says why the room closed, an open room's says where it leads
before asking a name; a replay link opens on the game itself, drawn on felt so that its labels
can be read."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .helpers import host_room, join_by_code, play_until_result


def test_an_old_room_link_says_the_room_has_closed(open_tab):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    ada.get_by_role("button", name="Close room").click()
    expect(grace.get_by_role("heading", name="This room was closed")).to_be_visible()

    # Later that day, Grace opens the old link again: the server says why it closed, and this
    # browser, which remembers the room, leads to its games.
    grace.goto(f"/r/{code}")
    expect(grace.get_by_role("heading", name="This room has closed")).to_be_visible()
    why = f"Room {code} has closed: the host closed it."
    expect(grace.get_by_role("alert")).to_contain_text(why)
    expect(grace.get_by_role("link", name="See its games")).to_be_visible()

    # A friend following the invite late is told the same, without the games of a room they
    # were never in.
    stranger = open_tab("/", name="Linus")
    stranger.goto(f"/r/{code}")
    expect(stranger.get_by_role("heading", name="This room has closed")).to_be_visible()
    expect(stranger.get_by_role("alert")).to_contain_text(why)
    expect(stranger.get_by_role("link", name="See its games")).to_have_count(0)

    # A code no room ever had cannot be told from a mistyped one, and says so.
    stranger.goto("/r/ZZZZZZ")
    expect(stranger.get_by_role("heading", name="No open room with this code")).to_be_visible()
    expect(stranger.get_by_role("alert")).to_contain_text("it may have closed")


def test_watch_again_opens_on_the_replay_drawn_on_felt(open_tab, shots):
    # Reduced motion, as every test's tab has (tests/browser.py), matters here: with motion the
    # result box scrolls itself into view smoothly, and a click whose press and release land
    # either side of that scroll clicks nothing (Playwright checks only where the press lands).
    ada = open_tab("/")
    host_room(ada, "Ada", "Nine Locks", public=False)
    ada.get_by_label("Bot level").select_option("easy")
    ada.get_by_role("button", name="Add bot").click()
    ada.get_by_role("button", name="Start game").click()
    play_until_result([ada])

    with ada.context.expect_page() as opened:
        ada.get_by_role("link", name="Watch again (opens in a new tab)", exact=True).click()
    replay = opened.value
    expect(replay.get_by_role("region", name=re.compile("Replay of Nine Locks"))).to_be_visible()
    expect(replay.get_by_text(re.compile(r"^Step 0 of \d+$"))).to_be_visible()
    replay.get_by_role("button", name="Last").click()
    board = replay.get_by_test_id("replay-board")
    labels = board.locator(".label-on-felt")
    expect(labels.filter(has_text="Deck")).to_be_visible()
    # The light labels sit on the dark felt, not on the white page.
    background = board.evaluate("el => getComputedStyle(el).backgroundImage")
    assert "radial-gradient" in background
    # On a 320 px phone the four steps still share one line under Play (Last went alone below).
    replay.set_viewport_size({"width": 320, "height": 640})
    steps = replay.get_by_role("group", name="Steps")
    tops = {round(steps.get_by_role("button", name=name, exact=True).bounding_box()["y"])
            for name in ("First", "Back", "Next", "Last")}
    assert len(tops) == 1, tops
    replay.set_viewport_size({"width": 1280, "height": 800})
    replay.screenshot(path=str(shots / "replay.png"), full_page=False, animations="disabled")


def test_an_invite_link_says_where_it_leads_before_asking_a_name(open_tab):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=True)

    grace = open_tab(f"/r/{code}")  # a browser that has never given a name
    expect(grace.get_by_test_id("join-room-line")).to_have_text(
        "Tic-Tac-Toe, hosted by Ada: 1 of 2 seats taken, waiting to start.")
    grace.get_by_test_id("join-name").fill("Grace")
    grace.get_by_role("button", name="Take a seat").click()
    expect(grace.get_by_test_id("room-code")).to_have_text(code)
    expect(ada.get_by_role("list", name="Seats")).to_contain_text("Grace")

    # With every seat taken, the open tables and the link offer to watch, which is what
    # joining would give.
    home = open_tab("/")
    watch = home.get_by_role("link", name="Watch Ada’s Tic-Tac-Toe table (no seat free)")
    expect(watch).to_have_attribute("href", f"/r/{code}?watch=1")
    linus = open_tab(f"/r/{code}")
    expect(linus.get_by_test_id("join-room-line")).to_have_text(
        "Tic-Tac-Toe, hosted by Ada: 2 of 2 seats taken, waiting to start, with no seat free, "
        "so you would watch.")
    expect(linus.get_by_role("button", name="Take a seat")).to_have_count(0)
    linus.get_by_test_id("join-name").fill("Linus")
    linus.get_by_role("button", name="Watch", exact=True).click()
    expect(linus.get_by_test_id("room-code")).to_have_text(code)
    expect(ada.get_by_role("list", name="Seats")).not_to_contain_text("Linus")

    # Once the game is on, the open tables offer it to watch, apart from the tables waiting.
    grace.get_by_role("button", name="I’m ready").click()
    ada.get_by_role("button", name="Start game").click()
    playing = home.get_by_role("list", name="Games being played")
    expect(playing).to_contain_text("Ada’s table · playing now", timeout=10_000)
    expect(playing.get_by_role("link", name="Watch Ada’s Tic-Tac-Toe table")).to_have_attribute(
        "href", f"/r/{code}?watch=1")
    expect(home.get_by_role("list", name="Tables waiting for players")).to_have_count(0)

    # A dead link says so at once, instead of asking for a name first.
    stranger = open_tab("/r/ZZZZZZ")
    expect(stranger.get_by_role("heading", name="No open room with this code")).to_be_visible()
    expect(stranger.get_by_test_id("join-name")).to_have_count(0)
    # A link whose code is too short to be one says so, without asking the server.
    typo = open_tab("/r/zz", name="Ada")
    expect(typo.get_by_role("heading", name="This is not a room code")).to_be_visible()
    expect(typo.get_by_role("alert")).to_contain_text("A room code has 6 letters and digits")
