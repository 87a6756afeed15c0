import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { nineLocksView, room, seat, state, view } from "../lib/fixtures";
import { chooseSeat, curtainText, GameView, revealStillOpen } from "./GameView";

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

describe("the hot-seat curtain", () => {
  const at = (current: number, turn: number, round = 1) => state(view("poker99", { seat: 0, current, turn }), { round });
  const shown = { seat: 0, round: 1, turn: 4 };

  it("keeps a shown hand open during the turn in which it was shown", () => {
    expect(revealStillOpen(shown, 0, at(0, 4))).toBe(true);
  });

  it("closes as soon as the turn ends, whoever plays next", () => {
    expect(revealStillOpen(shown, 0, at(1, 5))).toBe(false); // a bot, or the host elsewhere
    expect(revealStillOpen(shown, 0, at(0, 6))).toBe(false); // back to the same seat later
    expect(revealStillOpen(shown, 2, at(2, 4))).toBe(false); // another hand on this device
    expect(revealStillOpen(shown, 0, at(0, 4, 2))).toBe(false); // a rematch
    expect(revealStillOpen(null, 0, at(0, 4))).toBe(false);
  });

  it("says whom to pass the device to, or who is playing meanwhile", () => {
    const table = room({ seats: [seat(0, "Ada"), seat(1, "Bot 1", { kind: "bot" }), seat(2, "Grace", { kind: "local" })] });
    expect(curtainText(table, [0, 2], 2, 2)).toBe("Pass the device to Grace.");
    expect(curtainText(table, [0, 2], 0, 1)).toBe("Bot 1 is playing.");
  });
});

describe("GameView", () => {
  const table = (offline: boolean) => {
    const legal = [{ move: "play", args: ["9H", 4] }, { move: "pick_up", args: [] }];
    render(<GameView room={room({ status: "playing" })} userId="u0" mySeats={[0]} spectator={false}
      states={{ 0: state(nineLocksView(), { legal_moves: legal }) }} log={[]}
      send={vi.fn()} onLeave={vi.fn()} chat={null} offline={offline} />);
  };

  it("offers the legal cards while connected", () => {
    table(false);
    expect(screen.getByRole("button", { name: "9 of hearts" })).toBeEnabled();
  });

  it("keeps the table in view but offers nothing to play while the connection is lost", () => {
    table(true);
    expect(screen.getByRole("img", { name: "9 of hearts" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "9 of hearts" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Pick up a card/ })).toBeNull();
  });
});
