"""On a phone, once a guest has joined, the host's Start (and Close room) is in the window without
scrolling: the lobby's action row sticks to the window's bottom, two lines at most even at 320 px
wide, and its fields are a fingertip high like its buttons (Nine Locks, 390×844). The guest's row
keeps the chat's badge beside Leave, never on a line of its own. The host's tools (a bot, a hot
seat) stay tidy at 320 px: each label on one line, fields and buttons in line."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import PHONE
from .helpers import host_room, join_by_code, send_chat, shot

SMALL_PHONE = {"width": 320, "height": 568}

# The lobby bar's parts as the window shows them: their boxes, and whether their words are cut.
BAR_PARTS_JS = """bar => [...bar.children].filter((e) => e.offsetParent).map((e) => (
  {...e.getBoundingClientRect().toJSON(), cut: e.scrollWidth > e.clientWidth}))"""


def assert_bar_tidy(page) -> None:
    """The bar takes two lines at most; its parts neither overlap nor stick out, nor are cut."""
    bar = page.get_by_test_id("lobby-actions")
    box = bar.bounding_box()
    parts = sorted(bar.evaluate(BAR_PARTS_JS), key=lambda p: p["top"])
    rows, bottom = 0, float("-inf")
    for part in parts:
        if part["top"] >= bottom:
            rows += 1
        bottom = max(bottom, part["bottom"])
        inside = box["x"] <= part["left"] and part["right"] <= box["x"] + box["width"]
        assert inside and not part["cut"], part
    assert rows <= 2, parts
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            apart = a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] \
                or b["bottom"] <= a["top"]
            assert apart, (a, b)


def assert_badge_beside_leave(page) -> None:
    """The guest's bar is tidy, and its chat badge is at the end of Leave's line."""
    assert_bar_tidy(page)
    bar = page.get_by_test_id("lobby-actions")
    badge = bar.get_by_test_id("chat-badge").bounding_box()
    leave = bar.get_by_role("button", name="Leave", exact=True).bounding_box()
    assert abs(badge["y"] - leave["y"]) < 1 and leave["x"] < badge["x"], (leave, badge)


# The host's tools: how many lines each label's words take, and the boxes of the fields and buttons.
HOST_TOOLS_JS = """tools => ({
  lines: [...tools.querySelectorAll('label')].map((label) => {
    const words = document.createRange();
    words.selectNodeContents(label.firstElementChild);
    return new Set([...words.getClientRects()].map((r) => Math.round(r.top))).size;
  }),
  boxes: [...tools.querySelectorAll('select, input, button')].map(
    (e) => e.getBoundingClientRect().toJSON()),
})"""


def assert_host_tools_tidy(page) -> None:
    """Each label of the host's tools on one line; the fields in one column and their buttons in
    another, a fingertip high, nothing sticking out of the tools."""
    tools = page.locator(".host-tools")
    found = tools.evaluate(HOST_TOOLS_JS)
    assert found["lines"] == [1, 1], found
    level, add_bot, name, add_local = found["boxes"]
    width = tools.bounding_box()["x"] + tools.bounding_box()["width"]
    assert (level["left"], level["width"]) == (name["left"], name["width"]), found
    assert (add_bot["left"], add_bot["width"]) == (add_local["left"], add_local["width"]), found
    assert all(box["height"] >= 44 and box["right"] <= width for box in found["boxes"]), found


def tap(button) -> None:
    """Press a button where it is, as a finger does. Playwright's click scrolls the page to the
    button first, and for one in the sticky bar that scroll could bring the chat into view, which
    reads it (and the badge under test goes)."""
    expect(button).not_to_have_attribute("aria-disabled", "true")
    box = button.bounding_box()
    button.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_start_is_in_view_on_a_phone_once_a_guest_joins(open_tab, shots):
    ada = open_tab("/", viewport=PHONE)
    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace = open_tab("/", viewport=PHONE)
    join_by_code(grace, "Grace", code)
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Grace")
    fields = ada.locator("input[type=text], select").evaluate_all(
        "fields => fields.filter((f) => f.offsetParent).map((f) => f.offsetHeight)")
    assert len(fields) >= 3 and min(fields) >= 44, fields
    # Waiting for Grace, with her message unread: the sentence, the buttons and the chat's badge.
    send_chat(grace, "hi")
    expect(ada.get_by_test_id("chat-badge")).to_be_visible()
    assert_bar_tidy(ada)
    assert_host_tools_tidy(ada)
    ada.set_viewport_size({"width": 320, "height": PHONE["height"]})
    assert_bar_tidy(ada)
    assert_host_tools_tidy(ada)
    shot(ada, shots, "lobby-320-host-bar", full_page=False)
    ada.set_viewport_size(PHONE)
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

    # On a small phone (with the chat out of view) Ada's message shows as Grace's badge, which went
    # on a line of its own at 320 px, and at 390 px once she was ready.
    grace.set_viewport_size(SMALL_PHONE)
    send_chat(ada, "welcome")
    expect(grace.get_by_test_id("chat-badge")).to_be_visible()
    assert_badge_beside_leave(grace)
    grace.set_viewport_size({"width": 390, "height": SMALL_PHONE["height"]})
    assert_badge_beside_leave(grace)
    grace.set_viewport_size(SMALL_PHONE)
    tap(grace.get_by_role("button", name="Not ready"))
    ready = grace.get_by_role("button", name="I’m ready")
    expect(ready).not_to_have_attribute("aria-disabled", "true")
    assert_badge_beside_leave(grace)
    shot(grace, shots, "lobby-320-guest-bar", full_page=False)
    ready.click()
    expect(ada.get_by_test_id("seat-1")).to_contain_text("Ready")
    ada.get_by_role("button", name="Start game").click()
    expect(ada.get_by_test_id("table")).to_be_visible()
