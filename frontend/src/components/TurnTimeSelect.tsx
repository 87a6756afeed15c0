import type { ReactElement } from "react";
import type { Room } from "../lib/types";
import { useSend, type Send } from "../lib/useSend";

/** "30 s", "1 min", "2 min". */
function turnTimeText(seconds: number): string {
  if (!seconds) return "Off";
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/** The host's turn time: off, or one of the server's turn times. Others see it as text. */
export function TurnTimeSelect({ room, isHost, times, send, disabled = false }: {
  room: Room; isHost: boolean; times: number[]; send: Send; disabled?: boolean;
}): ReactElement | null {
  const { run, error } = useSend(send);
  const current = room.turn_seconds ?? 0;
  if (!isHost) {
    return current ? <p className="muted" data-testid="turn-time">Turn time: {turnTimeText(current)}</p> : null;
  }
  return (
    <div className="turn-time">
      <label className="field">
        Turn time
        <select value={current} disabled={disabled} onChange={(e) => void run("set_turn_time", { seconds: Number(e.target.value) })}
          data-testid="turn-time-select">
          {[0, ...times].map((t) => <option key={t} value={t}>{turnTimeText(t)}</option>)}
        </select>
      </label>
      <small className="muted">When it runs out, a bot plays that turn.</small>
      {error && <p className="error-msg" role="alert">{error}</p>}
    </div>
  );
}
