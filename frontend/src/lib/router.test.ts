import { describe, expect, it } from "vitest";
import { isRoomKey, parseRoute } from "./router";

describe("parseRoute", () => {
  it("reads the app's pages", () => {
    expect(parseRoute("/")).toEqual({ name: "home" });
    expect(parseRoute("/r/k7mpq2")).toEqual({ name: "room", code: "K7MPQ2", spectate: false });
    expect(parseRoute("/r/K7MPQ2/", "?watch=1")).toEqual({ name: "room", code: "K7MPQ2", spectate: true });
    expect(parseRoute("/rules")).toEqual({ name: "rules", slug: null });
    expect(parseRoute("/rules/nine-locks")).toEqual({ name: "rules", slug: "nine-locks" });
  });

  it("says when a page does not exist", () => {
    expect(parseRoute("/r/")).toEqual({ name: "missing", path: "/r" });
    expect(parseRoute("/nowhere")).toEqual({ name: "missing", path: "/nowhere" });
  });
});

describe("isRoomKey", () => {
  it("takes a code of six letters and digits, or a room's longer id, and nothing shorter", () => {
    expect(isRoomKey("K7MPQ2")).toBe(true);
    expect(isRoomKey("6f1c2a9e-0b7d-4f57-9a43-2b1d5c7e8f90")).toBe(true);
    expect(isRoomKey("ZZ")).toBe(false);
    expect(isRoomKey("K7MP-2")).toBe(false);
  });
});
