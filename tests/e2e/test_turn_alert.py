"""Turn alerts: when a player's turn starts while their tab is hidden, the title flashes, the icon
shows a dot, and (with the room's toggle on) a beep and a notification; nothing while in front.

Headless Chromium never hides a tab, so the test emulates it: it overrides
`document.visibilityState` (and `document.hidden`) on the page and dispatches `visibilitychange`,
which is exactly what a browser does when the player switches tabs. The browser's own
Notification and AudioContext are wrapped only to count what the page asked them to do.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Page, expect

from .helpers import host_room, join_by_code, ready_and_start

FLASH = "▶ Your turn!"

RECORD_JS = """
window.__notes = [];
window.__beeps = 0;
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      window.__notes.push(options && options.body);
      super(title, options);
    }
    static get permission() { return Real.permission; }
    static requestPermission(...args) { return Real.requestPermission(...args); }
  };
}
if (window.AudioContext) {
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    window.__beeps += 1;
    return make.call(this);
  };
}
"""

SET_VISIBILITY_JS = """(state) => {
  Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def titles_for(page: Page, seconds: float) -> list[str]:
    """The tab titles seen over a few seconds, sampled every 100 ms."""
    seen, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        seen.append(page.title())
        page.wait_for_timeout(100)
    return seen


def icon(page: Page) -> str:
    return page.locator("link[rel~=icon]").get_attribute("href")


def test_a_hidden_tab_flashes_its_title_on_my_turn_and_a_tab_in_front_does_not(open_tab):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    grace = open_tab("/")
    grace.context.grant_permissions(["notifications"])
    grace.context.add_init_script(RECORD_JS)
    grace.reload()
    join_by_code(grace, "Grace", code)
    ready_and_start(ada, grace)
    expect(grace.get_by_test_id("turn")).to_have_text("Ada’s turn")
    toggle = grace.get_by_role("checkbox", name=re.compile("Sound and notification"))
    expect(toggle).not_to_be_checked()
    toggle.check()
    normal_title = grace.title()
    normal_icon = icon(grace)

    # Grace switches to another tab; Ada moves: Grace's turn starts while her tab is hidden.
    grace.evaluate(SET_VISIBILITY_JS, "hidden")
    ada.get_by_test_id("cell-4").click()
    expect(grace).to_have_title(FLASH)
    seen = titles_for(grace, 2.5)
    assert FLASH in seen and normal_title in seen  # it flashes: both titles, in turn
    assert icon(grace).startswith("data:image/svg+xml")
    assert grace.evaluate("window.__beeps") > 0
    assert grace.evaluate("window.__notes") == [f"Your turn at Tic-Tac-Toe (table {code})"]

    # Back in front: the title and the icon are as before.
    grace.evaluate(SET_VISIBILITY_JS, "visible")
    expect(grace).to_have_title(normal_title)
    assert icon(grace) == normal_icon
    assert FLASH not in titles_for(grace, 1.2)

    # The next turn starts with the tab in front: nothing plays, nothing flashes.
    beeps = grace.evaluate("window.__beeps")
    grace.get_by_test_id("cell-0").click()
    expect(grace.get_by_test_id("turn")).to_have_text("Ada’s turn")
    ada.get_by_test_id("cell-8").click()
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
    assert FLASH not in titles_for(grace, 1.5)
    assert grace.evaluate("window.__beeps") == beeps
    assert len(grace.evaluate("window.__notes")) == 1
    # The choice is remembered by this browser.
    grace.reload()
    expect(grace.get_by_role("checkbox", name=re.compile("Sound and notification"))).to_be_checked()
