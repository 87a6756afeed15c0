"""Three tabs, three players: host Nine Locks, share the code, join, chat, and play to the end."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .helpers import (
    PHONE_VIEWPORT,
    has_result,
    host_room,
    join_by_code,
    play_some,
    play_until_result,
    send_chat,
    shot,
)


def glows(page: Page, selector: str) -> list[str]:
    """The animation of what ``selector`` finds, with motion and then with reduced motion (a
    glow that pulses forever must stop for players who ask for less motion)."""
    seen = []
    for motion in ("no-preference", "reduce"):
        page.emulate_media(reduced_motion=motion)
        glow = page.locator(selector).first
        seen.append(glow.evaluate("(e) => getComputedStyle(e).animationName"))
    page.emulate_media(reduced_motion="no-preference")
    return seen


def test_three_players_host_join_chat_and_play_to_a_result(open_tab, shots):
    ada = open_tab("/", motion="no-preference")  # one game as most players see it: animated
    expect(ada.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    shot(ada, shots, "home")
    code = host_room(ada, "Ada", "Nine Locks")

    grace = open_tab("/", motion="no-preference")
    linus = open_tab("/", viewport=PHONE_VIEWPORT, motion="no-preference")
    expect(grace.get_by_text(code)).to_be_visible()  # listed among the open tables
    join_by_code(grace, "Grace", code)
    join_by_code(linus, "Linus", code)

    send_chat(grace, "hello <b>everyone</b>")
    for page in (ada, grace, linus):
        expect(page.get_by_test_id("chat-log")).to_contain_text("hello <b>everyone</b>")
    assert ada.locator(".chat-log b").count() == 0  # chat is text, never markup
    send_chat(ada, "Welcome! Ready up please")

    for page in (grace, linus):
        page.get_by_role("button", name="I’m ready").click()
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Ready")
    shot(ada, shots, "lobby")
    shot(linus, shots, "lobby-phone")

    ada.get_by_role("button", name="Start game").click()
    for page in (ada, grace, linus):
        expect(page.get_by_test_id("table")).to_be_visible()
        expect(page.get_by_test_id("pile-4")).to_have_attribute("data-state", "unlocked")
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")
    expect(grace.get_by_test_id("turn")).to_have_text("Ada’s turn")
    assert glows(ada, ".table-status.your-turn") == ["pulse", "none"]
    # Every card has a spoken name; the other players' hidden hands are face down with counts.
    expect(ada.get_by_role("img", name=re.compile(r"Grace's hidden hand: 3 cards"))).to_be_visible()
    card_name = re.compile(r"^(ace|king|queen|jack|\d+) of (hearts|spades|diamonds|clubs)$")
    for card in ada.locator(".me-area [data-card]").all():
        expect(card).to_have_accessible_name(card_name)
    shot(ada, shots, "nine-locks")
    shot(linus, shots, "nine-locks-phone")

    # Midway, a player chooses a card: the piles it may go on light up.
    play_some([ada, grace, linus], 24)
    for page in (ada, grace, linus):
        playable = page.locator(".me-area button.card-playable")
        if not has_result(page) and playable.count():
            playable.first.click()
            expect(page.locator(".nl-pile button.is-target").first).to_be_visible()
            assert glows(page, ".nl-pile .target.is-target") == ["pulse", "none"]
            shot(page, shots, "nine-locks-choosing", full_page=False)
            break
    play_until_result([ada, grace, linus])
    for page in (ada, grace, linus):
        expect(page.get_by_test_id("result")).to_be_visible()
        expect(page.get_by_test_id("game-log")).to_contain_text(re.compile("wins|draw"))
    shot(ada, shots, "nine-locks-result")
    expect(ada.get_by_role("button", name="Rematch")).to_be_visible()
