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
});
