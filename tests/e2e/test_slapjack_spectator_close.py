"""A Slapjack slap race between two tabs, a spectator, and the host closing their tab."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .helpers import (
    PHONE_VIEWPORT,
    host_room,
    join_by_code,
    play_until_result,
    ready_and_start,
    shot,
)


def slappable(pile: list[str]) -> bool:
    """The test's own reading of the rules: a Jack on top, a pair, or a sandwich."""
    ranks = [card[:-1] for card in pile]
    if not ranks:
        return False
    pair = len(ranks) > 1 and ranks[-2] == ranks[-1]
    sandwich = len(ranks) > 2 and ranks[-3] == ranks[-1]
    return ranks[-1] == "J" or pair or sandwich


def pile_cards(page: Page) -> list[str]:
    return page.get_by_test_id("sj-pile").locator("[data-card]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.card)"
    )


def turn_up_one(ada: Page, grace: Page) -> bool:
    """Whoever's turn it is turns up a card; false when neither can."""
    turn_up = [p for p in (ada, grace)
               if p.get_by_role("button", name="Turn up a card").is_enabled()]
    if not turn_up:
        return False
    before = ada.get_by_test_id("table").get_attribute("data-version")
    turn_up[0].get_by_role("button", name="Turn up a card").click()
    expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", before)
    return True


def test_slapjack_slap_race_and_a_spectator(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Slapjack")
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    # Before everyone is ready, Start says who the table waits for.
    expect(ada.get_by_test_id("start-waiting")).to_have_text("Waiting for Grace to get ready.")
    ready_and_start(ada, grace)
    expect(grace.get_by_test_id("slap")).to_be_enabled()

    watcher = open_tab(f"/r/{code}", viewport=PHONE_VIEWPORT, name="Linus")
    expect(watcher.get_by_role("note")).to_contain_text("You are watching")
    expect(watcher.get_by_test_id("slap")).to_have_count(0)
    expect(watcher.get_by_role("button", name="Turn up a card")).to_have_count(0)

    raced = False
    for _ in range(120):
        pile = pile_cards(ada)
        if slappable(pile):
            # Both press the space bar on the same pile: one takes it, the other is late.
            grace.keyboard.press("Space")
            ada.keyboard.press("Space")
            raced = True
            break
        turn_up_one(ada, grace)
    assert raced, "no slappable pile came up"
    log = ada.get_by_test_id("game-log")
    # Exactly one of them takes the pile; the other slap is judged late (or, when it reached
    # the server after the pile was gone, wrong): it costs cards either way.
    expect(log).to_contain_text(re.compile(r"(Ada|Grace) slapped .* and took"))
    expect(log).to_contain_text(re.compile(r"(Ada|Grace) slapped (too late|wrongly)"))
    assert len(re.findall(r"and took", log.inner_text())) == 1
    expect(watcher.get_by_test_id("game-log")).to_contain_text("took")
    shot(grace, shots, "slapjack")

    # A double click on SLAP on a jack is one slap: the second click would reach the server after
    # the first had taken the pile, and cost three cards as a late slap.
    doubled = False
    slap = grace.get_by_test_id("slap")
    for _ in range(160):
        # Only a jack just turned up: one that came to the top as a slap's penalty cards sits on
        # a pile already slapped, which no slap can win until the next card.
        if turn_up_one(ada, grace):
            pile = pile_cards(ada)
            if pile[-1].startswith("J") and slap.is_enabled():
                slaps_before = len(re.findall(r"Grace slapped", log.inner_text()))
                slap.dblclick()
                doubled = True
                break
        elif slappable(pile_cards(ada)) and slap.is_enabled():  # only a slap goes on
            before = ada.get_by_test_id("table").get_attribute("data-version")
            slap.click()
            expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", before)
        else:
            ada.wait_for_timeout(100)
    assert doubled, "no jack came up"
    expect(log).to_contain_text(re.compile(r"Grace slapped a jack and took"))
    grace.wait_for_timeout(500)  # a second slap, had it been sent, would be logged by now
    assert len(re.findall(r"Grace slapped", log.inner_text())) == slaps_before + 1, log.inner_text()
    shot(watcher, shots, "spectator-phone")


def test_host_closing_their_tab_closes_the_room(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe")
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    ready_and_start(ada, grace)
    expect(grace.get_by_test_id("turn")).to_have_text("Ada’s turn")
    ada.context.close()
    expect(grace.get_by_role("heading", name="This room was closed")).to_be_visible(timeout=15_000)
    expect(grace.get_by_role("alert")).to_contain_text("host")
    shot(grace, shots, "room-closed")


def test_tic_tac_toe_to_a_result_with_a_spectator(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe")
    grace = open_tab(f"/r/{code}", name="Grace")
    expect(grace.get_by_test_id("seat-1")).to_contain_text("Grace")
    grace.get_by_role("button", name="I’m ready").click()
    watcher = open_tab(f"/r/{code}?watch=1", name="Linus")
    expect(watcher.get_by_text("You are watching this table")).to_be_visible()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
    ada.get_by_role("button", name="Start game").click()
    expect(watcher.get_by_role("note")).to_contain_text("You are watching")
    ada.get_by_test_id("cell-4").click()
    expect(watcher.get_by_test_id("cell-4")).to_have_text("X")

    # A reload keeps Grace's seat (the token lives in the tab's sessionStorage).
    grace.reload()
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
    expect(grace.get_by_test_id("cell-4")).to_have_text("X")
    # A lost connection shows a banner, and the tab rejoins by itself.
    grace.context.set_offline(True)
    expect(grace.get_by_test_id("reconnecting")).to_be_visible(timeout=20_000)
    grace.context.set_offline(False)
    expect(grace.get_by_test_id("reconnecting")).to_have_count(0, timeout=20_000)
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
    # Every control works from the keyboard: Grace moves with Tab focus and Enter.
    grace.get_by_test_id("cell-0").focus()
    grace.keyboard.press("Enter")
    expect(ada.get_by_test_id("cell-0")).to_have_text("O")
    play_until_result([ada, grace])
    expect(watcher.get_by_test_id("result")).to_be_visible()
    expect(watcher.get_by_role("button", name="Rematch")).to_have_count(0)
    shot(watcher, shots, "tic-tac-toe-spectator")


def test_rules_page_and_unknown_room(open_tab, shots):
    page = open_tab("/rules/poker99")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Poker 99")
    expect(page.get_by_role("link", name="Nine Locks")).to_be_visible()
    shot(page, shots, "rules")
    page.get_by_role("link", name="Nine Locks").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Nine Locks")
    phone = open_tab("/", viewport=PHONE_VIEWPORT)
    expect(phone.get_by_role("button", name="Create room")).to_be_visible()
    shot(phone, shots, "home-phone")
    missing = open_tab("/r/ZZZZZZ", name="Ada")
    expect(missing.get_by_role("heading", name="No open room with this code")).to_be_visible()
