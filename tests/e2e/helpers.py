"""Steps a person takes in the web client, written once for all the end-to-end tests."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser import REDUCED_MOTION

PHONE_VIEWPORT = {"width": 390, "height": 844}
CODE = re.compile(r"/r/([A-Z0-9]{6})$")


def shot(page: Page, folder: Path, name: str, full_page: bool = True) -> Path:
    """Saves a screenshot of the page as `name`.png in `folder`."""
    path = folder / f"{name}.png"
    # Card animations are finished first, so each picture shows the table at rest.
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


def set_name(page: Page, name: str) -> None:
    field = page.get_by_test_id("name-input")
    field.fill(name)
    field.blur()


def host_room(page: Page, name: str, game_title: str, public: bool = True) -> str:
    """Creates a room from the home page; returns its code."""
    set_name(page, name)
    page.locator("label.game-option", has_text=game_title).click()
    expect(page.get_by_role("radio", name=re.compile(game_title))).to_be_checked()
    public_box = page.get_by_role("checkbox", name=re.compile("List the room publicly"))
    public_box.set_checked(public)
    page.get_by_role("button", name="Create room").click()
    page.wait_for_url(CODE)
    code = page.get_by_test_id("room-code").inner_text().strip()
    assert CODE.search(page.url).group(1) == code
    return code


def join_by_code(page: Page, name: str, code: str) -> None:
    """Joins a room by typing its code on the home page."""
    set_name(page, name)
    page.get_by_label("Room code").fill(code.lower())
    page.get_by_role("button", name="Join", exact=True).click()
    page.wait_for_url(f"**/r/{code}")
    expect(page.get_by_test_id("room-code")).to_have_text(code)


def send_chat(page: Page, text: str) -> None:
    page.get_by_role("textbox", name="Message").fill(text)
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("textbox", name="Message")).to_have_value("")


def table_version(page: Page) -> str | None:
    table = page.get_by_test_id("table")
    return table.get_attribute("data-version") if table.count() else None


def has_result(page: Page) -> bool:
    return page.get_by_test_id("result").count() > 0


# What a player would press next, in order: the hot-seat curtain, a highlighted target, a
# choice for the selected card, a playable card, the deck, a free cell, "Turn up a card", and
# last any other button that sends one move by name (`data-move`, e.g. "Draw a card", "Pass").
NEXT_ACTION_JS = """(allowCurtain) => {
  if (document.querySelector('[data-testid=result]')) return null;
  const order = [
    allowCurtain ? '[data-testid=curtain] button' : null,
    '.nl-pile button.is-target', '.choice-box .btn-accent', 'button.card-playable',
    '.deck-col button.pile-stack', '.ttt button.is-target', '[data-testid=turn-up]',
    'button[data-move]',
  ];
  for (const selector of order) {
    const el = selector && document.querySelector(selector);
    if (el && !el.disabled) { el.click(); return selector; }
  }
  return null;
}"""


# Presses the curtain's button only if it shows this player's hand, in one round trip: checked
# from Python and then clicked, it could be gone in between (a bot's move ends the turn it was
# for, and the curtain moves on to the next seat).
SHOW_HAND_OF_JS = """(name) => {
  const button = document.querySelector('[data-testid=curtain] button');
  if (!button || !button.textContent.includes(`(${name})`)) return false;
  button.click();
  return true;
}"""


def show_hand_of(page: Page, name: str) -> bool:
    """Opens the hot-seat curtain if it is this player's; True when it did."""
    return bool(page.evaluate(SHOW_HAND_OF_JS, name))


def take_turn(page: Page, allow_curtain: bool = True) -> bool:
    """Makes one step of a legal move through the page (in one round trip, to keep the suite
    fast); True when it pressed something."""
    return page.evaluate(NEXT_ACTION_JS, allow_curtain) is not None


def play_some(pages: list[Page], actions: int) -> None:
    """Takes up to `actions` steps across the pages (fewer if the game ends)."""
    for _ in range(actions * 4):
        if actions <= 0 or any(has_result(p) for p in pages):
            return
        for page in pages:
            if take_turn(page):
                actions -= 1
        pages[0].wait_for_timeout(20)


def play_until_result(
    pages: list[Page], max_actions: int = 1500, max_seconds: float = 150.0
) -> int:
    """Takes turns on every page until each shows the result; returns how many clicks it took."""
    actions = 0
    deadline = time.monotonic() + max_seconds
    while actions < max_actions and time.monotonic() < deadline:
        if all(has_result(p) for p in pages):
            return actions
        moved = False
        for page in pages:
            if take_turn(page):
                actions += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(30)
    raise AssertionError(f"no result after {actions} actions: {describe_pages(pages)}")


PAGE_SUMMARY_JS = """() => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  return {
    turn: document.querySelector('[data-testid=turn]')?.textContent,
    version: document.querySelector('[data-testid=table]')?.dataset.version,
    messages: all('.error-msg, [role=status]').map((e) => e.textContent),
    hint: document.querySelector('.hint')?.textContent,
    targets: all('.is-target').length,
    playable: all('.card-playable').map((e) => e.querySelector('.visually-hidden')?.textContent),
  };
}"""


def describe_pages(pages: list[Page]) -> str:
    """What each page shows: its turn line, version, messages and what it could press."""
    return " | ".join(repr(page.evaluate(PAGE_SUMMARY_JS)) for page in pages)


def ready_and_start(host: Page, guest: Page) -> None:
    """The guest (in the room, seat 1) gets ready and the host starts the game."""
    guest.get_by_role("button", name="I’m ready").click()
    expect(host.get_by_test_id("seat-1")).to_contain_text("Ready")
    host.get_by_role("button", name="Start game").click()


def two_tabs(browser: Browser, base_url: str, viewport: dict) -> tuple[list, Page, Page]:
    """Two players' browsers on the lounge at ``base_url``: (contexts, first, second), each
    page on the home page with a 10 s default timeout."""
    contexts = [browser.new_context(viewport=viewport, base_url=base_url, **REDUCED_MOTION)
                for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(10_000)
        page.goto("/")
    return contexts, pages[0], pages[1]


def left_mid_game(open_tab) -> tuple[Page, Page, str]:
    """Ada hosts Nine Locks with an easy bot, Grace joins, the game starts, and Grace leaves
    it on purpose: (ada, grace, code), Grace on the home page."""
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    ada.get_by_label("Bot level").select_option("easy")
    ada.get_by_role("button", name="Add bot").click()
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    grace.get_by_role("button", name="I’m ready").click()
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Ready")
    ada.get_by_role("button", name="Start game").click()
    expect(grace.get_by_test_id("table")).to_be_visible()
    grace.get_by_role("button", name="Leave", exact=True).click()
    grace.get_by_test_id("confirm-leave").get_by_role("button", name="Leave").click()
    expect(grace.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    expect(ada.get_by_test_id("player-2")).to_contain_text("Left")
    return ada, grace, code
