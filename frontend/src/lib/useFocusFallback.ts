// Focus that falls out of a table: a played card leaves the page, a cell or a button is disabled, a
// box closes. The browser then puts focus on the page itself, and a keyboard user would start
// again from its top: it goes to a place on the table instead.
import { useEffect } from "react";

/** Whether focus is nowhere useful: on the page itself, or on a control that was disabled. */
function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || active.matches(":disabled");
}

/** While `area` is on the page, focus lost by a change inside it goes to `fallback()`. Watching
 * the page's changes (not only the game's versions) also catches the boxes closed without a move;
 * an area made inert for a moment is tried again once it is not. */
export function useFocusFallback(area: HTMLElement | null, fallback: () => HTMLElement | null): void {
  useEffect(() => {
    if (!area) return undefined;
    const watcher = new MutationObserver(() => {
      if (focusLost()) fallback()?.focus({ preventScroll: true });
    });
    watcher.observe(area, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled", "inert"] });
    return () => watcher.disconnect();
  }, [area, fallback]);
}
