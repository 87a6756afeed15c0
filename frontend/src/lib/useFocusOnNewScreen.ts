// A new screen (another page of the app, or a room's lobby once it is joined) takes focus to its
// heading when focus was lost with the old screen, or is still on the link in the top bar that
// opened it: a keyboard or screen-reader user starts on the new screen's title, as after a page
// load, not on the page itself or on a link of the screen before.
import { useEffect } from "react";

/** The heading of the screen on show: the first level-one heading of a main area. */
function screenHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>("main h1, main [role='heading'][aria-level='1']");
}

/** Whether focus is somewhere a new screen should take it from. */
function focusLeftBehind(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active.closest("header") !== null;
}

/** While mounted, each new screen heading takes focus when it was left behind. The screen shown
 * when this starts keeps focus where it is. */
export function useFocusOnNewScreen(): void {
  useEffect(() => {
    let shown = screenHeading();
    const watcher = new MutationObserver(() => {
      const heading = screenHeading();
      if (heading === null || heading === shown) return;
      shown = heading;
      if (!focusLeftBehind()) return;
      if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    });
    watcher.observe(document.body, { subtree: true, childList: true });
    return () => watcher.disconnect();
  }, []);
}
