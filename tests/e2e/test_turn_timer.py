"""Turn timer and stand-ins (issue 13): the host sets a turn time; the acting seat's countdown
is shown to everyone; when it runs out a bot plays the turn and the log says so; after two in
a row the player is away, told so, and "I'm back" (in the bar that sticks to the top of the
table, in view wherever the table is scrolled) ends it; at desktop and phone sizes. A server of
its own with a 2 s turn time on offer (the shared one offers only the real 30 s, 1 min, 2 min)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import suppress

import pytest
from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, PHONE, own_server
from .helpers import host_room, join_by_code, ready_and_start, shot, two_tabs

RAN_OUT = "Ada’s time ran out: a bot played for them"
SIZES = [("desktop", DESKTOP), ("phone", PHONE)]
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
    # The bot waits long for a player away: the test looks at the away screen, then ends it
    # itself, and never waits for that bot (which, 4 s, played first on a loaded machine).
    with own_server(TURN_TIMES="2,60,120", AWAY_PAUSE_SECONDS="600") as server:
        yield server.url


def scroll_below(page, test_id: str) -> None:
    """Scrolls the window (at once) until the element's foot is at the window's top edge: as a
    reveal scrolled to a Nine Locks pile leaves a note above the table's sticky bar."""
    page.evaluate("""(id) => {
      const foot = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect().bottom;
      window.scrollTo({ top: window.scrollY + foot, behavior: "instant" });
    }""", test_id)


def rows_of(boxes: list[dict]) -> int:
    """How many rows the boxes make (boxes that overlap top to bottom share one)."""
    rows: list[float] = []  # each row's foot
    for box in sorted(boxes, key=lambda b: b["y"]):
        if rows and box["y"] < rows[-1] - 1:
            rows[-1] = max(rows[-1], box["y"] + box["height"])
        else:
            rows.append(box["y"] + box["height"])
    return len(rows)


def one_line(page, test_id: str) -> bool:
    """Whether the element's text takes one line (its height inside its padding)."""
    return page.get_by_test_id(test_id).evaluate("""(el) => {
      const style = getComputedStyle(el);
      const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
      return el.clientHeight - padding < 1.8 * parseFloat(style.fontSize);
    }""")


def assert_back_in_the_bar_in_view(ada, size: str) -> None:
    """The window is scrolled down the table, and the bar stuck to its top carries the one
    "I’m back", whole in the window, and stays two lines at most."""
    bar = ada.locator(".table-head")
    back = bar.get_by_role("button", name="I’m back")
    expect(ada.get_by_role("button", name="I’m back")).to_have_count(1)
    bar_box, back_box = bar.bounding_box(), back.bounding_box()
    assert ada.evaluate("window.scrollY") > 0 and abs(bar_box["y"]) < 1, bar_box
    window = ada.viewport_size
    assert back_box["y"] >= 0 and back_box["y"] + back_box["height"] <= window["height"], back_box
    assert back_box["x"] >= 0 and back_box["x"] + back_box["width"] <= window["width"], back_box
    parts = [ada.get_by_test_id(p).bounding_box() for p in ("turn", "turn-clock")] + [back_box]
    assert rows_of(parts) <= (1 if size == "desktop" else 2), parts
    assert one_line(ada, "turn") and one_line(ada, "turn-clock")


@pytest.mark.parametrize(("size", "viewport"), SIZES, ids=[s for s, _ in SIZES])
def test_timer_expiry_with_a_bot_stand_in_then_back(browser: Browser, quick_turns_url: str,
                                                    shots, size, viewport):
    contexts, ada, grace = two_tabs(browser, quick_turns_url, viewport)
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
        suffix = "" if size == "desktop" else f"-{size}"
        shot(grace, shots, f"turn-timer-countdown{suffix}", full_page=False)

        # Ada lets it run out: a bot plays for her, and the log says so.
        expect(grace.get_by_test_id("game-log")).to_contain_text(RAN_OUT, timeout=5_000)
        expect(grace.get_by_test_id("table").locator(".ttt button", has_text="X")).to_have_count(1)
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        grace.locator(".ttt button.is-target").first.click()

        # A second turn run out: Ada is away, told so with a way back in the bar at the top.
        away = ada.get_by_test_id("away-note")
        expect(away).to_contain_text("You are away: a bot plays your turns", timeout=5_000)
        back = ada.locator(".table-head").get_by_role("button", name="I’m back")
        expect(back).to_be_visible()
        expect(grace.get_by_test_id("player-0")).to_contain_text("Away")
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        grace.locator(".ttt button.is-target").first.click()
        expect(grace.get_by_test_id("player-0").get_by_test_id("seat-clock")).to_contain_text(
            "Bot plays in")
        expect(ada.get_by_test_id("turn-clock")).to_contain_text("You are away: a bot plays in")
        expect(away).to_have_count(0)  # on her turn the bar says it, in one line
        shot(ada, shots, f"turn-timer-away-note{suffix}", full_page=False)
        # The window scrolled down the table: "I’m back" is still in sight, in the bar.
        scroll_below(ada, "player-1")
        assert_back_in_the_bar_in_view(ada, size)
        shot(ada, shots, f"turn-timer-away{suffix}", full_page=False)
        cell = ada.get_by_test_id(f"cell-{a_free_cell_that_does_not_win(ada, 'X')}")
        back.click()  # her turn's clock starts again, at 2 s: her move goes at once, in time
        cell.click()
        expect(away).to_have_count(0)
        expect(back).to_have_count(0)
        expect(grace.get_by_test_id("player-0")).not_to_contain_text("Away")
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        expect(grace.get_by_test_id("table").locator(".ttt button", has_text="X")).to_have_count(3)
    finally:
        for context in contexts:
            with suppress(Exception):
                context.close()


@pytest.mark.parametrize(("size", "viewport"), [("desktop", {"width": 1280, "height": 800}),
                                                ("phone", PHONE)], ids=["desktop", "phone"])
def test_slapjack_away_keeps_i_am_back_on_the_bar_s_line(browser: Browser, quick_turns_url: str,
                                                         shots, size, viewport):
    """Slapjack's turn line is long ("Slap at any time · your turn to turn up a card"): while
    Ada is away the clock beside it says the rest, and on a desktop the bar is one line with its
    "I’m back"; on a phone two, the button whole in the window."""
    contexts, ada, _other = two_tabs(browser, quick_turns_url, viewport)
    try:
        host_room(ada, "Ada", "Slapjack", public=False)
        ada.get_by_label("Bot level").select_option("easy")
        ada.get_by_role("button", name="Add bot").click()
        ada.get_by_test_id("turn-time-select").select_option(label="2 s")
        ada.get_by_role("button", name="Start game").click()
        back = ada.locator(".table-head").get_by_role("button", name="I’m back")
        expect(back).to_be_visible(timeout=15_000)
        expect(ada.get_by_test_id("turn-clock")).to_contain_text("You are away: a bot plays in")
        expect(ada.get_by_test_id("turn")).to_have_text("Slap at any time")
        parts = [ada.get_by_test_id(p).bounding_box() for p in ("turn", "turn-clock")]
        back_box = back.bounding_box()
        assert rows_of([*parts, back_box]) == (1 if size == "desktop" else 2), [*parts, back_box]
        assert back_box["x"] + back_box["width"] <= viewport["width"], back_box
        assert one_line(ada, "turn") and one_line(ada, "turn-clock")
        shot(ada, shots, f"slapjack-away-{size}", full_page=False)
        back.click()
        expect(back).to_have_count(0)
        expect(ada.get_by_test_id("turn")).to_contain_text("Slap at any time · ")
    finally:
        for context in contexts:
            with suppress(Exception):
                context.close()
