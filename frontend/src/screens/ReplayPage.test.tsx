import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { view } from "../lib/fixtures";
import type { Replay } from "../lib/history";
import { parseRoute } from "../lib/router";
import { ReplayView, RoomReplaysPage } from "./ReplayPage";

function board(cells: (number | null)[], version: number, extra: Record<string, unknown> = {}) {
  return view("tic-tac-toe", { board: cells, version, ...extra });
}

const empty = Array<number | null>(9).fill(null);
const replay: Replay = {
  id: "0123456789abcdef", room_id: "r", round: 1, game: "tic-tac-toe", title: "Tic-Tac-Toe",
  num_players: 2, result: { winner: 0 }, moves: 2, started: 0, finished: 1,
  players: [
    { seat: 0, name: "Ada", kind: "human", user_id: "a", level: null },
    { seat: 1, name: "Grace", kind: "human", user_id: "g", level: null },
  ],
  steps: [
    { version: 0, seat: null, move: null, args: [], view: board(empty, 0), log: ["The game begins"] },
    { version: 1, seat: 0, move: "place", args: [4], view: board([null, null, null, null, 0, null, null, null, null], 1), log: ["Ada put X in the centre"] },
    { version: 2, seat: 1, move: "place", args: [0], view: board([1, null, null, null, 0, null, null, null, null], 2), actor: "timeout",
      log: ["Grace's time ran out: a bot played for them", "Grace put O in the top left"] },
  ],
};

describe("the replay page", () => {
  it("steps through a finished game with the buttons, the slider and the arrow keys", () => {
    render(<ReplayView replay={replay} />);
    expect(screen.getByRole("heading", { name: /Tic-Tac-Toe: Ada won/ })).toBeInTheDocument();
    expect(screen.getByText("Step 0 of 2")).toBeInTheDocument();
    expect(screen.getByTestId("replay-step")).toHaveTextContent("The game begins");
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByText("Step 1 of 2")).toBeInTheDocument();
    expect(screen.getByTestId("replay-step")).toHaveTextContent("Ada put X in the centre");
    expect(screen.queryByText("Played by a bot standing in")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Last" }));
    expect(screen.getByText("Step 2 of 2")).toBeInTheDocument();
    expect(screen.getByText("Played by a bot standing in")).toBeInTheDocument();
    const next = screen.getByRole("button", { name: "Next" });
    expect(next).toHaveAttribute("aria-disabled", "true"); // marked: it keeps a keyboard player's focus
    next.focus();
    fireEvent.click(next);
    expect(next).toHaveFocus();
    fireEvent.keyDown(screen.getByRole("region", { name: /Replay of/ }), { key: "ArrowLeft" });
    expect(screen.getByText("Step 1 of 2")).toBeInTheDocument();
    fireEvent.change(screen.getByRole("slider"), { target: { value: "0" } });
    expect(screen.getByText("Step 0 of 2")).toBeInTheDocument();
  });

  it("steps with the arrow keys wherever focus is on the page, but in the slider and fields", () => {
    render(<><input type="text" aria-label="Somewhere to type" /><ReplayView replay={replay} /></>);
    fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(screen.getByText("Step 1 of 2")).toBeInTheDocument();
    const play = screen.getByRole("button", { name: "Play" });
    play.focus();
    fireEvent.keyDown(play, { key: "ArrowRight" });
    expect(screen.getByText("Step 2 of 2")).toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: "ArrowLeft" });
    expect(screen.getByText("Step 1 of 2")).toBeInTheDocument();
    // The slider steps by itself (a second step here would skip one); a field keeps its caret.
    expect(fireEvent.keyDown(screen.getByRole("slider"), { key: "ArrowLeft" })).toBe(true);
    expect(fireEvent.keyDown(screen.getByRole("textbox"), { key: "ArrowLeft" })).toBe(true);
    expect(screen.getByText("Step 1 of 2")).toBeInTheDocument();
    // Alt with an arrow is the browser's back and forward.
    fireEvent.keyDown(document.body, { key: "ArrowLeft", altKey: true });
    expect(screen.getByText("Step 1 of 2")).toBeInTheDocument();
  });

  it("plays the game step by step, and from the start again once it is over", () => {
    vi.useFakeTimers();
    try {
      render(<ReplayView replay={replay} />);
      fireEvent.click(screen.getByRole("button", { name: "Play" }));
      expect(screen.getByRole("button", { name: "Pause" })).toBeEnabled();
      for (let i = 0; i < 3; i += 1) act(() => vi.advanceTimersByTime(1_000));
      expect(screen.getByText("Step 2 of 2")).toBeInTheDocument();
      fireEvent.click(screen.getByRole("button", { name: "Play from the start" }));
      expect(screen.getByText("Step 0 of 2")).toBeInTheDocument();
      expect(screen.getByRole("button", { name: "Pause" })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });

  it("has its own addresses", () => {
    expect(parseRoute("/replay/0123456789abcdef")).toEqual({ name: "replay", id: "0123456789abcdef" });
    expect(parseRoute("/replays/6f1c2a9e-0b7d-4f57-9a43-2b1d5c7e8f90")).toEqual(
      { name: "replays", room: "6f1c2a9e-0b7d-4f57-9a43-2b1d5c7e8f90", since: 0 });
    expect(parseRoute("/replays/6f1c", "?since=1764434400000")).toEqual(
      { name: "replays", room: "6f1c", since: 1764434400000 });
    expect(parseRoute("/replays/6f1c", "?since=soon")).toEqual({ name: "replays", room: "6f1c", since: 0 });
    expect(parseRoute("/replay/not-an-id")).toEqual({ name: "missing", path: "/replay/not-an-id" });
  });
});

describe("a room's finished games", () => {
  afterEach(() => vi.unstubAllGlobals());

  // The server's answers, as docs/protocol.md shows them.
  const summary = (id: string, round: number) => {
    const { steps: _steps, ...rest } = replay;
    return { ...rest, id, round };
  };
  function serve(): string[] {
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (path: string) => {
      asked.push(path);
      const body = path === "/api/games" ? { games: [], bot_levels: [], turn_times: [] }
        : path.startsWith("/api/matches?room=")
          ? { matches: [summary("bbbbbbbbbbbbbbbb", 2), summary("aaaaaaaaaaaaaaaa", 1)] }
          : { ...replay, id: path.slice(-16), round: path.endsWith("a") ? 1 : 2 };
      return new Response(JSON.stringify(body), { status: 200 });
    });
    return asked;
  }

  it("opens on the latest game's replay, drawn on felt, and offers the others", async () => {
    const asked = serve();
    render(<RoomReplaysPage roomId="r" />);
    expect(await screen.findByText("Step 0 of 2")).toBeInTheDocument();
    expect(asked).toContain("/api/matches/bbbbbbbbbbbbbbbb");
    expect(screen.getByTestId("replay-board")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Game 2" })).toHaveAttribute("aria-pressed", "true");
    fireEvent.click(screen.getByRole("button", { name: "Game 1" }));
    expect(await screen.findByRole("button", { name: "Game 1", pressed: true })).toBeInTheDocument();
    expect(asked).toContain("/api/matches/aaaaaaaaaaaaaaaa");
  });

  it("asks for one room's games only when it knows when the room opened", async () => {
    const asked = serve();
    render(<RoomReplaysPage roomId="r" since={1764434400000} />);
    expect(await screen.findByText("Step 0 of 2")).toBeInTheDocument();
    expect(asked).toContain("/api/matches?room=r&since=1764434400000");
  });
});
