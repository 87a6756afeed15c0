"""A name of 32 letters with no space (the longest a name may be) on a 320 px phone: the turn line,
the result and the game log break it rather than push the page wider than the screen."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import own_server
from .helpers import host_room, join_by_code, ready_and_start, shot

LONG = "Wolfeschlegelsteinhausenbergerdo"
SMALL = {"width": 320, "height": 568}


def fits(page, part) -> None:
    box = part.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_a_long_name_in_the_turn_line_and_the_result_fits_a_320_px_phone(open_tab, shots):
    host = open_tab("/", viewport=SMALL)
    code = host_room(host, LONG, "Tic-Tac-Toe", public=False)
    guest = open_tab("/", viewport=SMALL)
    join_by_code(guest, "Grace", code)
    ready_and_start(host, guest)
    turn = guest.get_by_test_id("turn")
    expect(turn).to_have_text(f"{LONG}’s turn")
    fits(guest, turn)
    for cell, player in ((0, host), (4, guest), (1, host), (6, guest), (2, host)):
        player.get_by_test_id(f"cell-{cell}").click()
    title = guest.get_by_test_id("result").get_by_role("heading")
    expect(title).to_have_text(f"{LONG} wins!")
    fits(guest, title)
    log = guest.get_by_test_id("game-log").get_by_role("listitem").last
    expect(log).to_have_text(f"{LONG} wins!")
    assert log.evaluate("e => e.scrollWidth <= e.clientWidth")
    shot(guest, shots, "long-name-result-320")


def test_a_long_name_on_the_hot_seat_curtain_and_over_the_hand_fits_a_320_px_phone(open_tab):
    host = open_tab("/", viewport=SMALL)
    host_room(host, LONG, "Crazy Eights", public=False)
    host.get_by_label("Hot-seat player").fill(LONG[::-1])
    host.get_by_role("button", name="Add hot seat").click()
    host.get_by_role("button", name="Start game").click()
    show = host.get_by_test_id("curtain").get_by_role("button")
    expect(show).to_have_text(f"Show my hand ({LONG})")
    fits(host, show)
    fits(host, host.get_by_test_id("curtain").get_by_text("Pass the device to"))
    show.click()
    heading = host.get_by_role("heading", name=f"{LONG}’s hand")
    fits(host, heading)


def test_a_long_host_name_on_the_invite_page_is_not_cut_on_a_320_px_phone(open_tab):
    host = open_tab("/")
    code = host_room(host, LONG, "Nine Locks", public=False)
    guest = open_tab(f"/r/{code}", viewport=SMALL)
    line = guest.get_by_text(f"Nine Locks, hosted by {LONG}")
    expect(line).to_be_visible()
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth")


def test_two_hot_seat_slap_buttons_of_alike_long_names_read_apart_on_a_320_px_phone(open_tab):
    host = open_tab("/", viewport=SMALL)
    host_room(host, LONG, "Slapjack", public=False)
    host.get_by_label("Hot-seat player").fill(LONG[:-2] + "xy")
    host.get_by_role("button", name="Add hot seat").click()
    host.get_by_role("button", name="Start game").click()
    names = host.get_by_test_id("slap-name")
    expect(names.first.locator("[aria-hidden=true]")).to_have_text("Wol…do")
    expect(names.last.locator("[aria-hidden=true]")).to_have_text("Wol…xy")
    for name in names.all():
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth")
    expect(host.get_by_role("button", name=f"SLAP! {LONG[:-2]}xy")).to_be_visible()


def test_a_long_host_name_in_the_host_away_banner_fits_a_320_px_phone(browser):
    with own_server(HOST_GRACE_SECONDS="30") as server:
        contexts = [browser.new_context(viewport=SMALL, base_url=server.url) for _ in range(2)]
        try:
            host, guest = (context.new_page() for context in contexts)
            for page in (host, guest):
                page.goto("/")
            code = host_room(host, LONG, "Nine Locks", public=False)
            join_by_code(guest, "Grace", code)
            contexts[0].close()
            banner = guest.get_by_test_id("host-away")
            expect(banner).to_contain_text(f"{LONG} lost connection", timeout=10_000)
            # The words keep inside the banner's padding: they ran from edge to edge of the screen.
            text = banner.locator("> span").bounding_box()
            assert text["x"] >= 8 and text["x"] + text["width"] <= 320 - 8, text
            fits(guest, banner)
        finally:
            for context in contexts:
                context.close()
