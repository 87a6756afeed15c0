import { useCallback, useEffect, useRef, useState, type ReactElement, type ReactNode, type RefObject } from "react";
import { boardFor } from "../games/index";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { RefusalToast, useRefusal } from "../components/Refusal";
import { EyeIcon } from "../components/Icons";
import { TurnClockLine } from "../components/TurnClock";
import { TurnTimeSelect } from "../components/TurnTimeSelect";
import { seatName } from "../lib/seats";
import { useFocusFallback } from "../lib/useFocusFallback";
import { useAlertSetting, useTurnAlert } from "../lib/turnAlert";
import type { LogEntry } from "../lib/useRoom";
import { SPECTATOR } from "../lib/useRoom";
import { useSend, type Send } from "../lib/useSend";
import type { GameInfo, GameState, Room, SeatClock } from "../lib/types";
import { ResultBox } from "./ResultBox";
import { AlertToggle, GameLog, HostTurnTools, LeaveTable } from "./TableSide";

export interface GameViewProps {
  room: Room;
  /** What the server says of the room's game (GET /api/games), once loaded. */
  game?: GameInfo;
  userId: string;
  mySeats: number[];
  spectator: boolean;
  /** This user gave up (or lost) their seat in this game: they watch it now. */
  leftGame?: boolean;
  /** ... because the rematch started while their connection was lost. */
  leftOut?: boolean;
  /** The clock of the turn being played (this browser's clock). */
  clock?: { seat: number; endsAt: number; away: boolean } | null;
  /** The turn times the host may set. */
  turnTimes?: number[];
  states: Record<string, GameState>;
  log: LogEntry[];
  send: Send;
  onLeave: () => void;
  /** The chat, shown beside the table. */
  chat: ReactNode;
  /** The chat's unread count, in the turn bar that stays in view on a phone. */
  chatBadge?: ReactNode;
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

/** The turn line: whose turn it is, and whether that is this screen's to play. `away`: a bot plays
 * this screen's turns, which the clock beside the line says: the line leaves it out, and the bar
 * keeps to one line with its "I’m back". */
function statusLine(state: GameState, room: Room, seat: number | null, mine: number[], realTime: boolean,
  away = false): { text: string; mine: boolean } {
  const view = state.view;
  if (state.result) return { text: "Game over", mine: false };
  if (realTime && view.current !== null && view.current !== undefined) {
    // Hot seat: the players beside each other are told whose turn it is by name, as in other games.
    const yours = mine.length > 1 ? `your turn to turn up a card, ${seatName(room.seats, view.current)}`
      : "your turn to turn up a card";
    const turn = view.current === seat ? yours : `${seatName(room.seats, view.current)} turns up next`;
    const text = away && view.current === seat ? "Slap at any time" : `Slap at any time · ${turn}`;
    return { text, mine: view.current === seat };
  }
  if (view.current === null || view.current === undefined) return { text: "", mine: false };
  if (mine.includes(view.current)) {
    // Hot seat: the player is addressed by name, as the one the device was passed to.
    const many = mine.length > 1;
    return { text: many ? `Your turn, ${seatName(room.seats, view.current)}` : "Your turn", mine: true };
  }
  return { text: `${seatName(room.seats, view.current)}’s turn`, mine: false };
}

/** The seat this screen shows and its state (the spectators' for a spectator), and the seat that
 * was to move before the state's version: the one whose card moved. That is worked out while
 * drawing, so that the card's animation starts from the right side at once. */
function useShownSeat(mySeats: number[], states: Record<string, GameState>, spectator: boolean):
  { seat: number | null; state: GameState | undefined; mover: number | null } {
  const lastShown = useRef<number | null>(null);
  const seat = spectator ? null : chooseSeat(mySeats, states, lastShown.current);
  lastShown.current = seat;
  const state = spectator ? states[SPECTATOR] : seat !== null ? states[String(seat)] : undefined;
  const moves = useRef({ version: -1, mover: null as number | null, current: null as number | null });
  const version = state?.version ?? -1;
  if (state && moves.current.version !== version) {
    moves.current = { version, mover: moves.current.current, current: state.view.current ?? null };
  }
  return { seat, state, mover: moves.current.mover };
}

/** Focus lost on the table (a card played, a button disabled) goes to the player's own hand, else
 * to the turn line: the table's element is given to `setLayout`, the turn line's to `turnLine`. */
function useTableFocus(): { setLayout: (layout: HTMLDivElement | null) => void; turnLine: RefObject<HTMLDivElement | null> } {
  const [layout, setLayout] = useState<HTMLDivElement | null>(null);
  const turnLine = useRef<HTMLDivElement>(null);
  useFocusFallback(layout, useCallback(() => layout?.querySelector<HTMLElement>(".me-area") ?? turnLine.current,
    [layout]));
  return { setLayout, turnLine };
}

/** Whether the shown seat may still hold a card only its player may see (until the game's facts
 * arrive, assume so). A hot-seat player who is out (Poker 99) and holds no secret card has nothing
 * for the curtain to hide: it would stand over an empty hand, offering to show it. A player still
 * in keeps the curtain between turns even while their secret hand is empty (Nine Locks' hidden
 * hand), so that it does not come and go in the middle of a turn. */
export function holdsSecret(game: GameInfo | undefined, state: GameState | undefined): boolean {
  if (game === undefined || state === undefined || state.seat === null) return true;
  if (!state.view.out.includes(state.seat)) return true;
  return game.private.some((key) => {
    const cards = state.view[key];
    return Array.isArray(cards) ? cards.length > 0 : cards !== undefined && cards !== null;
  });
}

/** Hot seat: whether the shown seat's hand stays face down, and how its player shows it (for the
 * rest of this turn). */
function useCurtain(hotSeat: boolean, seat: number | null, state: GameState | undefined): { hidden: boolean; show: () => void } {
  const [revealed, setRevealed] = useState<Reveal | null>(null);
  const hidden = hotSeat && !state?.result && !(state && revealStillOpen(revealed, seat, state));
  const show = () => {
    if (state && seat !== null) setRevealed({ seat, round: state.round, turn: state.view.turn });
  };
  return { hidden, show };
}

/** The bar that sticks to the top of the table: whose turn it is, the turn's clock, and, while a bot
 * plays for this screen's player, their way back (`onBack`): the bar stays in view wherever the
 * table is scrolled, the note under it may not. A refused move (`children`) hangs under it, in view
 * with it. */
function TableHead({ status, hideHand, clock, clockName, clockHere, lineRef, onBack, offline, children }: {
  status: { text: string; mine: boolean }; hideHand: boolean; clock: SeatClock | null; clockName: string | null;
  clockHere: boolean;
  lineRef: RefObject<HTMLDivElement | null>; onBack: (() => void) | null; offline: boolean; children?: ReactNode;
}): ReactElement {
  return (
    <div className={`table-head ${onBack ? "has-back" : ""}`}>
      <div className={`table-status ${status.mine && !hideHand ? "your-turn" : ""}`} role="status"
        aria-live="polite" data-testid="turn" ref={lineRef} tabIndex={-1}>
        {status.text}
      </div>
      {clock && <TurnClockLine clock={clock} name={clockName} here={clockHere} />}
      {onBack && (
        <button type="button" className="btn btn-small" disabled={offline} onClick={onBack}>I’m back</button>
      )}
      {children}
    </div>
  );
}

/** The page's heading, for screen readers and the outline: the table shows its game already, and
 * a visible title would push the board down on a phone. */
function TableTitle({ room }: { room: Room }): ReactElement {
  return <h1 id="table-title" className="visually-hidden">{room.title} table {room.code}</h1>;
}

/** What a spectator, or a player a bot stands in for, is told above the board. */
function TableNotes({ spectator, leftGame, leftOut, handsKnownHidden, away, onLeave }: {
  spectator: boolean; leftGame: boolean; leftOut: boolean;
  /** The game's facts are known, and say the players' hands are private. */
  handsKnownHidden: boolean;
  away: boolean; onLeave: () => void;
}): ReactElement {
  return (
    <>
      {spectator && leftGame && (
        <p className="spectator-note" role="note" data-testid="left-game">
          <EyeIcon /> {leftOut ? "This game started while your connection was lost, without you: you are watching."
            : "You left this game: you are watching."}
          <button type="button" className="btn btn-small" onClick={onLeave}>Back to the lounge</button>
        </p>
      )}
      {spectator && !leftGame && <p className="spectator-note" role="note"><EyeIcon /> {handsKnownHidden ? "You are watching: the players’ hands stay hidden." : "You are watching this game."}</p>}
      {/* Its button is the bar's above (one "I’m back" on screen, always in view): the note says why. */}
      {away && (
        <p className="banner banner-warn away-note" role="status" data-testid="away-note">
          You are away: a bot plays your turns until you press “I’m back” above.
        </p>
      )}
    </>
  );
}

/** The hot seat's curtain over a hand: whom to pass the device to, and a button to show it. */
function Curtain({ text, name, onShow }: { text: string; name: string; onShow: () => void }): ReactElement {
  return (
    <div className="curtain" data-testid="curtain">
      <strong>{text}</strong>
      <span>{name}’s cards stay hidden until they are ready.</span>
      <button type="button" className="btn btn-accent" autoFocus onClick={onShow}>
        Show my hand ({name})
      </button>
    </div>
  );
}

/** For this long (ms) after a game appears (a rematch, the start), the board takes no clicks: it
 * comes up under the pointer where the result box (or the lobby's Start) was, and the second click
 * of a double click on Rematch, up to ~250 ms later, would otherwise play a move. Short of a player's
 * first deliberate move, which takes a look at the new board first. */
export const BOARD_SETTLE_MS = 500;

/** Whether the board of game `round` came up less than BOARD_SETTLE_MS ago. Worked out while
 * drawing, so the new board is settling from its very first paint. */
function useSettling(round: number | undefined): boolean {
  const [settled, setSettled] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (round === undefined) return undefined;
    const timer = window.setTimeout(() => setSettled(round), BOARD_SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [round]);
  return round !== undefined && settled !== round;
}

/** The table during a game: status, board, result and rematch, the log. */
export function GameView(props: GameViewProps): ReactElement {
  const { room, game, userId, mySeats, spectator, leftGame = false, leftOut = false, clock = null, turnTimes = [], states, log, send,
    onLeave, chat, chatBadge, offline = false } = props;
  const { seat, state, mover } = useShownSeat(mySeats, states, spectator);
  const alerts = useAlertSetting();
  const refused = useRefusal();
  const sender = useSend(send, { onRefused: refused.show });
  const { setLayout, turnLine } = useTableFocus();
  // A refusal stays its while as the next states come (a bot's card may come at once), but goes
  // when its game ends: the result takes its place.
  useEffect(() => refused.dismiss(), [state?.round ?? -1, Boolean(state?.result)]);
  const round = useRef(state?.round);
  round.current = state?.round;
  const settling = useSettling(state?.round);
  // The lobby, or the last game, may have been scrolled (down to the Start button, the result, the
  // log): each game opens at the top of the table, where the turn line and the other players are.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [state?.round]);

  const isHost = room.host === userId;
  // A player's cards the person beside them must not see: until the game's facts arrive, assume some
  // (the curtain stays). A spectator is only told the hands are hidden once the game's facts say so.
  const privateHands = game === undefined || game.private.length > 0;
  const handsKnownHidden = game !== undefined && game.private.length > 0;
  const curtain = useCurtain(!spectator && mySeats.length > 1 && privateHands && holdsSecret(game, state), seat, state);
  const hideHand = curtain.hidden;
  const away = !spectator && room.seats.some((s) => mySeats.includes(s.seat) && s.away && !s.left);
  const status = state ? statusLine(state, room, seat, mySeats, game?.real_time ?? false, away) : { text: "", mine: false };
  const myTurn = status.mine && !spectator && state !== undefined && !state.result;
  useTurnAlert(myTurn ? `${state?.round}:${state?.view.turn}:${state?.view.current}` : null,
    `Your turn at ${room.title} (table ${room.code})`, alerts.on);

  if (!state) {
    return (
      <section className="table" aria-labelledby="table-title">
        <TableTitle room={room} />
        <p className="table-status">Dealing the cards…</p>
      </section>
    );
  }

  const play = (move: string, args: (string | number)[], as = seat) =>
    sender.run("move", spectator || as === null ? { move, args } : { move, args, seat: as });
  // The seat whose last move can be taken back: the one shown, or (hot seat) the one of this screen
  // that just moved, whose turn passed to the next player here.
  const undoSeat = state.result ? null : state.can_undo ? seat
    : mySeats.find((s) => s !== seat && states[String(s)]?.can_undo) ?? null;
  const act = (event: "undo" | "back") => void sender.run(event, event === "undo" && undoSeat !== null ? { seat: undoSeat } : {});
  // Once: a second press would reach the server after the first had started the next game, and be
  // refused on the fresh table. A refusal that comes once the next game is on is no news either. A
  // press that sent nothing (null: the first is on its way) refused nothing: the refusal shown stays.
  const rematch = async () => {
    const asked = state.round;
    const accepted = await sender.runAlone("rematch");
    if (accepted === false && round.current !== asked) refused.dismiss();
    return accepted;
  };

  const Board = boardFor(room.game);
  const localSeats = spectator ? [] : mySeats.map((s) => ({ seat: s, legal: states[String(s)]?.legal_moves ?? [] }));
  // The acting seat's clock is drawn on its seat, for everyone.
  const running = clock && !state.result ? clock : null;
  const seats = room.seats.map((s) => (s.seat === running?.seat ? { ...s, clock: { endsAt: running.endsAt, away: running.away } } : s));
  const awayHere = away && !state.result;
  const clockName = running && !(mySeats.includes(running.seat) && mySeats.length === 1) ? seatName(room.seats, running.seat) : null;
  // The bar's clock says it already ("You are away: a bot plays in 3 s"): no note under it then,
  // which would push the board down by a line for nothing.
  const saidInBar = running !== null && running.away && clockName === null;
  return (
    <div className="game-layout" ref={setLayout}>
      <section className={`table ${state.result ? "is-over" : ""}`} aria-labelledby="table-title"
        data-testid="table" data-version={state.version}>
        <TableTitle room={room} />
        <TableHead status={status} hideHand={hideHand} clock={running} lineRef={turnLine}
          onBack={awayHere ? () => act("back") : null} offline={offline}
          clockName={clockName} clockHere={running !== null && mySeats.includes(running.seat)}>
          {chatBadge}
          {refused.refusal && <RefusalToast key={refused.refusal.id} refusal={refused.refusal} onDismiss={refused.dismiss} />}
        </TableHead>
        {state.result && (
          <ResultBox result={state.result} room={room} mySeats={mySeats} isHost={isHost} onLeave={onLeave}
            offline={offline} onRematch={rematch} />
        )}
        <TableNotes spectator={spectator} leftGame={leftGame} leftOut={leftOut} handsKnownHidden={handsKnownHidden}
          away={awayHere && !saidInBar} onLeave={onLeave} />
        <ErrorBoundary resetKey={state.version} message="This table could not be drawn. The next move will try again.">
          {/* Each game gets a fresh board: nothing a board keeps (a slap sent, a card chosen) outlives its game. */}
          {/* Inert while the new game settles: no click lands on it, nothing looks different (the
              wrapper has no box of its own: the board's parts are the table's, as before). */}
          <div className="board" inert={settling} data-testid="board" data-settling={settling || undefined}>
            <Board key={state.round} view={state.view} legal={spectator ? [] : state.legal_moves} seat={seat} seats={seats}
              localSeats={localSeats} play={play} busy={sender.busy || offline} hideHand={hideHand} mover={mover} game={game}
              byBot={Boolean(state.stand_in)}
              owner={mySeats.length > 1 && seat !== null ? seatName(room.seats, seat) : null} />
          </div>
        </ErrorBoundary>
        {hideHand && seat !== null && (
          <Curtain text={curtainText(room, mySeats, seat, state.view.current)} name={seatName(room.seats, seat)}
            onShow={curtain.show} />
        )}
        {undoSeat !== null && (
          <div className="action-bar">
            <button type="button" className="btn btn-small" onClick={() => act("undo")}>
              {undoSeat === seat ? "Take back" : `Take back ${seatName(room.seats, undoSeat)}’s move`}
            </button>
          </div>
        )}
      </section>
      <aside className="side">
        <GameLog log={log} />
        {chat}
        {isHost && !state.result && (
          <HostTurnTools room={room} mySeats={mySeats} times={turnTimes} send={send} offline={offline} />
        )}
        {!isHost && (room.turn_seconds ?? 0) > 0 && (
          <section className="panel side-note" aria-label="Turn time">
            <TurnTimeSelect room={room} isHost={false} times={turnTimes} send={send} />
          </section>
        )}
        {!spectator && <AlertToggle alerts={alerts} />}
        <LeaveTable room={room} isHost={isHost} playing={!state.result && !spectator && mySeats.length > 0}
          onLeave={onLeave} />
      </aside>
    </div>
  );
}
