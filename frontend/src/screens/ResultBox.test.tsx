import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { room } from "../lib/fixtures";
import { ResultBox } from "./ResultBox";

describe("the result box", () => {
  it("says that Watch again opens in a new tab", () => {
    render(<ResultBox result={{ winner: 0 }} room={room({ status: "playing" })} mySeats={[0]} isHost
      onRematch={vi.fn(async () => true)} onLeave={vi.fn()} offline={false} />);
    const link = screen.getByRole("link", { name: "Watch again (opens in a new tab)" });
    expect(link).toHaveAttribute("target", "_blank");
    expect(link.querySelector("svg")).toHaveAttribute("aria-hidden", "true");
  });

  it("tells a guest the rematch waits for the host to come back while the host is away", () => {
    const props = { result: { winner: 0 }, mySeats: [1], isHost: false, onRematch: vi.fn(async () => true),
      onLeave: vi.fn(), offline: false };
    const { unmount } = render(<ResultBox {...props} room={room({ status: "playing" })} />);
    expect(screen.getByText(/Waiting for .* to start a rematch…/)).toBeInTheDocument();
    unmount();
    render(<ResultBox {...props} room={room({ status: "playing", closes_at: Date.now() + 30_000 })} />);
    expect(screen.getByText(/A rematch waits for .* to come back\./)).toBeInTheDocument();
    expect(screen.queryByText(/to start a rematch/)).toBeNull();
  });
});
