// Bringing a part of the table into view when the player must look at it: smoothly (unless they
// asked their system for less motion), and clear of the bars that stick to the top and the bottom
// of the window (the turn line, the player's own hand), which would otherwise cover it.

// Room left between the part shown and a bar, so that it does not look squeezed under it.
const GAP = 12;

function motion(): ScrollBehavior {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

/** The height a bar covers at the edge of the window: none when it does not stick there now. */
function coveredBy(bar: Element | null | undefined): number {
  return bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height + GAP : 0;
}

/** Scrolls the window just enough to show `target` whole, between the table's sticky bars. */
export function reveal(target: HTMLElement | null, block: ScrollLogicalPosition = "nearest"): void {
  if (!target) return;
  const table = target.closest(".table");
  target.style.scrollMarginTop = `${coveredBy(table?.querySelector(".table-head"))}px`;
  target.style.scrollMarginBottom = `${coveredBy(table?.querySelector(".me-area"))}px`;
  target.scrollIntoView({ block, behavior: motion() });
}
