import { Fragment, useCallback, useEffect, useRef, useState, type FormEvent, type ReactElement, type ReactNode } from "react";
import { Avatar } from "../components/Avatar";
import { NameInput } from "../components/NameInput";
import { TurnTimeSelect } from "../components/TurnTimeSelect";
import { firstBotLevel, rememberBotLevel } from "../lib/botLevel";
import { getName, saveName, validName } from "../lib/identity";
import { listed } from "../lib/lists";
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

/** Whether this browser can hand a link to the phone's own sharing (messages, mail, chat apps). */
function canShare(): boolean {
  return typeof navigator.share === "function";
}

/** The link with a line break allowed after each "/": a line too narrow for it ends after "/r/"
 * rather than inside the room's code. */
function breakAfterSlashes(link: string): ReactElement[] {
  const parts = link.split("/");
  return parts.map((part, i) => <Fragment key={i}>{part}{i < parts.length - 1 && <>/<wbr /></>}</Fragment>);
}

/** The room's code and invite link, with Copy, and Share where the browser has it. The link is
 * text that wraps, not a one-line field: a phone shows all of it, origin and code. */
function InviteBox({ code, title }: { code: string; title: string }): ReactElement {
  const link = `${window.location.origin}/r/${code}`;
  const [said, setSaid] = useState<string | null>(null);
  const shown = useRef<HTMLElement>(null);
  const say = (words: string) => {
    setSaid(words);
    window.setTimeout(() => setSaid(null), 2500);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      say("Link copied");
    } catch {
      if (shown.current) window.getSelection()?.selectAllChildren(shown.current);
      say("Press Ctrl+C to copy the selected link");
    }
  };
  const share = async () => {
    try {
      await navigator.share({ title: `${title} at the Gaming Lounge`, text: `Play ${title} with us: room ${code}`, url: link });
    } catch (error) {
      // Closing the share sheet is a choice, not a failure: nothing to say.
      if (!(error instanceof DOMException && error.name === "AbortError")) say("Could not share: copy the link instead");
    }
  };
  return (
    <div className="stack" style={{ gap: "0.4rem" }}>
      <div className="invite">
        <span className="muted">Room code</span>
        <span className="code big-code" data-testid="room-code">{code}</span>
      </div>
      <div className="invite">
        <span className="muted">Invite link</span>
        <code className="invite-link" ref={shown} data-testid="invite-link">{breakAfterSlashes(link)}</code>
        <span className="btn-row invite-buttons">
          <button type="button" className="btn btn-small" onClick={copy}>Copy link</button>
          {canShare() && <button type="button" className="btn btn-small" onClick={share}>Share</button>}
        </span>
        <span role="status" aria-live="polite" className="muted invite-said">{said}</span>
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
 * it went out (LOBBY_QUIET_MS), marked so (`aria-disabled`, as every lobby button that waits) rather
 * than disabled, which would throw a keyboard player's focus off the button they pressed. */
function HostTools({ room, runAlone, setError, offline, busy }: {
  room: Room; runAlone: Sender["runAlone"]; setError: Sender["setError"]; offline: boolean; busy: boolean;
}): ReactElement {
  // The levels are the server's: no bot can be asked for before they are known.
  const levels = useGames().data?.bot_levels ?? [];
  const [level, setLevel] = useState("");
  const [local, setLocal] = useState("");
  const full = room.seats.length >= room.max_players;
  const botLevel = level || firstBotLevel(levels);
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
          <span>Bot level</span>
          <select value={botLevel ?? ""} disabled={offline || !botLevel} onChange={(e) => {
            setLevel(e.target.value);
            rememberBotLevel(e.target.value);
          }}>
            {levels.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
        <button type="submit" className="btn waits" disabled={full || offline || !botLevel}
          aria-disabled={busy || undefined}>Add bot</button>
      </form>
      <form onSubmit={addLocal}>
        <label className="field">
          <span>Hot-seat player</span>
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
function TakeSeat({ disabled, waiting, onSit }: {
  disabled: boolean; waiting: boolean; onSit: (name: string) => void;
}): ReactElement {
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
      <button type="button" className="btn btn-small btn-accent waits" disabled={disabled}
        aria-disabled={waiting || undefined} onClick={press}>
        Take a seat
      </button>
    );
  }
  return (
    <form className="sit-form" onSubmit={submit}>
      <NameInput value={name} onChange={setName} testId="sit-name" />
      <button type="submit" className="btn btn-small btn-accent waits" disabled={disabled}
        aria-disabled={waiting || undefined}>Take a seat</button>
      <button type="button" className="btn btn-small" onClick={() => setAsking(false)}>Cancel</button>
      {error && <p className="error-msg" role="alert">{error}</p>}
    </form>
  );
}

/** What a spectator of the lobby is told: watching (with a seat to take, if one is free), or removed. */
function WatcherNote({ removed, canSit, offline, busy, onSit }: {
  removed: boolean; canSit: boolean; offline: boolean; busy: boolean; onSit: (name: string) => void;
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
      {canSit && <TakeSeat disabled={offline} waiting={busy} onSit={onSit} />}
    </div>
  );
}

/** The seats, taken and open; the host may remove whoever sits in one (not while an event is on its
 * way: `busy`). */
function SeatList({ room, mySeats, isHost, disabled, busy, onRemove }: {
  room: Room; mySeats: number[]; isHost: boolean; disabled: boolean; busy: boolean; onRemove: (seat: SeatInfo) => void;
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
            <button type="button" className="btn btn-small btn-danger waits" style={{ alignSelf: "flex-start" }}
              disabled={disabled} aria-disabled={busy || undefined} onClick={() => onRemove(seat)}
              aria-label={`Remove ${seat.name}`}>Remove</button>
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
function RemovedPlayers({ removed, disabled, busy, onAllow }: {
  removed: RemovedPlayer[]; disabled: boolean; busy: boolean; onAllow: (userId: string) => void;
}): ReactElement {
  return (
    <div className="stack" style={{ gap: "0.4rem" }}>
      <h2>Removed (watching only)</h2>
      <ul className="removed-list" aria-label="Removed players">
        {removed.map((player) => (
          <li key={player.user_id} className="btn-row">
            <span>{player.name}</span>
            <button type="button" className="btn btn-small waits" disabled={disabled}
              aria-disabled={busy || undefined} onClick={() => onAllow(player.user_id)}>
              Let {player.name} back in
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Why Start would be refused, in words (null: it would start). The server's own checks, in its
 * order: enough seats, then every player ready (bots, hot-seat players and the host always are). */
export function waitingFor(room: Room): string | null {
  if (room.seats.length < room.min_players) return `Waiting for players: ${room.title} needs at least ${room.min_players} players.`;
  // A player who is gone may not be back: the host sees it, and may remove them.
  const unready = room.seats.filter((s) => s.kind === "human" && !s.ready && !isHostSeat(room, s))
    .map((s) => (s.connected === false ? `${s.name} (disconnected)` : s.name));
  return unready.length > 0 ? `Waiting for ${listed(unready, "and")} to get ready.` : null;
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
 * seat cards say it to the eye): who sat down, who went (or was removed), who is ready. Names are unique in a room. */
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
  // A player the host removed did not leave: they are told apart by the room's list of them.
  const removedNow = (id: string | null) => id !== null && (now.removed ?? []).some((r) => r.user_id === id)
    && !(before.removed ?? []).some((r) => r.user_id === id);
  for (const [name, seat] of was) {
    if (is.has(name)) continue;
    said.push(removedNow(seat.user_id) ? `The host removed ${name} from the seats` : `${name} left the seats`);
  }
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

/** What a lobby press that sent nothing says (the press is not kept for later: a second click of
 * a double click, or one on a control that moved under the pointer, must stay nothing). */
export const TOO_SOON = "That press came too soon after the last one, so it did nothing.";
const TOO_SOON_SHOWN_MS = 2500;

/** `runAlone` that says so when a press sent nothing (`note`, for a moment). */
function useSaysTooSoon(runAlone: Sender["runAlone"]): { runAlone: Sender["runAlone"]; note: string } {
  const [note, setNote] = useState("");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const run = useCallback<Sender["runAlone"]>(async (event, payload, onSent) => {
    const sent = await runAlone(event, payload, onSent);
    if (sent === null) {
      setNote(TOO_SOON);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setNote(""), TOO_SOON_SHOWN_MS);
    }
    return sent;
  }, [runAlone]);
  return { runAlone: run, note };
}

/** Why Start cannot start yet (`waiting`), said again, and seen again, at each press of it. */
function StartWaiting({ waiting, presses }: { waiting: string | null; presses: number }): ReactElement {
  return (
    <p id="start-waiting" className="muted lobby-say" role="status" data-testid="start-waiting">
      {/* A new span at each press: a screen reader reads it out again, and it flashes again. */}
      {waiting && <span key={presses} className={presses > 0 ? "nudged" : undefined}>{waiting}</span>}
    </p>
  );
}

/** The room before the game: seats, invite, host controls, ready and leave. */
export function Lobby({ room, userId, mySeats, spectator, turnTimes = [], send, onLeave, offline = false, chatBadge }: LobbyProps): ReactElement {
  // `busy`: an event is on its way, or went out less than LOBBY_QUIET_MS ago. The buttons show it
  // (aria-disabled): a click in that moment does nothing, and says so (`tooSoon`).
  const sender = useSend(send, { quietMs: LOBBY_QUIET_MS });
  const { error, setError, held: busy } = sender;
  const { runAlone, note: tooSoon } = useSaysTooSoon(sender.runAlone);
  const isHost = room.host === userId;
  const mine = room.seats.find((s) => mySeats.includes(s.seat) && s.kind === "human");
  const ready = useReady(mine?.ready ?? false, runAlone);
  const removed = room.removed ?? [];
  const waiting = isHost ? waitingFor(room) : null;
  // Presses of Start while it waits, counted for the sentence they were pressed on.
  const [pressed, setPressed] = useState<{ on: string; times: number } | null>(null);
  const pressStart = () => {
    if (!waiting) return void runAlone("start");
    setPressed((last) => ({ on: waiting, times: (last?.on === waiting ? last.times : 0) + 1 }));
  };
  const news = useSeatNews(room);
  // A control that goes (a seat removed) or stays disabled (no seat left for a bot) would leave a
  // keyboard player's focus on the page itself: it goes to the seats' heading, above what changed.
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  useFocusFallback(panel, useCallback(() => panel?.querySelector<HTMLElement>("#lobby-seats") ?? null, [panel]));

  const leaveButton = (
    <button type="button" className="btn btn-danger" onClick={onLeave}>{isHost ? "Close room" : "Leave"}</button>
  );

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
      <InviteBox code={room.code} title={room.title} />
      {spectator && (
        <WatcherNote removed={removed.some((player) => player.user_id === userId)} canSit={seatFree(room)}
          offline={offline} busy={busy} onSit={(name) => void runAlone("join", { room: room.code, name })} />
      )}
      <h2 id="lobby-seats" tabIndex={-1}>Seats</h2>
      <SeatList room={room} mySeats={mySeats} isHost={isHost} disabled={offline} busy={busy}
        // The name seen: seats move up when someone leaves, and the next player must not pay.
        onRemove={(seat) => void runAlone("remove_seat", { seat: seat.seat, name: seat.name })} />
      {isHost && removed.length > 0 && (
        <RemovedPlayers removed={removed} disabled={offline} busy={busy}
          onAllow={(id) => void runAlone("allow", { user_id: id })} />
      )}
      {isHost && <HostTools room={room} runAlone={runAlone} setError={setError} offline={offline} busy={busy} />}
      <TurnTimeSelect room={room} isHost={isHost} times={turnTimes} send={send} disabled={offline} />
      {error && <p className="error-msg" role="alert">{error}</p>}
      {/* On a phone this row sticks to the window's bottom while the lobby is in view: the host's
          Start is reachable without scrolling past the seats and the host's tools. */}
      <div className="btn-row lobby-actions" data-testid="lobby-actions">
        {isHost && (
          // Not before the server would start: it says who the table waits for instead of sending.
          <button type="button" className="btn btn-primary waits" disabled={offline}
            aria-disabled={busy || waiting !== null || undefined} aria-describedby="start-waiting"
            onClick={pressStart}
            data-testid="start-game">Start game</button>
        )}
        {/* One button, kept (and its focus with it): once ready it reads "Ready ✓" and pressing it
            again does nothing; not ready is the small button after it, away from the pointer. */}
        {!isHost && mine && (
          <button type="button" className={`btn ${ready.shown ? "btn-ready" : "btn-accent waits"}`}
            disabled={offline} aria-disabled={ready.shown || busy || undefined}
            onClick={() => ready.ask(true)} data-testid="ready">
            {ready.shown ? "Ready ✓" : "I’m ready"}
          </button>
        )}
        {!isHost && mine && ready.shown && (
          <button type="button" className="btn btn-small waits" disabled={offline}
            aria-disabled={busy || undefined} onClick={() => ready.ask(false)}>Not ready</button>
        )}
        {isHost ? leaveButton : (
          // The chat's badge stays beside Leave, at the end of its line: on a narrow phone the two
          // go down together, where the badge alone took a line of its own.
          <span className="lobby-leave">{leaveButton}{chatBadge}</span>
        )}
        {isHost && <StartWaiting waiting={waiting} presses={pressed?.on === waiting ? pressed.times : 0} />}
        <p className="muted lobby-say" role="status" data-testid="too-soon">{tooSoon}</p>
        {isHost && chatBadge}
      </div>
      {!isHost && !spectator && <p className="muted">The host starts the game when everyone is ready.</p>}
    </section>
  );
}
