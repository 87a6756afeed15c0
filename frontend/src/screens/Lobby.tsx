import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactElement, type ReactNode } from "react";
import { Avatar } from "../components/Avatar";
import { NameInput } from "../components/NameInput";
import { TurnTimeSelect } from "../components/TurnTimeSelect";
import { getName, saveName, validName } from "../lib/identity";
import { isHostSeat, seatFree } from "../lib/seats";
import { useFocusFallback } from "../lib/useFocusFallback";
import { useGames } from "../lib/useGames";
import type { RemovedPlayer, Room, SeatInfo } from "../lib/types";
import { useSend, type Sender, type Send } from "../lib/useSend";

export interface LobbyProps {
  room: Room;
  userId: string;
  mySeats: number[];
  /** The turn times the host may set (the server's list). */
  turnTimes?: number[];
  spectator: boolean;
  send: Send;
  onLeave: () => void;
  /** While the connection is lost nothing can be sent: the controls wait for it. */
  offline?: boolean;
  /** The chat's unread count, in the row that stays in view on a phone. */
  chatBadge?: ReactNode;
}

function InviteBox({ code }: { code: string }): ReactElement {
  const link = `${window.location.origin}/r/${code}`;
  const [copied, setCopied] = useState<string | null>(null);
  // A narrow field shows the link's end, the room's code, rather than its start (the origin).
  const field = useRef<HTMLInputElement>(null);
  const showEnd = () => {
    const input = field.current;
    if (input && document.activeElement !== input) input.scrollLeft = input.scrollWidth;
  };
  useEffect(() => {
    showEnd();
    window.addEventListener("resize", showEnd);
    return () => window.removeEventListener("resize", showEnd);
  }, [link]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied("Link copied");
    } catch {
      const field = document.getElementById("invite-link") as HTMLInputElement | null;
      field?.select();
      setCopied("Press Ctrl+C to copy the selected link");
    }
    window.setTimeout(() => setCopied(null), 2500);
  };
  return (
    <div className="stack" style={{ gap: "0.4rem" }}>
      <div className="invite">
        <span className="muted">Room code</span>
        <span className="code big-code" data-testid="room-code">{code}</span>
      </div>
      <div className="invite">
        <label className="visually-hidden" htmlFor="invite-link">Invite link</label>
        <input id="invite-link" type="text" readOnly value={link} ref={field} onFocus={(e) => e.target.select()}
          onBlur={() => window.requestAnimationFrame(showEnd)} data-testid="invite-link" />
        <button type="button" className="btn btn-small" onClick={copy}>Copy link</button>
        <span role="status" aria-live="polite" className="muted">{copied}</span>
      </div>
    </div>
  );
}

function SeatTags({ seat, isHost, isMe }: { seat: SeatInfo; isHost: boolean; isMe: boolean }): ReactElement {
  return (
    <div className="seat-tags">
      {isHost && <span className="pill pill-host">Host</span>}
      {isMe && seat.kind !== "local" && <span className="pill pill-ok">You</span>}
      {/* The bot's name says its level ("Bot 1 (easy)"): the pill does not say it again. */}
      {seat.kind === "bot" && <span className="pill pill-bot">Bot</span>}
      {seat.kind === "local" && <span className="pill pill-local">Hot seat</span>}
      {seat.kind === "human" && (
        <span className={`pill ${seat.connected ? "pill-ok" : "pill-off"}`}>
          <span className={`dot ${seat.connected ? "dot-on" : "dot-off"}`} />
          {seat.connected ? "Player · online" : "Player · disconnected"}
        </span>
      )}
      <span className={`pill ${seat.ready ? "pill-ok" : "pill-warn"}`}>{seat.ready ? "Ready" : "Not ready"}</span>
    </div>
  );
}

/** The host's additions to the seats: a bot, a hot-seat player. One at a time (`runAlone`): a double
 * click adds one, not two; the buttons wait (`busy`) while an event is on its way and a moment after
 * it went out (LOBBY_QUIET_MS), marked so (`aria-disabled`) rather than disabled, which would throw
 * a keyboard player's focus off the button they pressed. */
function HostTools({ room, runAlone, setError, offline, busy }: {
  room: Room; runAlone: Sender["runAlone"]; setError: Sender["setError"]; offline: boolean; busy: boolean;
}): ReactElement {
  // The levels are the server's: no bot can be asked for before they are known.
  const levels = useGames().data?.bot_levels ?? [];
  const [level, setLevel] = useState("");
  const [local, setLocal] = useState("");
  const full = room.seats.length >= room.max_players;
  const botLevel = level || levels[levels.length - 1];
  const addLocal = async (e: FormEvent) => {
    e.preventDefault();
    const name = local.trim();
    if (!name) return setError("Give the hot-seat player a name.");
    if (await runAlone("add_local", { name })) setLocal("");
  };
  return (
    <div className="host-tools">
      <form onSubmit={(e) => { e.preventDefault(); void runAlone("add_bot", { level: botLevel }); }}>
        <label className="field">
          Bot level
          <select value={botLevel ?? ""} disabled={offline || !botLevel} onChange={(e) => setLevel(e.target.value)}>
            {levels.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
        <button type="submit" className="btn waits" disabled={full || offline || !botLevel}
          aria-disabled={busy || undefined}>Add bot</button>
      </form>
      <form onSubmit={addLocal}>
        <label className="field">
          Hot-seat player
          <input type="text" value={local} maxLength={32} placeholder="Name" disabled={offline}
            onChange={(e) => setLocal(e.target.value)} />
        </label>
        <button type="submit" className="btn waits" disabled={full || offline} aria-disabled={busy || undefined}>
          Add hot seat
        </button>
      </form>
    </div>
  );
}

/** A watcher's way to a seat: with the name this browser saved, at once; with none, after a name is
 * given here (checked as on the join page, and saved), so the seat is not "Player 2". */
function TakeSeat({ disabled, onSit }: { disabled: boolean; onSit: (name: string) => void }): ReactElement {
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const press = () => {
    const saved = getName();
    if (saved) onSit(saved);
    else setAsking(true);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = validName(name);
    if (problem) return setError(problem);
    setError(null);
    saveName(name);
    onSit(name.trim());
  };
  if (!asking) {
    return (
      <button type="button" className="btn btn-small btn-accent" disabled={disabled} onClick={press}>
        Take a seat
      </button>
    );
  }
  return (
    <form className="sit-form" onSubmit={submit}>
      <NameInput value={name} onChange={setName} testId="sit-name" />
      <button type="submit" className="btn btn-small btn-accent" disabled={disabled}>Take a seat</button>
      <button type="button" className="btn btn-small" onClick={() => setAsking(false)}>Cancel</button>
      {error && <p className="error-msg" role="alert">{error}</p>}
    </form>
  );
}

/** What a spectator of the lobby is told: watching (with a seat to take, if one is free), or removed. */
function WatcherNote({ removed, canSit, offline, onSit }: {
  removed: boolean; canSit: boolean; offline: boolean; onSit: (name: string) => void;
}): ReactElement {
  if (removed) {
    return (
      <p className="notice" role="status">
        The host took you off the seats: you can watch, and the host can let you back in.
      </p>
    );
  }
  return (
    <div className="notice watcher-note">
      <p role="status">You are watching this table. The game will appear here when it starts.</p>
      {canSit && <TakeSeat disabled={offline} onSit={onSit} />}
    </div>
  );
}

/** The seats, taken and open; the host may remove whoever sits in one (not while an event is on its
 * way: `busy`). */
function SeatList({ room, mySeats, isHost, disabled, onRemove }: {
  room: Room; mySeats: number[]; isHost: boolean; disabled: boolean; onRemove: (seat: SeatInfo) => void;
}): ReactElement {
  const empty = Math.max(0, room.max_players - room.seats.length);
  return (
    <ul className="seat-list" aria-label="Seats">
      {room.seats.map((seat) => (
        <li key={seat.seat} className={`seat ${mySeats.includes(seat.seat) ? "seat-me" : ""}`}
          data-testid={`seat-${seat.seat}`}>
          <div className="seat-top">
            <Avatar name={seat.name} colour={seat.colour ?? seat.seat} bot={seat.kind === "bot"} />
            <span className="seat-name">{seat.name}</span>
          </div>
          <SeatTags seat={seat} isHost={isHostSeat(room, seat)} isMe={mySeats.includes(seat.seat)} />
          {isHost && !isHostSeat(room, seat) && (
            <button type="button" className="btn btn-small btn-danger" style={{ alignSelf: "flex-start" }}
              disabled={disabled} onClick={() => onRemove(seat)} aria-label={`Remove ${seat.name}`}>Remove</button>
          )}
        </li>
      ))}
      {Array.from({ length: empty }, (_, i) => (
        <li key={`empty${i}`} className="seat seat-empty">Open seat</li>
      ))}
      {/* A phone shows the open seats as one line: a box each would push Start far down. */}
      {empty > 0 && (
        <li className="seat seat-empty seats-open" data-testid="open-seats">
          {empty === 1 ? "1 open seat" : `${empty} open seats`}
        </li>
      )}
    </ul>
  );
}

/** The players the host removed, each with a way back in (not while an event is on its way: `busy`). */
function RemovedPlayers({ removed, disabled, onAllow }: {
  removed: RemovedPlayer[]; disabled: boolean; onAllow: (userId: string) => void;
}): ReactElement {
  return (
    <div className="stack" style={{ gap: "0.4rem" }}>
      <h2>Removed (watching only)</h2>
      <ul className="removed-list" aria-label="Removed players">
        {removed.map((player) => (
          <li key={player.user_id} className="btn-row">
            <span>{player.name}</span>
            <button type="button" className="btn btn-small" disabled={disabled}
              onClick={() => onAllow(player.user_id)}>
              Let {player.name} back in
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What the lobby is waiting for before the host can start, in words (nothing when ready). */
function waitingFor(room: Room): string | null {
  const unready = room.seats.filter((s) => s.kind === "human" && !s.ready).map((s) => s.name);
  if (room.seats.length < room.min_players) return `Waiting for players: ${room.title} needs at least ${room.min_players} players.`;
  return unready.length > 0 ? `Waiting for ${unready.join(", ")} to be ready.` : null;
}

/** The player's readiness. `ask(want)` asks for it and shows it at once (the room's next update
 * confirms it); presses while one is on its way, or just after one went out, send nothing and change
 * nothing (`runAlone`). It is not a toggle: "I’m ready" asks for ready, and the smaller "Not ready"
 * beside it, shown once ready, for not ready, so a double click is ready, never ready and back. */
function useReady(ready: boolean, runAlone: Sender["runAlone"]): { shown: boolean; ask: (want: boolean) => void } {
  const [asked, setAsked] = useState<boolean | null>(null);
  const [roomSaid, setRoomSaid] = useState(ready);
  // The room has spoken since the press (or the press was refused): it says again what is so.
  if (roomSaid !== ready) {
    setRoomSaid(ready);
    setAsked(null);
  }
  const shown = asked ?? ready;
  const ask = (want: boolean) => {
    if (want === shown) return;
    // Shown once it is on its way; a refusal (false) shows the room's word again, a press that sent
    // nothing (null) leaves the one on its way shown.
    void runAlone("ready", { ready: want }, () => setAsked(want)).then((accepted) => {
      if (accepted === false) setAsked(null);
    });
  };
  return { shown, ask };
}

/** What changed at the table since the last room object, in a sentence for a screen reader (the
 * seat cards say it to the eye): who sat down, who went, who is ready. Names are unique in a room. */
export function seatNews(before: Room, now: Room): string {
  const was = new Map(before.seats.map((s) => [s.name, s]));
  const is = new Map(now.seats.map((s) => [s.name, s]));
  const said: string[] = [];
  for (const [name, seat] of is) {
    const old = was.get(name);
    if (!old) said.push(`${name} took a seat`);
    else if (seat.kind === "human" && old.ready !== seat.ready && !isHostSeat(now, seat)) {
      said.push(`${name} is ${seat.ready ? "ready" : "not ready"}`);
    }
  }
  for (const name of was.keys()) if (!is.has(name)) said.push(`${name} left the seats`);
  return said.length > 0 ? `${said.join(". ")}.` : "";
}

/** The latest {@link seatNews}, kept until the next. */
function useSeatNews(room: Room): string {
  const last = useRef(room);
  const [news, setNews] = useState("");
  useEffect(() => {
    const said = seatNews(last.current, room);
    last.current = room;
    if (said) setNews(said);
  }, [room]);
  return news;
}

/** After a lobby event goes out, further lobby presses are ignored for this long (ms), answered or
 * not: a double click (two clicks up to ~250 ms apart) is one press, and a second click landing on
 * the control that moved under the pointer ("Let Bob back in" gone, "Add bot" moved up) does
 * nothing. Short of a deliberate next press, which takes a look at the updated lobby first. */
export const LOBBY_QUIET_MS = 400;

/** The room before the game: seats, invite, host controls, ready and leave. */
export function Lobby({ room, userId, mySeats, spectator, turnTimes = [], send, onLeave, offline = false, chatBadge }: LobbyProps): ReactElement {
  // `busy`: an event is on its way, or went out less than LOBBY_QUIET_MS ago. The buttons show it
  // (disabled): a click in that moment does nothing, and is seen to do nothing.
  const { runAlone, error, setError, held: busy } = useSend(send, { quietMs: LOBBY_QUIET_MS });
  const isHost = room.host === userId;
  const mine = room.seats.find((s) => mySeats.includes(s.seat) && s.kind === "human");
  const ready = useReady(mine?.ready ?? false, runAlone);
  const removed = room.removed ?? [];
  const waiting = isHost ? waitingFor(room) : null;
  const news = useSeatNews(room);
  // A control that goes (a seat removed) or stays disabled (no seat left for a bot) would leave a
  // keyboard player's focus on the page itself: it goes to the seats' heading, above what changed.
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  useFocusFallback(panel, useCallback(() => panel?.querySelector<HTMLElement>("#lobby-seats") ?? null, [panel]));

  return (
    <section className="panel stack" aria-labelledby="lobby-title" ref={setPanel}>
      <p className="visually-hidden" role="status" data-testid="lobby-news">{news}</p>
      <div className="room-head">
        <h1 id="lobby-title">{room.title}</h1>
        <span className="pill">{room.public ? "Public" : "Unlisted"}</span>
        <span className="pill">{room.seats.length}/{room.max_players} seats</span>
        {room.spectators > 0 && <span className="pill">{room.spectators} watching</span>}
      </div>
      {room.notice && <p className="notice" role="status" data-testid="room-notice">{room.notice}</p>}
      <InviteBox code={room.code} />
      {spectator && (
        <WatcherNote removed={removed.some((player) => player.user_id === userId)} canSit={seatFree(room)}
          offline={offline || busy} onSit={(name) => void runAlone("join", { room: room.code, name })} />
      )}
      <h2 id="lobby-seats" tabIndex={-1}>Seats</h2>
      <SeatList room={room} mySeats={mySeats} isHost={isHost} disabled={offline || busy}
        // The name seen: seats move up when someone leaves, and the next player must not pay.
        onRemove={(seat) => void runAlone("remove_seat", { seat: seat.seat, name: seat.name })} />
      {isHost && removed.length > 0 && (
        <RemovedPlayers removed={removed} disabled={offline || busy} onAllow={(id) => void runAlone("allow", { user_id: id })} />
      )}
      {isHost && <HostTools room={room} runAlone={runAlone} setError={setError} offline={offline} busy={busy} />}
      <TurnTimeSelect room={room} isHost={isHost} times={turnTimes} send={send} disabled={offline} />
      {error && <p className="error-msg" role="alert">{error}</p>}
      {/* On a phone this row sticks to the window's bottom while the lobby is in view: the host's
          Start is reachable without scrolling past the seats and the host's tools. */}
      <div className="btn-row lobby-actions" data-testid="lobby-actions">
        {isHost && (
          <button type="button" className="btn btn-primary waits" disabled={offline} aria-disabled={busy || undefined}
            onClick={() => void runAlone("start")} data-testid="start-game">Start game</button>
        )}
        {/* One button, kept (and its focus with it): once ready it reads "Ready ✓" and pressing it
            again does nothing; not ready is the small button after it, away from the pointer. */}
        {!isHost && mine && (
          <button type="button" className={`btn ${ready.shown ? "btn-ready" : "btn-accent"}`}
            disabled={offline || (busy && !ready.shown)} aria-disabled={ready.shown || undefined}
            onClick={() => ready.ask(true)} data-testid="ready">
            {ready.shown ? "Ready ✓" : "I’m ready"}
          </button>
        )}
        {!isHost && mine && ready.shown && (
          <button type="button" className="btn btn-small" disabled={offline || busy}
            onClick={() => ready.ask(false)}>Not ready</button>
        )}
        <button type="button" className="btn btn-danger" onClick={onLeave}>
          {isHost ? "Close room" : "Leave"}
        </button>
        {chatBadge}
      </div>
      {waiting && <p className="muted">{waiting}</p>}
      {!isHost && !spectator && <p className="muted">The host starts the game when everyone is ready.</p>}
    </section>
  );
}
