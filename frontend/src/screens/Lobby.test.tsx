import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { clickTwice, heldSend, room, seat } from "../lib/fixtures";
import type { Ack, GamesResponse } from "../lib/types";
import { LOBBY_QUIET_MS, Lobby, TOO_SOON, seatNews, waitingFor } from "./Lobby";

const games = vi.hoisted(() => ({
  loaded: { games: [], bot_levels: ["easy", "normal"], turn_times: [30, 60] } as GamesResponse | null,
}));
vi.mock("../lib/useGames", () => ({ useGames: () => ({ data: games.loaded, error: null }) }));

/** Held while an event is on its way: disabled, or (a button that keeps the keyboard's focus)
 * aria-disabled. */
const held = (el: HTMLElement) => el.matches(":disabled") || el.getAttribute("aria-disabled") === "true";

describe("Lobby", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const lobby = (userId: string, offline: boolean) => {
    const table = room({ seats: [seat(0, "Ada"), seat(1, "Grace", { ready: false })] });
    render(<Lobby room={table} userId={userId} mySeats={[userId === "u0" ? 0 : 1]} spectator={false}
      turnTimes={[30, 60]} send={vi.fn()} onLeave={vi.fn()} offline={offline} />);
  };
  const hostControls = () => [
    screen.getByRole("button", { name: "Start game" }),
    screen.getByRole("button", { name: "Add bot" }),
    screen.getByRole("button", { name: "Add hot seat" }),
    screen.getByRole("button", { name: "Remove Grace" }),
    screen.getByTestId("turn-time-select"),
    screen.getByRole("combobox", { name: /Bot level/ }),
    screen.getByRole("textbox", { name: /Hot-seat player/ }),
  ];

  it("says a bot's level once, in its name, and calls it a bot in its pill", () => {
    const table = room({ seats: [seat(0, "Ada"), seat(1, "Bot 1 (easy)", { kind: "bot", level: "easy", user_id: null })] });
    render(<Lobby room={table} userId="u0" mySeats={[0]} spectator={false} turnTimes={[30, 60]} send={vi.fn()}
      onLeave={vi.fn()} offline={false} />);
    const card = screen.getByTestId("seat-1");
    expect(card.querySelector(".pill-bot")).toHaveTextContent(/^Bot$/);
    expect(card.textContent?.match(/easy/g)).toHaveLength(1);
  });

  it("tells a screen reader who sat down, who went and who is ready", () => {
    const before = room({ seats: [seat(0, "Ada"), seat(1, "Grace", { ready: false })] });
    const after = room({ seats: [seat(0, "Ada"), seat(1, "Grace", { ready: true }),
      seat(2, "Bot 1 (easy)", { kind: "bot", user_id: null })] });
    expect(seatNews(before, after)).toBe("Grace is ready. Bot 1 (easy) took a seat.");
    expect(seatNews(after, room({ seats: [seat(0, "Ada")] }))).toBe("Grace left the seats. Bot 1 (easy) left the seats.");
    expect(seatNews(after, after)).toBe("");
  });

  it("tells a screen reader that the host removed a player, not that they left", () => {
    const before = room({ seats: [seat(0, "Ada"), seat(1, "Grace")] });
    const after = room({ seats: [seat(0, "Ada")], removed: [{ user_id: "u1", name: "Grace" }] });
    expect(seatNews(before, after)).toBe("The host removed Grace from the seats.");
  });

  it("puts focus on the seats' heading when the control it was on goes", async () => {
    const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
    const props = { userId: "u0", mySeats: [0], spectator: false, send, onLeave: vi.fn() };
    const { rerender } = render(<Lobby room={room({ seats: [seat(0, "Ada"), seat(1, "Grace")] })} {...props} />);
    screen.getByRole("button", { name: "Remove Grace" }).focus();
    rerender(<Lobby room={room({ seats: [seat(0, "Ada")] })} {...props} />);
    await waitFor(() => expect(screen.getByRole("heading", { name: "Seats" })).toHaveFocus());
    expect(screen.getByTestId("lobby-news")).toHaveTextContent("Grace left the seats.");
  });

  it("says why the room is back in its lobby, and nothing when it is not", () => {
    const why = "The game being played could not be picked up again after the server restarted.";
    const { rerender } = render(<Lobby room={room({ notice: why })} userId="u1" mySeats={[1]} spectator={false}
      turnTimes={[30, 60]} send={vi.fn()} onLeave={vi.fn()} offline={false} />);
    expect(screen.getByTestId("room-notice")).toHaveTextContent(why);
    rerender(<Lobby room={room({ notice: null })} userId="u1" mySeats={[1]} spectator={false}
      turnTimes={[30, 60]} send={vi.fn()} onLeave={vi.fn()} offline={false} />);
    expect(screen.queryByTestId("room-notice")).toBeNull();
  });

  it("colours each avatar by its seat's colour, which stays with the player when seats move", () => {
    const table = room({ seats: [seat(0, "Grace", { colour: 1 }), seat(1, "Ada", { colour: 0 })] });
    render(<Lobby room={table} userId="u0" mySeats={[0]} spectator={false} turnTimes={[30, 60]} send={vi.fn()}
      onLeave={vi.fn()} offline={false} />);
    const colour = (n: number) => (screen.getByTestId(`seat-${n}`).querySelector(".avatar") as HTMLElement).style.background;
    expect(colour(0)).toBe("rgb(198, 40, 40)");
    expect(colour(1)).toBe("rgb(21, 101, 192)");
  });

  it("counts the open seats in one line too, for a phone", () => {
    lobby("u0", false);
    expect(screen.getByTestId("open-seats")).toHaveTextContent(/^2 open seats$/);
    expect(screen.getByTestId("invite-link")).toHaveTextContent(`${window.location.origin}/r/${room().code}`);
  });

  it("tells the host how many players the game needs", () => {
    const table = room({ title: "Tic-Tac-Toe", min_players: 2, seats: [seat(0, "Ada")] });
    render(<Lobby room={table} userId="u0" mySeats={[0]} spectator={false} turnTimes={[30, 60]} send={vi.fn()}
      onLeave={vi.fn()} offline={false} />);
    expect(screen.getByText("Waiting for players: Tic-Tac-Toe needs at least 2 players.")).toBeInTheDocument();
  });

  it("waits for what the server's start waits for: enough seats, then every player ready", () => {
    const at = (...seats: ReturnType<typeof seat>[]) => waitingFor(room({ seats }));
    expect(at(seat(0, "Ada"))).toBe("Waiting for players: Nine Locks needs at least 2 players.");
    expect(at(seat(0, "Ada"), seat(1, "Grace", { ready: false }))).toBe("Waiting for Grace to get ready.");
    expect(at(seat(0, "Ada"), seat(1, "Grace", { ready: false }), seat(2, "Linus", { ready: false })))
      .toBe("Waiting for Grace and Linus to get ready.");
    expect(at(seat(0, "Ada"), seat(1, "Grace", { ready: false }), seat(2, "Linus", { ready: false }),
      seat(3, "Bob", { ready: false }))).toBe("Waiting for Grace, Linus and Bob to get ready.");
    // One who lost their connection may not be back: the host is told, and may remove them.
    expect(at(seat(0, "Ada"), seat(1, "Grace", { ready: false, connected: false })))
      .toBe("Waiting for Grace (disconnected) to get ready.");
    // Bots, hot-seat players and the host are ready whatever the seat says.
    expect(at(seat(0, "Ada", { ready: false }), seat(1, "Bot 1 (easy)", { kind: "bot", user_id: null, ready: false }),
      seat(2, "Linus", { kind: "local", user_id: "u0", ready: false }))).toBeNull();
  });

  it("says who Start waits for instead of sending it, and again at each press", () => {
    const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
    const props = { userId: "u0", mySeats: [0], spectator: false, send, onLeave: vi.fn() };
    const { rerender } = render(<Lobby room={room({ seats: [seat(0, "Ada"), seat(1, "Grace", { ready: false })] })} {...props} />);
    const start = screen.getByRole("button", { name: "Start game" });
    expect(start).toHaveAttribute("aria-disabled", "true");
    expect(start).toHaveAccessibleDescription("Waiting for Grace to get ready.");
    expect(screen.getByTestId("start-waiting").querySelector(".nudged")).toBeNull();
    fireEvent.click(start);
    const said = screen.getByTestId("start-waiting").querySelector(".nudged");
    expect(said).toHaveTextContent("Waiting for Grace to get ready.");
    fireEvent.click(start);
    expect(screen.getByTestId("start-waiting").querySelector(".nudged")).not.toBe(said); // said anew
    expect(send).not.toHaveBeenCalled();
    rerender(<Lobby room={room({ seats: [seat(0, "Ada"), seat(1, "Grace")] })} {...props} />);
    expect(start).not.toHaveAttribute("aria-disabled");
    expect(screen.getByTestId("start-waiting")).toBeEmptyDOMElement();
    fireEvent.click(start);
    expect(send).toHaveBeenCalledWith("start", {});
  });

  it("offers the host's controls while connected", () => {
    lobby("u0", false);
    for (const control of hostControls()) expect(control).toBeEnabled();
  });

  it("holds every control that sends while the connection is lost, but lets the host close the room", () => {
    lobby("u0", true);
    for (const control of hostControls()) expect(control).toBeDisabled();
    expect(screen.getByRole("button", { name: "Close room" })).toBeEnabled();
  });

  it("holds a player's ready button while the connection is lost", () => {
    lobby("u1", true);
    expect(screen.getByRole("button", { name: "I’m ready" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Leave" })).toBeEnabled();
  });

  it("sends the ready the player asked for, once for a double click, and shows it at once", async () => {
    vi.useFakeTimers();
    const { send, answer } = heldSend();
    const seats = (ready: boolean) => [seat(0, "Ada"), seat(1, "Grace", { ready })];
    const { rerender } = render(<Lobby room={room({ seats: seats(false) })} userId="u1" mySeats={[1]} spectator={false}
      send={send} onLeave={vi.fn()} />);
    const button = screen.getByRole("button", { name: "I’m ready" });
    // Both clicks before the button is drawn again (one act): the second still finds it enabled.
    clickTwice(button);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith("ready", { ready: true });
    // The second press sent nothing: it refused nothing either, the first's "ready" stays shown. The
    // same button says so (it keeps the focus); not ready is a small button of its own.
    await act(async () => undefined);
    expect(button).toHaveTextContent("Ready ✓");
    expect(button).toHaveAttribute("aria-disabled", "true");
    const notReady = screen.getByRole("button", { name: "Not ready" });
    expect(held(notReady)).toBe(true);
    // The room's update may come before the acknowledgement, or after: either way Grace is ready.
    rerender(<Lobby room={room({ seats: seats(true) })} userId="u1" mySeats={[1]} spectator={false}
      send={send} onLeave={vi.fn()} />);
    await act(async () => answer({ ok: true }));
    expect(held(notReady)).toBe(true); // answered, but held a moment more: a human double click's second click
    act(() => vi.advanceTimersByTime(LOBBY_QUIET_MS));
    expect(held(notReady)).toBe(false);
    // Pressing "Ready ✓" again, even later, sends nothing: it is not a toggle.
    fireEvent.click(button);
    expect(send).toHaveBeenCalledTimes(1);
    fireEvent.click(notReady);
    expect(send).toHaveBeenLastCalledWith("ready", { ready: false });
    // A refusal shows what the room says again.
    await act(async () => answer({ ok: false, error: { code: "bad_state", message: "The game has started" } }));
    expect(button).toHaveTextContent("Ready ✓");
    expect(screen.getByRole("alert")).toHaveTextContent("The game has started");
  });

  it("takes one ready for a human double click, slower than the answer, and presses again after a moment", async () => {
    vi.useFakeTimers();
    const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
    const seats = (ready: boolean) => [seat(0, "Ada"), seat(1, "Grace", { ready })];
    const { rerender } = render(<Lobby room={room({ seats: seats(false) })} userId="u1" mySeats={[1]} spectator={false}
      send={send} onLeave={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "I’m ready" }));
    await act(async () => undefined); // answered (25-80 ms on a real server)
    rerender(<Lobby room={room({ seats: seats(true) })} userId="u1" mySeats={[1]} spectator={false}
      send={send} onLeave={vi.fn()} />);
    // The second click of the double click lands where "Not ready" could be: it does nothing.
    act(() => vi.advanceTimersByTime(200));
    fireEvent.click(screen.getByRole("button", { name: "Not ready" }));
    expect(send).toHaveBeenCalledTimes(1);
    // After the window, a press is a press.
    act(() => vi.advanceTimersByTime(LOBBY_QUIET_MS - 200));
    fireEvent.click(screen.getByRole("button", { name: "Not ready" }));
    expect(send).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenLastCalledWith("ready", { ready: false });
  });

  it("starts the game once for a double click on Start", () => {
    const send = vi.fn(() => new Promise<Ack>(() => undefined));
    render(<Lobby room={room({ seats: [seat(0, "Ada"), seat(1, "Grace")] })} userId="u0" mySeats={[0]}
      spectator={false} send={send} onLeave={vi.fn()} />);
    const start = screen.getByRole("button", { name: "Start game" });
    clickTwice(start);
    expect(send).toHaveBeenCalledTimes(1);
    expect(held(start)).toBe(true);
    expect(start).toBeEnabled(); // marked, not disabled: a keyboard player's focus stays on it
  });

  describe("the host's seat controls, one event at a time", () => {
    const host = (send: (event: string, payload?: object) => Promise<Ack>) =>
      render(<Lobby room={room({ seats: [seat(0, "Ada"), seat(1, "Grace")], removed: [{ user_id: "u7", name: "Linus" }] })}
        userId="u0" mySeats={[0]} spectator={false} send={send} onLeave={vi.fn()} />);
    const seatControls = () => [
      screen.getByRole("button", { name: "Add bot" }),
      screen.getByRole("button", { name: "Add hot seat" }),
      screen.getByRole("button", { name: "Remove Grace" }),
      screen.getByRole("button", { name: "Let Linus back in" }),
    ];

    it("adds one bot for a double click, and holds the seat controls until it is answered, and a moment after", async () => {
      vi.useFakeTimers();
      const { send, answer } = heldSend();
      host(send);
      const add = screen.getByRole("button", { name: "Add bot" });
      clickTwice(add);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send).toHaveBeenCalledWith("add_bot", { level: "normal" });
      for (const control of seatControls()) expect(held(control)).toBe(true);
      await act(async () => answer({ ok: true }));
      act(() => vi.advanceTimersByTime(LOBBY_QUIET_MS));
      for (const control of seatControls()) expect(held(control)).toBe(false);
    });

    it("adds one hot-seat player for a double click, and clears the name once added", async () => {
      const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
      host(send);
      const name = screen.getByRole("textbox", { name: /Hot-seat player/ });
      fireEvent.change(name, { target: { value: "Linus" } });
      const add = screen.getByRole("button", { name: "Add hot seat" });
      await act(async () => {
        add.click();
        add.click();
      });
      expect(send).toHaveBeenCalledTimes(1);
      expect(send).toHaveBeenCalledWith("add_local", { name: "Linus" });
      expect(name).toHaveValue("");
    });

    it("removes, and lets back in, once for a double click, with the buttons held meanwhile", async () => {
      vi.useFakeTimers();
      const { send, answers } = heldSend();
      host(send);
      const remove = screen.getByRole("button", { name: "Remove Grace" });
      clickTwice(remove);
      expect(send).toHaveBeenCalledTimes(1);
      expect(send).toHaveBeenCalledWith("remove_seat", { seat: 1, name: "Grace" });
      for (const control of seatControls()) expect(held(control)).toBe(true);
      await act(async () => answers[0]({ ok: true }));
      act(() => vi.advanceTimersByTime(LOBBY_QUIET_MS));
      const allow = screen.getByRole("button", { name: "Let Linus back in" });
      clickTwice(allow);
      expect(send).toHaveBeenCalledTimes(2);
      expect(send).toHaveBeenLastCalledWith("allow", { user_id: "u7" });
      expect(held(allow)).toBe(true);
      expect(held(remove)).toBe(true);
    });
  });

  describe("a human double click, slower than the server's answer", () => {
    const answered = vi.fn(async (): Promise<Ack> => ({ ok: true }));
    const host = () => render(<Lobby room={room({ seats: [seat(0, "Ada")], removed: [{ user_id: "u7", name: "Bob" }] })}
      userId="u0" mySeats={[0]} spectator={false} send={answered} onLeave={vi.fn()} />);
    const later = async (ms: number) => {
      await act(async () => {
        vi.advanceTimersByTime(ms);
      });
    };

    it("adds one bot for two clicks 100 ms apart, and another for a click after the window", async () => {
      vi.useFakeTimers();
      answered.mockClear();
      host();
      const add = screen.getByRole("button", { name: "Add bot" });
      fireEvent.click(add);
      await later(100); // answered meanwhile, but held a moment more
      expect(held(add)).toBe(true);
      fireEvent.click(add);
      expect(answered).toHaveBeenCalledTimes(1);
      await later(LOBBY_QUIET_MS - 100);
      expect(held(add)).toBe(false);
      fireEvent.click(add);
      expect(answered).toHaveBeenCalledTimes(2);
      await later(0);
    });

    it("ignores a click that lands on another lobby button just after one was pressed", async () => {
      vi.useFakeTimers();
      answered.mockClear();
      host();
      fireEvent.click(screen.getByRole("button", { name: "Let Bob back in" }));
      await later(150);
      // "Add bot" moved up under the pointer once Bob's row was gone: the second click adds nothing.
      fireEvent.click(screen.getByRole("button", { name: "Add bot" }));
      fireEvent.click(screen.getByRole("button", { name: "Start game" }));
      expect(answered).toHaveBeenCalledTimes(1);
      expect(answered).toHaveBeenCalledWith("allow", { user_id: "u7" });
      await later(0);
      // ... and says so, for a moment, and keeps nothing for later.
      expect(screen.getByTestId("too-soon")).toHaveTextContent(TOO_SOON);
      await later(3000);
      expect(screen.getByTestId("too-soon")).toBeEmptyDOMElement();
      expect(answered).toHaveBeenCalledTimes(1);
    });

    it("says nothing of a press that went out", async () => {
      vi.useFakeTimers();
      answered.mockClear();
      host();
      fireEvent.click(screen.getByRole("button", { name: "Add bot" }));
      await later(LOBBY_QUIET_MS);
      fireEvent.click(screen.getByRole("button", { name: "Add bot" }));
      await later(0);
      expect(answered).toHaveBeenCalledTimes(2);
      expect(screen.getByTestId("too-soon")).toBeEmptyDOMElement();
    });
  });

  describe("the invite", () => {
    const share = vi.fn(async () => undefined);
    afterEach(() => {
      delete (navigator as { share?: unknown }).share;
    });

    it("offers Copy only where the browser cannot share", () => {
      lobby("u1", false);
      expect(screen.getByRole("button", { name: "Copy link" })).toBeInTheDocument();
      expect(screen.queryByRole("button", { name: "Share" })).toBeNull();
    });

    it("hands the link to the browser's sharing where it has it", async () => {
      Object.defineProperty(navigator, "share", { value: share, configurable: true, writable: true });
      lobby("u1", false);
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Share" })));
      expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: `${window.location.origin}/r/${room().code}` }));
      expect(screen.getByRole("button", { name: "Copy link" })).toBeInTheDocument();
    });
  });

  describe("the bot level", () => {
    const list = games.loaded;
    afterEach(() => {
      games.loaded = list;
      localStorage.clear();
    });

    it("is the middle one at first, then the one the host chose last", () => {
      games.loaded = { games: [], bot_levels: ["easy", "normal", "hard"], turn_times: [] };
      lobby("u0", false);
      const level = screen.getByRole("combobox", { name: /Bot level/ });
      expect(level).toHaveValue("normal");
      fireEvent.change(level, { target: { value: "hard" } });
      cleanup();
      lobby("u0", false);
      expect(screen.getByRole("combobox", { name: /Bot level/ })).toHaveValue("hard");
    });
  });

  describe("a watcher taking a seat", () => {
    afterEach(() => localStorage.clear());
    const watch = (send: (event: string, payload?: object) => Promise<Ack>) =>
      render(<Lobby room={room({ seats: [seat(0, "Ada")] })} userId="u5" mySeats={[]} spectator send={send}
        onLeave={vi.fn()} />);

    it("sits down at once with the name this browser saved", async () => {
      localStorage.setItem("lounge.name", "Grace");
      const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
      watch(send);
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Take a seat" })));
      expect(send).toHaveBeenCalledWith("join", { room: room().code, name: "Grace" });
      expect(screen.queryByTestId("sit-name")).toBeNull();
    });

    it("asks for a name first when none is saved, checks it, then sits down with it and saves it", async () => {
      const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
      watch(send);
      fireEvent.click(screen.getByRole("button", { name: "Take a seat" }));
      expect(send).not.toHaveBeenCalled();
      const name = screen.getByRole("textbox", { name: "Your display name" });
      expect(name).toHaveFocus();
      fireEvent.click(screen.getByRole("button", { name: "Take a seat" }));
      expect(screen.getByRole("alert")).toHaveTextContent("Choose a display name first.");
      fireEvent.change(name, { target: { value: "   " } });
      fireEvent.click(screen.getByRole("button", { name: "Take a seat" }));
      expect(send).not.toHaveBeenCalled();
      fireEvent.change(name, { target: { value: "  Linus " } });
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Take a seat" })));
      expect(send).toHaveBeenCalledTimes(1);
      expect(send).toHaveBeenCalledWith("join", { room: room().code, name: "Linus" });
      expect(localStorage.getItem("lounge.name")).toBe("Linus");
      expect(screen.queryByRole("alert")).toBeNull();
    });

    it("can put the question away again", () => {
      watch(vi.fn());
      fireEvent.click(screen.getByRole("button", { name: "Take a seat" }));
      fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
      expect(screen.queryByTestId("sit-name")).toBeNull();
      expect(screen.getByRole("button", { name: "Take a seat" })).toBeEnabled();
    });
  });

  describe("before the server's list of games has come", () => {
    const list = games.loaded;
    afterEach(() => {
      games.loaded = list;
    });

    it("offers no bot, since the levels are the server's", () => {
      games.loaded = null;
      lobby("u0", false);
      expect(screen.getByRole("button", { name: "Add bot" })).toBeDisabled();
      expect(screen.getByRole("combobox", { name: /Bot level/ })).toBeDisabled();
      expect(screen.getByRole("button", { name: "Add hot seat" })).toBeEnabled();
    });
  });
});
