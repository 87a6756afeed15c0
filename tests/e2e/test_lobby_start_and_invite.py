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
