// A move the server refused, said over the table for a few seconds. It hangs under the turn bar
// and covers the board for a moment rather than pushing it down: a message that moved the table
// would move the button under the player's finger (Slapjack's SLAP) twice, when it came and went.
import { useCallback, useEffect, useRef, useState, type ReactElement } from "react";
import { nameCardsIn } from "../lib/cards";

/** A refusal shows for at least this long (ms), and longer for a long sentence. */
export const REFUSAL_MIN_MS = 4000;
const MS_PER_CHARACTER = 60;

function refusalMs(text: string): number {
  return Math.max(REFUSAL_MIN_MS, text.length * MS_PER_CHARACTER);
}

/** A refusal on screen: `id` tells the same sentence said again from the one still shown. */
export interface Refusal {
  text: string;
  id: number;
}

/** The refusal shown, if any: `show` puts one up (replacing the last one), and it goes by itself
 * after a while, or with `dismiss`. */
export function useRefusal(): { refusal: Refusal | null; show: (text: string) => void; dismiss: () => void } {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const count = useRef(0);
  const show = useCallback((text: string) => {
    count.current += 1;
    setRefusal({ text, id: count.current });
  }, []);
  const dismiss = useCallback(() => setRefusal(null), []);
  useEffect(() => {
    if (!refusal) return undefined;
    const timer = window.setTimeout(dismiss, refusalMs(refusal.text));
    return () => window.clearTimeout(timer);
  }, [refusal, dismiss]);
  return { refusal, show, dismiss };
}

/** The refusal, with a button to put it away sooner. Draw each one anew (`key={refusal.id}`), so
 * that a screen reader says it again even when it is the same sentence. */
export function RefusalToast({ refusal, onDismiss }: { refusal: Refusal; onDismiss: () => void }): ReactElement {
  return (
    <div className="refusal-toast error-msg" data-testid="refusal">
      <p role="alert">{nameCardsIn(refusal.text)}</p>
      <button type="button" className="refusal-close" aria-label="Dismiss" onClick={onDismiss}>×</button>
    </div>
  );
}
