"""On a phone, once a guest has joined, the host's Start (and Close room) is in the window without
scrolling: the lobby's action row sticks to the window's bottom, and the lobby's fields are a
fingertip high like its buttons (Nine Locks, 390×844)."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE
from .helpers import host_room, join_by_code, shot


def test_start_is_in_view_on_a_phone_once_a_guest_joins(open_tab, shots):
    ada = open_tab("/", viewport=PHONE)
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace = open_tab("/", viewport=PHONE)
    join_by_code(grace, "Grace", code)
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")
    fields = ada.locator("input[type=text], select").evaluate_all(
        "fields => fields.filter((f) => f.offsetParent).map((f) => f.offsetHeight)")
    assert len(fields) >= 3 and min(fields) >= 44, fields
    grace.get_by_role("button", name="I’m ready").click()
    expect(grace.get_by_role("button", name="Ready ✓")).to_be_visible()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
    assert ada.evaluate("window.scrollY") == 0
    for name in ("Start game", "Close room"):
        box = ada.get_by_role("button", name=name).bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (name, box)
    shot(ada, shots, "lobby-phone-host-with-guest", full_page=False)
    shot(grace, shots, "lobby-phone-guest-ready", full_page=False)
    ada.get_by_role("button", name="Start game").click()
    expect(ada.get_by_test_id("table")).to_be_visible()
