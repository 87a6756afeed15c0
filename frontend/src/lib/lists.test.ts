import { describe, expect, it } from "vitest";
import { listed } from "./lists";

describe("listed", () => {
  it("joins words as a sentence does", () => {
    expect(listed([], "or")).toBe("");
    expect(listed(["Ada"], "and")).toBe("Ada");
    expect(listed(["Ada", "Grace"], "and")).toBe("Ada and Grace");
    expect(listed(["1", "5", "9"], "or")).toBe("1, 5 or 9");
  });
});
