// What sits beside the table during a game: the log, the host's tools, the turn alert switch, and
// the way out.
import { useEffect, useRef, useState, type ReactElement } from "react";
import { TurnTimeSelect } from "../components/TurnTimeSelect";
import { trapTab } from "../lib/trapTab";
import type { useAlertSetting } from "../lib/turnAlert";
import type { Room } from "../lib/types";
import type { LogEntry } from "../lib/useRoom";
import { useSend, type Send } from "../lib/useSend";

/** The game's log, kept scrolled to its newest line. */
export function GameLog({ log }: { log: LogEntry[] }): ReactElement {
  const box = useRef<HTMLOListElement>(null);
  // Every new line, not a new length: a long log keeps its length once it is full.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [log]);
  return (
    <section className="panel" aria-labelledby="log-title">
      <h2 id="log-title">Game log</h2>
      {log.length === 0 ? (
        <p className="muted">Moves will be listed here.</p>
      ) : (
        <ol className="game-log" ref={box} aria-live="polite" data-testid="game-log" tabIndex={0}>
          {log.map((entry, i) => <li key={i}>{entry.text}</li>)}
        </ol>
      )}
    </section>
  );
}

/** The host's tools during a game: the turn time, and a bot for a player who is gone. */
export function HostTurnTools({ room, mySeats, times, send, offline }: {
  room: Room; mySeats: number[]; times: number[]; send: Send; offline: boolean;
}): ReactElement {
  const { run, error } = useSend(send);
  const gone = room.seats.filter((s) => s.kind !== "bot" && !s.left && !s.away && !mySeats.includes(s.seat) &&
    !s.connected);
  return (
    <section className="panel stack" aria-label="Host tools">
      <TurnTimeSelect room={room} isHost times={times} send={send} disabled={offline} />
      {gone.map((s) => (
        <button key={s.seat} type="button" className="btn btn-small" disabled={offline}
          onClick={() => void run("stand_in", { seat: s.seat })}>
          Let a bot play for {s.name}
        </button>
      ))}
      {error && <p className="error-msg" role="alert">{error}</p>}
    </section>
  );
}

/** The switch for a sound and a notification on the player's turn. */
export function AlertToggle({ alerts }: { alerts: ReturnType<typeof useAlertSetting> }): ReactElement {
  return (
    <label className="toggle panel alert-toggle">
      <input type="checkbox" checked={alerts.on} onChange={alerts.toggle} data-testid="alert-toggle" />
      <span>
        Sound and notification when it is my turn
        <small className="muted">
          {alerts.on && alerts.blocked
            ? "This browser blocks notifications from this site: only the sound will play."
            : "Only while this tab is in the background. The tab’s title always flashes."}
        </small>
      </span>
    </label>
  );
}

/** The room's code, who watches, and the way out: asked again while the player is in the game. */
export function LeaveTable({ room, isHost, playing, onLeave }: {
  room: Room; isHost: boolean; playing: boolean; onLeave: () => void;
}): ReactElement {
  const [confirm, setConfirm] = useState(false);
  const leaveButton = useRef<HTMLButtonElement>(null);
  const stay = () => {
    setConfirm(false);
    leaveButton.current?.focus(); // back where the keyboard was, not on the page
  };
  const leaveText = isHost ? "Close room" : "Leave";
  const open = confirm && playing;
  // While it asks, Tab and Shift+Tab go round its two buttons: the page under it waits for the answer.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => trapTab(event, box.current);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
  return (
    <>
      <div className="btn-row">
        <span className="muted">Room <span className="code">{room.code}</span></span>
        {room.spectators > 0 && <span className="pill">{room.spectators} watching</span>}
        <button type="button" className="btn btn-small btn-danger" style={{ marginLeft: "auto" }} ref={leaveButton}
          onClick={() => (playing ? setConfirm(true) : onLeave())}>
          {leaveText}
        </button>
      </div>
      {open && (
        // Escape is "Stay at the table", as the button first in it (and focused) is.
        <div className="panel confirm-box" role="alertdialog" aria-labelledby="leave-title"
          aria-describedby="leave-text" data-testid="confirm-leave" ref={box}
          onKeyDown={(event) => {
            if (event.key === "Escape") stay();
          }}>
          <h2 id="leave-title">{isHost ? "Close the room mid-game?" : "Leave this game?"}</h2>
          <p id="leave-text">
            {isHost
              ? "The game ends for everyone and the room closes."
              : "You give up your seat for good: the game goes on without you, and you cannot take it back."}
          </p>
          <div className="btn-row">
            <button type="button" className="btn btn-primary" onClick={stay} autoFocus>
              Stay at the table
            </button>
            <button type="button" className="btn btn-danger" onClick={onLeave}>{leaveText}</button>
          </div>
        </div>
      )}
    </>
  );
}
