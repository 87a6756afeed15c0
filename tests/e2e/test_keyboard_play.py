"""A whole game of Tic-Tac-Toe and one of Nine Locks against a bot, played with the keyboard only:
Tab and Shift+Tab to the next control to press, Enter or Space to press it. Every control reached
shows its focus ring, and after each move focus is somewhere on the table, never dropped to the
page itself. The turn line, a polite live region, says each change of turn."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .helpers import has_result, host_room

# Marks what a player would press next (`data-kb-next`), in the order of helpers.NEXT_ACTION_JS:
# a highlighted pile, a choice, a playable card, the deck, a free cell; true when there is one.
MARK_NEXT_JS = """() => {
  document.querySelectorAll('[data-kb-next]').forEach((e) => e.removeAttribute('data-kb-next'));
  if (document.querySelector('[data-testid=result]')) return false;
  const order = ['.nl-pile button.is-target', '.choice-box .btn-accent', 'button.card-playable',
    '.deck-col button.pile-stack', '.ttt button.is-target'];
  for (const selector of order) {
    const el = [...document.querySelectorAll(selector)].find((e) => !e.disabled);
    if (el) { el.setAttribute('data-kb-next', ''); return true; }
  }
  return false;
}"""

# Which way Tab goes to the marked control from the focused one: "Tab", "Shift+Tab", or null when
# it has focus (the page itself counts as before everything).
DIRECTION_JS = """() => {
  const target = document.querySelector('[data-kb-next]');
  const active = document.activeElement;
  if (!target || active === target) return null;
  if (active === document.body) return 'Tab';
  const before = target.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_PRECEDING;
  return before ? 'Tab' : 'Shift+Tab';
}"""

# The focused element, and whether it shows a ring (an outline at least 2 px wide).
FOCUS_JS = """() => {
  const active = document.activeElement;
  const style = getComputedStyle(active);
  return {
    where: active === document.body ? 'body' : active.outerHTML.slice(0, 80),
    lost: active === document.body || active.disabled === true,
    ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
  };
}"""

# Whether focus is on the first pile the chosen card may go on.
ON_FIRST_PILE_JS = """() => {
  const piles = document.querySelectorAll('.nl-pile button.is-target');
  const first = [...piles].find((e) => !e.disabled);
  return Boolean(first) && document.activeElement === first;
}"""

# Every text the turn line (role=status) takes.
WATCH_TURN_JS = """() => {
  window.__turns = [];
  const line = document.querySelector('[data-testid=turn]');
  const note = () => {
    const text = line.textContent;
    if (text !== window.__turns[window.__turns.length - 1]) window.__turns.push(text);
  };
  note();
  new MutationObserver(note).observe(line, { subtree: true, childList: true, characterData: true });
}"""


def against_a_bot(page: Page, game: str) -> None:
    host_room(page, "Ada", game, public=False)
    page.get_by_label("Bot level").select_option("easy")
    page.get_by_role("button", name="Add bot").click()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    page.evaluate(WATCH_TURN_JS)


def tab_to_marked(page: Page, problems: list[str]) -> None:
    """Tabs (or Shift+Tabs) to the marked control, noting any control reached without a ring."""
    for _ in range(60):
        key = page.evaluate(DIRECTION_JS)
        if key is None:
            return
        page.keyboard.press(key)
        focus = page.evaluate(FOCUS_JS)
        if not focus["lost"] and not focus["ring"]:
            problems.append(f"no focus ring on {focus['where']}")
    raise AssertionError("Tab did not reach the control to press in 60 presses")


def on_first_pile(page: Page) -> bool:
    """Whether focus comes to the first pile the chosen card may go on (within a second)."""
    try:
        page.wait_for_function(ON_FIRST_PILE_JS, timeout=1000)
    except PlaywrightTimeoutError:
        return False
    return True


def press_next(page: Page, key: str, problems: list[str]) -> bool:
    """Presses the next control with `key`, then checks that focus stays on the page's controls
    once the move is made; false when there is nothing to press now."""
    if not page.evaluate(MARK_NEXT_JS):
        return False
    tab_to_marked(page, problems)
    version = page.get_by_test_id("table").get_attribute("data-version")
    selecting = page.evaluate("document.activeElement.matches('.me-area button.card-playable')")
    page.keyboard.press(key)
    if selecting:  # a card only chosen makes no move: focus goes to the first pile it may go on
        if not on_first_pile(page):
            problems.append("a chosen card's first pile did not take focus")
    else:
        expect(page.get_by_test_id("table")).not_to_have_attribute("data-version", version)
    page.wait_for_timeout(60)  # the focus fallback runs on the page's next change
    focus = page.evaluate(FOCUS_JS)
    if focus["lost"]:
        problems.append(f"focus lost after a move: {focus['where']}")
    elif not focus["ring"]:
        problems.append(f"no focus ring after a move on {focus['where']}")
    return True


def play_to_the_end(page: Page, seconds: float) -> list[str]:
    """Plays Ada's turns from the keyboard until the result shows; the problems seen."""
    problems: list[str] = []
    keys = ["Enter", "Space"]
    presses = 0
    deadline = time.monotonic() + seconds
    while not has_result(page) and time.monotonic() < deadline:
        if press_next(page, keys[presses % 2], problems):
            presses += 1
        else:
            page.wait_for_timeout(40)
    expect(page.get_by_test_id("result")).to_be_visible()
    assert presses > 0
    return problems


def assert_turns_were_said(page: Page) -> None:
    line = page.get_by_test_id("turn")
    expect(line).to_have_attribute("role", "status")
    expect(line).to_have_attribute("aria-live", "polite")
    said = page.evaluate("window.__turns")
    assert "Your turn" in said and any("Bot 1" in text for text in said), said


def test_a_game_of_tic_tac_toe_from_the_keyboard(open_tab):
    ada = open_tab("/")
    against_a_bot(ada, "Tic-Tac-Toe")
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")
    problems = play_to_the_end(ada, 30)
    assert not problems, problems
    assert_turns_were_said(ada)
    # The result's buttons are reached from the keyboard too.
    rematch = ada.get_by_role("button", name="Rematch")
    for _ in range(40):
        if ada.evaluate("document.activeElement.textContent") == "Rematch":
            break
        ada.keyboard.press("Tab")
    expect(rematch).to_be_focused()


def test_a_game_of_nine_locks_from_the_keyboard(open_tab):
    ada = open_tab("/")
    against_a_bot(ada, "Nine Locks")
    problems = play_to_the_end(ada, 120)
    assert not problems, sorted(set(problems))
    assert_turns_were_said(ada)


def test_a_chosen_nine_locks_card_takes_focus_to_its_first_pile_and_escape_brings_it_back(open_tab):
    """No Tab through the rest of the hand: choosing a card puts focus on the first pile it may
    go on (read with the card's play), Escape cancels and goes back to the card, and Enter on
    the pile plays it."""
    ada = open_tab("/")
    against_a_bot(ada, "Nine Locks")
    # The board takes no focus while the new game settles (the table's heading takes it then).
    expect(ada.get_by_test_id("board")).not_to_have_attribute("data-settling", "true")
    problems: list[str] = []
    card = ada.locator(".me-area button.card-playable:enabled").first
    deadline = time.monotonic() + 30
    while card.count() == 0 or not ada.locator(".me-area .hint").inner_text().startswith(
            "Choose the"):
        assert time.monotonic() < deadline and not has_result(ada), "no card to play came"
        if not press_next(ada, "Enter", problems):
            ada.wait_for_timeout(40)
    name = card.get_attribute("data-card")
    card.focus()
    ada.keyboard.press("Enter")
    assert on_first_pile(ada)
    focused = ada.locator(".nl-pile button.is-target:focus")
    expect(focused).to_have_accessible_name(re.compile(r"^Play .+ on pile [1-9] "))
    expect(ada.locator(".me-area .hint")).to_contain_text("press Escape")
    ada.keyboard.press("Escape")
    chosen = ada.locator(f'.me-area button[data-card="{name}"]')
    expect(chosen).to_be_focused()
    expect(chosen).to_have_attribute("aria-pressed", "false")
    ada.keyboard.press("Space")
    assert on_first_pile(ada)
    version = ada.get_by_test_id("table").get_attribute("data-version")
    ada.keyboard.press("Enter")
    expect(ada.get_by_test_id("table")).not_to_have_attribute("data-version", version)
    expect(ada.locator(f'.me-area [data-card="{name}"]')).to_have_count(0)  # on its pile now
    assert not problems, problems
