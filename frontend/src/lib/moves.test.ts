import { describe, expect, it } from "vitest";
import { directMove, movesByCard, movesNamed } from "./moves";

describe("legal moves for a board", () => {
  const legal = [
    { move: "play", args: ["8C", "S"] }, { move: "play", args: ["8C", "H"] }, { move: "play", args: ["7H"] },
    { move: "draw", args: [] },
  ];

  it("picks the moves of one kind", () => {
    expect(movesNamed(legal, "draw")).toEqual([{ move: "draw", args: [] }]);
    expect(movesNamed(legal, "pass")).toEqual([]);
  });

  it("groups the plays by their card, keeping the server's order", () => {
    const byCard = movesByCard(movesNamed(legal, "play"));
    expect([...byCard.keys()]).toEqual(["8C", "7H"]);
    expect(byCard.get("8C")?.map((m) => m.args[1])).toEqual(["S", "H"]);
  });

  it("plays a card at once only when it has one move naming nothing else", () => {
    const byCard = movesByCard(movesNamed(legal, "play"));
    expect(directMove(byCard.get("7H") ?? [])).toEqual({ move: "play", args: ["7H"] });
    expect(directMove(byCard.get("8C") ?? [])).toBeNull();
    expect(directMove([{ move: "play", args: ["5H", 2] }])).toBeNull(); // a seat to name, even if only one
    expect(directMove([])).toBeNull();
  });
});
