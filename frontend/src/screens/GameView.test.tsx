import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { clickTwice, heldSend, nineLocksView, room, seat, state, view } from "../lib/fixtures";
import type { Ack, GameInfo, GameState } from "../lib/types";
import type { LogEntry } from "../lib/useRoom";
import { REFUSAL_MIN_MS } from "../components/Refusal";
import { BOARD_SETTLE_MS, chooseSeat, curtainText, GameView, revealStillOpen, type GameViewProps } from "./GameView";

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

describe("GameView, at the table", () => {
  const ok = async () => ({ ok: true as const });
  const table = (game: string, states: Record<string, GameState>, extra: { mySeats?: number[]; userId?: string;
    info?: GameInfo; send?: (event: string, payload?: object) => Promise<Ack>; log?: LogEntry[]; clock?: GameViewProps["clock"]; away?: number[];
    spectator?: boolean; offline?: boolean } = {}) => (
    <GameView room={room({ status: "playing", game, seats: [seat(0, "Ada"), seat(1, "Grace"), seat(2, "Linus", { kind: "local", user_id: "u0" })]
      .map((s) => (extra.away?.includes(s.seat) ? { ...s, away: true } : s)) })}
      game={extra.info} userId={extra.userId ?? "u0"} mySeats={extra.mySeats ?? [0]} spectator={extra.spectator ?? false}
      states={states} log={extra.log ?? []} clock={extra.clock} send={extra.send ?? vi.fn(ok)} onLeave={vi.fn()} chat={null}
      offline={extra.offline} />
  );
  const ticTacToe = (version: number, cells: (string | null)[], result: GameState["result"] = null) => {
    const v = view("tic-tac-toe", { version, cells, marks: ["X", "O"], current: result ? null : 0, result });
    const free = cells.flatMap((c, i) => (c === null && !result ? [{ move: "place", args: [i] }] : []));
    return { 0: state(v, { legal_moves: free, result }) };
  };
  const empty = Array(9).fill(null);

  it("says why a draw was called when the game reached its length limit", () => {
    const full = ["X", "O", "X", "X", "O", "O", "O", "X", "X"];
    render(table("tic-tac-toe", ticTacToe(9, full, { draw: true, reason: "too_long" })));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("It’s a draw: the game reached its length limit");
  });

  it("shows a trophy for a win, and none for a draw", () => {
    const { rerender } = render(table("tic-tac-toe", ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 })));
    expect(screen.getByTestId("trophy")).toBeInTheDocument();
    const full = ["X", "O", "X", "X", "O", "O", "O", "X", "X"];
    rerender(table("tic-tac-toe", ticTacToe(9, full, { draw: true })));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("It’s a draw");
    expect(screen.queryByTestId("trophy")).toBeNull();
    expect(screen.getByTestId("draw-sign")).toBeInTheDocument();
  });

  it("gives a player who is not the host the result's heading to start from", () => {
    render(table("tic-tac-toe", ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 }),
      { userId: "u1" }));
    expect(screen.getByRole("heading", { name: "You win!" })).toHaveFocus();
  });

  it("brings the result into view for everyone who scrolled away, and puts the host on Rematch", () => {
    const scroll = vi.spyOn(Element.prototype, "scrollIntoView");
    render(table("tic-tac-toe", ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 })));
    expect(screen.getByRole("button", { name: "Rematch" })).toHaveFocus();
    expect(scroll.mock.contexts).toEqual([screen.getByRole("alertdialog")]);
    expect(scroll).toHaveBeenCalledWith({ block: "center", behavior: "smooth" });
    scroll.mockRestore();
  });

  describe("a new game's board", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("takes no click for a moment after a rematch (the second click of a double click), then does", () => {
      vi.useFakeTimers();
      const won = ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 });
      const { rerender } = render(table("tic-tac-toe", won));
      act(() => vi.advanceTimersByTime(BOARD_SETTLE_MS));
      expect(screen.getByTestId("board")).not.toHaveAttribute("inert");
      // The rematch: round 2, and its board is inert from its first paint (jsdom has no inert, so the
      // attribute is what is checked: a browser sends it no click).
      const next = { 0: { ...ticTacToe(0, empty)[0], round: 2 } };
      rerender(table("tic-tac-toe", next));
      expect(screen.getByTestId("board")).toHaveAttribute("inert");
      act(() => vi.advanceTimersByTime(250)); // a human double click's second click: swallowed
      expect(screen.getByTestId("board")).toHaveAttribute("inert");
      act(() => vi.advanceTimersByTime(BOARD_SETTLE_MS - 250));
      expect(screen.getByTestId("board")).not.toHaveAttribute("inert");
      // A move on the same game does not make it inert again.
      rerender(table("tic-tac-toe", { 0: { ...ticTacToe(1, ["X", ...empty.slice(1)])[0], round: 2 } }));
      expect(screen.getByTestId("board")).not.toHaveAttribute("inert");
    });
  });

  it("asks for a rematch once, and shows no refusal that comes once the next game is on", async () => {
    const { send, answers } = heldSend();
    const over = ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 });
    const { rerender } = render(table("tic-tac-toe", over, { send }));
    const rematch = screen.getByRole("button", { name: "Rematch" });
    // Both clicks before the box is drawn again (one act): the second still finds the button enabled.
    clickTwice(rematch);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith("rematch", {});
    // The second press sent nothing, which is no refusal: the button still waits for the first's answer.
    await act(async () => undefined);
    expect(rematch).toBeDisabled();
    expect(screen.queryByRole("alert")).toBeNull();
    // Had a second ask gone out, the server would refuse it on the fresh table: not shown there.
    rerender(table("tic-tac-toe", { 0: { ...ticTacToe(0, empty)[0], round: 2 } }, { send }));
    await act(async () => answers[0]({ ok: false, error: { code: "bad_state", message: "A rematch can only start when the game is over" } }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("lets the host ask again after a refused rematch, with the refusal shown", async () => {
    const send = vi.fn(async (): Promise<Ack> => ({ ok: false, error: { code: "bad_state", message: "Not now" } }));
    render(table("tic-tac-toe", ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 }), { send }));
    const rematch = screen.getByRole("button", { name: "Rematch" });
    await act(async () => fireEvent.click(rematch));
    expect(screen.getByRole("alert")).toHaveTextContent("Not now");
    expect(rematch).toBeEnabled();
  });

  it("opens each new game at the top of the table", () => {
    const scrollTo = vi.spyOn(window, "scrollTo");
    const { rerender } = render(table("tic-tac-toe", ticTacToe(0, empty)));
    expect(scrollTo).toHaveBeenCalledTimes(1);
    rerender(table("tic-tac-toe", ticTacToe(1, empty)));
    expect(scrollTo).toHaveBeenCalledTimes(1);
    rerender(table("tic-tac-toe", { 0: { ...ticTacToe(0, empty)[0], round: 2 } }));
    expect(scrollTo).toHaveBeenCalledTimes(2);
    scrollTo.mockRestore();
  });

  it("keeps the clock in the bar that sticks with the turn line", () => {
    render(table("tic-tac-toe", ticTacToe(0, empty), { clock: { seat: 0, endsAt: Date.now() + 27_000, away: false } }));
    expect(screen.getByTestId("turn-clock").closest(".table-head")).toContainElement(screen.getByTestId("turn"));
  });

  it("names whose turn it is once, in the turn line, not again in the clock beside it", () => {
    const clockOn = (seatNo: number) => ({ seat: seatNo, endsAt: Date.now() + 12_000, away: false });
    const onTurn = (current: number) => ({ 0: state(nineLocksView({ current })), 2: state(nineLocksView({ seat: 2, current })) });
    const { rerender } = render(table("nine-locks", onTurn(2), { mySeats: [0, 2], clock: clockOn(2) }));
    expect(screen.getByTestId("turn")).toHaveTextContent("Your turn, Linus");
    expect(screen.getByTestId("turn-clock")).toHaveTextContent(/^0:12 left$/);
    rerender(table("nine-locks", onTurn(1), { mySeats: [0, 2], clock: clockOn(1) }));
    expect(screen.getByTestId("turn")).toHaveTextContent("Grace’s turn");
    expect(screen.getByTestId("turn-clock")).toHaveTextContent(/^0:12 left$/);
  });

  describe("a player a bot plays for", () => {
    const awayClock = { seat: 0, endsAt: Date.now() + 3_000, away: true };

    it("finds “I’m back” in the bar that sticks to the top, the only one on screen, and it sends back", () => {
      const send = vi.fn(ok);
      render(table("tic-tac-toe", ticTacToe(0, empty), { away: [0], clock: awayClock, send }));
      const back = screen.getByRole("button", { name: "I’m back" });
      expect(back.closest(".table-head")).toContainElement(screen.getByTestId("turn-clock"));
      expect(screen.getByTestId("turn-clock")).toHaveTextContent("You are away: a bot plays in");
      expect(screen.queryByTestId("away-note")).toBeNull(); // the bar says it: no second line
      fireEvent.click(back);
      expect(send).toHaveBeenCalledWith("back", {});
    });

    it("has it while another player's turn is on too", () => {
      const v = view("tic-tac-toe", { cells: empty, marks: ["X", "O"], current: 1 });
      render(table("tic-tac-toe", { 0: state(v) }, { away: [0], clock: { seat: 1, endsAt: Date.now() + 30_000, away: false } }));
      expect(screen.getByRole("button", { name: "I’m back" }).closest(".table-head")).not.toBeNull();
      expect(screen.getByTestId("away-note")).toHaveTextContent("You are away: a bot plays your turns until you press “I’m back” above.");
    });

    it("has it for a hot-seat player away too", () => {
      render(table("tic-tac-toe", ticTacToe(0, empty), { mySeats: [0, 2], away: [2] }));
      expect(screen.getByRole("button", { name: "I’m back" })).toBeEnabled();
    });

    it("holds it while the connection is lost", () => {
      render(table("tic-tac-toe", ticTacToe(0, empty), { away: [0], offline: true }));
      expect(screen.getByRole("button", { name: "I’m back" })).toBeDisabled();
    });

    it("is not offered to a player who is here, to another player away, to a spectator, or after the game", () => {
      const { rerender } = render(table("tic-tac-toe", ticTacToe(0, empty)));
      expect(screen.queryByRole("button", { name: "I’m back" })).toBeNull();
      rerender(table("tic-tac-toe", ticTacToe(0, empty), { away: [1] }));
      expect(screen.queryByRole("button", { name: "I’m back" })).toBeNull();
      rerender(table("tic-tac-toe", ticTacToe(0, empty), { away: [0], spectator: true }));
      expect(screen.queryByRole("button", { name: "I’m back" })).toBeNull();
      rerender(table("tic-tac-toe", ticTacToe(5, ["X", "X", "X", "O", "O", null, null, null, null], { winner: 0 }), { away: [0] }));
      expect(screen.queryByRole("button", { name: "I’m back" })).toBeNull();
      expect(screen.queryByTestId("away-note")).toBeNull();
    });
  });

  it("shows the newest line of a full log, which keeps its length", () => {
    const lines = (from: number) => Array.from({ length: 200 }, (_, i) => ({ version: from + i, text: `Move ${from + i}` }));
    const { rerender } = render(table("tic-tac-toe", ticTacToe(0, empty), { log: lines(0) }));
    const list = screen.getByTestId("game-log");
    Object.defineProperty(list, "scrollHeight", { value: 5000 });
    list.scrollTop = 4000; // the lines above grew taller: the end is out of view
    rerender(table("tic-tac-toe", ticTacToe(0, empty), { log: lines(1) }));
    expect(list.scrollTop).toBe(5000);
  });

  it("moves focus lost with a move to the turn line or the player's hand", async () => {
    const { rerender } = render(table("tic-tac-toe", ticTacToe(0, empty)));
    const cell = screen.getByTestId("cell-4");
    cell.focus();
    rerender(table("tic-tac-toe", ticTacToe(1, empty.map((_, i) => (i === 4 ? "X" : null)))));
    expect(cell).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId("turn")).toHaveFocus());

    const legal = [{ move: "play", args: ["9H", 4] }];
    rerender(table("nine-locks", { 0: state(nineLocksView({ version: 2 }), { legal_moves: legal }) }));
    screen.getByRole("button", { name: "9 of hearts" }).focus();
    rerender(table("nine-locks", { 0: state(nineLocksView({ version: 3, visible: [["2C", "KD"], ["3S"]] })) }));
    await waitFor(() => expect(screen.getByRole("group", { name: "Ada's hands" })).toHaveFocus());
  });

  it("offers a hot-seat player's take-back once the turn has passed to the next player here", () => {
    const send = vi.fn(ok);
    const cells = empty.map((_, i) => (i === 4 ? "X" : null));
    const v = view("tic-tac-toe", { version: 1, cells, marks: ["X", "O"], current: 1 });
    const free = cells.flatMap((c, i) => (c === null ? [{ move: "place", args: [i] }] : []));
    render(table("tic-tac-toe", { 0: state(v, { seat: 0, can_undo: true }), 1: state(v, { seat: 1, legal_moves: free }) },
      { mySeats: [0, 1], send }));
    fireEvent.click(screen.getByRole("button", { name: "Take back Ada’s move" }));
    expect(send).toHaveBeenCalledWith("undo", { seat: 0 });
  });

  it("moves focus to the player's hand when the hot-seat curtain opens on it", async () => {
    const v = view("poker99", { num_players: 3, total: 12, max_total: 99, hands: ["3D"], hands_count: [1, 5, 5],
      status: ["in", "in", "in"], last: null, signed_amounts: {}, deck_count: 30 });
    render(table("poker99", { 0: state(v, { legal_moves: [{ move: "play", args: ["3D"] }] }) }, { mySeats: [0, 2] }));
    const show = screen.getByRole("button", { name: "Show my hand (Ada)" });
    expect(show).toHaveFocus();
    fireEvent.click(show);
    await waitFor(() => expect(screen.getByRole("group", { name: "Ada's hand" })).toHaveFocus());
  });

  it("draws no hot-seat curtain over a hand its player no longer holds (out of Poker 99)", () => {
    const info = { slug: "poker99", real_time: false, private: ["hands"], moves: [] } as unknown as GameInfo;
    const at = (hand: string[]) => ({ 0: state(view("poker99", { num_players: 3, current: 1, total: 90, max_total: 99,
      hands: hand, hands_count: [hand.length, 5, 5], status: [hand.length ? "in" : "out", "in", "in"], last: null,
      signed_amounts: {}, deck_count: 30, out: hand.length ? [] : [0] })) });
    const { rerender } = render(table("poker99", at(["3D"]), { mySeats: [0, 2], info }));
    expect(screen.getByTestId("curtain")).toBeInTheDocument();
    rerender(table("poker99", at([]), { mySeats: [0, 2], info }));
    expect(screen.queryByTestId("curtain")).toBeNull();
  });

  it("has one h1, the table's, hidden: the board stays where it was", () => {
    render(table("nine-locks", { 0: state(nineLocksView()) }));
    const headings = screen.getAllByRole("heading", { level: 1 });
    expect(headings).toHaveLength(1);
    expect(headings[0]).toHaveTextContent("Nine Locks table K7MPQ2");
    expect(headings[0]).toHaveClass("visually-hidden");
    expect(screen.getByRole("region", { name: "Nine Locks table K7MPQ2" })).toHaveAttribute("data-testid", "table");
  });

  it("has its h1 while the cards are dealt too", () => {
    render(table("nine-locks", {}));
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
  });

  it("addresses a hot-seat player by name on their turn, and a single player as before", () => {
    const at = (current: number) => ({ 0: state(nineLocksView({ current })), 2: state(nineLocksView({ seat: 2, current })) });
    const { rerender } = render(table("nine-locks", at(2), { mySeats: [0, 2] }));
    expect(screen.getByTestId("turn")).toHaveTextContent(/^Your turn, Linus$/);
    rerender(table("nine-locks", at(1), { mySeats: [0, 2] }));
    expect(screen.getByTestId("turn")).toHaveTextContent(/^Grace’s turn$/);
    rerender(table("nine-locks", { 0: state(nineLocksView({ current: 0 })) }));
    expect(screen.getByTestId("turn")).toHaveTextContent(/^Your turn$/);
  });

  it("tells a real-time game by the server's word, not by its name", () => {
    const v = view("slapjack", { pile: [], stacks_count: [26, 26], events: [] });
    const info = { slug: "slapjack", real_time: true, private: [], moves: [] } as unknown as GameInfo;
    const { rerender } = render(table("slapjack", { 0: state(v) }));
    expect(screen.getByTestId("turn")).toHaveTextContent("Your turn");
    rerender(table("slapjack", { 0: state(v) }, { info }));
    expect(screen.getByTestId("turn")).toHaveTextContent("Slap at any time · your turn to turn up a card");
  });

  it("leaves out the real-time turn's words the away clock says, so that the bar keeps to one line", () => {
    const v = view("slapjack", { pile: [], stacks_count: [26, 26], events: [] });
    const info = { slug: "slapjack", real_time: true, private: [], moves: [] } as unknown as GameInfo;
    render(table("slapjack", { 0: state(v) }, { info, away: [0], clock: { seat: 0, endsAt: Date.now() + 9000, away: true } }));
    expect(screen.getByTestId("turn")).toHaveTextContent(/^Slap at any time$/);
    expect(screen.getByTestId("turn-clock")).toHaveTextContent("You are away: a bot plays in");
    expect(screen.getByRole("button", { name: "I’m back" })).toBeInTheDocument();
  });

  it("gives each game a fresh board: a slap remembered from the last game holds back none of the next", () => {
    const send = vi.fn(ok);
    const at = (round: number) => ({ 0: state(view("slapjack", { version: 4, pile: ["JC"], stacks_count: [20, 12],
      events: [] }), { round, legal_moves: [{ move: "slap", args: [4] }] }) });
    const { rerender } = render(table("slapjack", at(1), { send }));
    fireEvent.click(screen.getByRole("button", { name: /SLAP!/ }));
    expect(send).toHaveBeenCalledWith("move", { move: "slap", args: [4], seat: 0 });
    expect(screen.getByRole("button", { name: /SLAP!/ })).toBeDisabled();
    // The next game's view has the version the last slap named (its version 0 was never seen here).
    rerender(table("slapjack", at(2), { send }));
    const slap = screen.getByRole("button", { name: /SLAP!/ });
    expect(slap).toBeEnabled();
    fireEvent.click(slap);
    expect(send).toHaveBeenCalledTimes(2);
  });

  describe("a refused move", () => {
    const slapjack = (version: number) => ({ 0: state(view("slapjack", { version, pile: ["4H"], stacks_count: [20, 12], events: [] }),
      { legal_moves: [{ move: "slap", args: [version] }] }) });
    const refusing = (...messages: string[]) => vi.fn(async (): Promise<Ack> =>
      ({ ok: false, error: { code: "invalid_move", message: messages.shift() ?? "No" } }));

    afterEach(() => vi.useRealTimers());

    it("is said under the turn bar, over the board, not above it in the table's flow", async () => {
      render(table("slapjack", slapjack(4), { send: refusing("No jack, no pair, no sandwich: 3 cards under the pile") }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: /SLAP!/ })));
      expect(screen.getByRole("alert")).toHaveTextContent("No jack, no pair, no sandwich");
      expect(screen.getByRole("alert").closest(".table-head")).not.toBeNull();
    });

    it("stays while the next states come, then goes by itself", async () => {
      vi.useFakeTimers();
      const send = refusing("Too late: 3 cards under the pile");
      const { rerender } = render(table("slapjack", slapjack(4), { send }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: /SLAP!/ })));
      rerender(table("slapjack", slapjack(5), { send })); // a bot turns up the next card at once
      act(() => vi.advanceTimersByTime(REFUSAL_MIN_MS - 100));
      expect(screen.getByRole("alert")).toHaveTextContent("Too late");
      act(() => vi.advanceTimersByTime(100));
      expect(screen.queryByRole("alert")).toBeNull();
    });

    it("is replaced by the next refusal, which gets its own time", async () => {
      vi.useFakeTimers();
      const send = refusing("Too late", "Too late");
      const { rerender } = render(table("slapjack", slapjack(4), { send }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: /SLAP!/ })));
      act(() => vi.advanceTimersByTime(3000));
      rerender(table("slapjack", slapjack(5), { send }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: /SLAP!/ })));
      act(() => vi.advanceTimersByTime(REFUSAL_MIN_MS - 100));
      expect(screen.getByRole("alert")).toHaveTextContent("Too late");
      expect(screen.getAllByRole("alert")).toHaveLength(1);
    });

    it("goes when the game ends, for the result", async () => {
      const send = refusing("Too late");
      const { rerender } = render(table("slapjack", slapjack(4), { send }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: /SLAP!/ })));
      expect(screen.getByRole("alert")).toHaveTextContent("Too late");
      const over = slapjack(5)[0];
      rerender(table("slapjack", { 0: { ...over, result: { winner: 1 }, legal_moves: [] } }, { send }));
      expect(screen.queryByRole("alert")).toBeNull();
    });

    it("can be put away at once", async () => {
      render(table("slapjack", slapjack(4), { send: refusing("Too late") }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: /SLAP!/ })));
      fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
      expect(screen.queryByRole("alert")).toBeNull();
    });
  });

  it("lets a slap the server refused be sent again", async () => {
    const send = vi.fn(async (): Promise<Ack> => ({ ok: false, error: { code: "rate_limited", message: "Slow down" } }));
    render(table("slapjack", { 0: state(view("slapjack", { version: 4, pile: ["JC"], stacks_count: [20, 12], events: [] }),
      { legal_moves: [{ move: "slap", args: [4] }] }) }, { send }));
    const slap = screen.getByRole("button", { name: /SLAP!/ });
    await act(async () => fireEvent.click(slap));
    expect(screen.getByRole("alert")).toHaveTextContent("Slow down");
    expect(slap).toBeEnabled();
    fireEvent.click(slap);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("sends each hot-seat player's slap for their own seat", () => {
    const send = vi.fn(ok);
    const at = (s: number) => state(view("slapjack", { seat: s, num_players: 3, version: 4, pile: ["4H"],
      stacks_count: [20, 12, 20], events: [] }), { legal_moves: [{ move: "slap", args: [4] }] });
    render(table("slapjack", { 0: at(0), 2: at(2) }, { mySeats: [0, 2], send }));
    fireEvent.click(screen.getByRole("button", { name: /SLAP! Linus/ }));
    expect(send).toHaveBeenCalledWith("move", { move: "slap", args: [4], seat: 2 });
  });
});
