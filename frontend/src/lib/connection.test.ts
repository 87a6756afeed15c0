// RoomConnection against a real HTTP server that speaks just enough of Socket.IO (Engine.IO 4
// long polling) to accept a connection, answer joins and close a connection from its side.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DROPPED, joinPayload, RETRY_JOIN_MAX_MS, RETRY_JOIN_MS, RETRY_REFUSED_MS, RoomConnection, type LinkStatus } from "./connection";
import { room } from "./fixtures";

declare const jsdom: { reconfigure(options: { url: string }): void };

interface Session {
  id: string;
  queue: string[];
  poll?: ServerResponse;
}

type Answer = (data: Record<string, unknown>) => unknown;
/** An answer that the server never sends (its process died before it could). */
const UNANSWERED = Symbol("unanswered");

/** The server side: Engine.IO polling sessions on the default namespace. */
class TinySocketServer {
  readonly http: Server = createServer((req, res) => this.handle(req, res));
  readonly sessions = new Map<string, Session>();
  readonly joins: { session: string; token: unknown; room: unknown; payload: Record<string, unknown> }[] = [];
  /** The `room` query parameter of every request, the handshake's first. */
  readonly named: (string | null)[] = [];
  /** How the next connections are refused, in turn (a `connect_error`'s data), before any is let in. */
  readonly refusals: { code: string; message: string }[] = [];
  private tokens = new Map<string, unknown>();
  private count = 0;

  constructor(private answer: Answer) {}

  async listen(): Promise<string> {
    await new Promise<void>((done) => this.http.listen(0, "127.0.0.1", done));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/`;
  }

  close(): void {
    this.http.closeAllConnections();
    this.http.close();
  }

  /** Closes a connection from the server's side, as a server stopping on purpose does. */
  kick(session: string): void {
    this.send(session, "1");
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    this.named.push(query.get("room"));
    const sid = query.get("sid");
    if (!sid) {
      const id = `s${++this.count}`;
      this.sessions.set(id, { id, queue: [] });
      const open = { sid: id, upgrades: [], pingInterval: 60000, pingTimeout: 60000, maxPayload: 1e6 };
      res.end(`0${JSON.stringify(open)}`);
      return;
    }
    const session = this.sessions.get(sid);
    if (!session) {
      res.writeHead(400).end();
      return;
    }
    if (req.method === "POST") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        body.split("\x1e").forEach((packet) => this.packet(session, packet));
        res.end("ok");
      });
      return;
    }
    session.poll = res;
    this.flush(session);
  }

  private packet(session: Session, packet: string): void {
    if (packet === "1") {
      session.poll?.end("6");
      this.sessions.delete(session.id);
      return;
    }
    if (!packet.startsWith("4")) return;
    const message = packet.slice(1);
    if (message.startsWith("0")) {
      const refusal = this.refusals.shift();
      if (refusal) {
        this.send(session.id, `4${JSON.stringify({ message: refusal.message, data: refusal })}`);
        return;
      }
      this.tokens.set(session.id, (JSON.parse(message.slice(1) || "{}") as { token?: unknown }).token);
      this.send(session.id, `0${JSON.stringify({ sid: `n${session.id}` })}`);
      return;
    }
    const event = /^2(\d*)(\[.*)$/s.exec(message);
    if (!event) return;
    const [name, data] = JSON.parse(event[2]) as [string, Record<string, unknown>];
    if (name === "join") this.joins.push({ session: session.id, token: this.tokens.get(session.id), room: data.room, payload: data });
    const answer = this.answer(data);
    if (event[1] && answer !== UNANSWERED) this.send(session.id, `3${event[1]}${JSON.stringify([answer])}`);
  }

  private send(id: string, message: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.queue.push(`4${message}`);
    this.flush(session);
  }

  private flush(session: Session): void {
    if (!session.poll || !session.queue.length) return;
    const poll = session.poll;
    session.poll = undefined;
    poll.writeHead(200, { "Content-Type": "text/plain; charset=UTF-8" });
    poll.end(session.queue.splice(0).join("\x1e"));
  }
}

const JOINED = { ok: true, room: room({ code: "ABCDEF" }), seats: [0], spectator: false, chat: [] };
const TRY_AGAIN = { ok: false, error: { code: "internal", message: "try again" } };

describe("joinPayload", () => {
  it("names the seat to take", () => {
    expect(joinPayload("ABCDEF", " Ada ", false)).toEqual({ room: "ABCDEF", name: "Ada", spectate: false });
  });

  it("sends no name for a spectator who gave none, which the server would refuse", () => {
    expect(joinPayload("ABCDEF", "", true)).toEqual({ room: "ABCDEF", spectate: true });
    expect(joinPayload("ABCDEF", "   ", true)).toEqual({ room: "ABCDEF", spectate: true });
  });
});

describe("RoomConnection", () => {
  let server: TinySocketServer;
  let link: RoomConnection | null = null;
  let answers: unknown[];
  const statuses: LinkStatus[] = [];
  const fatal: string[] = [];
  const told: string[] = [];

  beforeEach(async () => {
    answers = [];
    statuses.length = 0;
    fatal.length = 0;
    told.length = 0;
    server = new TinySocketServer(() => answers.shift() ?? JOINED);
    jsdom.reconfigure({ url: await server.listen() });
  });

  afterEach(() => {
    vi.useRealTimers();
    link?.close();
    server.close();
  });

  function connect(code = "ABCDEF", name = "Ada", spectate = false): RoomConnection {
    link = new RoomConnection("token-1", code, name, spectate, {
      onStatus: (status) => statuses.push(status),
      onJoined: () => undefined,
      onRoom: () => undefined,
      onSeats: () => undefined,
      onState: () => undefined,
      onChat: () => undefined,
      onClosed: () => undefined,
      onLeft: () => undefined,
      onFatal: (code, message) => {
        fatal.push(code);
        told.push(message);
      },
    });
    return link;
  }

  it("reconnects at once when the server closes the connection, and joins again", async () => {
    connect();
    await expect.poll(() => server.joins.length).toBe(1);
    server.kick(server.joins[0].session);
    await expect.poll(() => server.joins.length, { timeout: 3000 }).toBe(2);
    const [first, second] = server.joins;
    expect(second.session).not.toBe(first.session);
    expect(second).toMatchObject({ token: "token-1", room: "ABCDEF" });
    await expect.poll(() => statuses.at(-1)).toBe("online");
    expect(statuses).toEqual(["online", "reconnecting", "online"]);
    expect(fatal).toEqual([]);
  });

  it("says the connection dropped, not that the server was slow, for an event lost with it", async () => {
    connect();
    await expect.poll(() => statuses.at(-1)).toBe("online");
    answers.push(UNANSWERED);
    const pending = link!.emit("move", { move: "play", args: [] });
    await expect.poll(() => server.sessions.size).toBe(1);
    server.kick(server.joins[0].session);
    const ack = await pending;
    expect(ack).toEqual({ ok: false, error: { code: "offline", message: DROPPED } });
    await expect.poll(() => statuses.at(-1), { timeout: 3000 }).toBe("online");
  });

  it("joins to watch without a name when none was given", async () => {
    connect("ABCDEF", "", true);
    await expect.poll(() => server.joins.length).toBe(1);
    expect(server.joins[0].payload).toEqual({ room: "ABCDEF", spectate: true });
  });

  it("sends a join answered 'try again' again, on the same connection", async () => {
    answers.push(TRY_AGAIN, TRY_AGAIN);
    connect();
    await expect.poll(() => statuses.at(-1), { timeout: 4000 }).toBe("online");
    expect(server.joins).toHaveLength(3);
    expect(new Set(server.joins.map((j) => j.session)).size).toBe(1);
    expect(fatal).toEqual([]);
  });

  it("joins again when an event finds its place in the room lost, and says so", async () => {
    connect();
    await expect.poll(() => statuses.at(-1)).toBe("online");
    answers.push({ ok: false, error: { code: "not_in_room", message: "Join a room first" } });
    const ack = await link!.emit("chat", { text: "hi" });
    expect(ack).toEqual({ ok: false, error: { code: "not_in_room", message: "Getting you back into the room: try again in a moment." } });
    await expect.poll(() => server.joins.length).toBe(2);
    await expect.poll(() => statuses.at(-1)).toBe("online");
    expect(statuses).toEqual(["online", "reconnecting", "online"]);
    expect(new Set(server.joins.map((j) => j.session)).size).toBe(1);
    expect(fatal).toEqual([]);
  });

  it("goes on sending a join answered 'try again' for as long as it takes, less often", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
    answers.push(...Array.from({ length: 12 }, () => TRY_AGAIN));
    connect();
    await expect.poll(() => server.joins.length).toBe(1);
    for (let tries = 1; tries <= 12; tries += 1) {
      await vi.advanceTimersByTimeAsync(Math.min(RETRY_JOIN_MAX_MS, RETRY_JOIN_MS * tries));
      await expect.poll(() => server.joins.length).toBe(tries + 1);
    }
    await expect.poll(() => statuses.at(-1)).toBe("online");
    expect(fatal).toEqual([]);
    expect(new Set(server.joins.map((j) => j.session)).size).toBe(1);
  });

  it("names its room in every request, so that a balancer can place a room's players together", async () => {
    connect("abcdef");
    await expect.poll(() => statuses.at(-1)).toBe("online");
    expect(server.named.length).toBeGreaterThan(2);
    expect(new Set(server.named)).toEqual(new Set(["ABCDEF"]));
  });

  it("gives up at once on a join refused for good", async () => {
    answers.push({ ok: false, error: { code: "not_found", message: "This room has closed" } });
    connect("GONE00");
    await expect.poll(() => fatal).toEqual(["not_found"]);
    await new Promise((done) => setTimeout(done, 800));
    expect(server.joins).toHaveLength(1);
  });

  it("shows the server's refusal of a connection, and leaves a final one there", async () => {
    const message = "You already have 8 connections open: close a tab and try again";
    server.refusals.push({ code: "forbidden", message });
    connect();
    await expect.poll(() => fatal).toEqual(["forbidden"]);
    expect(told).toEqual([message]);
    await new Promise((done) => setTimeout(done, 800));
    expect(server.sessions.size).toBeLessThanOrEqual(1);
    expect(server.joins).toHaveLength(0);
  });

  it("tries a connection refused for too many new connections again after a while, and joins", async () => {
    // Socket.IO's own clocks keep running; the wait before trying again can be skipped.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldAdvanceTime: true });
    const message = "Too many new connections from your address: wait a minute and try again";
    server.refusals.push({ code: "rate_limited", message });
    connect();
    await expect.poll(() => told).toEqual([message]);
    expect(server.joins).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(RETRY_REFUSED_MS);
    await expect.poll(() => statuses.at(-1)).toBe("online");
    expect(server.joins).toHaveLength(1);
  });
});
