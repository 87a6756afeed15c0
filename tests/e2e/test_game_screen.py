"""The game screen for a screen reader and a finger: its one h1, the cards a hint asks for named,
Slapjack's jacks said at once and the player's own slaps said as theirs, a hot-seat player
spoken to, and buttons a fingertip can press on a phone. Two whole games, Slapjack and Nine
Locks, against a bot."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .helpers import (
    NEXT_ACTION_JS,
    PHONE_VIEWPORT,
    has_result,
    host_room,
    play_until_result,
    shot,
)

# Every text the jack's live region and the events' status took, in order (a re-render with the
# same text changes nothing in the page, so is not noted).
WATCH_SLAPJACK_JS = """() => {
  window.__jacks = [];
  window.__events = [];
  const note = () => {
    const jack = document.querySelector('[data-testid=sj-jack-news]')?.textContent ?? '';
    const event = document.querySelector('.center [role=status]')?.textContent ?? '';
    if (jack && jack !== window.__lastJack) window.__jacks.push(jack);
    if (event && event !== window.__events[window.__events.length - 1]) window.__events.push(event);
    window.__lastJack = jack;
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
                                                       characterData: true});
}"""

# Ada's next step: slap a pile she can win (her only slaps: the bot is slower), else turn up a
# card. What was pressed, or null.
SLAPJACK_STEP_JS = """() => {
  if (document.querySelector('[data-testid=result]')) return null;
  const pile = [...document.querySelectorAll('[data-testid=sj-pile] [data-card]')]
    .map((n) => n.dataset.card.slice(0, -1));
  const slapped = document.querySelector('[data-testid=sj-slapped]');
  const n = pile.length;
  const good = n > 0 && !slapped && (pile[n - 1] === 'J' || (n > 1 && pile[n - 2] === pile[n - 1])
    || (n > 2 && pile[n - 3] === pile[n - 1]));
  const slap = document.querySelector('[data-testid=slap]');
  if (good && slap && !slap.disabled) { slap.click(); return 'slap'; }
  const up = document.querySelector('[data-testid=turn-up]');
  if (up && !up.disabled) { up.click(); return 'turn-up'; }
  return null;
}"""


# Nine Locks: "ready" once Ada's hint asks her for a card to play, else her next step (seen and
# pressed at once, so that a turn never goes by between the two).
UNTIL_A_CARD_TO_PLAY_JS = """() => {
  const hint = document.querySelector('.me-area .hint')?.textContent ?? '';
  if (/^Choose (the|one of the) /.test(hint)) return 'ready';
  return (NEXT_ACTION)(false) ?? 'waiting';
}""".replace("NEXT_ACTION", NEXT_ACTION_JS)


def against_a_bot(page: Page, game: str) -> str:
    code = host_room(page, "Ada", game, public=False)
    page.get_by_label("Bot level").select_option("easy")
    page.get_by_role("button", name="Add bot").click()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    return code


def assert_one_hidden_h1(page: Page, name: str) -> None:
    h1 = page.get_by_role("heading", level=1)
    expect(h1).to_have_count(1)
    expect(h1).to_have_text(name)
    box = h1.bounding_box()
    assert box and box["width"] <= 1 and box["height"] <= 1, box  # nothing moved for it


def test_a_whole_slapjack_game_says_each_jack_at_once_and_the_players_own_slaps(open_tab, shots):
    ada = open_tab("/")
    code = against_a_bot(ada, "Slapjack")
    assert_one_hidden_h1(ada, f"Slapjack table {code}")
    ada.evaluate(WATCH_SLAPJACK_JS)
    deadline = time.monotonic() + 150
    while not has_result(ada) and time.monotonic() < deadline:
        if ada.evaluate(SLAPJACK_STEP_JS) is None:
            ada.wait_for_timeout(30)
    expect(ada.get_by_test_id("result")).to_be_visible()
    assert_one_hidden_h1(ada, f"Slapjack table {code}")
    shot(ada, shots, "slapjack-result")

    log = ada.get_by_test_id("game-log").inner_text()
    turned_up = re.findall(r"turned up the (jack of \w+)", log)
    jacks = ada.evaluate("window.__jacks")
    # Said as each jack came, once: never the same jack twice in a row, never one not turned up.
    assert jacks, f"no jack was said ({len(turned_up)} turned up)"
    assert all(re.fullmatch(r"Jack of \w+ on the pile: slap!", said) for said in jacks), jacks
    assert len(jacks) <= len(turned_up), (jacks, turned_up)
    assert {said.split(" on ")[0].lower() for said in jacks} <= set(turned_up)
    events = ada.evaluate("window.__events")
    assert any(e.startswith("You took the pile with a") for e in events), events
    assert not any(e.startswith("Ada ") for e in events), events


def test_a_whole_nine_locks_game_names_what_to_choose_with_one_h1(open_tab, shots):
    ada = open_tab("/")
    code = against_a_bot(ada, "Nine Locks")
    assert_one_hidden_h1(ada, f"Nine Locks table {code}")
    hint = ada.locator(".me-area .hint")
    for _ in range(200):  # to a turn of Ada's with a card to play, seen before she plays it
        if ada.evaluate(UNTIL_A_CARD_TO_PLAY_JS) == "ready" or has_result(ada):
            break
        ada.wait_for_timeout(50)
    expect(hint).to_contain_text("highlighted")
    assert "glow" not in hint.inner_text()
    shot(ada, shots, "nine-locks-hint", full_page=False)
    ada.locator(".me-area button.card-playable").first.click()
    expect(hint).to_have_text(re.compile(
        r"^Choose a highlighted pile for the .+ \(pile [1-9](, [1-9])*( or [1-9])?\), or press"))
    shot(ada, shots, "nine-locks-hint-piles", full_page=False)
    play_until_result([ada])
    assert_one_hidden_h1(ada, f"Nine Locks table {code}")
    watch = ada.get_by_role("link", name="Watch again (opens in a new tab)", exact=True)
    expect(watch).to_be_visible()
    shot(ada, shots, "nine-locks-result-watch-again", full_page=False)


def test_the_buttons_of_the_game_screen_are_a_fingertip_high_on_a_phone(open_tab, shots):
    ada = open_tab("/", viewport=PHONE_VIEWPORT)
    against_a_bot(ada, "Tic-Tac-Toe")
    ada.get_by_test_id("cell-4").click()
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")  # the bot has answered
    ada.get_by_role("button", name="Close room").click()
    expect(ada.get_by_test_id("confirm-leave")).to_be_visible()
    heights = ada.locator(".btn").evaluate_all("buttons => buttons.filter((b) => b.offsetParent)"
                                               ".map((b) => [b.textContent, b.offsetHeight])")
    assert len(heights) >= 4 and all(height >= 44 for _, height in heights), heights
    shot(ada, shots, "tic-tac-toe-phone-buttons")
