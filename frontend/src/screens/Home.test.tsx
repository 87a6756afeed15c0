import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { room, seat } from "../lib/fixtures";
import { hasLeft, markLeft } from "../lib/leftRooms";
import type { PublicRooms } from "../lib/api";
import { Home, moreGamesText } from "./Home";

const listed = vi.hoisted(() => ({ rooms: { waiting: [], playing: [] } as PublicRooms }));
vi.mock("../lib/api", async (original) => ({
  ...(await original<typeof import("../lib/api")>()),
  fetchPublicRooms: async () => listed.rooms,
}));
vi.mock("../lib/useGames", () => ({ useGames: () => ({ data: null, error: null }) }));

describe("moreGamesText", () => {
  it("says nothing when the list shows every game", () => {
    expect(moreGamesText(0, 0)).toBeNull();
    expect(moreGamesText(10, 10)).toBeNull();
  });

  it("says how many games the list leaves out", () => {
    expect(moreGamesText(11, 10)).toBe("and 1 more game being played");
    expect(moreGamesText(24, 10)).toBe("and 14 more games being played");
  });

  it("says there may be more still when the server's list is full", () => {
    expect(moreGamesText(100, 10)).toBe("and at least 90 more games being played");
    expect(moreGamesText(99, 10)).toBe("and 89 more games being played");
  });
});

describe("Home's games being played", () => {
  const playing = (n: number) => Array.from({ length: n }, (_, i) =>
    room({ id: `r${i}`, code: `CODE${String(i).padStart(2, "0")}`, status: "playing" }));

  it("shows ten and says how many more there are", async () => {
    listed.rooms = { waiting: [], playing: playing(24) };
    render(<Home />);
    expect(await screen.findByTestId("more-playing")).toHaveTextContent("and 14 more games being played");
    expect(screen.getByRole("list", { name: "Games being played" }).children).toHaveLength(10);
  });

  it("says nothing more when they all fit", async () => {
    listed.rooms = { waiting: [], playing: playing(3) };
    render(<Home />);
    expect(await screen.findByRole("list", { name: "Games being played" })).toBeInTheDocument();
    expect(screen.queryByTestId("more-playing")).toBeNull();
  });
});

describe("Home's name check", () => {
  it("says a name is missing by the name field, focuses it, and forgets it once a name is typed", async () => {
    listed.rooms = { waiting: [], playing: [] };
    render(<Home />);
    const nameField = screen.getByTestId("name-input");
    fireEvent.change(nameField, { target: { value: "" } });
    fireEvent.change(screen.getByLabelText("Room code"), { target: { value: "k7mpq2" } });
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    const problem = screen.getByRole("alert");
    expect(problem).toHaveTextContent("Choose a display name first.");
    expect(nameField).toHaveFocus();
    expect(nameField).toHaveAttribute("aria-invalid", "true");
    expect(nameField).toHaveAccessibleDescription("Choose a display name first.");
    expect(nameField.closest(".panel")).toContainElement(problem);
    fireEvent.change(nameField, { target: { value: "A" } });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(await screen.findByText(/No public table is waiting/)).toBeInTheDocument();
  });

  it("forgets the name's problem when the other form is used", async () => {
    render(<Home />);
    expect(await screen.findByText(/No public table is waiting/)).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("name-input"), { target: { value: " " } });
    fireEvent.change(screen.getByLabelText("Room code"), { target: { value: "K7MPQ2" } });
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Choose a display name first.");
    fireEvent.change(screen.getByLabelText("Room code"), { target: { value: "K7" } });
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    expect(screen.getByRole("alert")).toHaveTextContent("A room code has 6 letters");
    expect(screen.getByTestId("name-input")).not.toHaveAttribute("aria-invalid", "true");
  });
});

describe("Home's Join, for a room this tab left", () => {
  afterEach(() => sessionStorage.clear());

  it("joins it again on purpose: the room page does not ask a second time", async () => {
    listed.rooms = { waiting: [room({ code: "N7T8SZ", seats: [seat(0, "Ada")] })], playing: [] };
    markLeft("K7MPQ2");
    markLeft("N7T8SZ");
    render(<Home />);
    fireEvent.change(screen.getByTestId("name-input"), { target: { value: "Grace" } });
    fireEvent.change(screen.getByLabelText("Room code"), { target: { value: "k7mpq2" } });
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect(window.location.pathname).toBe("/r/K7MPQ2");
    expect(hasLeft("K7MPQ2")).toBe(false);

    fireEvent.click(await screen.findByRole("link", { name: "Join Ada’s Nine Locks table" }));
    expect(window.location.pathname).toBe("/r/N7T8SZ");
    expect(hasLeft("N7T8SZ")).toBe(false);
  });
});

describe("joining with a code", () => {
  it("ties a wrong code's error to the field, for a screen reader", async () => {
    render(<Home />);
    const field = screen.getByRole("textbox", { name: "Room code" });
    expect(field).not.toHaveAttribute("aria-invalid");
    fireEvent.change(field, { target: { value: "K7M" } });
    fireEvent.click(screen.getByRole("button", { name: "Join" }));
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(field).toHaveAccessibleDescription("A room code has 6 letters and digits, like K7MPQ2.");
  });
});
