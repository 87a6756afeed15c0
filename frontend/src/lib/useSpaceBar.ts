// The space bar as a game's own key (Slapjack's slap), without taking it from the page's controls.
import { useEffect, useRef } from "react";

/** What the space bar presses, types into or scrolls (a focusable list, as the game log): there it
 * keeps its usual job. */
const KEEPS_SPACE = "button, a[href], input, textarea, select, [contenteditable]:not([contenteditable='false']), " +
  "[tabindex]:not([tabindex='-1'])";

function keepsSpace(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(KEEPS_SPACE) !== null;
}

/** Calls `action` when the space bar goes down, while there is an action and no control has focus. */
export function useSpaceBar(action: (() => void) | null): void {
  const latest = useRef(action);
  latest.current = action;
  const active = action !== null;
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if ((event.code !== "Space" && event.key !== " ") || keepsSpace(event.target)) return;
      event.preventDefault(); // the page would scroll
      if (!event.repeat) latest.current?.();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [active]);
}
