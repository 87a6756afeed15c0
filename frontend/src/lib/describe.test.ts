import { describe, expect, it } from "vitest";
import { describeChange } from "./describe";
import { nineLocksView, view } from "./fixtures";

const names = ["Ada", "Grace", "Linus"];

describe("describeChange", () => {
  it("tells a Nine Locks play, pick-up and lock", () => {
    const before = nineLocksView({ version: 3, current: 0 });
    const grid = (before.grid as { cards: string[] }[]).map((p) => p.cards);
    const piles = grid.map((cards, i) => (i === 4 ? [...cards, "9H"] : cards));
    const after = nineLocksView({ version: 4, current: 1, piles, deck_count: 30 });
    expect(describeChange(before, after, names)).toEqual(["Ada played 9 of hearts on pile 5"]);
    const picked = nineLocksView({
      version: 5, current: 0, deck_count: 29,
      piles: before.piles, pile_states: (before.pile_states as string[]).map((s, i) => (i === 0 ? "unlocked" : s)),
    });
    (picked.piles as string[][])[0] = ["7C"];
    expect(describeChange(before, picked, names)).toEqual([
      "Ada picked up a card", "Ada turned up pile 1: 7 of clubs",
    ]);
  });

  it("tells a Poker 99 play with its choice, and who is out", () => {
    const before = view("poker99", { version: 1, turn: 1, total: 20, last: null, status: ["in", "in", "in"] });
    const after = view("poker99", {
      version: 2, turn: 2, total: 40, last: { card: "QH", seat: 0, choice: "+" }, status: ["in", "out", "in"],
    });
    expect(describeChange(before, after, names)).toEqual([
      "Ada played Queen of hearts (adding): total 40", "Grace is out",
    ]);
  });

  it("puts names into Slapjack's own event texts", () => {
    const before = view("slapjack", { version: 4, plays: 3, top: "JC", events: [] });
    const after = view("slapjack", {
      version: 5, plays: 3, top: null,
      events: [{ version: 5, seat: 2, kind: "good", text: "Seat 2 slapped a jack and took 4 cards" }],
    });
    expect(describeChange(before, after, names)).toEqual(["Linus slapped a jack and took 4 cards"]);
  });

  it("announces the result and players who left", () => {
    const before = view("tic-tac-toe", { version: 6, cells: Array(9).fill(null) });
    const after = view("tic-tac-toe", { version: 7, cells: Array(9).fill(null), left: [1], result: { winner: 0 } });
    expect(describeChange(before, after, names)).toEqual(["Grace left the game", "Ada wins!"]);
  });

  it("says nothing for an old or repeated view", () => {
    const v = view("tic-tac-toe", { version: 3, cells: [] });
    expect(describeChange(v, v, names)).toEqual([]);
    expect(describeChange(null, v, names)).toEqual([]);
  });
});
