"""A player who closes their tab gets their seat back from the invite link in a new tab of the same
browser (or in a tab of it watching the table), while a second tab opened beside a tab still
playing is a new player, who is asked before taking a second seat; the browser forgets the seat
once the room closes (Nine Locks). A player the rematch left out, their seat gone, is told why in a
new tab (Crazy Eights)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser import REDUCED_MOTION

from .conftest import DESKTOP, own_server
from .helpers import PHONE_VIEWPORT, host_room, join_by_code, play_until_result, shot, two_tabs

# A freed seat is offered once it has stayed free 3 s (a reloaded tab frees it for a moment), seen
# live by a watching tab, or at a look every 2 s by a tab still asking.
OFFERED = 10_000


def grace_ready_in_her_browser(browser, server_url: str, ada, code: str):
    """Grace's browser (one context is one browser: its tabs share localStorage, each has its
    sessionStorage) and her first tab, seated and ready at Ada's table."""
    grace = browser.new_context(viewport=DESKTOP, base_url=server_url, **REDUCED_MOTION)
    grace.add_init_script("localStorage.setItem('lounge.name', 'Grace')")
    first = grace.new_page()
    first.goto(f"/r/{code}")
    first.get_by_role("button", name="I’m ready").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
    return grace, first


def test_a_closed_tabs_seat_comes_back_in_a_new_tab_of_the_same_browser(open_tab, browser,
                                                                        server_url, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace, first = grace_ready_in_her_browser(browser, server_url, ada, code)
    try:
        ada.get_by_role("button", name="Start game").click()
        expect(first.get_by_role("group", name="Grace's hands")).to_be_visible()

        beside = grace.new_page()  # the first tab still plays the seat: this one is someone else
        beside.goto(f"/r/{code}")
        expect(beside.get_by_test_id("seated-elsewhere")).to_contain_text("You already play Grace")
        beside.get_by_role("button", name="Watch").click()
        expect(beside.get_by_text("You are watching")).to_be_visible()
        expect(beside.get_by_test_id("freed-seat")).to_have_count(0)

        # Watching, the tab is offered the seat once the tab that played it is closed.
        first.close()
        offer = beside.get_by_test_id("freed-seat")
        expect(offer).to_contain_text("Grace’s tab was closed: play Grace here?", timeout=OFFERED)
        shot(beside, shots, "freed-seat-watching", full_page=False)
        offer.get_by_role("button", name="Play Grace here").click()
        expect(beside.get_by_role("group", name="Grace's hands")).to_be_visible()
        expect(offer).to_have_count(0)
        expect(ada.get_by_test_id("player-1")).not_to_contain_text("Disconnected")
        expect(ada.get_by_test_id("player-2")).to_have_count(0)

        beside.close()
        expect(ada.get_by_test_id("player-1")).to_contain_text("Disconnected")
        again = grace.new_page()
        again.goto(f"/r/{code}")
        expect(again.get_by_role("group", name="Grace's hands")).to_be_visible()
        expect(ada.get_by_test_id("player-1")).not_to_contain_text("Disconnected")
        shot(again, shots, "seat-back-in-new-tab")

        ada.get_by_role("button", name="Close room").click()
        ada.get_by_test_id("confirm-leave").get_by_role("button", name="Close room").click()
        expect(again.get_by_role("heading", name="This room was closed")).to_be_visible()
        assert again.evaluate("JSON.parse(localStorage.getItem('lounge.seats'))") == []
    finally:
        grace.close()


def test_the_invite_link_again_beside_a_seated_tab_asks_before_a_second_seat(open_tab, shots):
    """Opening the link again in the same browser (a second tab) used to take a second seat at
    once, "Ada (2)": it says where this browser already sits, and seats someone else only when
    asked, under their own name (the browser's saved name stays)."""
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    second = ada.context.new_page()
    second.goto(f"/r/{code}")
    expect(second.get_by_test_id("seated-elsewhere")).to_contain_text("You already play Ada")
    expect(second.get_by_test_id("join-name")).to_have_value("")
    expect(second.get_by_test_id("join-name")).not_to_be_focused()  # no phone keyboard for it
    expect(ada.get_by_test_id("seat-1")).to_have_count(0)
    shot(second, shots, "second-tab-asks", full_page=False)
    second.get_by_test_id("join-name").fill("Bob")
    second.get_by_role("button", name="Take a seat").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bob")
    assert ada.evaluate("localStorage.getItem('lounge.name')") == "Ada"


def test_a_tab_asking_beside_a_seated_tab_offers_its_seat_once_that_tab_is_closed(
        open_tab, browser, server_url, shots):
    """The second tab kept saying "You already play Grace ... in another tab" after that tab was
    closed: it notices the seat is free (the room shows it disconnected) and offers it back, the
    same seat and player, not a new one."""
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace, first = grace_ready_in_her_browser(browser, server_url, ada, code)
    try:
        beside = grace.new_page()
        beside.goto(f"/r/{code}")
        expect(beside.get_by_test_id("seated-elsewhere")).to_contain_text("You already play Grace")
        expect(beside.get_by_test_id("freed-seat")).to_have_count(0)
        line = beside.get_by_test_id("join-room-line")
        expect(line).to_contain_text("2 of 4 seats taken (one is yours, in another tab), waiting")
        first.close()
        offer = beside.get_by_test_id("freed-seat")
        expect(offer).to_contain_text("Grace’s tab was closed: play Grace here?", timeout=OFFERED)
        expect(line).to_contain_text("2 of 4 seats taken (one is yours), waiting to start.")
        expect(beside.get_by_test_id("seated-elsewhere")).to_have_count(0)
        shot(beside, shots, "freed-seat-desktop", full_page=False)
        beside.set_viewport_size(PHONE_VIEWPORT)
        shot(beside, shots, "freed-seat-phone", full_page=False)
        offer.get_by_role("button", name="Play Grace here").click()

        mine = beside.get_by_test_id("seat-1")
        expect(mine).to_contain_text("You")
        expect(mine).to_contain_text("Ready")  # the seat as the closed tab left it
        expect(ada.get_by_test_id("seat-1")).to_contain_text("Player · online")
        expect(ada.get_by_test_id("seat-2")).to_have_count(0)
        assert beside.evaluate("localStorage.getItem('lounge.name')") == "Grace"
    finally:
        grace.close()


@pytest.fixture
def short_grace_url() -> Iterator[str]:
    """A lounge where a player's connection may be gone 2 s before the rematch leaves them out (the
    shared one's grace is 30 s), and a bot plays an away player's turns at once."""
    with own_server(PLAYER_GRACE_SECONDS="2", AWAY_PAUSE_SECONDS="0.1") as server:
        yield server.url


def test_a_player_the_rematch_left_out_is_told_why_in_a_new_tab(browser, short_grace_url, shots):
    """Grace closed her tab mid-game and stayed away; the rematch started without her. Opening the
    link again in a new tab of her browser said only "You are watching" (her seat gone, the tab was
    a new player): it comes back as the player she was, and the server says why she watches."""
    contexts, ada, grace = two_tabs(browser, short_grace_url, DESKTOP)
    try:
        code = host_room(ada, "Ada", "Crazy Eights", public=False)
        ada.get_by_label("Bot level").select_option("easy")
        ada.get_by_role("button", name="Add bot").click()
        join_by_code(grace, "Grace", code)
        grace.get_by_role("button", name="I’m ready").click()
        expect(ada.get_by_test_id("seat-2")).to_contain_text("Ready")
        ada.get_by_role("button", name="Start game").click()
        expect(grace.get_by_test_id("table")).to_be_visible()
        grace.close()
        expect(ada.get_by_test_id("player-2")).to_contain_text("Away")  # her grace ran out

        play_until_result([ada], max_seconds=60)
        ada.get_by_role("button", name="Rematch").click()
        expect(ada.get_by_test_id("result")).to_have_count(0)
        expect(ada.get_by_test_id("table")).not_to_contain_text("Grace")

        again = contexts[1].new_page()
        again.goto(f"/r/{code}")
        expect(again.get_by_test_id("left-game")).to_contain_text(
            "This game started while your connection was lost, without you: you are watching.")
        shot(again, shots, "left-out-new-tab", full_page=False)
        again.set_viewport_size(PHONE_VIEWPORT)
        shot(again, shots, "left-out-new-tab-phone", full_page=False)
    finally:
        for context in contexts:
            context.close()
