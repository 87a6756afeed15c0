"""A rematch moves every seat one place round the table: in Tic-Tac-Toe the guest, who played
O, plays X and starts the next game, and the host is still named and marked as the host."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .helpers import host_room, join_by_code, ready_and_start, shot


def place(mover: Page, other: Page, cell: int) -> None:
    """``mover`` marks ``cell``, and both screens show the mark."""
    mover.get_by_test_id(f"cell-{cell}").click()
    for page in (mover, other):
        expect(page.get_by_test_id(f"cell-{cell}")).not_to_have_attribute(
            "aria-label", re.compile("empty$"))


def test_the_guest_starts_the_rematch_and_the_host_stays_host(open_tab, shots):
    ada = open_tab("/")
    code = host_room(ada, "Ada", "Tic-Tac-Toe", public=False)
    bob = open_tab("/")
    join_by_code(bob, "Bob", code)
    ready_and_start(ada, bob)
    expect(ada.get_by_test_id("turn")).to_contain_text("Your turn")
    for mover, other, cell in ((ada, bob, 0), (bob, ada, 3), (ada, bob, 1), (bob, ada, 4),
                               (ada, bob, 2)):
        place(mover, other, cell)
    expect(bob.get_by_test_id("result")).to_contain_text("Ada")

    ada.get_by_role("button", name="Rematch").click()
    expect(bob.get_by_test_id("result")).to_have_count(0)
    expect(bob.get_by_test_id("turn")).to_contain_text("Your turn")
    expect(ada.get_by_test_id("turn")).to_contain_text("Bob")
    place(bob, ada, 4)
    expect(ada.get_by_test_id("cell-4")).to_have_attribute("aria-label", re.compile("X$"))
    expect(ada.get_by_test_id("turn")).to_contain_text("Your turn")
    shot(bob, shots, "rematch-guest-starts")
    for mover, other, cell in ((ada, bob, 0), (bob, ada, 1), (ada, bob, 2), (bob, ada, 7)):
        place(mover, other, cell)
    expect(ada.get_by_test_id("result")).to_contain_text("Bob")
    # Ada is still the host, wherever she sits: only she is offered the next rematch.
    expect(ada.get_by_role("button", name="Rematch")).to_be_visible()
    expect(bob.get_by_test_id("result")).to_contain_text("Waiting for Ada to start a rematch")
    expect(bob.get_by_role("button", name="Rematch")).to_have_count(0)
