"""axe-core's automated accessibility check on every screen of the web client, at a phone's width
and a desktop's: the home page, both sides of a lobby, a table of each game mid-game, the result
a replay and a spectator's view. A violation of impact "serious" or "critical" fails the test, and
so does a heading that skips a level (``heading-order``, "moderate")."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import DESKTOP, PHONE, ROOT
from .helpers import has_result, host_room, join_by_code, play_some, take_turn

AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# Rules of a lesser impact that fail the test too: headings go in order on every screen.
ALSO_CHECKED = ("heading-order",)

# axe's violations of the blocking impacts and of the rules also checked, each as "id (impact):
# help at target, target"; then the text axe could not judge because it lies on a gradient (the
# felt, the home page's banner), judged here against each of the gradient's colours (WCAG AA:
# 4.5:1, 3:1 for large text).
RUN_AXE_JS = """async ([blocking, also]) => {
  const { violations, incomplete } = await axe.run(document, { elementRef: true });
  const checked = (v) => blocking.includes(v.impact) || also.includes(v.id);
  const found = violations.filter(checked).map((v) =>
    `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  const contrast = incomplete.find((r) => r.id === 'color-contrast')?.nodes ?? [];
  for (const node of contrast.filter((n) => n.any[0]?.data?.messageKey === 'bgGradient')) {
    const low = lowestContrastOnGradient(node.element);
    if (low) found.push(`color-contrast on a gradient: ${low} at ${node.target.join(' ')}`);
  }
  return found;
}"""

# The lowest contrast of an element's text against the colour stops of the nearest gradient behind
# it, as "2.9:1 (needs 4.5:1)" when under WCAG AA, else null.
GRADIENT_CONTRAST_JS = """window.lowestContrastOnGradient = (element) => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // The nearest background: a gradient's stops, or a nearly opaque colour (a box over the felt).
  const backing = (box) => {
    const { backgroundImage, backgroundColor } = getComputedStyle(box);
    if (backgroundImage.includes('gradient')) return backgroundImage.match(/rgba?\\([^)]*\\)/g);
    const alpha = Number(backgroundColor.match(/[\\d.]+/g)[3] ?? 1);
    return alpha >= 0.9 ? [backgroundColor] : null;
  };
  let box = element;
  while (box && !backing(box)) box = box.parentElement;
  if (!box) return null;
  const stops = backing(box);
  const style = getComputedStyle(element);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
  const needed = large ? 3 : 4.5;
  const low = Math.min(...stops.map((stop) => ratio(rgb(style.color), rgb(stop))));
  return low < needed ? `${low.toFixed(2)}:1 (needs ${needed}:1)` : null;
};"""


def axe_source() -> str:
    assert AXE.is_file(), f"{AXE} is missing: `make frontend` installs it (npm ci)"
    return AXE.read_text()


def violations(page: Page, screen: str) -> list[str]:
    """axe's blocking violations, and those of the rules also checked, on the page at both widths,
    each line naming the screen. The script is evaluated, not added as a tag, which the page's
    Content-Security-Policy forbids."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
        page.evaluate(GRADIENT_CONTRAST_JS)
    found = []
    for name, size in (("1280 px", DESKTOP), ("390 px", PHONE)):
        page.set_viewport_size(size)
        lines = page.evaluate(RUN_AXE_JS, [BLOCKING, ALSO_CHECKED])
        found += [f"{screen}, {name}: {line}" for line in lines]
    page.set_viewport_size(DESKTOP)
    return found


def against_bots(page: Page, game: str, bots: int = 1) -> str:
    """Ada hosts ``game`` with easy bots and starts it; returns the room's code."""
    code = host_room(page, "Ada", game, public=False)
    page.get_by_label("Bot level").select_option("easy")
    for _ in range(bots):
        page.get_by_role("button", name="Add bot").click()
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_test_id("table")).to_be_visible()
    return code


def mid_game(page: Page, steps: int) -> None:
    """A few moves into the game, with it still going."""
    play_some([page], steps)
    assert not has_result(page), "the game ended before its table was checked"


def test_home_lobbies_nine_locks_and_a_spectator_have_no_serious_violations(open_tab):
    found = []
    ada = open_tab("/")
    expect(ada.get_by_role("heading", name="Pull up a chair.")).to_be_visible()
    found += violations(ada, "home")

    code = host_room(ada, "Ada", "Nine Locks", public=False)
    grace = open_tab("/")
    join_by_code(grace, "Grace", code)
    ada.get_by_label("Bot level").select_option("easy")
    ada.get_by_role("button", name="Add bot").click()
    expect(ada.get_by_test_id("seat-2")).to_contain_text("Bot")
    found += violations(ada, "host's lobby")
    found += violations(grace, "guest's lobby")

    grace.get_by_role("button", name="I’m ready").click()
    ada.get_by_role("button", name="Start game").click()
    expect(ada.get_by_test_id("table")).to_be_visible()
    play_some([ada, grace], 4)
    found += violations(ada, "Nine Locks table")
    watcher = open_tab(f"/r/{code}", name="Linus")
    expect(watcher.get_by_role("note")).to_contain_text("You are watching")
    found += violations(watcher, "spectator's view")
    assert not found, "\n".join(found)


def test_each_game_mid_game_and_the_result_have_no_serious_violations(open_tab):
    found = []
    for game, bots, steps in (("Slapjack", 1, 3), ("Poker 99", 2, 2), ("Crazy Eights", 2, 2)):
        page = open_tab("/")
        against_bots(page, game, bots)
        mid_game(page, steps)
        found += violations(page, f"{game} table")

    ada = open_tab("/")
    against_bots(ada, "Tic-Tac-Toe")
    ada.get_by_test_id("cell-4").click()
    expect(ada.get_by_test_id("turn")).to_have_text("Your turn")
    found += violations(ada, "Tic-Tac-Toe table")
    for _ in range(20):  # at most five moves of Ada's to the end
        if has_result(ada):
            break
        if not take_turn(ada):
            ada.wait_for_timeout(50)
    expect(ada.get_by_test_id("result")).to_be_visible()
    found += violations(ada, "result")
    replay = open_tab(ada.get_by_role("link", name="Watch again").get_attribute("href"))
    expect(replay.get_by_test_id("replay-board")).to_be_visible()
    found += violations(replay, "replay")
    assert not found, "\n".join(found)


def test_the_check_finds_a_violation(open_tab):
    """The check itself works: a button with no name is reported."""
    page = open_tab("/")
    page.evaluate("document.body.append(Object.assign(document.createElement('button'),"
                  " {id: 'nameless'}))")
    assert any("button-name" in line and "#nameless" in line
               for line in violations(page, "home")), "axe did not report a nameless button"

