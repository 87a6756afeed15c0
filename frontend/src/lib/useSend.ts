// Sending a client event from a control, and showing the server's refusal beside it.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Ack } from "./types";

/** Sends a client event to the room and resolves with the server's acknowledgement. */
export type Send = (event: string, payload?: object) => Promise<Ack>;

export interface Sender {
  /** Sends the event; true when the server accepted it. */
  run: (event: string, payload?: object) => Promise<boolean>;
  /** Sends the event unless one is still on its way (a second click of a double click, a toggle
   * pressed again before its first press was answered), or one went out less than `quietMs` ago (a
   * double click slower than the answer, a click landing on the control that moved under the
   * pointer): then sends nothing and resolves null.
   * Otherwise resolves true when the server accepted it, false when it refused it; `onSent` is
   * called at once when it goes out (before the answer), to show meanwhile what was asked. */
  runAlone: (event: string, payload?: object, onSent?: () => void) => Promise<boolean | null>;
  /** The last refusal's message, until the next event is accepted (or `setError` changes it). */
  error: string | null;
  setError: (error: string | null) => void;
  /** An event is on its way. */
  busy: boolean;
  /** An event is on its way, or a `runAlone` one went out less than `quietMs` ago: the controls
   * that send with `runAlone` show themselves disabled meanwhile (and a click on them does nothing). */
  held: boolean;
}

export interface SendOptions {
  /** Called with each refusal's message as it comes (the same message twice is two calls). */
  onRefused?: (message: string) => void;
  /** After `runAlone` sends an event, further `runAlone` presses are ignored for this many
   * milliseconds, answered or not (0: only while it is on its way). */
  quietMs?: number;
}

/** Events sent with `send`, keeping the last refusal to show and whether one is on its way. */
export function useSend(send: Send, { quietMs = 0, onRefused }: SendOptions = {}): Sender {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // How many events are on their way, counted at once (the state is only seen at the next render).
  const pending = useRef(0);
  // When the last `runAlone` event went out (Date.now()), for `quietMs`.
  const lastAlone = useRef(-Infinity);
  const [quiet, setQuiet] = useState(false);
  const refused = useRef(onRefused);
  refused.current = onRefused;
  const quietTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(quietTimer.current), []);
  const run = useCallback(async (event: string, payload: object = {}) => {
    pending.current += 1;
    setBusy(true);
    let ack: Ack;
    try {
      ack = await send(event, payload);
    } finally {
      pending.current -= 1;
      if (pending.current === 0) setBusy(false);
    }
    setError(ack.ok ? null : ack.error.message);
    if (!ack.ok) refused.current?.(ack.error.message);
    return ack.ok;
  }, [send]);
  const runAlone = useCallback(async (event: string, payload: object = {}, onSent?: () => void):
    Promise<boolean | null> => {
    if (pending.current > 0) return null;
    const now = Date.now();
    if (now - lastAlone.current < quietMs) return null;
    lastAlone.current = now;
    if (quietMs > 0) {
      setQuiet(true);
      window.clearTimeout(quietTimer.current);
      quietTimer.current = window.setTimeout(() => setQuiet(false), quietMs);
    }
    const answer = run(event, payload);
    onSent?.();
    return answer;
  }, [run, quietMs]);
  return { run, runAlone, error, setError, busy, held: busy || quiet };
}
