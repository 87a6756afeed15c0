import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { seat, view } from "../lib/fixtures";
import type { GameInfo } from "../lib/types";
import { sayMove } from "../lib/words";
import { GenericBoard } from "./GenericBoard";
import { boardFor } from "./index";
import { Poker99 } from "./Poker99";

// What GET /api/games would say of a game this client has no board for.
const eights: GameInfo = {
  slug: "crazy-test", title: "Crazy Test", summary: "A game with no board of its own.", min_players: 2,
  max_players: 4, rules: "# Crazy Test", undoable: false, real_time: false, private: ["hands"],
  moves: [
    { name: "play", args: ["card", "suit"], min_args: 1, words: ["play {card:card}, calling {suit:label}", "play {card:card}"],
      labels: { S: "spades", H: "hearts" } },
    { name: "draw", args: [], min_args: 0, words: [], labels: {} },
    { name: "pass_to", args: ["seat"], min_args: 1, words: ["pass to {seat:seat}"], labels: {} },
  ],
};
const seats = [seat(0, "Ada"), seat(1, "Grace")];
const crazy = view("crazy-test", { pile: ["9H"], deck_count: 30, hands: ["8S", "9C"], hands_count: [2, 5] });

describe("a game with no board of its own", () => {
  it("gets the generic board; the others keep theirs", () => {
    expect(boardFor("crazy-test")).toBe(GenericBoard);
    expect(boardFor("poker99")).toBe(Poker99);
  });

  it("shows the view as it is and offers the server's legal moves in the game's words", () => {
    const play = vi.fn();
    const legal = [{ move: "play", args: ["8S", "H"] }, { move: "play", args: ["9C"] }, { move: "draw", args: [] },
      { move: "pass_to", args: [1] }];
    const Board = boardFor("crazy-test");
    render(<Board view={crazy} legal={legal} seat={0} seats={seats} play={play} busy={false} hideHand={false}
      mover={null} owner={null} game={eights} />);
    expect(screen.getByTestId("generic-view")).toHaveTextContent("deck count30");
    expect(screen.getByRole("img", { name: "9 of hearts" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "8 of spades" })).toBeInTheDocument();
    expect(screen.getByTestId("player-1")).toHaveTextContent("hands count: 5");
    fireEvent.click(screen.getByRole("button", { name: "play 8 of spades, calling hearts" }));
    expect(play).toHaveBeenCalledWith("play", ["8S", "H"]);
    expect(screen.getByRole("button", { name: "play 9 of clubs" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "draw" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "pass to Grace" })).toBeInTheDocument();
  });

  it("keeps a hot-seat player's private cards and moves hidden, and gives spectators no moves", () => {
    const legal = [{ move: "draw", args: [] }];
    const { unmount } = render(<GenericBoard view={crazy} legal={legal} seat={0} seats={seats} play={vi.fn()} busy={false}
      hideHand mover={null} owner="Ada" game={eights} />);
    expect(screen.queryByRole("img", { name: "8 of spades" })).toBeNull();
    expect(screen.queryByRole("button", { name: "draw" })).toBeNull();
    unmount();
    render(<GenericBoard view={{ ...crazy, seat: null, hands: null }} legal={[]} seat={null} seats={seats} play={vi.fn()}
      busy={false} hideHand={false} mover={null} owner={null} game={eights} />);
    expect(screen.queryByTestId("generic-moves")).toBeNull();
    expect(screen.getByTestId("player-0")).toHaveTextContent("hands count: 2");
  });
});

describe("moves in words", () => {
  const name = (s: number) => seats[s].name;
  it("takes the first template that fits, else says the move's name and arguments", () => {
    expect(sayMove(eights.moves[0], { move: "play", args: ["8S", "X"] }, name)).toBe("play 8 of spades");
    expect(sayMove(eights.moves[2], { move: "pass_to", args: ["Grace"] }, name)).toBe("pass to Grace");
    expect(sayMove(undefined, { move: "pick_up", args: ["9H", 3] }, name)).toBe("pick up 9 of hearts 3");
    const place = { name: "place", args: ["cell"], min_args: 1, words: ["{cell:label} (cell {cell})", "pile {cell:position}"],
      labels: { "1": "top centre" } };
    expect(sayMove(place, { move: "place", args: [1] }, name)).toBe("top centre (cell 1)");
    expect(sayMove(place, { move: "place", args: [4] }, name)).toBe("pile 5");
  });
});
