// One Socket.IO connection to one room: joins it, rejoins after a lost connection, and turns
// every client event into a promise of its acknowledgement.
import { io, type Socket } from "socket.io-client";
import type { Ack, ApiErrorBody, ChatMessage, GameState, JoinAck, MySeats, Room } from "./types";

export type LinkStatus = "connecting" | "online" | "reconnecting" | "closed";

export interface RoomHandlers {
  onStatus(status: LinkStatus): void;
  onJoined(ack: JoinAck): void;
  onRoom(room: Room): void;
  /** This connection's seats changed (the server says which it plays now). */
  onSeats(seats: MySeats): void;
  onState(state: GameState): void;
  onChat(message: ChatMessage): void;
  onClosed(reason: string): void;
  /** This player left the room from another tab (one that shares this tab's identity). */
  onLeft(): void;
  /** A join that failed, or a connection the server refused ("unauthorized", "forbidden",
   * "rate_limited": the last one is tried again after a while). */
  onFatal(code: string, message: string): void;
}

const ACK_TIMEOUT_MS = 8000;
// An event whose connection dropped before its answer (a server that died or was stopped): it may
// or may not have been done, and "the server did not answer in time" misled players about which.
export const DROPPED =
  "The connection dropped before the server answered: once you are back, check whether it was done.";
// A join answered "try again" (in a cluster, while its room moves to another server, or while
// Redis is away), refused for going over the event rate, or not answered at all is sent again,
// less often as it goes on, for as long as the same connection is up: a room that closes
// meanwhile answers not_found, which is final, as are other refusals. (Giving up after 10 s
// left a host whose process died during a Redis outage on a dead end while their room's grace
// period ran out, though Redis was back in time.)
const RETRY_JOIN_CODES = new Set(["internal", "rate_limited", "timeout"]);
export const RETRY_JOIN_MS = 500;
export const RETRY_JOIN_MAX_MS = 3000;
// socket.io never retries a connection the server refused. Too many new connections from one
// address (rate_limited) passes within a minute; every other refusal is final.
export const RETRY_REFUSED_MS = 20_000;

/** The `join` event's payload. A name is sent only when there is one: a spectator who never gave
 * one (a "Watch" link) sends none, and the server takes an empty name for a mistake, not for "none". */
export function joinPayload(room: string, name: string, spectate: boolean): Record<string, unknown> {
  const trimmed = name.trim();
  return trimmed ? { room, name: trimmed, spectate } : { room, spectate };
}

export class RoomConnection {
  private socket: Socket;
  private joined = false;
  private rejoining = false;
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    token: string,
    private room: string,
    private name: string,
    private spectate: boolean,
    private handlers: RoomHandlers,
  ) {
    // The room in the URL of every request: a balancer in front of several servers places a
    // room's players on one of them by it (docs/deployment.md).
    this.socket = io({
      auth: { token },
      query: { room: room.toUpperCase() },
      reconnectionDelayMax: 3000,
    });
    this.socket.on("connect", () => void this.join());
    this.socket.on("disconnect", (reason) => this.lost(reason));
    this.socket.on("connect_error", (err: Error & { data?: Partial<ApiErrorBody> }) => this.refused(err.data));
    this.socket.on("room", (room: Room) => this.handlers.onRoom(room));
    this.socket.on("seats", (seats: MySeats) => this.handlers.onSeats(seats));
    this.socket.on("state", (state: GameState) => this.handlers.onState(state));
    this.socket.on("chat", (message: ChatMessage) => this.handlers.onChat(message));
    this.socket.on("left", () => this.handlers.onLeft());
    this.socket.on("closed", (data: { reason?: string }) => {
      this.handlers.onClosed(data?.reason ?? "closed");
    });
  }

  /** Sends a client event and resolves with the server's acknowledgement. */
  emit<T = Record<string, unknown>>(event: string, payload: object = {}): Promise<Ack<T>> {
    if (!this.socket.connected) {
      return Promise.resolve({
        ok: false,
        error: { code: "offline", message: "You are offline: reconnecting to the server…" },
      });
    }
    return this.socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck(event, payload)
      .then((ack: Ack<T>) => this.checkPlace(event, ack))
      .catch(() => this.socket.connected
        ? { ok: false as const, error: { code: "timeout", message: "The server did not answer in time. Try again." } }
        : { ok: false as const, error: { code: "offline", message: DROPPED } });
  }

  /** An event answered `not_in_room` after the join: the server has lost this connection's place in
   * the room (in a cluster, another server took the room over without it). Rather than leave every
   * action refused, the connection joins again, once at a time. */
  private checkPlace<T>(event: string, ack: Ack<T>): Ack<T> {
    if (ack.ok || ack.error.code !== "not_in_room" || event === "join" || !this.joined || this.stopped) {
      return ack;
    }
    if (!this.rejoining) {
      this.rejoining = true;
      this.handlers.onStatus("reconnecting");
      void this.join().finally(() => {
        this.rejoining = false;
      });
    }
    return { ok: false, error: { code: "not_in_room", message: "Getting you back into the room: try again in a moment." } };
  }

  /** Leaves the room on purpose, then closes the connection. */
  async leave(): Promise<void> {
    if (this.socket.connected) await this.emit("leave");
    this.close();
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }

  private async join(tries = 1): Promise<void> {
    const sid = this.socket.id;
    const ack = await this.emit<JoinAck>("join", joinPayload(this.room, this.name, this.spectate));
    if (this.stopped) return;
    if (!ack.ok) {
      // Offline: the connection dropped, and the next one joins as soon as it is up.
      if (ack.error.code === "offline") return;
      if (RETRY_JOIN_CODES.has(ack.error.code)) {
        clearTimeout(this.retry);
        this.retry = setTimeout(() => {
          if (!this.stopped && this.socket.connected && this.socket.id === sid) void this.join(tries + 1);
        }, Math.min(RETRY_JOIN_MAX_MS, RETRY_JOIN_MS * tries));
        return;
      }
      this.handlers.onFatal(ack.error.code, ack.error.message);
      return;
    }
    this.joined = true;
    this.handlers.onStatus("online");
    this.handlers.onJoined(ack);
  }

  /** A connection that failed: refused by the server (its `data` says why), or not made. */
  private refused(refusal: Partial<ApiErrorBody> | undefined): void {
    if (this.stopped) return;
    if (!refusal?.code) {
      this.handlers.onStatus(this.joined ? "reconnecting" : "connecting");
      return;
    }
    this.handlers.onFatal(refusal.code, refusal.message ?? "The lounge refused the connection.");
    if (refusal.code !== "rate_limited") return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      if (!this.stopped) this.socket.connect();
    }, RETRY_REFUSED_MS);
  }

  private lost(reason: string): void {
    if (this.stopped) return;
    this.handlers.onStatus("reconnecting");
    // The server itself dropped us: socket.io does not retry on its own in that case.
    if (reason === "io server disconnect") this.socket.connect();
  }
}
