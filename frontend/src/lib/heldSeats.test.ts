import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { room, seat } from "./fixtures";
import { heldSeats, holdSeat, releaseSeat, seatState } from "./heldSeats";
import { identityForRoom, lookAtHeldSeats, takeIdentity } from "./identity";
import type { Room, SeatInfo } from "./types";

/** The seat a tab asking beside a seated one would be offered (what the page looks at). */
const freedSeat = async (code: string) => (await lookAtHeldSeats(code)).freed;

const ADA = { token: "token-ada", userId: "u0" };

describe("held seats", () => {
  beforeEach(() => localStorage.clear());

  it("remembers the identity seated in a room, whatever the case of the code asked for", () => {
    holdSeat("k7mpq2", ADA);
    expect(heldSeats("K7MPQ2")).toEqual([{ code: "K7MPQ2", token: "token-ada", user_id: "u0" }]);
    expect(heldSeats("AAAAAA")).toEqual([]);
  });

  it("forgets only this user's seat, or whoever's when the room is gone", () => {
    holdSeat("K7MPQ2", ADA);
    releaseSeat("K7MPQ2", "u1"); // a friend watching in another tab of this browser
    expect(heldSeats("K7MPQ2")[0]?.user_id).toBe("u0");
    releaseSeat("K7MPQ2", "u0");
    expect(heldSeats("K7MPQ2")).toEqual([]);
    holdSeat("K7MPQ2", ADA);
    releaseSeat("K7MPQ2");
    expect(heldSeats("K7MPQ2")).toEqual([]);
  });

  it("keeps a few dozen, newest first, and survives a damaged list", () => {
    for (let i = 0; i < 50; i += 1) holdSeat(`R${i}`, { token: `t${i}`, userId: `u${i}` });
    expect(heldSeats("R49")[0]?.token).toBe("t49");
    expect(heldSeats("R0")).toEqual([]);
    localStorage.setItem("lounge.seats", "{not json");
    expect(heldSeats("R49")).toEqual([]);
  });

  it("sees a seat free when its player has no connection and has not left", () => {
    const at = (extra: Partial<SeatInfo>) => room({ seats: [seat(0, "Ada", extra), seat(1, "Grace")] });
    expect(seatState(at({ connected: false }), "u0")).toBe("free");
    expect(seatState(at({ connected: true }), "u0")).toBe("played"); // in another tab
    expect(seatState(at({ connected: false, left: true }), "u0")).toBeNull();
    expect(seatState(at({ connected: false }), "u9")).toBeNull(); // lost, or never there
  });
});

describe("the identity a tab opens a room with", () => {
  const roomWith = (connected: boolean): Room => room({ seats: [seat(0, "Ada", { connected }), seat(1, "Grace")] });
  const server = (found: Room | null) => {
    const calls: string[] = [];
    vi.stubGlobal("fetch", async (path: string) => {
      calls.push(path);
      if (path === "/api/session") {
        return new Response(JSON.stringify({ user_id: "u-new", token: "token-new" }), { status: 201 });
      }
      return found
        ? new Response(JSON.stringify(found), { status: 200 })
        : new Response(JSON.stringify({ error: { code: "not_found", message: "No room" } }), { status: 404 });
    });
    return calls;
  };

  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it("takes back the seat of a closed tab: the same player, for this tab and its reloads", async () => {
    holdSeat("K7MPQ2", ADA);
    server(roomWith(false));
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: ADA, elsewhere: null });
    expect(sessionStorage.getItem("lounge.token")).toBe("token-ada");
  });

  it("is a new player when the seat is played in another tab, which keeps it", async () => {
    holdSeat("K7MPQ2", ADA);
    server(roomWith(true));
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: { userId: "u-new", token: "token-new" }, elsewhere: "Ada" });
    expect(heldSeats("K7MPQ2")[0]?.user_id).toBe("u0");
  });

  it("takes back a closed tab's seat though a second tab of this browser took another one", async () => {
    holdSeat("K7MPQ2", ADA);
    holdSeat("K7MPQ2", { token: "token-ada-2", userId: "u1" }); // "Ada (2)", still playing
    expect(heldSeats("K7MPQ2").map((s) => s.user_id)).toEqual(["u1", "u0"]);
    server(room({ seats: [seat(0, "Ada", { connected: false }), seat(1, "Ada (2)", { connected: true })] }));
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: ADA, elsewhere: null });
  });

  it("comes back as the player whose seat is gone, so the server can say why they watch; once", async () => {
    holdSeat("K7MPQ2", ADA);
    server(room({ seats: [seat(1, "Grace")] })); // the rematch started without Ada
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: ADA, elsewhere: null });
    expect(sessionStorage.getItem("lounge.token")).toBe("token-ada"); // and after a reload
    expect(heldSeats("K7MPQ2")).toEqual([]);
    sessionStorage.clear(); // a third tab: the second is that player now, so this one is new
    await expect(identityForRoom("K7MPQ2")).resolves.toMatchObject({ identity: { userId: "u-new" } });
  });

  it("comes back as the player who left the game too (the server says they left it)", async () => {
    holdSeat("K7MPQ2", ADA);
    server(room({ seats: [seat(0, "Ada", { connected: false, left: true }), seat(1, "Grace")] }));
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: ADA, elsewhere: null });
    expect(heldSeats("K7MPQ2")).toEqual([]);
  });

  it("takes back a freed seat before a lost one, and of lost ones the last held", async () => {
    const grace = { token: "token-grace", userId: "u1" };
    holdSeat("K7MPQ2", grace);
    holdSeat("K7MPQ2", ADA); // Ada's seat is gone since
    server(room({ seats: [seat(1, "Grace", { connected: false })] }));
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: grace, elsewhere: null });

    sessionStorage.clear();
    holdSeat("K7MPQ2", ADA);
    holdSeat("K7MPQ2", { token: "token-bob", userId: "u7" }); // Bob's too, held later
    server(room({ seats: [seat(1, "Grace", { connected: true })] })); // played in another tab
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({
      identity: { userId: "u7", token: "token-bob" }, elsewhere: "Grace",
    });
    expect(heldSeats("K7MPQ2").map((s) => s.user_id)).toEqual(["u1"]);
  });

  it("is a new player when the room is gone or this browser held no seat in it", async () => {
    holdSeat("K7MPQ2", ADA);
    server(null);
    await expect(identityForRoom("K7MPQ2")).resolves.toMatchObject({ identity: { userId: "u-new" }, elsewhere: null });
    sessionStorage.clear();
    const calls = server(roomWith(false));
    await expect(identityForRoom("AAAAAA")).resolves.toMatchObject({ identity: { userId: "u-new" }, elsewhere: null });
    expect(calls).toEqual(["/api/session"]);
  });

  it("finds the seat of a tab closed while this tab asked, and this tab then plays it", async () => {
    sessionStorage.setItem("lounge.token", "token-new"); // the tab that asked is a new player
    sessionStorage.setItem("lounge.user_id", "u-new");
    holdSeat("K7MPQ2", ADA);
    server(roomWith(true));
    await expect(freedSeat("K7MPQ2")).resolves.toBeNull(); // still played in the other tab
    server(roomWith(false));
    const freed = await freedSeat("K7MPQ2");
    expect(freed).toEqual({ identity: ADA, name: "Ada" });
    expect(sessionStorage.getItem("lounge.token")).toBe("token-new"); // only offered, not taken
    takeIdentity(freed!.identity);
    expect(sessionStorage.getItem("lounge.token")).toBe("token-ada");
    server(room({ seats: [seat(0, "Ada", { connected: false, left: true }), seat(1, "Grace")] }));
    await expect(freedSeat("K7MPQ2")).resolves.toBeNull(); // lost for good
    server(null);
    await expect(freedSeat("K7MPQ2")).resolves.toBeNull();
  });

  it("says when the seat played in another tab is no longer there (given up after its tab closed)", async () => {
    sessionStorage.setItem("lounge.token", "token-new");
    sessionStorage.setItem("lounge.user_id", "u-new");
    holdSeat("K7MPQ2", ADA);
    server(roomWith(true));
    await expect(lookAtHeldSeats("K7MPQ2")).resolves.toMatchObject({ freed: null, held: true });
    server(roomWith(false));
    await expect(lookAtHeldSeats("K7MPQ2")).resolves.toMatchObject({ freed: { name: "Ada" }, held: true });
    const lobby = room({ seats: [seat(1, "Grace")] }); // the lobby gave the seat up: gone from it
    server(lobby);
    await expect(lookAtHeldSeats("K7MPQ2")).resolves.toEqual({ room: lobby, freed: null, held: false });
    server(null); // the room could not be looked at: nothing is known to have changed
    await expect(lookAtHeldSeats("K7MPQ2")).resolves.toEqual({ room: null, freed: null, held: true });
  });

  it("keeps a tab's own identity, wherever it goes", async () => {
    sessionStorage.setItem("lounge.token", "token-grace");
    sessionStorage.setItem("lounge.user_id", "u1");
    holdSeat("K7MPQ2", ADA);
    const calls = server(roomWith(false));
    await expect(identityForRoom("K7MPQ2")).resolves.toEqual({ identity: { userId: "u1", token: "token-grace" }, elsewhere: null });
    expect(calls).toEqual([]);
  });
});
