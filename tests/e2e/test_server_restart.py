"""A lounge on one process comes back from a crash with its rooms (they are saved before anyone
is told), and its open pages with it: while the server is gone each page says it is
reconnecting and offers nothing that would only answer "offline" (Leave and Close room stay);
once it is back the same seats and chat are there, and a game is played to its end. A server
of its own, killed (kill -9) and started again on the same port and database, with a host grace
longer than the restart.

Screenshots: ``restart-lobby-offline`` (the host's lobby while the server is down) and
``restart-game-back`` (the game started after it came back), ``restart-game-lost`` (a lobby
whose game did not replay)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import create_engine, text

from tests.live_server import Server

from .conftest import DESKTOP, own_server
from .helpers import host_room, join_by_code, play_until_result, send_chat, shot, two_tabs

BACK_SECONDS = 30  # a restart (2 to 5 s) and the client's reconnect (at most 3 s apart)


@pytest.fixture
def server() -> Iterator[Server]:
    with own_server(HOST_GRACE_SECONDS="60", PLAYER_GRACE_SECONDS="60") as server:
        yield server


def expect_offline(page: Page, controls: list[str], leave: str) -> None:
    expect(page.get_by_test_id("reconnecting")).to_be_visible(timeout=BACK_SECONDS * 1000)
    for name in controls:
        expect(page.get_by_role("button", name=name)).to_be_disabled()
    expect(page.get_by_role("button", name=leave)).to_be_enabled()
    expect(page.get_by_role("textbox", name="Message")).to_be_disabled()


def expect_online(page: Page, controls: list[str]) -> None:
    expect(page.get_by_test_id("reconnecting")).to_have_count(0, timeout=BACK_SECONDS * 1000)
    for name in controls:
        expect(page.get_by_role("button", name=name)).to_be_enabled()


def test_the_lobby_waits_for_a_restarted_server_and_the_game_goes_on(browser: Browser,
                                                                    server: Server, shots):
    contexts, ada, grace = two_tabs(browser, server.url, DESKTOP)
    try:
        code = host_room(ada, "Ada", "Nine Locks", public=False)
        join_by_code(grace, "Grace", code)
        send_chat(grace, "before the crash")
        expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")

        server.kill()
        host_controls = ["Add bot", "Add hot seat", "Remove Grace"]
        # Start also waits for Grace to get ready (aria-disabled): offline, it is disabled too.
        start = ada.get_by_role("button", name="Start game")
        expect_offline(ada, host_controls, leave="Close room")
        expect(start).to_have_js_property("disabled", True)
        expect(ada.get_by_test_id("turn-time-select")).to_be_disabled()
        expect_offline(grace, ["I’m ready"], leave="Leave")
        shot(ada, shots, "restart-lobby-offline", full_page=False)

        server.restart()
        expect_online(ada, host_controls)
        expect(start).to_have_js_property("disabled", False)
        expect_online(grace, ["I’m ready"])
        for page in (ada, grace):
            expect(page.get_by_test_id("room-code")).to_have_text(code)
            expect(page.get_by_test_id("seat-1")).to_contain_text("Grace")
            expect(page.get_by_text("before the crash")).to_be_visible()

        grace.get_by_role("button", name="I’m ready").click()
        expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
        ada.get_by_role("button", name="Start game").click()
        for page in (ada, grace):
            expect(page.get_by_test_id("table")).to_be_visible()
        expect(ada.get_by_test_id("turn")).to_have_text("Your turn")
        shot(ada, shots, "restart-game-back", full_page=False)
        play_until_result([ada, grace], max_seconds=60)
        expect(grace.get_by_test_id("result")).to_be_visible()
    finally:
        for context in contexts:
            context.close()


def test_a_game_that_does_not_replay_after_a_restart_leaves_the_room_in_its_lobby(
        browser: Browser, server: Server, shots):
    """An update changed the rules under a game being played (here: a stored move the rules do
    not know): both pages come back to the lobby with their seats and chat, and say why."""
    contexts, ada, grace = two_tabs(browser, server.url, DESKTOP)
    try:
        code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
        join_by_code(grace, "Grace", code)
        send_chat(grace, "good luck")
        grace.get_by_role("button", name="I’m ready").click()
        expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
        ada.get_by_role("button", name="Start game").click()
        ada.get_by_test_id("cell-4").click()
        expect(grace.get_by_test_id("cell-4")).to_have_text("X")

        server.kill()
        engine = create_engine(server.environ["DATABASE_URL"])
        with engine.begin() as conn:
            conn.execute(text("UPDATE match_moves SET move = 'teleport'"))
        engine.dispose()
        server.restart()
        for page in (ada, grace):
            notice = page.get_by_test_id("room-notice")
            expect(notice).to_contain_text("could not be picked up again",
                                           timeout=BACK_SECONDS * 1000)
            expect(page.get_by_test_id("seat-1")).to_contain_text("Grace")
            expect(page.get_by_text("good luck")).to_be_visible()
        shot(grace, shots, "restart-game-lost", full_page=False)
        grace.get_by_role("button", name="I’m ready").click()
        expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
        ada.get_by_role("button", name="Start game").click()
        for page in (ada, grace):
            expect(page.get_by_test_id("table")).to_be_visible()
        play_until_result([ada, grace], max_seconds=60)
        expect(grace.get_by_test_id("result")).to_be_visible()
    finally:
        for context in contexts:
            context.close()
