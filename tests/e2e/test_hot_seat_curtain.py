"""Hot seat: a hand shared on one device is never left face up once its player's move is done,
whoever acts next: a bot, then the host or another hot-seat player (Poker 99)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import host_room, take_turn

# Every change of the page is noted: the turn line, whose hand the hand area shows, and how many
# of its cards are face up. Watching mutations catches the frames between two state messages,
# which a test polling from outside could miss.
WATCH_JS = """() => {
  window.__frames = [];
  const note = () => {
    const turn = document.querySelector('[data-testid=turn]')?.textContent ?? '';
    const owner = document.querySelector('.me-area h2')?.textContent ?? '';
    const faceUp = document.querySelectorAll('.me-area [data-card]').length;
    const curtain = document.querySelector('[data-testid=curtain]')?.textContent ?? null;
    const last = window.__frames[window.__frames.length - 1];
    if (!last || last.turn !== turn || last.owner !== owner || last.faceUp !== faceUp
        || last.curtain !== curtain) {
      window.__frames.push({turn, owner, faceUp, curtain});
    }
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true,
                                                       characterData: true, attributes: true});
  note();
}"""

SEATINGS = {
    # Ada hosts; a bot sits between her and Grace on both sides.
    "host-bot-hot_seat-bot": ["bot", "Grace", "bot"],
    # Two hot-seat players with a bot between them, and one between Linus and Ada.
    "hot_seat-bot-hot_seat-bot": ["Grace", "bot", "Linus", "bot"],
}


def seat_table(page: Page, others: list[str]) -> None:
    host_room(page, "Ada", "Poker 99", public=False)
    page.get_by_label("Bot level").select_option("easy")
    for seat, other in enumerate(others, start=1):
        if other == "bot":
            page.get_by_role("button", name="Add bot").click()
            expect(page.get_by_test_id(f"seat-{seat}")).to_contain_text("Bot")
        else:
            page.get_by_placeholder("Name").fill(other)
            page.get_by_role("button", name="Add hot seat").click()
            expect(page.get_by_test_id(f"seat-{seat}")).to_contain_text("Hot seat")
    page.get_by_role("button", name="Start game").click()


@pytest.mark.parametrize("seating", list(SEATINGS), ids=list(SEATINGS))
def test_the_curtain_closes_as_soon_as_a_hot_seat_move_is_done(open_tab, seating):
    others = SEATINGS[seating]
    people = ["Ada", *(o for o in others if o != "bot")]
    ada = open_tab("/")
    seat_table(ada, others)
    expect(ada.get_by_test_id("curtain")).to_contain_text("Pass the device to Ada")
    ada.evaluate(WATCH_JS)

    moves = 0
    for _ in range(400):
        if moves >= 8 or ada.get_by_test_id("result").count():
            break
        curtain = ada.get_by_test_id("curtain").filter(has_text="Pass the device to")
        if curtain.count():
            curtain.get_by_role("button", name=re.compile("Show my hand")).click()
            continue
        # A card with a choice (10, Q, 5) takes a second press: count the move once.
        if take_turn(ada, allow_curtain=False) and not ada.locator(".choice-box").count():
            moves += 1
        ada.wait_for_timeout(40)
    assert moves >= 4, "too few hot-seat moves were made"

    frames = ada.evaluate("window.__frames")
    shown = [f for f in frames if f["faceUp"] > 0]
    assert shown, "no hand was ever shown"
    for frame in shown:
        owner = frame["owner"].split("’s hand")[0]
        # The turn line speaks to the player the device was passed to.
        assert owner in people and frame["turn"] == f"Your turn, {owner}", frame
    # The bots' turns were seen, each with every hand behind the curtain.
    bot_turns = [f for f in frames if f["turn"].startswith("Bot")]
    assert bot_turns and all(f["faceUp"] == 0 and f["curtain"] for f in bot_turns)
    assert any("is playing" in f["curtain"] for f in bot_turns)
