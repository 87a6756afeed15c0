// A countdown to a moment on this browser's clock, ticking while shown. The server sends how
// many milliseconds are left (never only its own time), so the two clocks need not agree.
import { useEffect, useState } from "react";

/** Whole seconds left until `at` (ms, this browser's clock), or null without a moment. */
export function useSecondsLeft(at: number | null): number | null {
  const [, setTicks] = useState(0);
  useEffect(() => {
    if (at === null) return undefined;
    const timer = window.setInterval(() => setTicks((ticks) => ticks + 1), 250);
    return () => window.clearInterval(timer);
  }, [at]);
  // Read the clock on every render, not a time kept in state: the first render after a new
  // moment arrives would otherwise count from whenever that state was last set (a "5 s" flash
  // for a 4 s grace).
  return at === null ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** "0:27", "1:05". */
export function clockText(seconds: number): string {
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
