import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { room } from "../lib/fixtures";
import { HostAway } from "./HostAway";

describe("the host's countdown", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it("is said once when the host goes, and ticks without being read out every second", () => {
    const { rerender } = render(<HostAway room={room()} closesAt={null} />);
    const region = screen.getByRole("status");
    expect(region).toBeEmptyDOMElement();
    rerender(<HostAway room={room()} closesAt={Date.now() + 17_000} />);
    expect(screen.getByRole("status")).toBe(region);
    expect(region).toHaveTextContent("Ada lost connection; the room closes in 17 s unless they come back.");
    act(() => vi.advanceTimersByTime(1_000));
    const ticking = screen.getByText("the room closes in 16 s unless they come back.");
    expect(ticking).toHaveAttribute("aria-live", "off");
  });
});
