"""The host's grace is visible (issue 13): when the host's connection goes, the guests see who
is gone and when the room closes, counting down; when it closes mid-game the unfinished game
is kept and can be watched again. A server of its own, with a host grace long enough to watch
the count go down (the shared one's is 1.5 s)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import suppress

import pytest
from playwright.sync_api import Browser, expect

from .conftest import DESKTOP, own_server
from .helpers import host_room, join_by_code, ready_and_start, shot, two_tabs

COUNT = re.compile(r"Ada lost connection; the room closes in (\d+) s unless they come back")


@pytest.fixture(scope="module")
def slow_host_url() -> Iterator[str]:
    with own_server(HOST_GRACE_SECONDS="4") as server:
        yield server.url


def test_host_grace_counts_down_and_the_cut_game_can_be_watched(browser: Browser,
                                                                slow_host_url: str, shots):
    contexts, ada, grace = two_tabs(browser, slow_host_url, DESKTOP)
    try:
        code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
        join_by_code(grace, "Grace", code)
        ready_and_start(ada, grace)
        ada.get_by_test_id("cell-4").click()
        expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
        expect(grace.get_by_test_id("host-away")).to_have_count(0)

        contexts[0].close()  # Ada's browser goes away
        banner = grace.get_by_test_id("host-away")
        expect(banner).to_contain_text(COUNT)
        first = int(COUNT.search(banner.inner_text()).group(1))
        assert 1 <= first <= 4
        shot(grace, shots, "host-grace-countdown", full_page=False)
        expect(banner).to_contain_text(re.compile(rf"closes in ({first - 1}|{first - 2}) s"),
                                       timeout=3_000)

        expect(grace.get_by_role("heading", name="This room was closed")).to_be_visible(
            timeout=8_000)
        grace.get_by_role("link", name="See its games").click()
        expect(grace.get_by_role("heading", name=re.compile(
            r"Tic-Tac-Toe: Not finished \(the room closed\)"))).to_be_visible()
        grace.get_by_role("button", name="Last").click()
        expect(grace.get_by_test_id("replay-board")).to_contain_text("X")
    finally:
        for context in contexts:
            with suppress(Exception):  # Ada's is already closed
                context.close()
