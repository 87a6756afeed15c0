import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactElement } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { room, seat } from "../lib/fixtures";
import { rememberRoom } from "../lib/knownRooms";
import { hasLeft, markLeft } from "../lib/leftRooms";
import { parseRoute } from "../lib/router";
import type { RoomModel } from "../lib/useRoom";
import type { Room } from "../lib/types";
import { FREED_AFTER_MS, ROOM_CHECK_MS, RoomLine, RoomPage } from "./RoomPage";

// The server as the page sees it: the room's summary (REST) and the live room (useRoom, whose
// calls say whether the page joined: its last argument).
const server = vi.hoisted(() => ({
  room: null as Room | null, live: null as Partial<RoomModel> | null, missing: "There is no room 'K7MPQ2'",
  looks: 0,
}));
vi.mock("../lib/api", async (original) => {
  const api = await original<typeof import("../lib/api")>();
  return {
    ...api,
    fetchRoom: async () => {
      server.looks += 1;
      if (!server.room) throw new api.ApiError("not_found", server.missing, 404);
      return server.room;
    },
  };
});
const useRoom = vi.hoisted(() => vi.fn());
vi.mock("../lib/useRoom", async (original) => {
  const real = await original<typeof import("../lib/useRoom")>();
  useRoom.mockImplementation((_code: string, _identity: unknown, _name: string, _spectate: boolean,
    enabled: boolean) => {
    const model = enabled && server.live ? { ...real.initialModel, ...server.live } : real.initialModel;
    return [model, { send: vi.fn(async () => ({ ok: true })), leave: vi.fn(async () => undefined) }];
  });
  return { ...real, useRoom };
});
const offered = vi.hoisted(() => ({ games: null as { games: { title: string }[] } | null }));
vi.mock("../lib/useGames", () => ({ useGames: () => ({ data: offered.games, error: null }) }));

/** Whether the page has asked to join the room (with the last render's arguments). */
const joining = () => useRoom.mock.calls.at(-1)?.[4] === true;

/** Renders the page and lets its first look-ups (identity, room summary) come back. */
async function show(ui: ReactElement): Promise<void> {
  render(ui);
  await act(async () => undefined);
}

// Every test: a tab with an identity, no live room yet, and storage cleared after.
beforeEach(() => {
  sessionStorage.setItem("lounge.token", "t1");
  sessionStorage.setItem("lounge.user_id", "u1");
  server.live = null;
  server.missing = "There is no room 'K7MPQ2'";
  offered.games = null;
  useRoom.mockClear();
});
afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

describe("RoomLine", () => {
  const line = () => screen.getByTestId("join-room-line");

  it("says a playing room means watching, unless a seat of this browser's is there", () => {
    const playing = room({ status: "playing", seats: [seat(0, "Ada"), seat(1, "Grace")] });
    const { rerender } = render(<RoomLine room={playing} />);
    expect(line()).toHaveTextContent("2 players at the table, a game is on, so you would watch.");
    rerender(<RoomLine room={playing} held="elsewhere" />);
    expect(line()).toHaveTextContent("2 players at the table (one is you, in another tab), a game is on.");
    rerender(<RoomLine room={playing} held="freed" />);
    expect(line()).toHaveTextContent("2 players at the table (one is you), a game is on.");
  });

  it("says a full lobby has no seat free, but not that someone with a seat there would only watch", () => {
    const full = room({ max_players: 2, seats: [seat(0, "Ada"), seat(1, "Grace")] });
    const { rerender } = render(<RoomLine room={full} />);
    expect(line()).toHaveTextContent("2 of 2 seats taken, waiting to start, with no seat free, so you would watch.");
    rerender(<RoomLine room={full} held="elsewhere" />);
    expect(line()).toHaveTextContent(
      "2 of 2 seats taken (one is yours, in another tab), waiting to start, with no seat free.");
    rerender(<RoomLine room={full} held="freed" />);
    expect(line()).toHaveTextContent("2 of 2 seats taken (one is yours), waiting to start.");
  });
});

describe("RoomPage for a room this tab left on purpose", () => {
  beforeEach(() => {
    localStorage.setItem("lounge.name", "Grace");
    server.room = room({ seats: [seat(0, "Ada")] });
  });

  it("joins at once as before when the room was never left", async () => {
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    await waitFor(() => expect(joining()).toBe(true));
    expect(screen.queryByTestId("left-room")).toBeNull();
  });

  it("does not join: it says so, shows the room, and joins again only when asked", async () => {
    markLeft("K7MPQ2");
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(screen.getByTestId("left-room-note")).toHaveTextContent("You left this room.");
    expect(await screen.findByTestId("join-room-line"))
      .toHaveTextContent("Nine Locks, hosted by Ada: 1 of 4 seats taken, waiting to start.");
    expect(screen.getByRole("link", { name: "Back to the lounge" })).toHaveAttribute("href", "/");
    expect(useRoom.mock.calls.every((call) => call[4] === false)).toBe(true);

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Join again" })));
    expect(joining()).toBe(true);
    expect(useRoom.mock.calls.at(-1)?.slice(2, 4)).toEqual(["Grace", false]);
    expect(hasLeft("K7MPQ2")).toBe(false);
    expect(screen.queryByTestId("left-room")).toBeNull();
  });

  it("says when the game is on that joining again means watching", async () => {
    markLeft("K7MPQ2");
    // The seat this tab left stays at the table, empty, until the game ends: not counted.
    server.room = room({ status: "playing", seats: [seat(0, "Ada"), seat(1, "Grace"), seat(2, "Linus", { left: true })] });
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByTestId("join-room-line")).toHaveTextContent(
      "Nine Locks, hosted by Ada: 2 players at the table, a game is on, so you would watch.");
    expect(screen.getByRole("button", { name: "Watch" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Join again" })).toBeNull();
    expect(screen.getByTestId("left-room-note")).toHaveTextContent("you can watch it");
  });

  it("keeps its line on the room current while shown: the game ends, then the room closes", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      markLeft("K7MPQ2");
      const seats = [seat(0, "Ada"), seat(1, "Grace")];
      server.room = room({ status: "playing", seats });
      await show(<RoomPage code="K7MPQ2" spectate={false} />);
      expect(await screen.findByTestId("join-room-line")).toHaveTextContent("a game is on, so you would watch.");
      server.room = room({ status: "finished", seats });
      await act(async () => vi.advanceTimersByTime(ROOM_CHECK_MS));
      expect(screen.getByTestId("join-room-line")).toHaveTextContent(
        "Nine Locks, hosted by Ada: 2 players at the table, its game is over, so you would watch.");
      server.room = null;
      server.missing = "Room K7MPQ2 has closed: the host closed it.";
      await act(async () => vi.advanceTimersByTime(ROOM_CHECK_MS));
      expect(screen.getByRole("alert")).toHaveTextContent("Room K7MPQ2 has closed: the host closed it.");
      expect(joining()).toBe(false);
      const looks = server.looks; // a closed room is not looked at again
      await act(async () => vi.advanceTimersByTime(2 * ROOM_CHECK_MS));
      expect(server.looks).toBe(looks);
    } finally {
      vi.useRealTimers();
    }
  });

  it("says the room closed rather than offering to join it again", async () => {
    markLeft("K7MPQ2");
    server.room = null;
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByRole("heading", { name: "No open room with this code" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Join again" })).toBeNull();
    expect(joining()).toBe(false);
  });

  it("asks for a name first when none is remembered", async () => {
    markLeft("K7MPQ2");
    localStorage.clear();
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    fireEvent.click(screen.getByRole("button", { name: "Join again" }));
    expect(await screen.findByTestId("join-name")).toBeInTheDocument();
    expect(joining()).toBe(false);
  });

  it("is let go of when another page of the app is on screen", async () => {
    markLeft("K7MPQ2");
    const onGone = vi.fn();
    await show(<RoomPage code="K7MPQ2" spectate={false} hidden onGone={onGone} />);
    expect(onGone).toHaveBeenCalled();
  });

  it("is remembered when the player presses Leave", async () => {
    const table = room({ seats: [seat(0, "Ada"), seat(1, "Grace", { user_id: "u1", ready: false })] });
    server.live = { status: "online", room: table, mySeats: [1] };
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    const leave = await screen.findByRole("button", { name: "Leave" });
    await act(async () => fireEvent.click(leave));
    expect(hasLeft("K7MPQ2")).toBe(true);
    expect(window.location.pathname).toBe("/");
  });
});

describe("RoomPage, watching and closed", () => {
  beforeEach(() => {
    server.room = room({ status: "playing", seats: [seat(0, "Ada"), seat(1, "Grace")] });
  });

  it("keeps the invite's line on the room current while it asks for a name", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      localStorage.clear();
      const seats = [seat(0, "Ada"), seat(1, "Grace")];
      server.room = room({ status: "playing", seats });
      await show(<RoomPage code="K7MPQ2" spectate={false} />);
      expect(await screen.findByTestId("join-name")).toBeInTheDocument();
      expect(screen.getByTestId("join-room-line")).toHaveTextContent("a game is on, so you would watch.");
      server.room = room({ status: "finished", seats });
      await act(async () => vi.advanceTimersByTime(ROOM_CHECK_MS));
      expect(screen.getByTestId("join-room-line")).toHaveTextContent("its game is over, so you would watch.");
      expect(joining()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it("watches at once from a Watch link, without asking for a name", async () => {
    await show(<RoomPage code="K7MPQ2" spectate />);
    await waitFor(() => expect(joining()).toBe(true));
    expect(useRoom.mock.calls.at(-1)?.slice(2, 4)).toEqual(["", true]);
    expect(screen.queryByTestId("join-name")).toBeNull();
  });

  it("keeps watching after a reload when Just watch was chosen, rather than take a seat", async () => {
    server.room = room();
    localStorage.clear();
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    fireEvent.change(await screen.findByTestId("join-name"), { target: { value: "Linus" } });
    fireEvent.click(screen.getByRole("button", { name: "Just watch" }));
    expect(useRoom.mock.calls.at(-1)?.slice(2, 4)).toEqual(["Linus", true]);
    cleanup();
    const reloaded = parseRoute(window.location.pathname, window.location.search);
    window.history.replaceState(null, "", "/");
    await show(<RoomPage code="K7MPQ2" spectate={reloaded.name === "room" && reloaded.spectate} />);
    await waitFor(() => expect(joining()).toBe(true));
    expect(useRoom.mock.calls.at(-1)?.slice(2, 4)).toEqual(["Linus", true]);
  });

  it("drops ?watch=1 from the address, in place, once the watcher takes a seat", async () => {
    const lobby = room({ seats: [seat(0, "Ada")] });
    server.room = lobby;
    server.live = { status: "online", room: lobby, spectator: true };
    window.history.replaceState(null, "", "/r/K7MPQ2?watch=1");
    const steps = window.history.length;
    const page = render(<RoomPage code="K7MPQ2" spectate />);
    await act(async () => undefined);
    expect(window.location.search).toBe("?watch=1"); // still watching: a reload watches again
    server.live = { status: "online", room: room({ seats: [seat(0, "Ada"), seat(1, "Linus", { user_id: "u1" })] }),
      mySeats: [1], spectator: false };
    page.rerender(<RoomPage code="K7MPQ2" spectate />);
    await act(async () => undefined);
    expect(`${window.location.pathname}${window.location.search}`).toBe("/r/K7MPQ2");
    expect(window.history.length).toBe(steps);
  });

  it("says why the room closed when the server does, without its games (they cannot be watched)", async () => {
    offered.games = { games: [{ title: "Nine Locks" }] };
    rememberRoom({ code: "K7MPQ2", id: "u0", title: "Pirate Poker" });
    server.room = null;
    server.missing = "Room K7MPQ2 has closed: its game (pirate-poker) is no longer offered here. "
      + "The host can open a new room with another game.";
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByRole("heading", { name: "This room has closed" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("its game (pirate-poker) is no longer offered here");
    expect(screen.queryByRole("link", { name: "See its games" })).toBeNull();
  });

  it("tells a late arrival why the room closed, and leads to its games when its game is still offered", async () => {
    offered.games = { games: [{ title: "Nine Locks" }] };
    server.room = null;
    server.missing = "Room K7MPQ2 has closed: the host closed it.";
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByRole("heading", { name: "This room has closed" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Room K7MPQ2 has closed: the host closed it.");
    expect(screen.queryByRole("link", { name: "See its games" })).toBeNull(); // never in it here
    cleanup();
    rememberRoom({ code: "K7MPQ2", id: "u0", title: "Nine Locks", created: 1732900000000 });
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByRole("link", { name: "See its games" })).toHaveAttribute(
      "href", "/replays/u0?since=1732900000000");
    expect(screen.getByRole("alert")).toHaveTextContent("Room K7MPQ2 has closed: the host closed it.");
  });

  it("says a room closed because its host never came, not that their connection was lost", async () => {
    server.live = { closed: "host_never_came" };
    await show(<RoomPage code="K7MPQ2" spectate />);
    expect(await screen.findByRole("heading", { name: "This room was closed" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("The host never came, so the room was closed.");
  });

  it("leads from a room that closed to all its games, not only the finished ones", async () => {
    rememberRoom({ code: "K7MPQ2", id: "u0", title: "Nine Locks" });
    server.room = null;
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByRole("heading", { name: "This room has closed" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "See its games" })).toHaveAttribute("href", "/replays/u0");
  });

  it("leads to this room's games only, not its host's other rooms' (a room's id is its host's)", async () => {
    rememberRoom({ code: "K7MPQ2", id: "u0", title: "Nine Locks", created: 1732900000000 });
    server.room = null;
    await show(<RoomPage code="K7MPQ2" spectate={false} />);
    expect(await screen.findByRole("link", { name: "See its games" })).toHaveAttribute(
      "href", "/replays/u0?since=1732900000000");
  });

  it("offers to try again when the join could not be made, not only the way out", async () => {
    server.live = { fatal: { code: "internal", message: "The room's server could not be reached in time: try again" } };
    await show(<RoomPage code="K7MPQ2" spectate />);
    expect(await screen.findByRole("heading", { name: "Cannot join this room" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the lounge" })).toBeInTheDocument();
  });
});

describe("RoomPage, watching while this browser's seat there is freed", () => {
  // Grace plays seat 1 in another tab of this browser (held in localStorage); this tab watches.
  const held = (connected: boolean) => {
    const table = room({ status: "playing", seats: [seat(0, "Ada"), seat(1, "Grace", { user_id: "u7", connected })] });
    localStorage.setItem("lounge.seats", JSON.stringify([{ code: "K7MPQ2", token: "t7", user_id: "u7" }]));
    server.room = table;
    server.live = { status: "online", room: table, spectator: true };
  };
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => vi.useRealTimers());
  const wait = (ms: number) => act(async () => vi.advanceTimersByTime(ms));

  it("offers nothing while the other tab plays the seat", async () => {
    held(true);
    await show(<RoomPage code="K7MPQ2" spectate />);
    await waitFor(() => expect(joining()).toBe(true));
    expect(screen.queryByTestId("freed-seat")).toBeNull();
  });

  it("offers the seat once its tab is closed, and plays it as that player, not a new seat", async () => {
    held(false);
    await show(<RoomPage code="K7MPQ2" spectate />);
    await wait(FREED_AFTER_MS);
    const offer = await screen.findByTestId("freed-seat");
    expect(offer).toHaveTextContent("Grace’s tab was closed: play Grace here?");
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Play Grace here" })));
    await waitFor(() => expect(useRoom.mock.calls.at(-1)?.slice(1, 4))
      .toEqual([{ userId: "u7", token: "t7" }, "Grace", false]));
    expect(sessionStorage.getItem("lounge.token")).toBe("t7");
  });

  it("offers nothing for a seat free only a moment: its tab was reloaded, not closed", async () => {
    held(false);
    const page = render(<RoomPage code="K7MPQ2" spectate />);
    await wait(FREED_AFTER_MS / 2);
    expect(screen.queryByTestId("freed-seat")).toBeNull();
    held(true); // the reloaded tab is back in its seat
    page.rerender(<RoomPage code="K7MPQ2" spectate />);
    await wait(FREED_AFTER_MS);
    expect(screen.queryByTestId("freed-seat")).toBeNull();
  });
});
