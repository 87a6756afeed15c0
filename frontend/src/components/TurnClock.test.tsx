import { render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ClockPill, TurnClockLine } from "./TurnClock";

describe("the turn's clock", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it("shows the time left on the seat, and says it in words to a screen reader", () => {
    render(<ClockPill clock={{ endsAt: Date.now() + 27_000, away: false }} />);
    const pill = screen.getByTestId("seat-clock");
    expect(screen.getByText("0:27 left")).toHaveAttribute("aria-hidden", "true");
    expect(screen.getByText("27 seconds left")).toHaveClass("visually-hidden");
    expect(pill).not.toHaveClass("is-short");
  });

  it("says when a bot plays for a player away, and marks the last seconds", () => {
    render(<ClockPill clock={{ endsAt: Date.now() + 8_000, away: true }} />);
    expect(screen.getByTestId("seat-clock")).toHaveClass("is-short");
    expect(screen.getByText("Away: a bot plays in 8 seconds")).toBeInTheDocument();
  });

  it("says whose turn it is beside the turn line", () => {
    const { rerender } = render(<TurnClockLine clock={{ endsAt: Date.now() + 65_000, away: false }} name={null} />);
    expect(screen.getByTestId("turn-clock")).toHaveTextContent("1:05 left for your turn");
    rerender(<TurnClockLine clock={{ endsAt: Date.now() + 5_000, away: true }} name="Grace" />);
    expect(screen.getByTestId("turn-clock")).toHaveTextContent(/^Away: a bot plays in 5 s$/);
  });

  it("leaves out the name the turn line says already, and tells a screen reader a hot-seat player's turn by name", () => {
    const running = { endsAt: Date.now() + 12_000, away: false };
    const { rerender } = render(<TurnClockLine clock={running} name="Ada" here />);
    expect(screen.getByTestId("turn-clock")).toHaveTextContent(/^0:12 left$/);
    rerender(<TurnClockLine clock={running} name="Grace" />);
    expect(screen.getByTestId("turn-clock")).toHaveTextContent(/^0:12 left$/);
    rerender(<TurnClockLine clock={{ endsAt: Date.now() + 9_500, away: false }} name="Ada" here />);
    expect(screen.getByRole("status")).toHaveTextContent(/^(9|10) seconds left for your turn, Ada$/);
  });

  it("tells a screen reader once that the player's own turn is running out, and nobody else's", () => {
    const { rerender } = render(<TurnClockLine clock={{ endsAt: Date.now() + 30_000, away: false }} name={null} />);
    expect(screen.getByTestId("turn-clock-warning")).toBeEmptyDOMElement();
    const ending = { endsAt: Date.now() + 9_500, away: false };
    rerender(<TurnClockLine clock={ending} name={null} />);
    expect(screen.getByRole("status")).toHaveTextContent(/^(9|10) seconds left for your turn$/);
    rerender(<TurnClockLine clock={ending} name="Grace" />);
    expect(screen.getByTestId("turn-clock-warning")).toBeEmptyDOMElement();
  });
});
