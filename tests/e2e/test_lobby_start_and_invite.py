"""The lobby before the start: Start says who the table waits for instead of sending a start the
server would refuse; the bot level offered first is the middle one, then the host's last choice;
the invite link is whole on a phone and can be shared where the browser shares; a press too soon
after the last one says it did nothing."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .helpers import host_room, join_by_code, shot

# A browser that shares: navigator.share records what it was given.
FAKE_SHARE = """
window.__shared = [];
navigator.share = async (data) => { window.__shared.push(data); };
"""


def test_start_says_who_the_table_waits_for_until_everyone_is_ready(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    start = ada.get_by_role("button", name="Start game")
    waiting = ada.get_by_test_id("start-waiting")
    # Bots and hot-seat players are always ready: they are not waited for.
    ada.get_by_role("button", name="Add bot").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bot 1 (normal)")
    ada.get_by_role("textbox", name="Hot-seat player").fill("Linus")
    ada.get_by_role("button", name="Add hot seat").click()
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Linus")
    expect(start).not_to_have_attribute("aria-disabled", "true")
    expect(waiting).to_be_hidden()

    grace = open_tab("/", viewport=PHONE)
    join_by_code(grace, "Grace", code)
    expect(waiting).to_have_text("Waiting for Grace to get ready.")
    expect(start).to_have_attribute("aria-disabled", "true")
    expect(start).to_have_accessible_description("Waiting for Grace to get ready.")
    shot(ada, shots, "lobby-desktop-host-waiting", full_page=False)
    # The turn time's menu is as wide as its choices need, not the whole lobby.
    assert ada.get_by_test_id("turn-time-select").bounding_box()["width"] <= 300
    shot(grace, shots, "lobby-phone-guest-not-ready", full_page=False)

    # Pressed anyway: the sentence again, focus kept, nothing sent (no refusal from the server).
    start.focus()
    start.click(force=True)
    expect(waiting.locator(".nudged")).to_have_text("Waiting for Grace to get ready.")
    expect(start).to_be_focused()
    expect(ada.get_by_role("alert")).to_have_count(0)
    expect(ada.get_by_test_id("table")).to_have_count(0)

    grace.get_by_role("button", name="I’m ready").click()
    expect(waiting).to_be_hidden()
    expect(start).not_to_have_attribute("aria-disabled", "true")
    start.click()
    expect(ada.get_by_test_id("table")).to_be_visible()
    expect(grace.get_by_test_id("table")).to_be_visible()


def test_a_guest_sees_no_start_and_no_waiting_sentence(open_tab):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    expect(ada.get_by_test_id("start-waiting")).to_have_text(
        "Waiting for players: Tic-Tac-Toe needs at least 2 players.")
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    expect(ada.get_by_test_id("start-waiting")).to_have_text("Waiting for Grace to get ready.")
    expect(grace.get_by_role("button", name="Start game")).to_have_count(0)
    expect(grace.get_by_test_id("start-waiting")).to_have_count(0)


def test_the_bot_level_is_the_middle_one_then_the_hosts_last_choice(open_tab):
    ada = open_tab("/")
    host_room(ada, "Ada", "Nine Locks", public=False)
    level = ada.get_by_label("Bot level")
    expect(level).to_have_value("normal")
    level.select_option("easy")
    ada.get_by_role("button", name="Close room").click()
    expect(ada.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    # The next room, in the same browser: the level chosen last.
    host_room(ada, "Ada", "Poker 99", public=False)
    expect(ada.get_by_label("Bot level")).to_have_value("easy")
    ada.get_by_role("button", name="Add bot").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bot 1 (easy)")


def test_the_invite_link_is_whole_on_a_phone_and_shares_where_the_browser_can(open_tab, shots):
    ada = open_tab("/", viewport=PHONE)
    ada.context.add_init_script(FAKE_SHARE)
    ada.reload()
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    link = ada.get_by_test_id("invite-link")
    expect(link).to_have_text(f"{ada.evaluate('location.origin')}/r/{code}")
    # Nothing of it is cut off: it wraps inside the window rather than scroll out of its box.
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert link.evaluate("el => el.scrollWidth <= el.clientWidth")
    # A longer link (a real site's) wraps too: the same box, beside it, with more text.
    assert link.evaluate("""el => {
      const longer = el.cloneNode();
      longer.textContent = 'https://cards.games-lounge.example.org/r/' + 'K7MPQ2';
      el.after(longer);
      const whole = longer.scrollWidth <= longer.clientWidth
        && longer.getBoundingClientRect().right <= window.innerWidth;
      longer.remove();
      return whole;
    }""")
    shot(ada, shots, "lobby-phone-host-alone", full_page=False)

    ada.get_by_role("button", name="Share").click()
    shared = ada.evaluate("window.__shared")
    assert len(shared) == 1 and shared[0]["url"].endswith(f"/r/{code}"), shared
    expect(ada.get_by_role("button", name="Copy link")).to_be_visible()

    # Without navigator.share (this Chromium has none): Copy only.
    grace = open_tab("/", viewport=DESKTOP)
    grace.context.add_init_script("delete Navigator.prototype.share")
    grace.reload()
    join_by_code(grace, "Grace", code)
    expect(grace.get_by_role("button", name="Copy link")).to_be_visible()
    expect(grace.get_by_role("button", name="Share")).to_have_count(0)
    shot(grace, shots, "lobby-desktop-guest", full_page=False)


def test_a_press_too_soon_after_the_last_one_says_it_did_nothing(open_tab):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")
    # Two presses in one moment: the second is inside the pause after the first.
    ada.evaluate("""() => {
      const button = (name) => [...document.querySelectorAll('button')]
        .find((b) => (b.getAttribute('aria-label') || b.textContent) === name);
      button('Add bot').click();
      button('Remove Grace').click();
    }""")
    expect(ada.get_by_test_id("too-soon")).to_have_text(
        "That press came too soon after the last one, so it did nothing.")
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Bot 1")
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")
    # Said for a moment, then gone; a press after the pause is a press.
    expect(ada.get_by_test_id("too-soon")).to_be_empty()
    ada.get_by_role("button", name="Remove Grace").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bot 1")
    expect(ada.locator("[data-testid^=seat-]")).to_have_count(2)
