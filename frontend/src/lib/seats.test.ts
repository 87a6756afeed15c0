import { describe, expect, it } from "vitest";
import { hostName, playerCount, playerName, seatFree, seatName } from "./seats";
import type { Room, SeatInfo } from "./types";

const seat = (n: number): SeatInfo => ({
  seat: n, name: `P${n}`, kind: "human", user_id: `u${n}`, level: null, connected: true, ready: false, left: false,
});

function room(status: Room["status"], seats: number, max: number): Room {
  return {
    id: "r", code: "K7MPQ2", game: "tic-tac-toe", title: "Tic-Tac-Toe", min_players: 2, max_players: max,
    host: "u0", public: true, status, seats: Array.from({ length: seats }, (_, i) => seat(i)), spectators: 0,
    created: 0, round: 0,
  } as Room;
}

describe("a free seat for a newcomer", () => {
  it("exists only in a waiting room with fewer seats than its game's most", () => {
    expect(seatFree(room("waiting", 1, 2))).toBe(true);
    expect(seatFree(room("waiting", 2, 2))).toBe(false);
    expect(seatFree(room("playing", 1, 4))).toBe(false);
    expect(seatFree(null)).toBe(true);
  });
});

describe("seats in words", () => {
  const players = [{ name: "Ada" }, { name: "Grace" }];

  it("names a seat's player, or the seat itself when it is not known", () => {
    expect(seatName(players, 1)).toBe("Grace");
    expect(seatName(players, 3)).toBe("Seat 4");
    expect(seatName(players, null)).toBe("");
    expect(playerName(undefined, 0)).toBe("Seat 1");
  });

  it("names the host, wherever a rematch has seated them, and not their hot-seat player", () => {
    expect(hostName(room("waiting", 2, 4), "someone")).toBe("P0");
    expect(hostName(room("waiting", 0, 4), "someone")).toBe("someone");
    const after = room("playing", 3, 4);
    after.seats = [after.seats[1], { ...after.seats[2], user_id: "u0", kind: "local" }, after.seats[0]];
    expect(hostName(after, "someone")).toBe("P0");
  });

  it("says how many play a game", () => {
    expect(playerCount({ min_players: 2, max_players: 2 })).toBe("2 players");
    expect(playerCount({ min_players: 2, max_players: 6 })).toBe("2 to 6 players");
  });
});
