"""Poker 99 with a bot and a hot-seat player, played from one tab until there is a result."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from .helpers import (
    describe_pages,
    has_result,
    host_room,
    play_until_result,
    shot,
    show_hand_of,
    take_turn,
)


def test_bot_and_hot_seat_game_of_poker_99(open_tab, shots):
    ada = open_tab("/")
    host_room(ada, "Ada", "Poker 99", public=False)
    ada.get_by_label("Bot level").select_option("easy")
    ada.get_by_role("button", name="Add bot").click()
    ada.get_by_placeholder("Name").fill("Grace")
    ada.get_by_role("button", name="Add hot seat").click()
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Hot seat")
    # The bot's level is said once, in its name; its pill says what it is.
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bot 1 (easy)")
    expect(ada.get_by_test_id("seat-1").locator(".pill-bot")).to_have_text("Bot")
    shot(ada, shots, "lobby-bot-hot-seat")

    ada.get_by_role("button", name="Start game").click()
    # Two players share this screen: the first hand stays hidden until asked for.
    curtain = ada.get_by_test_id("curtain")
    expect(curtain).to_contain_text("Pass the device to Ada")
    assert ada.locator(".me-area [data-card]").count() == 0
    shot(ada, shots, "hot-seat-curtain")
    curtain.get_by_role("button", name=re.compile("Show my hand")).click()
    expect(ada.locator(".me-area [data-card]")).to_have_count(5)
    expect(ada.get_by_test_id("total")).to_contain_text("0")
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn, Ada")
    shot(ada, shots, "poker99")

    # When the turn reaches Grace, Ada's hand is put away before Grace's is shown. The bot's
    # turns take their time, so the budget is in seconds, not in clicks.
    seen_grace_curtain = False
    shots_taken: set[str] = set()
    deadline = time.monotonic() + 45
    while time.monotonic() < deadline:
        special = ada.locator(", ".join(
            f".me-area button.card-playable[data-card^='{rank}']" for rank in ("10", "Q", "5")
        ))
        if "choice" not in shots_taken and special.count():
            # A 10, Q or 5 asks for its choice among the server's legal moves.
            special.first.click()
            expect(ada.locator(".choice-box")).to_be_visible()
            shot(ada, shots, "poker99-choice", full_page=False)
            shots_taken.add("choice")
        if ada.get_by_test_id("curtain").filter(has_text="Grace").count():
            seen_grace_curtain = True
            break
        if has_result(ada):  # a deal can end before Grace's turn: the next game is Grace's sooner
            ada.get_by_role("button", name="Rematch").click()
            expect(ada.get_by_test_id("result")).to_have_count(0)
            continue
        play_until_step(ada)
    assert seen_grace_curtain, describe_pages([ada])

    play_until_result([ada])
    expect(ada.get_by_test_id("result")).to_contain_text(re.compile("win"))
    shot(ada, shots, "poker99-result")
    ada.get_by_role("button", name="Rematch").click()
    expect(ada.get_by_test_id("result")).to_have_count(0)
    # A new game, begun by the next seat round the table (the bot may have played already).
    expect(ada.get_by_test_id("game-log")).to_contain_text(
        re.compile(r"Game \d+ begins: everyone moved one seat round"))


def play_until_step(page) -> None:
    """One action for Ada's seat only (stops short of opening Grace's hand)."""
    if show_hand_of(page, "Ada"):
        return
    if not take_turn(page, allow_curtain=False):
        page.wait_for_timeout(50)
