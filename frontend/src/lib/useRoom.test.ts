import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { RoomHandlers } from "./connection";
import { room, seat, state, view } from "./fixtures";
import { initialModel, roomReducer, useRoom, type RoomModel } from "./useRoom";
import type { JoinAck } from "./types";

// The connections useRoom opens, with the handlers it gave each, newest last.
const links = vi.hoisted(() => [] as { token: string; handlers: RoomHandlers }[]);
vi.mock("./connection", () => ({
  RoomConnection: class {
    constructor(token: string, _room: string, _name: string, _spectate: boolean, handlers: RoomHandlers) {
      links.push({ token, handlers });
    }
    close() {}
  },
}));

const reduce = roomReducer();

function joined(extra: Partial<JoinAck> = {}): RoomModel {
  const ack: JoinAck = { room: room({ game: "tic-tac-toe", status: "playing" }), seats: [1], my_seats: [1], spectator: false, chat: [], ...extra };
  return reduce(initialModel, { type: "joined", ack });
}

function ttt(version: number, cells: (string | null)[], current: number, extra: Record<string, unknown> = {}) {
  return state(view("tic-tac-toe", { seat: 1, version, cells, current, ...extra }));
}

describe("roomReducer", () => {
  it("takes this tab's seats from the server's answer, never from the room's seat list", () => {
    const model = joined();
    expect(model.mySeats).toEqual([1]);
    expect(model.spectator).toBe(false);
    // A room that still lists a seat of this user (left) does not make it theirs.
    const r = room({ seats: [seat(0, "Ada", { user_id: "u0" }), seat(1, "Linus", { user_id: "u1", left: true })] });
    const back = reduce(initialModel, { type: "joined", ack: { room: r, seats: [], my_seats: [], spectator: true, left_game: true, chat: [] } });
    expect(back.mySeats).toEqual([]);
    expect(back.spectator).toBe(true);
    expect(back.leftGame).toBe(true);
    expect(back.leftOut).toBe(false);
    expect(reduce(back, { type: "room", room: r }).mySeats).toEqual([]);
    // Left out by the rematch while gone: the model says so, for the note's words.
    const out = reduce(initialModel, { type: "joined", ack: { room: r, seats: [], my_seats: [], spectator: true,
      left_game: true, left_out: true, chat: [] } });
    expect([out.leftGame, out.leftOut]).toEqual([true, true]);
  });

  it("follows the seats event, and drops the states of a seat no longer played here", () => {
    let model = joined();
    model = reduce(model, { type: "state", state: ttt(0, Array(9).fill(null), 0) });
    model = reduce(model, { type: "seats", seats: { my_seats: [], spectator: true, left_game: true } });
    expect(model.mySeats).toEqual([]);
    expect(model.spectator).toBe(true);
    expect(model.states["1"]).toBeUndefined();
  });

  it("keeps the newest state and ignores an older one", () => {
    let model = joined();
    const empty = Array(9).fill(null);
    model = reduce(model, { type: "state", state: ttt(2, ["X", "O", ...empty.slice(2)], 0) });
    model = reduce(model, { type: "state", state: ttt(1, ["X", ...empty.slice(1)], 1) });
    expect(model.states["1"].version).toBe(2);
  });

  it("keeps the game log the server writes: the whole log, new lines, lines taken back", () => {
    let model = joined();
    const empty = Array(9).fill(null);
    const begins = { version: 0, text: "The game begins" };
    const put = { version: 1, text: "Ada put X in the top left" };
    model = reduce(model, { type: "state", state: { ...ttt(0, empty, 0), log: [begins], log_full: true } });
    model = reduce(model, { type: "state", state: { ...ttt(1, ["X", ...empty.slice(1)], 1), log: [put] } });
    expect(model.log.map((e) => e.text)).toEqual(["The game begins", "Ada put X in the top left"]);
    model = reduce(model, { type: "state", state: { ...ttt(2, empty, 0), log: [], log_undone: [1] } });
    expect(model.log.map((e) => e.text)).toEqual(["The game begins"]);
    // A reload: the whole log again replaces what was there.
    model = reduce(model, { type: "state", state: { ...ttt(2, empty, 0), log: [begins, put], log_full: true } });
    expect(model.log).toEqual([begins, put]);
  });

  it("keeps the log of a state that came before the join's answer (a reload)", () => {
    const begins = { version: 0, text: "The game begins" };
    let model = reduce(initialModel, { type: "state", state: { ...ttt(0, Array(9).fill(null), 0), log: [begins], log_full: true } });
    expect(model.log).toEqual([]);
    model = reduce(model, { type: "joined", ack: { room: room({ game: "tic-tac-toe", status: "playing" }), seats: [1], my_seats: [1], spectator: false, chat: [] } });
    expect(model.log).toEqual([begins]);
  });

  it("starts afresh when a rematch begins a new round", () => {
    let model = joined();
    const empty = Array(9).fill(null);
    model = reduce(model, { type: "state", state: { ...ttt(9, empty, 0, { result: { winner: 0 } }), round: 1 } });
    model = reduce(model, { type: "state", state: { ...ttt(0, empty, 0), round: 2, log: [{ version: 0, text: "The game begins" }], log_full: true } });
    expect(model.states["1"].version).toBe(0);
    expect(model.states["1"].round).toBe(2);
    expect(model.log.map((e) => e.text)).toEqual(["The game begins"]);
    // A late message of the old round changes nothing.
    const late = reduce(model, { type: "state", state: { ...ttt(10, empty, 1), round: 1 } });
    expect(late).toBe(model);
  });

  it("counts down from what the server says is left, on this browser's clock", () => {
    const before = Date.now();
    let model = joined();
    model = reduce(model, { type: "room", room: room({ closes_in_ms: 17_000, closes_at: 1 }) });
    expect(model.closesAt).toBeGreaterThanOrEqual(before + 17_000);
    model = reduce(model, { type: "room", room: room({ closes_in_ms: null, closes_at: null }) });
    expect(model.closesAt).toBeNull();
    const timer = { seat: 0, ends_at: 1, ms_left: 30_000, away: false };
    model = reduce(model, { type: "state", state: { ...ttt(0, Array(9).fill(null), 0), turn_timer: timer } });
    expect(model.clock?.seat).toBe(0);
    expect(model.clock?.endsAt).toBeGreaterThanOrEqual(before + 30_000);
    model = reduce(model, { type: "state", state: { ...ttt(1, Array(9).fill(null), 1), turn_timer: null } });
    expect(model.clock).toBeNull();
  });

  it("adds chat once, and remembers a closed room", () => {
    let model = joined();
    const message = { id: 3, user_id: "u0", name: "Ada", text: "<b>hi</b>", ts: 1 };
    model = reduce(model, { type: "chat", message });
    model = reduce(model, { type: "chat", message });
    expect(model.chat).toHaveLength(1);
    model = reduce(model, { type: "closed", reason: "host_left" });
    expect(model.closed).toBe("host_left");
    expect(model.status).toBe("closed");
  });

  it("shows the reconnecting state and clears it when back", () => {
    let model = joined();
    model = reduce(model, { type: "status", status: "reconnecting" });
    expect(model.status).toBe("reconnecting");
    model = reduce(model, { type: "status", status: "online" });
    expect(model.status).toBe("online");
  });
});

describe("useRoom", () => {
  it("forgets the last player's room as soon as the tab plays with another token", () => {
    const { result, rerender } = renderHook(({ token }) => useRoom("K7MPQ2", { userId: token, token }, "", true, true),
      { initialProps: { token: "t1" } });
    act(() => {
      links.at(-1)?.handlers.onJoined({ room: room(), seats: [], my_seats: [], spectator: true, chat: [] });
      links.at(-1)?.handlers.onStatus("online");
    });
    expect(result.current[0].spectator).toBe(true);
    // The watcher takes back a seat: nothing it saw as a spectator is shown as the player's.
    rerender({ token: "t7" });
    expect(result.current[0]).toEqual(initialModel);
    expect(links.at(-1)?.token).toBe("t7");
  });
});
