// Which game's table is on screen, so that the header's Rules link can open that game's rules
// over the table instead of leaving the room page.
import { useSyncExternalStore } from "react";

let shown: string | null = null;
const listeners = new Set<() => void>();

/** Called by the room page: the game of the table on screen, or null when it goes. */
export function setTableGame(slug: string | null): void {
  if (shown === slug) return;
  shown = slug;
  listeners.forEach((notify) => notify());
}

/** The game of the table on screen, kept up to date. */
export function useTableGame(): string | null {
  return useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    () => shown,
  );
}
