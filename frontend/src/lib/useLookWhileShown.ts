import { useEffect } from "react";

/** Calls `look` every `everyMs` while `on` and the tab is shown, and at once when the tab is shown
 * again (a hidden tab looks at nothing: closing another tab, say, shows it and it looks then).
 * `look` should keep its identity between renders (useCallback): a new one starts the wait again. */
export function useLookWhileShown(look: () => unknown, everyMs: number, on: boolean): void {
  useEffect(() => {
    if (!on) return undefined;
    const lookIfShown = () => {
      if (document.visibilityState === "visible") look();
    };
    const timer = window.setInterval(lookIfShown, everyMs);
    document.addEventListener("visibilitychange", lookIfShown);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", lookIfShown);
    };
  }, [on, look, everyMs]);
}
