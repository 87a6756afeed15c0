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
