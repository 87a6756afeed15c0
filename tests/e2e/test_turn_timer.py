"""Turn timer and stand-ins (issue 13): the host sets a turn time; the acting seat's countdown
is shown to everyone; when it runs out a bot plays the turn and the log says so; after two in
a row the player is away, told so, and "I'm back" ends it. A server of its own with a 2 s turn
time on offer (the shared one offers only the real 30 s, 1 min, 2 min)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import suppress

import pytest
from playwright.sync_api import Browser, expect

from tests.live_server import Server

from .conftest import DESKTOP, DIST, SERVER_ENV
from .helpers import host_room, join_by_code, ready_and_start, shot, two_tabs

RAN_OUT = "Ada's time ran out: a bot played for them"
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def a_free_cell_that_does_not_win(page, mark: str) -> int:
    """A cell ``mark`` may take without completing a line: the bot played two of Ada's marks
    where it chose, and her own move must leave the game going on."""
    marks = [text.strip() for text in page.locator(".ttt button").all_inner_texts()]
    free = [i for i, text in enumerate(marks) if not text]
    return next(i for i in free if not any(
        i in line and all(marks[j] == mark for j in line if j != i) for line in LINES))


@pytest.fixture(scope="module")
def quick_turns_url() -> Iterator[str]:
    server = Server(**{**SERVER_ENV, "TURN_TIMES": "2,60,120", "AWAY_PAUSE_SECONDS": "4"},
                    FRONTEND_DIST=str(DIST.parent))
    try:
        yield server.url
    finally:
        output = server.stop()
    assert "Traceback" not in output, output[-4000:]


def test_timer_expiry_with_a_bot_stand_in_then_back(browser: Browser, quick_turns_url: str,
                                                    shots):
    contexts, ada, grace = two_tabs(browser, quick_turns_url, DESKTOP)
    try:
        code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
        ada.get_by_test_id("turn-time-select").select_option(label="2 s")
        join_by_code(grace, "Grace", code)
        expect(grace.get_by_test_id("turn-time")).to_have_text("Turn time: 2 s")
        ready_and_start(ada, grace)

        # Everyone sees Ada's clock: on her seat for Grace, in words for Ada.
        expect(grace.get_by_test_id("player-0").get_by_test_id("seat-clock")).to_be_visible()
        expect(ada.get_by_test_id("turn-clock")).to_contain_text(
            re.compile(r"0:0[12] left for your turn"))
        shot(grace, shots, "turn-timer-countdown", full_page=False)

        # Ada lets it run out: a bot plays for her, and the log says so.
        expect(grace.get_by_test_id("game-log")).to_contain_text(RAN_OUT, timeout=5_000)
        expect(grace.get_by_test_id("table").locator(".ttt button", has_text="X")).to_have_count(1)
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        grace.locator(".ttt button.is-target").first.click()

        # A second turn run out: Ada is away, told so with a way back.
        away = ada.get_by_test_id("away-note")
        expect(away).to_contain_text("You are away: a bot plays your turns.", timeout=5_000)
        expect(grace.get_by_test_id("player-0")).to_contain_text("Away")
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        grace.locator(".ttt button.is-target").first.click()
        expect(grace.get_by_test_id("player-0").get_by_test_id("seat-clock")).to_contain_text(
            "Bot plays in")
        shot(ada, shots, "turn-timer-away", full_page=False)
        away.get_by_role("button", name="I’m back").click()
        expect(away).to_have_count(0)
        expect(grace.get_by_test_id("player-0")).not_to_contain_text("Away")
        ada.get_by_test_id(f"cell-{a_free_cell_that_does_not_win(ada, 'X')}").click()  # in time
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        expect(grace.get_by_test_id("table").locator(".ttt button", has_text="X")).to_have_count(3)
    finally:
        for context in contexts:
            with suppress(Exception):
                context.close()
