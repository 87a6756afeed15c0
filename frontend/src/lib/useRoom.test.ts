import { describe, expect, it } from "vitest";
import { room, seat, state, view } from "./fixtures";
import { initialModel, roomReducer, type RoomModel } from "./useRoom";
import type { JoinAck } from "./types";

const reduce = roomReducer("u1");

function joined(extra: Partial<JoinAck> = {}): RoomModel {
  const ack: JoinAck = { room: room({ game: "tic-tac-toe", status: "playing" }), seats: [1], spectator: false, chat: [], ...extra };
  return reduce(initialModel, { type: "joined", ack });
}

function ttt(version: number, cells: (string | null)[], current: number, extra: Record<string, unknown> = {}) {
  return state(view("tic-tac-toe", { seat: 1, version, cells, current, ...extra }));
}

describe("roomReducer", () => {
  it("finds this tab's seats from the room, and spectators have none", () => {
    const model = joined();
    expect(model.mySeats).toEqual([1]);
    expect(model.spectator).toBe(false);
    const watcher = roomReducer("someone-else")(initialModel, { type: "room", room: room() });
    expect(watcher.spectator).toBe(true);
  });

  it("counts hot-seat players as this tab's seats, never bots", () => {
    const r = room({ seats: [seat(0, "Ada", { user_id: "u1" }), seat(1, "Bot", { kind: "bot", user_id: null }),
      seat(2, "Grace", { kind: "local", user_id: "u1" })] });
    expect(reduce(initialModel, { type: "room", room: r }).mySeats).toEqual([0, 2]);
  });

  it("keeps the newest state and ignores an older one", () => {
    let model = joined();
    const empty = Array(9).fill(null);
    model = reduce(model, { type: "state", state: ttt(2, ["X", "O", ...empty.slice(2)], 0) });
    model = reduce(model, { type: "state", state: ttt(1, ["X", ...empty.slice(1)], 1) });
    expect(model.states["1"].version).toBe(2);
  });

  it("writes the game log from the changes between states", () => {
    let model = joined();
    const empty = Array(9).fill(null);
    model = reduce(model, { type: "state", state: ttt(0, empty, 0) });
    model = reduce(model, { type: "state", state: ttt(1, ["X", ...empty.slice(1)], 1) });
    expect(model.log.map((e) => e.text)).toEqual(["The game begins", "Ada put X in the top left"]);
  });

  it("starts afresh when a rematch begins a new round", () => {
    let model = joined();
    const empty = Array(9).fill(null);
    model = reduce(model, { type: "state", state: { ...ttt(9, empty, 0, { result: { winner: 0 } }), round: 1 } });
    model = reduce(model, { type: "state", state: { ...ttt(0, empty, 0), round: 2 } });
    expect(model.states["1"].version).toBe(0);
    expect(model.states["1"].round).toBe(2);
    expect(model.log.map((e) => e.text)).toEqual(["The game begins"]);
    // A late message of the old round changes nothing.
    const late = reduce(model, { type: "state", state: { ...ttt(10, empty, 1), round: 1 } });
    expect(late).toBe(model);
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
