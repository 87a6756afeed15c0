import { afterEach, describe, expect, it } from "vitest";
import { firstBotLevel, rememberBotLevel } from "./botLevel";

describe("the bot level offered first", () => {
  afterEach(() => localStorage.clear());
  const levels = ["easy", "normal", "hard"];

  it("is the middle one of the server's levels at first", () => {
    expect(firstBotLevel(levels)).toBe("normal");
    expect(firstBotLevel(["easy", "hard"])).toBe("hard");
    expect(firstBotLevel(["only"])).toBe("only");
    expect(firstBotLevel([])).toBeUndefined();
  });

  it("is the host's last choice, while the server still offers it", () => {
    rememberBotLevel("hard");
    expect(firstBotLevel(levels)).toBe("hard");
    rememberBotLevel("expert");
    expect(firstBotLevel(levels)).toBe("normal");
  });
});
