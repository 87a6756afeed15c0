"""A player whose system asks for reduced motion sees nothing pulse forever: the turn line's glow
and Nine Locks' target piles stay still (test_nine_locks.py checks they pulse with motion)."""

from __future__ import annotations

from playwright.sync_api import expect

from .helpers import host_room

ANIMATION = "(e) => getComputedStyle(e).animationName"


def test_reduced_motion_stills_the_turn_glow_and_the_target_piles(open_tab):
    ada = open_tab("/")  # every test's browser asks for reduced motion
    host_room(ada, "Ada", "Nine Locks", public=False)
    ada.get_by_role("button", name="Add bot").click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Bot")
    ada.get_by_role("button", name="Start game").click()
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")
    assert ada.locator(".table-status.your-turn").evaluate(ANIMATION) == "none"
    ada.locator(".me-area button.card-playable").first.click()
    target = ada.locator(".nl-pile button.is-target").first
    expect(target).to_be_visible()
    assert target.evaluate(ANIMATION) == "none"
