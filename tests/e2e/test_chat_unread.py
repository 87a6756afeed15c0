"""On a phone the chat is far below the lobby and the table: a message from someone else shows as
"Chat (2)" in the bar that stays in view, which scrolls to the chat; the count clears once the chat
is seen, and counts neither the player's own messages nor those from before they joined. On a
desktop the chat is beside the table, and no count shows (Nine Locks)."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE
from .helpers import host_room, join_by_code, send_chat, shot


def said(page, text: str) -> None:
    expect(page.get_by_test_id("chat-log")).to_contain_text(text)


def tap_where_seen(badge) -> None:
    """A press where the badge shows, as a thumb makes it. Playwright's own click first scrolls
    the badge into view, and for a sticky bar Chromium scrolls to where the bar would sit unstuck,
    just above the chat: the chat is then seen and the badge gone before the press."""
    box = badge.bounding_box()
    badge.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_phone_shows_unread_chat_in_the_lobby_and_at_the_table(open_tab, shots):
    ada = open_tab("/", viewport=PHONE)
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    send_chat(ada, "Welcome!")  # her own: nothing to read
    ada.evaluate("window.scrollTo(0, 0)")  # back up to the lobby, the chat out of view
    expect(ada.get_by_test_id("chat-log")).not_to_be_in_viewport()
    grace = open_tab("/", viewport=DESKTOP)
    join_by_code(grace, "Grace", code)
    said(grace, "Welcome!")
    expect(grace.get_by_test_id("chat-badge")).to_have_count(0)  # the history at joining
    badge = ada.get_by_test_id("chat-badge")
    expect(badge).to_have_count(0)

    send_chat(grace, "Hi Ada")
    send_chat(grace, "Ready when you are")
    expect(badge).to_have_text("Chat (2 new)")
    expect(badge).to_be_in_viewport()
    shot(ada, shots, "chat-unread-lobby-phone", full_page=False)
    tap_where_seen(badge)
    expect(ada.get_by_test_id("chat-log")).to_be_in_viewport(ratio=0.6)
    expect(badge).to_have_count(0)
    send_chat(grace, "Seen at once")
    said(ada, "Seen at once")
    expect(badge).to_have_count(0)  # the chat is in view: read as it comes

    grace.get_by_role("button", name="I’m ready").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
    ada.get_by_role("button", name="Start game").click()
    expect(ada.get_by_test_id("table")).to_be_visible()
    ada.evaluate("window.scrollTo(0, 0)")
    expect(ada.get_by_test_id("chat-log")).not_to_be_in_viewport()
    send_chat(grace, "Good luck")
    expect(badge).to_have_text("Chat (1 new)")
    expect(badge).to_be_in_viewport()
    shot(ada, shots, "chat-unread-table-phone", full_page=False)
    shot(grace, shots, "chat-unread-table-desktop", full_page=False)
    tap_where_seen(badge)
    expect(ada.get_by_test_id("chat-log")).to_be_in_viewport(ratio=0.6)
    expect(badge).to_have_count(0)


def test_a_desktop_shows_no_unread_count_beside_its_chat(open_tab):
    ada = open_tab("/", viewport=DESKTOP)
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace = open_tab("/", viewport=PHONE)
    join_by_code(grace, "Grace", code)
    send_chat(grace, "Hello from a phone")
    said(ada, "Hello from a phone")
    expect(ada.get_by_test_id("chat-badge")).to_have_count(0)
