"""What the in-view browser tests look at: where an element lies in the window, whether it is
covered, and a table of bots to look at."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .helpers import host_room

MY_TURN = "[data-testid=turn].your-turn"


def start_with_bots(page: Page, title: str, bots: int) -> None:
    host_room(page, "Ada", title, public=False)
    page.get_by_label("Bot level").select_option("easy")
    for _ in range(bots):
        page.get_by_role("button", name="Add bot").click()
    expect(page.locator("[data-testid^=seat-]").filter(has_text="Bot")).to_have_count(bots)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_test_id("table")).to_be_visible()


def assert_in_window(page: Page, selector: str) -> None:
    """The element's whole box lies inside the window as it is (no scrolling done)."""
    window = page.viewport_size
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= window["height"] + 0.5, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= window["width"] + 0.5, (selector, box)


def wait_until_still(page: Page) -> None:
    """Waits for a smooth scroll to end."""
    last = None
    for _ in range(50):
        now = page.evaluate("window.scrollY")
        if now == last:
            return
        last = now
        page.wait_for_timeout(100)


def box_of(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator(MY_TURN)).to_be_visible(timeout=15_000)


UNCOVERED_JS = """e => { const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && e.contains(at); }"""


def wait_for_my_settled_turn(page: Page) -> None:
    """The player's turn, the new game settled and any smooth scroll over: what they see."""
    wait_for_my_turn(page)
    # The board takes no clicks (nor answers elementFromPoint) while the new game settles.
    expect(page.get_by_test_id("board")).not_to_have_attribute("data-settling", "true")
    wait_until_still(page)


def assert_above_the_hand(page: Page, *selectors: str) -> None:
    """Each element lies in the window between the turn line and the player's hand, uncovered,
    with no sideways scrolling."""
    head, mine = box_of(page, ".table-head"), box_of(page, ".me-area")
    for selector in selectors:
        assert_in_window(page, selector)
        box = box_of(page, selector)
        clear = head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= mine["y"]
        assert clear, (selector, head, box, mine)
        assert page.locator(selector).evaluate(UNCOVERED_JS), f"{selector} is under something else"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def assert_others_in_view(page: Page) -> None:
    """Every other player's box lies in the window between the turn line and the player's
    stack, uncovered, none over another: in two rows on a phone, the second once sat under the
    stack."""
    head, mine = box_of(page, ".table-head"), box_of(page, ".me-area")
    width = page.viewport_size["width"]
    boxes = []
    for other in page.locator(".opponents .player-box").all():
        box = other.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        clear = head["y"] + head["height"] <= box["y"] and box["y"] + box["height"] <= mine["y"]
        assert clear, (head, box, mine)
        assert other.evaluate(UNCOVERED_JS), f"{other.get_attribute('aria-label')} is covered"
        boxes.append(box)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                     or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)
