import { describe, expect, it } from "vitest";
import { parseRoute } from "./router";

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
