import { beforeEach, describe, expect, it } from "vitest";
import { forgetLeft, hasLeft, markLeft } from "./leftRooms";

describe("rooms left on purpose", () => {
  beforeEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it("remembers a room left, whatever the case of the code, in this tab only", () => {
    expect(hasLeft("K7MPQ2")).toBe(false);
    markLeft("k7mpq2");
    expect(hasLeft("K7MPQ2")).toBe(true);
    expect(hasLeft("k7mpq2")).toBe(true);
    expect(hasLeft("AAAAAA")).toBe(false);
    expect(localStorage.length).toBe(0); // another tab (another player) is not concerned
  });

  it("forgets a room once the player joins it again, and only that one", () => {
    markLeft("K7MPQ2");
    markLeft("N7T8SZ");
    forgetLeft("k7mpq2");
    expect(hasLeft("K7MPQ2")).toBe(false);
    expect(hasLeft("N7T8SZ")).toBe(true);
    forgetLeft("N7T8SZ");
    expect(sessionStorage.getItem("lounge.left")).toBeNull();
    forgetLeft("N7T8SZ"); // harmless when not there
  });

  it("keeps a few dozen, newest first, once each", () => {
    markLeft("R00000");
    for (let i = 1; i < 50; i += 1) markLeft(`R${String(i).padStart(5, "0")}`);
    markLeft("R00049");
    expect(hasLeft("R00049")).toBe(true);
    expect(hasLeft("R00010")).toBe(true);
    expect(hasLeft("R00009")).toBe(false);
    expect(JSON.parse(sessionStorage.getItem("lounge.left") ?? "[]")).toHaveLength(40);
  });

  it("survives a damaged list", () => {
    sessionStorage.setItem("lounge.left", "{not json");
    expect(hasLeft("K7MPQ2")).toBe(false);
    markLeft("K7MPQ2");
    expect(hasLeft("K7MPQ2")).toBe(true);
    sessionStorage.setItem("lounge.left", JSON.stringify([3, null, "K7MPQ2"]));
    expect(hasLeft("K7MPQ2")).toBe(true);
  });
});
