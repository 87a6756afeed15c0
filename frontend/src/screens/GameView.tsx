import { useCallback, useEffect, useRef, useState, type ReactElement, type ReactNode } from "react";
import { boardFor } from "../games/index";
import { seatName } from "../games/types";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { EyeIcon, TrophyIcon } from "../components/Icons";
import { TurnTimeSelect } from "../components/TurnTimeSelect";
import { nameCardsIn } from "../lib/cards";
import { reveal } from "../lib/reveal";
import { clockText, useSecondsLeft } from "../lib/useCountdown";
import { useFocusFallback } from "../lib/useFocusFallback";
import { useAlertSetting, useTurnAlert } from "../lib/turnAlert";
import type { LogEntry } from "../lib/useRoom";
import { SPECTATOR } from "../lib/useRoom";
import type { Ack, GameInfo, GameState, Result, Room } from "../lib/types";

export interface GameViewProps {
  room: Room;
  /** What the server says of the room's game (GET /api/games), once loaded. */
  game?: GameInfo;
  userId: string;
  mySeats: number[];
  spectator: boolean;
  /** This user gave up (or lost) their seat in this game: they watch it now. */
  leftGame?: boolean;
  /** The clock of the turn being played (this browser's clock). */
  clock?: { seat: number; endsAt: number; away: boolean } | null;
  /** The turn times the host may set. */
  turnTimes?: number[];
  states: Record<string, GameState>;
  log: LogEntry[];
  send: (event: string, payload?: object) => Promise<Ack>;
  onLeave: () => void;
  /** The chat, shown beside the table. */
  chat: ReactNode;
  /** The connection is lost: the table stays in view, but nothing on it can be played. */
  offline?: boolean;
}

/** Which of this tab's seats to show: the one that must act now, else the one shown before. */
export function chooseSeat(mySeats: number[], states: Record<string, GameState>, previous: number | null): number | null {
  const mine = mySeats.map((s) => states[String(s)]).filter((s): s is GameState => Boolean(s));
  if (mine.length === 0) return null;
  const current = mine.find((s) => s.view.current === s.seat && s.legal_moves.length > 0);
  if (current) return current.seat;
  if (previous !== null && mine.some((s) => s.seat === previous)) return previous;
  const acting = mine.find((s) => s.legal_moves.length > 0);
  return (acting ?? mine[0]).seat;
}

/** A hot-seat hand shown on request: whose, and during which turn of which game. */
export interface Reveal {
  seat: number;
  round: number;
  turn: number;
}

/**
 * Whether a hot-seat hand shown on request may stay face up: only for its own seat and only
 * during the turn in which it was shown. The move that ends that turn closes the curtain,
 * whoever acts next (a bot, another player on this device, or someone elsewhere).
 */
export function revealStillOpen(reveal: Reveal | null, seat: number | null, state: GameState): boolean {
  return reveal !== null && reveal.seat === seat && reveal.round === state.round &&
    reveal.turn === state.view.turn;
}

/** What the curtain says: whom to pass the device to, or who is playing meanwhile. */
export function curtainText(room: Room, mySeats: number[], seat: number, current: number | null | undefined): string {
  if (current === null || current === undefined || mySeats.includes(current)) {
    return `Pass the device to ${seatName(room.seats, seat)}.`;
  }
  return `${seatName(room.seats, current)} is playing.`;
}

/** The result's headline: who won, or a draw (and why, when the game was cut at its length limit). */
function resultTitle(result: NonNullable<Result>, room: Room, mySeats: number[]): string {
  if ("winner" in result) {
    const solo = mySeats.length === 1;
    return solo && result.winner === mySeats[0] ? "You win!" : `${seatName(room.seats, result.winner)} wins!`;
  }
  return result.reason === "too_long" ? "It’s a draw: the game reached its length limit" : "It’s a draw";
}

function ResultBox({ result, room, mySeats, isHost, onRematch, onLeave, offline }: {
  result: NonNullable<Result>; room: Room; mySeats: number[]; isHost: boolean; onRematch: () => void;
  onLeave: () => void; offline: boolean;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const rematch = useRef<HTMLButtonElement>(null);
  // Whoever had scrolled down sees the result come into view. The host lands on Rematch, everyone
  // else on the result itself: without the focus's own jump, which would cut the smooth scroll.
  useEffect(() => {
    (isHost ? rematch : heading).current?.focus({ preventScroll: true });
    reveal(box.current, "center");
  }, []);
  return (
    <div className="result-overlay" role="alertdialog" aria-labelledby="result-title" data-testid="result" ref={box}>
      <TrophyIcon size={40} />
      <h2 id="result-title" ref={heading} tabIndex={-1}>{resultTitle(result, room, mySeats)}</h2>
      <div className="btn-row" style={{ justifyContent: "center" }}>
        {isHost ? (
          <button type="button" className="btn btn-primary" onClick={onRematch} disabled={offline} ref={rematch}>
            Rematch
          </button>
        ) : (
          <span className="muted">Waiting for the host to start a rematch…</span>
        )}
        <button type="button" className="btn" onClick={onLeave}>{isHost ? "Close room" : "Leave table"}</button>
        <a className="btn" href={`/replays/${room.id}?since=${room.created}`} target="_blank" rel="noopener">Watch again</a>
      </div>
    </div>
  );
}

function statusLine(state: GameState, room: Room, seat: number | null, mine: number[], realTime: boolean):
  { text: string; mine: boolean } {
  const view = state.view;
  if (state.result) return { text: "Game over", mine: false };
  if (realTime && view.current !== null && view.current !== undefined) {
    const turn = view.current === seat ? "your turn to turn up a card" : `${seatName(room.seats, view.current)} turns up next`;
    return { text: `Slap at any time · ${turn}`, mine: view.current === seat };
  }
  if (view.current === null || view.current === undefined) return { text: "", mine: false };
  if (mine.includes(view.current)) {
    const many = mine.length > 1;
    return { text: many ? `${seatName(room.seats, view.current)}’s turn` : "Your turn", mine: true };
  }
  return { text: `${seatName(room.seats, view.current)}’s turn`, mine: false };
}

/** The table during a game: status, board, result and rematch, the log. */
export function GameView(props: GameViewProps): ReactElement {
  const { room, game, userId, mySeats, spectator, leftGame = false, clock = null, turnTimes = [], states, log, send,
    onLeave, chat, offline = false } = props;
  const lastShown = useRef<number | null>(null);
  const seat = spectator ? null : chooseSeat(mySeats, states, lastShown.current);
  lastShown.current = seat;
  const state = spectator ? states[SPECTATOR] : seat !== null ? states[String(seat)] : undefined;
  const [revealed, setRevealed] = useState<Reveal | null>(null);
  const [confirmLeave, setConfirmLeave] = useState(false);
  const alerts = useAlertSetting();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [layout, setLayout] = useState<HTMLDivElement | null>(null);
  const turnLine = useRef<HTMLDivElement>(null);
  useFocusFallback(layout, useCallback(() => layout?.querySelector<HTMLElement>(".me-area") ?? turnLine.current,
    [layout]));
  const version = state?.version ?? -1;
  // The seat that was to move before this version is the one whose card moved: it is worked out
  // while drawing, so the card's animation starts from the right side at once.
  const moves = useRef({ version: -1, mover: null as number | null, current: null as number | null });
  if (state && moves.current.version !== version) {
    moves.current = { version, mover: moves.current.current, current: state.view.current ?? null };
  }
  const mover = moves.current.mover;

  useEffect(() => setError(null), [version]);
  // The lobby, or the last game, may have been scrolled (down to the Start button, the result, the
  // log): each game opens at the top of the table, where the turn line and the other players are.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [state?.round]);

  const isHost = room.host === userId;
  // A player's cards the person beside them must not see: until the game's facts arrive, assume some.
  const privateHands = game === undefined || game.private.length > 0;
  const hotSeat = !spectator && mySeats.length > 1 && privateHands;
  const hideHand = hotSeat && !state?.result && !(state && revealStillOpen(revealed, seat, state));
  const status = state ? statusLine(state, room, seat, mySeats, game?.real_time ?? false) : { text: "", mine: false };
  const myTurn = status.mine && !spectator && state !== undefined && !state.result;
  useTurnAlert(myTurn ? `${state?.round}:${state?.view.turn}:${state?.view.current}` : null,
    `Your turn at ${room.title} (table ${room.code})`, alerts.on);

  if (!state) {
    return (
      <section className="table" aria-label="Game table">
        <p className="table-status">Dealing the cards…</p>
      </section>
    );
  }

  const play = async (move: string, args: (string | number)[], as = seat) => {
    setBusy(true);
    const payload = spectator || as === null ? { move, args } : { move, args, seat: as };
    const ack = await send("move", payload);
    setBusy(false);
    if (!ack.ok) setError(ack.error.message);
  };
  const act = async (event: "undo" | "rematch" | "back") => {
    const payload = event === "undo" && seat !== null ? { seat } : {};
    const ack = await send(event, payload);
    if (!ack.ok) setError(ack.error.message);
  };

  const Board = boardFor(room.game);
  const localSeats = spectator ? [] : mySeats.map((s) => ({ seat: s, legal: states[String(s)]?.legal_moves ?? [] }));
  // The acting seat's clock is drawn on its seat, for everyone.
  const running = clock && !state.result ? clock : null;
  const seats = running
    ? room.seats.map((s) => (s.seat === running.seat ? { ...s, clock: { endsAt: running.endsAt, away: running.away } } : s))
    : room.seats;
  const awayHere = !spectator && room.seats.some((s) => mySeats.includes(s.seat) && s.away && !s.left);
  const playing = !state.result && !spectator && mySeats.length > 0;
  const leaveText = isHost ? "Close room" : "Leave";
  return (
    <div className="game-layout" ref={setLayout}>
      <section className={`table ${state.result ? "is-over" : ""}`} aria-label={`${room.title} table`}
        data-testid="table" data-version={state.version}>
        <div className="table-head">
          <div className={`table-status ${status.mine && !hideHand ? "your-turn" : ""}`} role="status"
            aria-live="polite" data-testid="turn" ref={turnLine} tabIndex={-1}>
            {status.text}
          </div>
          {running && (
            <TurnClockLine clock={running} name={mySeats.includes(running.seat) && mySeats.length === 1
              ? null : seatName(room.seats, running.seat)} />
          )}
        </div>
        {state.result && (
          <ResultBox result={state.result} room={room} mySeats={mySeats} isHost={isHost} onLeave={onLeave}
            offline={offline} onRematch={() => void act("rematch")} />
        )}
        {spectator && leftGame && (
          <p className="spectator-note" role="note" data-testid="left-game">
            <EyeIcon /> You left this game: you are watching.
            <button type="button" className="btn btn-small" onClick={onLeave}>Back to the lounge</button>
          </p>
        )}
        {spectator && !leftGame && <p className="spectator-note" role="note"><EyeIcon /> {game && game.private.length > 0 ? "You are watching: the players’ hands stay hidden." : "You are watching this game."}</p>}
        {awayHere && !state.result && (
          <div className="banner banner-warn away-note" role="status" data-testid="away-note">
            You are away: a bot plays your turns.
            <button type="button" className="btn btn-small btn-primary" onClick={() => void act("back")}>
              I’m back
            </button>
          </div>
        )}
        {error && <p className="error-msg" role="alert">{nameCardsIn(error)}</p>}
        <ErrorBoundary resetKey={state.version} message="This table could not be drawn. The next move will try again.">
          <Board view={state.view} legal={spectator ? [] : state.legal_moves} seat={seat} seats={seats}
            localSeats={localSeats} play={play} busy={busy || offline} hideHand={hideHand} mover={mover} game={game}
            owner={mySeats.length > 1 && seat !== null ? seatName(room.seats, seat) : null} />
        </ErrorBoundary>
        {hideHand && seat !== null && (
          <div className="curtain" data-testid="curtain">
            <strong>{curtainText(room, mySeats, seat, state.view.current)}</strong>
            <span>{seatName(room.seats, seat)}’s cards stay hidden until they are ready.</span>
            <button type="button" className="btn btn-accent" autoFocus
              onClick={() => setRevealed({ seat, round: state.round, turn: state.view.turn })}>
              Show my hand ({seatName(room.seats, seat)})
            </button>
          </div>
        )}
        {state.can_undo && !state.result && (
          <div className="action-bar">
            <button type="button" className="btn btn-small" onClick={() => void act("undo")}>Take back</button>
          </div>
        )}
      </section>
      <aside className="side">
        <section className="panel" aria-labelledby="log-title">
          <h2 id="log-title">Game log</h2>
          <LogList log={log} />
        </section>
        {chat}
        {isHost && !state.result && (
          <HostTurnTools room={room} mySeats={mySeats} times={turnTimes} send={send} offline={offline} />
        )}
        {!isHost && (room.turn_seconds ?? 0) > 0 && (
          <TurnTimeSelect room={room} isHost={false} times={turnTimes} send={send} />
        )}
        {!spectator && (
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
        )}
        <div className="btn-row">
          <span className="muted">Room <span className="code">{room.code}</span></span>
          {room.spectators > 0 && <span className="pill">{room.spectators} watching</span>}
          <button type="button" className="btn btn-small btn-danger" style={{ marginLeft: "auto" }}
            onClick={() => (playing ? setConfirmLeave(true) : onLeave())}>
            {leaveText}
          </button>
        </div>
        {confirmLeave && playing && (
          <div className="panel confirm-box" role="alertdialog" aria-labelledby="leave-title"
            aria-describedby="leave-text" data-testid="confirm-leave">
            <h2 id="leave-title">{isHost ? "Close the room mid-game?" : "Leave this game?"}</h2>
            <p id="leave-text">
              {isHost
                ? "The game ends for everyone and the room closes."
                : "You give up your seat for good: the game goes on without you, and you cannot take it back."}
            </p>
            <div className="btn-row">
              <button type="button" className="btn btn-primary" onClick={() => setConfirmLeave(false)} autoFocus>
                Stay at the table
              </button>
              <button type="button" className="btn btn-danger" onClick={onLeave}>{leaveText}</button>
            </div>
          </div>
        )}
      </aside>
    </div>
  );
}

/** The clock of the turn being played, in words, beside the turn line. */
function TurnClockLine({ clock, name }: { clock: { endsAt: number; away: boolean }; name: string | null }): ReactElement {
  const left = useSecondsLeft(clock.endsAt) ?? 0;
  const whose = name === null ? "your turn" : `${name}’s turn`;
  return (
    <p className={`turn-clock-line ${left <= 10 ? "is-short" : ""}`} data-testid="turn-clock" aria-live="off">
      {clock.away ? `${name ?? "You"} ${name === null ? "are" : "is"} away: a bot plays in ${left} s` : `${clockText(left)} left for ${whose}`}
    </p>
  );
}

/** The host's tools during a game: the turn time, and a bot for a player who is gone. */
function HostTurnTools({ room, mySeats, times, send, offline }: {
  room: Room; mySeats: number[]; times: number[]; send: (event: string, payload?: object) => Promise<Ack>;
  offline: boolean;
}): ReactElement {
  const [error, setError] = useState<string | null>(null);
  const gone = room.seats.filter((s) => s.kind !== "bot" && !s.left && !s.away && !mySeats.includes(s.seat) &&
    !s.connected);
  const handOver = async (seat: number) => {
    const ack = await send("stand_in", { seat });
    setError(ack.ok ? null : ack.error.message);
  };
  return (
    <section className="panel stack" aria-label="Host tools">
      <TurnTimeSelect room={room} isHost times={times} send={send} disabled={offline} />
      {gone.map((s) => (
        <button key={s.seat} type="button" className="btn btn-small" disabled={offline} onClick={() => void handOver(s.seat)}>
          Let a bot play for {s.name}
        </button>
      ))}
      {error && <p className="error-msg" role="alert">{error}</p>}
    </section>
  );
}

function LogList({ log }: { log: LogEntry[] }): ReactElement {
  const box = useRef<HTMLOListElement>(null);
  // Every new line, not a new length: a long log keeps its length once it is full.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [log]);
  if (log.length === 0) return <p className="muted">Moves will be listed here.</p>;
  return (
    <ol className="game-log" ref={box} aria-live="polite" data-testid="game-log" tabIndex={0}>
      {log.map((entry, i) => <li key={i}>{entry.text}</li>)}
    </ol>
  );
}
