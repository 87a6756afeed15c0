"""On a phone the table and the chat are taller than the window: a player scrolled down to the
chat when the connection drops (a server killed, in a cluster a process that died or is being
deployed) must still see that the page is reconnecting, not a table that silently stopped. The
banner stays at the top of the window while the page scrolls under it.

Screenshot: ``reconnecting-in-view-phone`` (the window, not the whole page)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.live_server import Server

from .conftest import PHONE, own_server
from .helpers import host_room, join_by_code, ready_and_start, shot, two_tabs

BACK_MS = 30_000


@pytest.fixture
def server() -> Iterator[Server]:
    with own_server(HOST_GRACE_SECONDS="60", PLAYER_GRACE_SECONDS="60") as server:
        yield server


def test_a_phone_scrolled_to_the_chat_sees_the_connection_is_lost(browser: Browser,
                                                                  server: Server, shots):
    contexts, ada, grace = two_tabs(browser, server.url, PHONE)
    try:
        code = host_room(ada, "Ada", "Crazy Eights", public=False)
        join_by_code(grace, "Grace", code)
        ready_and_start(ada, grace)
        expect(grace.get_by_test_id("table")).to_be_visible()
        grace.get_by_role("textbox", name="Message").scroll_into_view_if_needed()
        assert grace.evaluate("window.scrollY") > 200  # the top of the page is out of view

        server.kill()
        banner = grace.get_by_test_id("reconnecting")
        expect(banner).to_be_in_viewport(ratio=1, timeout=BACK_MS)
        shot(grace, shots, "reconnecting-in-view-phone", full_page=False)

        server.restart()
        expect(banner).to_have_count(0, timeout=BACK_MS)
        expect(grace.get_by_test_id("table")).to_be_visible()
    finally:
        for context in contexts:
            context.close()
