import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nineLocksView, seat, view } from "../lib/fixtures";
import { CrazyEights } from "./CrazyEights";
import { NineLocks } from "./NineLocks";
import { PlayerBox } from "./PlayerBox";
import { Poker99 } from "./Poker99";
import { SLAP_QUIET_MS, Slapjack } from "./Slapjack";
import { TicTacToe } from "./TicTacToe";
import type { BoardProps } from "./types";
import type { GameInfo } from "../lib/types";

const seats = [seat(0, "Ada"), seat(1, "Grace"), seat(2, "Linus")];

function props(extra: Partial<BoardProps>): BoardProps {
  return {
    view: view("nine-locks"), legal: [], seat: 0, seats, play: vi.fn(async () => true), busy: false, hideHand: false,
    mover: null, owner: null, ...extra,
  };
}

describe("Nine Locks", () => {
  it("highlights only the legal cards, then the piles the chosen card may go on", () => {
    const play = vi.fn();
    const legal = [{ move: "play", args: ["9H", 4] }, { move: "pick_up", args: [] }];
    render(<NineLocks {...props({ view: nineLocksView(), legal, play })} />);
    expect(screen.queryByRole("button", { name: "2 of clubs" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "9 of hearts" }));
    fireEvent.click(screen.getByRole("button", { name: /Play 9 of hearts on pile 5/ }));
    expect(play).toHaveBeenCalledWith("play", ["9H", 4]);
    fireEvent.click(screen.getByRole("button", { name: /Pick up a card/ }));
    expect(play).toHaveBeenCalledWith("pick_up", []);
  });

  // A name given by aria-label must hold the text a button shows (WCAG's "label in name"; axe's
  // label-content-name-mismatch), and the ranks drawn on a card are text: a card named "queen of
  // spades" shows a "Q". Named by hidden words in the button, the name is the same, and allowed.
  it("names its card, pile and deck buttons by their content, not by an aria-label", () => {
    const legal = [{ move: "play", args: ["9H", 4] }, { move: "pick_up", args: [] }];
    const { container } = render(<NineLocks {...props({ view: nineLocksView(), legal })} />);
    fireEvent.click(screen.getByRole("button", { name: "9 of hearts" }));
    expect(screen.getByRole("button", { name: /^Play 9 of hearts on pile 5 \(Pile 5, unlocked/ })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Pile 1, face down" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Pick up a card from the deck (30 left)" })).toBeInTheDocument();
    expect(container.querySelectorAll("button[aria-label]")).toHaveLength(0);
  });

  it("shows the other player's hidden hand face down with its count", () => {
    render(<NineLocks {...props({ view: nineLocksView() })} />);
    expect(screen.getByRole("img", { name: "Grace's hidden hand: 3 cards" })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "3 of spades" })).toBeInTheDocument();
  });

  it("keeps a hot-seat player's hidden hand face down until they show it, under their name", () => {
    const { unmount } = render(<NineLocks {...props({ view: nineLocksView(), hideHand: true })} />);
    expect(screen.queryByRole("img", { name: "jack of spades" })).toBeNull();
    expect(screen.getByRole("img", { name: "Your hidden hand: 3 cards" })).toBeInTheDocument();
    unmount();
    render(<NineLocks {...props({ view: nineLocksView(), hideHand: true, owner: "Ada" })} />);
    expect(screen.getByRole("img", { name: "Ada’s hidden hand: 3 cards" })).toBeInTheDocument();
  });

  it("brings the piles into view when one must be chosen, and only then", () => {
    const scroll = vi.spyOn(Element.prototype, "scrollIntoView");
    const legal = [{ move: "play", args: ["9H", 4] }, { move: "pick_up", args: [] }];
    render(<NineLocks {...props({ view: nineLocksView(), legal })} />);
    expect(scroll).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "9 of hearts" }));
    expect(scroll).toHaveBeenCalledTimes(1);
    expect(scroll.mock.contexts[0]).toBe(screen.getByRole("group", { name: "The nine piles" }));
    scroll.mockRestore();
  });

  it("says an empty hand is empty, also where only a dash fits", () => {
    render(<NineLocks {...props({ view: nineLocksView({ visible: [["9H"], []] }) })} />);
    const hand = screen.getByRole("region", { name: "Grace's visible hand" });
    expect(within(hand).getByText("empty")).toHaveClass("empty-word");
    expect(within(hand).getByText("—")).toHaveAttribute("aria-hidden", "true");
  });

  it("names the cards, then the piles, that its hint asks for: a highlight is not read out", () => {
    const legal = [{ move: "play", args: ["9H", 4] }, { move: "play", args: ["9H", 7] }, { move: "play", args: ["JS", 2] },
      { move: "pick_up", args: [] }];
    render(<NineLocks {...props({ view: nineLocksView(), legal })} />);
    expect(screen.getByText("Choose the 9 of hearts or the jack of spades (highlighted) to play, or pick up from the deck."))
      .toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "9 of hearts" }));
    expect(screen.getByText("Choose a highlighted pile for the 9 of hearts (pile 5 or 8), or press Escape or the card again to cancel."))
      .toBeInTheDocument();
  });

  it("puts focus on the first pile a chosen card may go on, and back on the card at Escape", () => {
    const legal = [{ move: "play", args: ["9H", 7] }, { move: "play", args: ["9H", 4] }, { move: "pick_up", args: [] }];
    render(<NineLocks {...props({ view: nineLocksView(), legal })} />);
    const card = screen.getByRole("button", { name: "9 of hearts" });
    card.focus();
    fireEvent.click(card);
    expect(screen.getByRole("button", { name: /^Play 9 of hearts on pile 5 / })).toHaveFocus();
    fireEvent.keyDown(document.activeElement as Element, { key: "Escape" });
    expect(card).toHaveFocus();
    expect(card).toHaveAttribute("aria-pressed", "false");
    expect(screen.queryByRole("button", { name: /^Play 9 of hearts/ })).toBeNull();
    fireEvent.click(card);
    fireEvent.keyDown(card, { key: "Escape" });  // from the hand too
    expect(card).toHaveFocus();
    expect(card).toHaveAttribute("aria-pressed", "false");
  });

  it("only asks for a highlighted pile while the key is in hand: the piles come from the server", () => {
    const legal = [4, 7].map((pile) => ({ move: "key", args: [pile] }));
    render(<NineLocks {...props({ view: nineLocksView({ stage: "key" }), legal })} />);
    expect(screen.getByText("Use the key on a pile: a locked or face-down pile opens, an open one locks.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /^Choose pile 8/ })).toBeEnabled();
  });
});

describe("Poker 99", () => {
  const v = view("poker99", {
    num_players: 3, total: 40, hands: ["10C", "5H", "3D"], hands_count: [3, 3, 3], status: ["in", "in", "in"],
    last: null, max_total: 99, deck_count: 30, signed_amounts: { "10C": 10 },
  });

  it("shows a hand with no card left as none, with a dash where the word would be under its count", () => {
    render(<Poker99 {...props({ view: { ...v, hands_count: [3, 0, 3], status: ["in", "out", "in"] } })} />);
    const hand = screen.getByRole("img", { name: "Grace's hand: 0 cards" });
    expect(within(hand).getByText("none")).toHaveClass("empty-word");
    expect(within(hand).getByText("—")).toHaveAttribute("aria-hidden", "true");
  });

  it("asks whether a 10 adds or subtracts, with the server's choices", () => {
    const play = vi.fn();
    const legal = [{ move: "play", args: ["10C", "+"] }, { move: "play", args: ["10C", "-"] }, { move: "play", args: ["3D"] }];
    render(<Poker99 {...props({ view: v, legal, play })} />);
    fireEvent.click(screen.getByRole("button", { name: "10 of clubs" }));
    fireEvent.click(screen.getByRole("button", { name: "Subtract 10" }));
    expect(play).toHaveBeenCalledWith("play", ["10C", "-"]);
    fireEvent.click(screen.getByRole("button", { name: "3 of diamonds" }));
    expect(play).toHaveBeenCalledWith("play", ["3D"]);
    expect(screen.getByRole("status", { name: "Total 40 of 99" })).toBeInTheDocument();
  });

  it("asks who plays next after a 5", () => {
    const play = vi.fn();
    const legal = [{ move: "play", args: ["5H", 1] }, { move: "play", args: ["5H", 2] }];
    render(<Poker99 {...props({ view: v, legal, play })} />);
    fireEvent.click(screen.getByRole("button", { name: "5 of hearts" }));
    expect(screen.getByText("Who plays after your 5 of hearts?")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Linus plays next" }));
    expect(play).toHaveBeenCalledWith("play", ["5H", 2]);
  });

  it("says what a queen adds or subtracts as the server counts it", () => {
    const queen = { ...v, hands: ["QS", "3D"], signed_amounts: { QS: 20 } };
    const legal = [{ move: "play", args: ["QS", "+"] }, { move: "play", args: ["QS", "-"] }];
    render(<Poker99 {...props({ view: queen, legal })} />);
    expect(screen.getByText("Play the queen of spades (highlighted).")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "queen of spades" }));
    expect(screen.getByRole("button", { name: "Add 20" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Subtract 20" })).toBeInTheDocument();
  });

  it("says the total with a queen's question: on a small phone the box covers the dial", () => {
    const queen = { ...v, hands: ["QS", "3D"], signed_amounts: { QS: 20 } };
    const legal = [{ move: "play", args: ["QS", "+"] }, { move: "play", args: ["QS", "-"] }];
    render(<Poker99 {...props({ view: queen, legal })} />);
    fireEvent.click(screen.getByRole("button", { name: "queen of spades" }));
    expect(screen.getByText("The queen of spades: add or subtract? The total is 40.")).toBeInTheDocument();
  });

  it("asks only about the way the server offers when a card has one", () => {
    const queen = { ...v, hands: ["QS", "3D"], signed_amounts: { QS: 20 } };
    const play = vi.fn();
    const { unmount } = render(<Poker99 {...props({ view: queen, legal: [{ move: "play", args: ["QS", "-"] }], play })} />);
    fireEvent.click(screen.getByRole("button", { name: "queen of spades" }));
    const box = screen.getByRole("group", { name: "Choices for the queen of spades" });
    expect(box).toHaveTextContent("The queen of spades: subtract 20?");
    expect(box).not.toHaveTextContent(/add or subtract/);
    fireEvent.click(screen.getByRole("button", { name: "Subtract 20" }));
    expect(play).toHaveBeenCalledWith("play", ["QS", "-"]);
    unmount();
    render(<Poker99 {...props({ view: v, legal: [{ move: "play", args: ["5H", 1] }] })} />);
    fireEvent.click(screen.getByRole("button", { name: "5 of hearts" }));
    expect(screen.getByText("Play your 5 of hearts? Grace plays next.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Grace plays next" })).toBeInTheDocument();
  });

  it("falls back on the server's words for a sign when the view has no amounts", () => {
    const game = { slug: "poker99", moves: [{ name: "play", args: ["card", "choice"], min_args: 1, words: [],
      labels: { "+": "(adding)", "-": "(subtracting)" } }] } as unknown as GameInfo;
    const legal = [{ move: "play", args: ["10C", "+"] }, { move: "play", args: ["10C", "-"] }];
    render(<Poker99 {...props({ view: { ...v, signed_amounts: undefined }, legal, game })} />);
    fireEvent.click(screen.getByRole("button", { name: "10 of clubs" }));
    expect(screen.getByRole("button", { name: "(subtracting)" })).toBeInTheDocument();
  });

  it("warns near the view's highest total, whatever it is", () => {
    const { unmount } = render(<Poker99 {...props({ view: { ...v, total: 90, max_total: 120 } })} />);
    expect(screen.getByTestId("total")).not.toHaveClass("danger");
    unmount();
    render(<Poker99 {...props({ view: { ...v, total: 110, max_total: 120 } })} />);
    expect(screen.getByRole("status", { name: "Total 110 of 120" })).toHaveClass("danger");
  });
});

describe("Slapjack", () => {
  it("slaps with the space bar, sending the pile version it saw", () => {
    const play = vi.fn(async () => true);
    const v = view("slapjack", { version: 7, pile: ["4H", "JC"], stacks_count: [20, 30], events: [], plays: 2, top: "JC" });
    const legal = [{ move: "slap", args: [] }, { move: "slap", args: [7] }];
    render(<Slapjack {...props({ view: v, legal, play })} />);
    fireEvent.keyDown(window, { key: " ", code: "Space" });
    expect(play).toHaveBeenCalledWith("slap", [7], 0);
    expect(screen.getByRole("img", { name: "Top of the pile: jack of clubs" })).toBeInTheDocument();
  });

  it("says a pile already slapped is one to leave alone until the next card", () => {
    const pair = { version: 9, pile: ["KH", "3H", "KC"], stacks_count: [20, 27], events: [] };
    const { rerender } = render(<Slapjack {...props({ view: view("slapjack", { ...pair, pile_slapped: true }), legal: [] })} />);
    expect(screen.getByTestId("sj-slapped")).toHaveTextContent("Already slapped: wait for the next card");
    expect(screen.getByRole("group", { name: /already slapped/ })).toBeInTheDocument();
    rerender(<Slapjack {...props({ view: view("slapjack", { ...pair, pile_slapped: false }), legal: [] })} />);
    expect(screen.queryByTestId("sj-slapped")).toBeNull();
  });

  it("names its key only as a key hint, which a touch screen does not show", () => {
    const v = view("slapjack", { version: 7, pile: ["4H"], stacks_count: [20, 30], events: [] });
    render(<Slapjack {...props({ view: v, legal: [{ move: "slap", args: [7] }] })} />);
    expect(screen.getByRole("button", { name: /SLAP!/ })).toHaveAttribute("aria-keyshortcuts", "Space");
    expect(screen.getByText("space bar")).toHaveClass("key-hint");
  });

  const space = () => fireEvent.keyDown(window, { key: " ", code: "Space" });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("slaps a pile once: no other slap until a view with another version comes", () => {
    vi.useFakeTimers();
    const play = vi.fn(async () => true);
    const v = view("slapjack", { version: 7, pile: ["4H", "JC"], stacks_count: [20, 30], events: [], plays: 2, top: "JC" });
    const legal = [{ move: "slap", args: [] }, { move: "slap", args: [7] }];
    const { rerender } = render(<Slapjack {...props({ view: v, legal, play })} />);
    const button = screen.getByRole("button", { name: /SLAP!/ });
    // Three presses of the space bar and two clicks, all before the board is drawn again (one act:
    // the button is still enabled for each of them, its handlers are the first render's): one slap.
    act(() => {
      space();
      space();
      space();
      button.click();
      button.click();
    });
    expect(play).toHaveBeenCalledTimes(1);
    expect(play).toHaveBeenCalledWith("slap", [7], 0);
    expect(button).toBeDisabled();
    expect(button).toHaveClass("pressed");
    // The same version again (a state that changed nothing of it): still the one slap.
    rerender(<Slapjack {...props({ view: { ...v }, legal, play })} />);
    space();
    expect(play).toHaveBeenCalledTimes(1);
    expect(button).toBeDisabled();
    // The next view, once the double-tap guard is over: the seat may slap again, on what it shows, once.
    act(() => vi.advanceTimersByTime(SLAP_QUIET_MS));
    const next = { ...v, version: 8, pile: ["4H", "JC", "JD"], top: "JD", plays: 3 };
    rerender(<Slapjack {...props({ view: next, legal: [{ move: "slap", args: [8] }], play })} />);
    expect(button).toBeEnabled();
    act(() => {
      space();
      button.click();
    });
    expect(play).toHaveBeenCalledTimes(2);
    expect(play).toHaveBeenLastCalledWith("slap", [8], 0);
  });

  it("ignores a seat's slap presses for a moment after its slap, even on the next version", () => {
    vi.useFakeTimers();
    const play = vi.fn(async () => true);
    const v = view("slapjack", { version: 7, pile: ["4H", "JC"], stacks_count: [20, 30], events: [], plays: 2, top: "JC" });
    const { rerender } = render(<Slapjack {...props({ view: v, legal: [{ move: "slap", args: [7] }], play })} />);
    const button = screen.getByRole("button", { name: /SLAP!/ });
    space();
    expect(play).toHaveBeenCalledTimes(1);
    // The good slap took the pile: a new version, the empty pile, within tens of ms.
    act(() => vi.advanceTimersByTime(40));
    const empty = { ...v, version: 8, pile: [], top: null, plays: 2 };
    rerender(<Slapjack {...props({ view: empty, legal: [{ move: "slap", args: [8] }], play })} />);
    // A second Space and the second click of a double click (up to ~250 ms): neither slaps it.
    space();
    act(() => vi.advanceTimersByTime(150));
    button.click();
    act(() => vi.advanceTimersByTime(SLAP_QUIET_MS - 40 - 150 - 1));
    space();
    expect(play).toHaveBeenCalledTimes(1);
    // Once the window is over, a press slaps again (on what the view shows).
    act(() => vi.advanceTimersByTime(1));
    space();
    expect(play).toHaveBeenCalledTimes(2);
    expect(play).toHaveBeenLastCalledWith("slap", [8], 0);
  });

  it("keeps each hot-seat player's slap to one a pile, their own", () => {
    const play = vi.fn(async () => true);
    const v = view("slapjack", { num_players: 3, version: 7, pile: ["JC"], stacks_count: [20, 12, 20], events: [], plays: 1, top: "JC" });
    const localSeats = [{ seat: 0, legal: [{ move: "slap", args: [7] }] }, { seat: 2, legal: [{ move: "slap", args: [7] }] }];
    render(<Slapjack {...props({ view: v, legal: localSeats[0].legal, play, localSeats, owner: "Ada" })} />);
    const linus = screen.getByRole("button", { name: /SLAP! Linus/ });
    const ada = screen.getByRole("button", { name: /SLAP! Ada/ });
    act(() => {
      linus.click();
      linus.click();
      ada.click();
    });
    expect(play).toHaveBeenCalledTimes(2);
    expect(play).toHaveBeenNthCalledWith(1, "slap", [7], 2);
    expect(play).toHaveBeenNthCalledWith(2, "slap", [7], 0);
    expect(linus).toBeDisabled();
    expect(ada).toBeDisabled();
  });

  it("lets a seat slap again when its slap was refused, but not when a later slap is on its way", async () => {
    vi.useFakeTimers();
    const answers: ((accepted: boolean) => void)[] = [];
    const play = vi.fn(() => new Promise<boolean>((resolve) => {
      answers.push(resolve);
    }));
    const v = view("slapjack", { version: 7, pile: ["4H", "JC"], stacks_count: [20, 30], events: [], plays: 2, top: "JC" });
    const { rerender } = render(<Slapjack {...props({ view: v, legal: [{ move: "slap", args: [7] }], play })} />);
    const button = screen.getByRole("button", { name: /SLAP!/ });
    space();
    expect(button).toBeDisabled();
    // Refused (too many slaps, not connected, no answer in time): the pile is still there to slap.
    await act(async () => answers[0](false));
    expect(button).toBeEnabled();
    space();
    expect(play).toHaveBeenCalledTimes(2);
    // A later version's slap goes out before the last one's refusal comes: that refusal frees nothing.
    act(() => vi.advanceTimersByTime(SLAP_QUIET_MS));
    const next = { ...v, version: 8, pile: ["4H", "JC", "JD"], top: "JD", plays: 3 };
    rerender(<Slapjack {...props({ view: next, legal: [{ move: "slap", args: [8] }], play })} />);
    space();
    expect(play).toHaveBeenCalledTimes(3);
    await act(async () => answers[1](false));
    expect(button).toBeDisabled();
    space();
    expect(play).toHaveBeenCalledTimes(3);
    await act(async () => answers[2](true));
    expect(button).toBeDisabled();
  });

  it("keeps SLAP pressable for a seat with no cards, which is offered a slap only on a pile it can win", () => {
    const play = vi.fn(async () => false);
    const v = view("slapjack", { version: 9, pile: ["4H", "7C"], stacks_count: [0, 52], events: [], plays: 5, top: "7C", current: 1 });
    const { rerender } = render(<Slapjack {...props({ view: v, legal: [], play })} />);
    const button = screen.getByRole("button", { name: /SLAP!/ });
    expect(button).toBeEnabled(); // lit only on a jack, it would point the jack out
    fireEvent.click(button);
    expect(play).toHaveBeenCalledWith("slap", [9], 0); // the server refuses it, in words
    rerender(<Slapjack {...props({ view: { ...v, left: [0] }, legal: [], play })} />);
    expect(button).toBeDisabled();
    rerender(<Slapjack {...props({ view: { ...v, result: { winner: 1 } }, legal: [], play })} />);
    expect(button).toBeDisabled();
  });

  it("leaves the space bar to a focused button, and to everyone when no slap is possible", () => {
    const play = vi.fn(async () => true);
    const v = view("slapjack", { version: 7, pile: ["4H"], stacks_count: [20, 30], events: [], plays: 1, top: "4H" });
    const legal = [{ move: "play", args: [] }, { move: "slap", args: [7] }];
    const { unmount } = render(<Slapjack {...props({ view: v, legal, play })} />);
    const turnUp = screen.getByRole("button", { name: "Turn up a card" });
    turnUp.focus();
    expect(fireEvent.keyDown(turnUp, { key: " ", code: "Space" })).toBe(true); // not prevented: it presses
    expect(play).not.toHaveBeenCalled();
    unmount();
    render(<Slapjack {...props({ view: v, legal: [], play, seat: null })} />);
    expect(fireEvent.keyDown(document.body, { key: " ", code: "Space" })).toBe(true);
    expect(play).not.toHaveBeenCalled();
    cleanup();
    render(<><ol tabIndex={0} aria-label="Game log" /><Slapjack {...props({ view: v, legal, play })} /></>);
    const log = screen.getByRole("list", { name: "Game log" });
    log.focus(); // a focused list scrolls with the space bar
    expect(fireEvent.keyDown(log, { key: " ", code: "Space" })).toBe(true);
    expect(play).not.toHaveBeenCalled();
  });

  it("gives every hot-seat player a slap button of their own, and names them in the events", () => {
    const play = vi.fn(async () => true);
    const events = [{ version: 6, seat: 2, kind: "good", reason: "sandwich", cards: 6, text: "Seat 2 slapped a sandwich and took 6 cards" }];
    const v = view("slapjack", { num_players: 3, version: 7, pile: ["4H"], stacks_count: [20, 12, 20], events, plays: 1, top: "4H" });
    const localSeats = [{ seat: 0, legal: [{ move: "slap", args: [7] }] }, { seat: 2, legal: [{ move: "slap", args: [7] }] }];
    const { rerender } = render(<Slapjack {...props({ view: v, legal: localSeats[0].legal, play, localSeats, owner: "Ada" })} />);
    fireEvent.click(screen.getByRole("button", { name: /SLAP! Linus/ }));
    expect(play).toHaveBeenCalledWith("slap", [7], 2);
    fireEvent.click(screen.getByRole("button", { name: /SLAP! Ada/ }));
    expect(play).toHaveBeenCalledWith("slap", [7], 0);
    play.mockClear(); // whose the space bar would be changes with every turn: it slaps for nobody
    expect(fireEvent.keyDown(window, { key: " ", code: "Space" })).toBe(true);
    expect(play).not.toHaveBeenCalled();
    expect(screen.getByRole("group", { name: "Ada’s stack" })).toBeInTheDocument();
    const news = screen.getByRole("status");
    expect(news).toHaveTextContent("Linus took the pile with a sandwich: 6 cards");
    const late = { version: 8, seat: 0, kind: "late", reason: "taken", cards: 3, text: "Seat 0 slapped too late" };
    rerender(<Slapjack {...props({ view: { ...v, events: [...events, late] }, play, localSeats, owner: "Ada" })} />);
    expect(screen.getByRole("status")).toBe(news);
    expect(news).toHaveTextContent("Ada slapped too late: 3 cards under the pile");
    const again = { ...late, version: 9, reason: "slapped" }; // nobody was first: it was slapped already
    rerender(<Slapjack {...props({ view: { ...v, events: [...events, late, again] }, play, localSeats, owner: "Ada" })} />);
    expect(news).toHaveTextContent("Ada slapped a pile already slapped: 3 cards under the pile");
  });
});

describe("Slapjack, for a screen reader", () => {
  const at = (plays: number, pile: string[], extra: Record<string, unknown> = {}) =>
    view("slapjack", { version: plays + 3, pile, stacks_count: [20, 30], events: [], plays, top: pile[pile.length - 1], ...extra });

  it("says a jack turned up at once, once, and not a jack already there when the board came up", () => {
    const { rerender } = render(<Slapjack {...props({ view: at(2, ["4H", "JC"]) })} />);
    const news = screen.getByTestId("sj-jack-news");
    expect(news).toHaveAttribute("aria-live", "assertive");
    expect(news).toHaveTextContent(/^$/);
    rerender(<Slapjack {...props({ view: at(3, ["4H", "JC", "5D"]) })} />);
    expect(news).toHaveTextContent(/^$/);
    rerender(<Slapjack {...props({ view: at(4, ["4H", "JC", "5D", "JH"]) })} />);
    expect(news).toHaveTextContent(/^Jack of hearts on the pile: slap!$/);
    const said = news.firstChild;
    rerender(<Slapjack {...props({ view: at(4, ["4H", "JC", "5D", "JH"]) })} />); // the same state again
    expect(news.firstChild).toBe(said);
    rerender(<Slapjack {...props({ view: at(4, ["4H", "JC", "5D", "JH"], { pile_slapped: true }) })} />);
    expect(news).toHaveTextContent(/^$/);
    rerender(<Slapjack {...props({ view: at(5, ["JS"]) })} />);
    expect(news).toHaveTextContent(/^Jack of spades on the pile: slap!$/);
  });

  it("tells a spectator of a jack without asking them to slap", () => {
    const { rerender } = render(<Slapjack {...props({ view: at(2, ["4H"]), seat: null })} />);
    rerender(<Slapjack {...props({ view: at(3, ["4H", "JD"]), seat: null })} />);
    expect(screen.getByTestId("sj-jack-news")).toHaveTextContent(/^Jack of diamonds on the pile\.$/);
  });

  it("says the player's own slaps in the second person, and the others' by name", () => {
    const mine = { version: 6, seat: 0, kind: "bad", reason: null, cards: 3, text: "Seat 0 slapped a 4" };
    const { rerender } = render(<Slapjack {...props({ view: at(3, ["4H"], { events: [mine] }) })} />);
    expect(screen.getByRole("status")).toHaveTextContent("You slapped wrongly: 3 cards under the pile");
    const good = { version: 7, seat: 0, kind: "good", reason: "jack", cards: 8, text: "Seat 0 slapped a jack" };
    rerender(<Slapjack {...props({ view: at(3, [], { events: [mine, good] }) })} />);
    expect(screen.getByRole("status")).toHaveTextContent("You took the pile with a jack: 8 cards");
    const theirs = { ...good, version: 8, seat: 1 };
    rerender(<Slapjack {...props({ view: at(3, [], { events: [mine, good, theirs] }) })} />);
    expect(screen.getByRole("status")).toHaveTextContent("Grace took the pile with a jack: 8 cards");
  });
});

describe("Crazy Eights", () => {
  const v = view("crazy-eights", {
    num_players: 3, hands: ["8C", "7H", "KS"], hands_count: [3, 5, 1], stock_count: 31, discards_count: 10,
    top: "8S", suit: "H", last: { seat: 2, move: "play" }, drawn: null,
  });

  it("enables only the server's plays, and names a suit for an 8 from its legal moves", () => {
    const play = vi.fn();
    const legal = [
      { move: "play", args: ["8C", "S"] }, { move: "play", args: ["8C", "H"] }, { move: "play", args: ["8C", "D"] },
      { move: "play", args: ["8C", "C"] }, { move: "play", args: ["7H"] }, { move: "draw", args: [] },
    ];
    render(<CrazyEights {...props({ view: v, legal, play })} />);
    expect(screen.getByRole("button", { name: "king of spades" })).toBeDisabled();
    const suit = screen.getByRole("status", { name: "Suit to follow: hearts (named with the 8)" });
    expect(suit).toHaveTextContent("Suit to follow: hearts (named with the 8)"); // read out when it changes
    expect(screen.getByText("Play the 8 of clubs or the 7 of hearts (highlighted), or draw.")).toBeInTheDocument();
    expect(screen.getByText("Linus played the 8 of spades and named hearts.")).toBeInTheDocument();
    expect(screen.getByRole("img", { name: "Linus's hand: 1 card" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "7 of hearts" }));
    expect(play).toHaveBeenCalledWith("play", ["7H"]);
    fireEvent.click(screen.getByRole("button", { name: "8 of clubs" }));
    fireEvent.click(screen.getByRole("button", { name: "Name diamonds" }));
    expect(play).toHaveBeenCalledWith("play", ["8C", "D"]);
    fireEvent.click(screen.getByRole("button", { name: "Draw a card" }));
    expect(play).toHaveBeenCalledWith("draw", []);
    expect(screen.queryByRole("button", { name: "Pass" })).toBeNull();
  });

  it("says a bot played for you when it played your turn, and you played when you did", () => {
    const mine = { ...v, top: "4H", suit: "H", last: { seat: 0, move: "play" } };
    const { rerender } = render(<CrazyEights {...props({ view: mine })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("You played the 4 of hearts.");
    rerender(<CrazyEights {...props({ view: mine, byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot played the 4 of hearts for you.");
    rerender(<CrazyEights {...props({ view: { ...mine, top: "8D", suit: "S" }, byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot played the 8 of diamonds for you and named spades.");
    rerender(<CrazyEights {...props({ view: { ...mine, last: { seat: 0, move: "draw" } }, byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot drew a card for you.");
    rerender(<CrazyEights {...props({ view: { ...mine, last: { seat: 1, move: "pass" } }, byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot passed for Grace.");
    rerender(<CrazyEights {...props({ view: { ...mine, last: { seat: 1, move: "pass" } } })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("Grace passed.");
  });

  it("names the hot-seat player a bot played for, and the one who played", () => {
    const ada = { ...v, top: "KC", suit: "C", last: { seat: 0, move: "play" } };
    const { rerender } = render(<CrazyEights {...props({ view: ada, owner: "Ada" })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("Ada played the king of clubs.");
    rerender(<CrazyEights {...props({ view: ada, owner: "Ada", byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot played the king of clubs for Ada.");
    rerender(<CrazyEights {...props({ view: { ...ada, last: { seat: 0, move: "draw" } }, owner: "Ada", byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot drew a card for Ada.");
    rerender(<CrazyEights {...props({ view: { ...ada, last: { seat: 0, move: "pass" } }, owner: "Ada", byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot passed for Ada.");
    // Another player's seat, on this screen or not: named too.
    rerender(<CrazyEights {...props({ view: { ...ada, top: "8D", suit: "S", last: { seat: 2, move: "play" } }, owner: "Ada", byBot: true })} />);
    expect(screen.getByTestId("last-move")).toHaveTextContent("A bot played the 8 of diamonds for Linus and named spades.");
  });

  it("offers a pass after a draw, and hides a hot-seat hand", () => {
    const drawnView = { ...v, stage: "drawn", drawn: "KS", last: { seat: 0, move: "draw" } };
    const play = vi.fn();
    const { unmount } = render(<CrazyEights {...props({ view: drawnView, legal: [{ move: "pass", args: [] }], play })} />);
    fireEvent.click(screen.getByRole("button", { name: "Pass" }));
    expect(play).toHaveBeenCalledWith("pass", []);
    unmount();
    render(<CrazyEights {...props({ view: drawnView, legal: [{ move: "pass", args: [] }], hideHand: true })} />);
    expect(screen.queryByRole("button", { name: "king of spades" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Pass" })).toBeNull();
    expect(screen.getByRole("img", { name: "Your hand: 3 cards" })).toBeInTheDocument();
  });
});

describe("Tic-Tac-Toe", () => {
  it("says who plays which mark only once the view says so", () => {
    const cells = Array(9).fill(null);
    const { unmount } = render(<TicTacToe {...props({ view: view("tic-tac-toe", { cells }) })} />);
    expect(screen.queryByText(/You play/)).toBeNull();
    expect(within(screen.getByTestId("player-1")).queryByText(/plays/)).toBeNull();
    unmount();
    render(<TicTacToe {...props({ view: view("tic-tac-toe", { cells, marks: ["X", "O"] }) })} />);
    expect(screen.getByText("You play X.")).toBeInTheDocument();
    expect(within(screen.getByTestId("player-1")).getByText("plays O")).toBeInTheDocument();
  });

  it("shows no cell as playable while a move is on its way or the connection is down", () => {
    const cells = Array(9).fill(null);
    const legal = [{ move: "place", args: [4] }];
    const { unmount } = render(<TicTacToe {...props({ view: view("tic-tac-toe", { cells }), legal })} />);
    expect(screen.getByTestId("cell-4")).toHaveClass("is-target");
    expect(screen.getByTestId("cell-4")).toBeEnabled();
    unmount();
    render(<TicTacToe {...props({ view: view("tic-tac-toe", { cells }), legal, busy: true })} />);
    expect(screen.getByTestId("cell-4")).not.toHaveClass("is-target");
    expect(screen.getByTestId("cell-4")).toBeDisabled();
  });

  it("names the hot-seat player whose board is shown, not the person holding the screen", () => {
    const cells = Array(9).fill(null);
    render(<TicTacToe {...props({ view: view("tic-tac-toe", { cells, marks: ["X", "O"] }), owner: "Hal" })} />);
    expect(screen.getByText("Hal plays X.")).toBeInTheDocument();
    expect(screen.queryByText(/You play/)).toBeNull();
  });
});

describe("PlayerBox", () => {
  it("says a bot's level once, in its name, and calls it a bot in its pill", () => {
    render(<PlayerBox seat={1} info={seat(1, "Bot 1 (hard)", { kind: "bot", level: "hard", user_id: null })} isTurn={false} />);
    const box = screen.getByTestId("player-1");
    expect(box.querySelector(".pill-bot")).toHaveTextContent(/^Bot$/);
    expect(box.textContent?.match(/hard/g)).toHaveLength(1);
  });
});
