// The shapes of the protocol's messages (docs/protocol.md).

export interface ApiErrorBody {
  code: string;
  message: string;
}

/** Everything generic about a game, as `GET /api/games` says it (docs/protocol.md). */
export interface GameInfo {
  slug: string;
  title: string;
  /** One line for a list of games. */
  summary: string;
  min_players: number;
  max_players: number;
  rules: string;
  undoable: boolean;
  /** Some move may be made by anyone at any moment (Slapjack's slap). */
  real_time: boolean;
  /** The view keys holding a seat's own private cards: a hot seat hides them between turns. */
  private: string[];
  moves: MoveInfo[];
}

/** One move of a game: its argument names, and templates that say it in words. */
export interface MoveInfo {
  name: string;
  args: string[];
  min_args: number;
  words: string[];
  labels: Record<string, string>;
}

export interface GamesResponse {
  games: GameInfo[];
  bot_levels: string[];
  /** The turn times (seconds) a host may set; 0 turns the clock off. */
  turn_times?: number[];
}

export type SeatKind = "human" | "bot" | "local";

export interface SeatInfo {
  seat: number;
  name: string;
  kind: SeatKind;
  user_id: string | null;
  level: string | null;
  connected: boolean;
  ready: boolean;
  left: boolean;
  /** A bot plays this seat's turns for its player (away) until they are back. */
  away?: boolean;
  /** Its avatar's colour (a number): it stays with the seat when a rematch moves the seats round. */
  colour?: number;
  /** The running turn clock of this seat (worked out in the client from `turn_timer`). */
  clock?: SeatClock;
}

/** A seat's turn clock on this browser's clock. */
export interface SeatClock {
  endsAt: number;
  away: boolean;
}

/** The clock of the turn being played, as the server sends it in each state. */
export interface TurnTimer {
  seat: number;
  ends_at: number;
  ms_left: number;
  away: boolean;
}

export type RoomStatus = "waiting" | "playing" | "finished";

export interface Room {
  id: string;
  code: string;
  game: string;
  title: string;
  min_players: number;
  max_players: number;
  host: string;
  public: boolean;
  status: RoomStatus;
  seats: SeatInfo[];
  spectators: number;
  created: number;
  /** How many games the room has started (0 before the first). */
  round: number;
  /** The turn time the host set (0: none). */
  turn_seconds?: number;
  /** The host lost their connection: the room closes then (server time, ms) unless they
   * come back. */
  closes_at?: number | null;
  /** The same, as milliseconds from when the server sent this room object. */
  closes_in_ms?: number | null;
  /** Players the host removed: they may only watch until the host lets them back. */
  removed?: RemovedPlayer[];
  /** Why the room is back in its lobby (its game could not be picked up after a restart), until
   * the next game starts; null otherwise. */
  notice?: string | null;
}

export interface RemovedPlayer {
  user_id: string;
  name: string;
}

export interface LegalMove {
  move: string;
  args: (string | number)[];
}

/** A game's end: a winner, or a draw (`reason` "too_long" when the game reached its safety cap). */
export type Result = { winner: number } | { draw: true; reason?: string } | null;

/** The common keys every view has, plus the game's own keys. */
export interface View {
  game: string;
  seat: number | null;
  version: number;
  num_players: number;
  current: number | null;
  stage: string | null;
  direction: number;
  turn: number;
  out: number[];
  left: number[];
  active_seats: number[];
  result: Result;
  [key: string]: unknown;
}

export interface GameState {
  seat: number | null;
  view: View;
  legal_moves: LegalMove[];
  active_seats: number[];
  result: Result;
  version: number;
  can_undo?: boolean;
  /** Why a bot made the action this state shows for its seat's player, or null: a person did. */
  stand_in?: "timeout" | "away" | "gone" | null;
  /** Which game of the room this is: a rematch starts the next round (and version 0 again). */
  round: number;
  /** The game log lines the server wrote for this seat: the new ones, or with `log_full` the
   * whole log (the first state after a join, or a new game). */
  log?: LogLine[];
  log_full?: boolean;
  turn_timer?: TurnTimer | null;
  /** Versions whose lines a take-back removed. */
  log_undone?: number[];
}

export interface LogLine {
  version: number;
  text: string;
}

export interface ChatMessage {
  id: number;
  user_id: string | null;
  name: string;
  text: string;
  ts: number;
}

export type Ack<T = Record<string, unknown>> =
  | ({ ok: true } & T)
  | { ok: false; error: ApiErrorBody };

/** Which seats this connection plays, as the server worked it out (`join` and `seats`). */
export interface MySeats {
  my_seats: number[];
  spectator: boolean;
  /** This user held a seat in this game and gave it up: they are back as a spectator. */
  left_game?: boolean;
  /** Of those, one the rematch started without: their connection was lost too long. */
  left_out?: boolean;
}

export interface JoinAck extends MySeats {
  room: Room;
  seats: number[];
  chat: ChatMessage[];
}
