// The live state of one room for React: the room, this tab's seats, their game states, the chat
// and a log of the game, kept up to date by a RoomConnection.
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { RoomConnection, type LinkStatus } from "./connection";
import type { Ack, ChatMessage, GameState, JoinAck, LogLine, MySeats, Room } from "./types";

export const SPECTATOR = "spectator";
const MAX_LOG = 200;

export type LogEntry = LogLine;

export interface RoomModel {
  status: LinkStatus;
  room: Room | null;
  mySeats: number[];
  spectator: boolean;
  /** This user gave up (or lost) their seat in this game and is back as a spectator. */
  leftGame: boolean;
  /** ... because the rematch started while their connection was lost. */
  leftOut: boolean;
  /** The host is away: when the room closes unless they come back (this browser's clock). */
  closesAt: number | null;
  /** The clock of the turn being played (this browser's clock), the same for everyone. */
  clock: { seat: number; endsAt: number; away: boolean } | null;
  states: Record<string, GameState>;
  chat: ChatMessage[];
  /** The game log shown: the one of this tab's first seat, or the spectators'. */
  log: LogEntry[];
  /** The game log of every seat this tab gets states for, by state key. */
  logs: Record<string, LogEntry[]>;
  closed: string | null;
  /** This player left the room from another tab of theirs. */
  left: boolean;
  fatal: { code: string; message: string } | null;
}

export type RoomEvent =
  | { type: "status"; status: LinkStatus }
  | { type: "joined"; ack: JoinAck }
  | { type: "room"; room: Room }
  | { type: "seats"; seats: MySeats }
  | { type: "state"; state: GameState }
  | { type: "chat"; message: ChatMessage }
  | { type: "closed"; reason: string }
  | { type: "left" }
  | { type: "fatal"; code: string; message: string }
  | { type: "reset" };

export const initialModel: RoomModel = {
  status: "connecting",
  room: null,
  mySeats: [],
  spectator: false,
  leftGame: false,
  leftOut: false,
  closesAt: null,
  clock: null,
  states: {},
  chat: [],
  log: [],
  logs: {},
  closed: null,
  left: false,
  fatal: null,
};

/** The key a state is kept under: its seat, or "spectator". */
function stateKey(seat: number | null): string {
  return seat === null ? SPECTATOR : String(seat);
}

/** The seats the server says this connection plays: the only source of them. */
function withSeats(model: RoomModel, seats: MySeats): RoomModel {
  const mySeats = Array.isArray(seats.my_seats) ? seats.my_seats : [];
  const spectator = mySeats.length === 0;
  const stale = (key: string) => key !== SPECTATOR && !mySeats.includes(Number(key));
  // States of seats no longer played here are dropped, so a lost seat is never drawn as ours.
  const states = Object.fromEntries(Object.entries(model.states).filter(([key]) => !stale(key)));
  return shownLog({ ...model, mySeats, spectator, leftGame: Boolean(seats.left_game),
    leftOut: Boolean(seats.left_out), states });
}

function withRoom(model: RoomModel, room: Room): RoomModel {
  // The server sends how long is left, so the countdown never depends on the two clocks agreeing.
  const left = room.closes_in_ms;
  const closesAt = typeof left === "number" ? Date.now() + left : null;
  return { ...model, room, closesAt };
}

/** Orders states of a room: a later round first, then a later version. */
function isOlder(state: GameState, than: GameState): boolean {
  return state.round !== than.round ? state.round < than.round : state.version < than.version;
}

function withState(model: RoomModel, state: GameState): RoomModel {
  const key = stateKey(state.seat);
  const known = Object.values(model.states);
  if (known.some((s) => s.round > state.round)) return model;
  // A new round (a rematch): the previous game's states and log are gone.
  const fresh = known.some((s) => s.round < state.round);
  const base = fresh ? { ...model, states: {}, log: [], logs: {} } : model;
  const previous = base.states[key];
  if (previous && isOlder(state, previous)) return model;
  const states = { ...base.states, [key]: state };
  // The lines come written from the server, so a reload gets them all back. Every stream is
  // kept: the first state after a join comes before the answer that says which seats are ours.
  const logs = { ...base.logs, [key]: withLog(base.logs[key] ?? [], state) };
  const timer = state.turn_timer;
  const clock = timer ? { seat: timer.seat, endsAt: Date.now() + timer.ms_left, away: timer.away } : null;
  return shownLog({ ...base, states, logs, clock: state.turn_timer === undefined ? base.clock : clock });
}

/** The log shown follows one stream: this tab's first seat, or the spectator's view. */
function shownLog(model: RoomModel): RoomModel {
  const key = model.mySeats.length ? String(Math.min(...model.mySeats)) : SPECTATOR;
  return { ...model, log: model.logs[key] ?? [] };
}

/** The log after a state: replaced by a whole log, or less the lines taken back plus the new. */
function withLog(log: LogEntry[], state: GameState): LogEntry[] {
  const lines = Array.isArray(state.log) ? state.log : [];
  if (state.log_full) return lines.slice(-MAX_LOG);
  const undone = new Set(state.log_undone ?? []);
  const kept = undone.size ? log.filter((line) => !undone.has(line.version)) : log;
  return lines.length || undone.size ? [...kept, ...lines].slice(-MAX_LOG) : log;
}

export function roomReducer() {
  return (model: RoomModel, event: RoomEvent): RoomModel => {
    switch (event.type) {
      case "status":
        return { ...model, status: event.status };
      case "joined": {
        const next = withSeats(withRoom(model, event.ack.room), event.ack);
        return { ...next, chat: event.ack.chat ?? [], fatal: null, left: false };
      }
      case "room":
        return withRoom(model, event.room);
      case "seats":
        return withSeats(model, event.seats);
      case "state":
        return withState(model, event.state);
      case "chat":
        if (model.chat.some((m) => m.id === event.message.id)) return model;
        return { ...model, chat: [...model.chat, event.message].slice(-200) };
      case "closed":
        return { ...model, closed: event.reason, status: "closed" };
      case "left":
        return { ...model, left: true };
      case "fatal":
        return { ...model, fatal: { code: event.code, message: event.message } };
      case "reset":
        return initialModel;
    }
  };
}

const reduceRoom = roomReducer();

export interface RoomActions {
  send(event: string, payload?: object): Promise<Ack>;
  leave(): Promise<void>;
}

/** Joins the room `code` as this tab's user and keeps its live state. */
export function useRoom(
  code: string,
  identity: { userId: string; token: string } | null,
  name: string,
  spectate: boolean,
  enabled: boolean,
): [RoomModel, RoomActions] {
  const [model, dispatch] = useReducer(reduceRoom, initialModel);
  const connection = useRef<RoomConnection | null>(null);
  // Another token is another player (a watching tab taking back a seat): the last one's room and
  // seats are not theirs, even for the one render before the new connection says anything.
  const [token, setToken] = useState(identity?.token);
  if (token !== identity?.token) {
    setToken(identity?.token);
    dispatch({ type: "reset" });
  }

  useEffect(() => {
    if (!identity || !enabled) return undefined;
    const link = new RoomConnection(identity.token, code, name, spectate, {
      onStatus: (status) => dispatch({ type: "status", status }),
      onJoined: (ack) => dispatch({ type: "joined", ack }),
      onRoom: (room) => dispatch({ type: "room", room }),
      onSeats: (seats) => dispatch({ type: "seats", seats }),
      onState: (state) => dispatch({ type: "state", state }),
      onChat: (message) => dispatch({ type: "chat", message }),
      onClosed: (reason) => dispatch({ type: "closed", reason }),
      onLeft: () => dispatch({ type: "left" }),
      onFatal: (c, message) => dispatch({ type: "fatal", code: c, message }),
    });
    connection.current = link;
    return () => {
      link.close();
      connection.current = null;
    };
    // Only a new room or a new token needs a new connection: the name and the spectate flag
    // matter for the first join alone.
  }, [code, identity?.token, enabled]);

  const send = useCallback(async (event: string, payload: object = {}): Promise<Ack> => {
    const link = connection.current;
    if (!link) return { ok: false, error: { code: "offline", message: "Not connected yet" } };
    return link.emit(event, payload);
  }, []);

  const leave = useCallback(async () => {
    await connection.current?.leave();
    connection.current = null;
  }, []);

  return [model, { send, leave }];
}
