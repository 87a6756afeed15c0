import { beforeEach, describe, expect, it } from "vitest";
import { knownRoom, rememberRoom } from "./knownRooms";

describe("known rooms", () => {
  beforeEach(() => localStorage.clear());

  it("remembers the rooms this browser was in, whatever the case of the code asked for", () => {
    rememberRoom({ code: "K7MPQ2", id: "r1", title: "Poker 99" }, 5);
    expect(knownRoom("k7mpq2")).toEqual({ code: "K7MPQ2", id: "r1", title: "Poker 99", seen: 5 });
    expect(knownRoom("AAAAAA")).toBeNull();
  });

  it("keeps a few dozen, newest first", () => {
    for (let i = 0; i < 50; i += 1) rememberRoom({ code: `R${i}`, id: `id${i}`, title: "Slapjack" }, i);
    expect(knownRoom("R49")?.id).toBe("id49");
    expect(knownRoom("R0")).toBeNull();
  });

  it("survives a damaged list", () => {
    localStorage.setItem("lounge.rooms", "{not json");
    expect(knownRoom("K7MPQ2")).toBeNull();
    rememberRoom({ code: "K7MPQ2", id: "r1", title: "Nine Locks" });
    expect(knownRoom("K7MPQ2")?.title).toBe("Nine Locks");
  });
});
