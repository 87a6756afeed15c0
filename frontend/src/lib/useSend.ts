// Sending a client event from a control, and showing the server's refusal beside it.
import { useCallback, useState } from "react";
import type { Ack } from "./types";

/** Sends a client event to the room and resolves with the server's acknowledgement. */
export type Send = (event: string, payload?: object) => Promise<Ack>;

export interface Sender {
  /** Sends the event; true when the server accepted it. */
  run: (event: string, payload?: object) => Promise<boolean>;
  /** The last refusal's message, until the next event is accepted (or `setError` changes it). */
  error: string | null;
  setError: (error: string | null) => void;
  /** An event is on its way. */
  busy: boolean;
}

/** Events sent with `send`, keeping the last refusal to show and whether one is on its way. */
export function useSend(send: Send): Sender {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (event: string, payload: object = {}) => {
    setBusy(true);
    const ack = await send(event, payload);
    setBusy(false);
    setError(ack.ok ? null : ack.error.message);
    return ack.ok;
  }, [send]);
  return { run, error, setError, busy };
}
