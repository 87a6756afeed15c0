"""The game log is written by the server (issue 13): it is all there again after a reload, and
a take-back removes its line from every browser (Tic-Tac-Toe)."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import host_room, join_by_code, ready_and_start, shot


def log_lines(page) -> list[str]:
    return page.get_by_test_id("game-log").locator("li").all_inner_texts()


def tic_tac_toe_started(open_tab):
    """Ada hosts a private Tic-Tac-Toe room, Grace joins it by code, the game starts."""
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    ready_and_start(ada, grace)
    return ada, grace, code


def test_log_after_reload_and_a_take_back_removes_its_line(open_tab, shots):
    ada, grace, _ = tic_tac_toe_started(open_tab)

    ada.get_by_test_id("cell-4").click()
    expect(grace.get_by_test_id("game-log")).to_contain_text("Ada put X in the centre")
    ada.get_by_role("button", name="Take back").click()
    for page in (ada, grace):
        expect(page.get_by_test_id("game-log")).not_to_contain_text("Ada put X in the centre")
        expect(page.get_by_test_id("game-log")).to_contain_text("Ada took back a move")
    ada.get_by_test_id("cell-0").click()
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
    grace.get_by_test_id("cell-8").click()
    expected = ["The game begins", "Ada took back a move", "Ada put X in the top left",
                "Grace put O in the bottom right"]
    expect(grace.get_by_test_id("game-log").locator("li")).to_have_text(expected)

    grace.reload()
    expect(grace.get_by_test_id("game-log").locator("li")).to_have_text(expected)
    shot(grace, shots, "log-after-reload", full_page=False)
    assert log_lines(ada) == expected


def test_a_spectator_who_comes_mid_game_sees_the_log_from_the_start(open_tab, shots):
    """Nobody watches at first, so the spectators' lines are not written yet (issue 14): the
    one who comes later still gets every line from the game's start, then each new one."""
    ada, grace, code = tic_tac_toe_started(open_tab)
    ada.get_by_test_id("cell-4").click()
    expect(grace.get_by_test_id("turn")).to_have_text("Your turn")
    grace.get_by_test_id("cell-0").click()
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")

    watcher = open_tab(f"/r/{code}?watch=1", name="Linus")
    expect(watcher.get_by_role("note")).to_contain_text("You are watching")
    so_far = ["The game begins", "Ada put X in the centre", "Grace put O in the top left"]
    expect(watcher.get_by_test_id("game-log").locator("li")).to_have_text(so_far)
    ada.get_by_test_id("cell-8").click()
    then = [*so_far, "Ada put X in the bottom right"]
    expect(watcher.get_by_test_id("game-log").locator("li")).to_have_text(then)
    shot(watcher, shots, "spectator-mid-game-log", full_page=False)
    assert log_lines(ada) == then
