import { describe, expect, it } from "vitest";
import { state, view } from "../lib/fixtures";
import { chooseSeat } from "./GameView";

describe("chooseSeat", () => {
  const at = (seat: number, current: number, moves: number) =>
    state(view("poker99", { seat, current }), { legal_moves: Array(moves).fill({ move: "play", args: ["3D"] }) });

  it("shows the seat whose turn it is", () => {
    expect(chooseSeat([0, 2], { 0: at(0, 2, 0), 2: at(2, 2, 3) }, 0)).toBe(2);
  });

  it("keeps the seat shown before while another player moves", () => {
    expect(chooseSeat([0, 2], { 0: at(0, 1, 0), 2: at(2, 1, 0) }, 2)).toBe(2);
  });

  it("has nothing to show without states", () => {
    expect(chooseSeat([0], {}, null)).toBeNull();
  });
});
