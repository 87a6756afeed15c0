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

  it("is said once the host has been gone 2 s, and ticks without being read out every second", () => {
    const { rerender } = render(<HostAway room={room()} closesAt={null} />);
    const region = screen.getByRole("status");
    expect(region).toBeEmptyDOMElement();
    rerender(<HostAway room={room()} closesAt={Date.now() + 17_000} />);
    act(() => vi.advanceTimersByTime(1_000));
    expect(region).toBeEmptyDOMElement();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole("status")).toBe(region);
    expect(region).toHaveTextContent("Ada lost connection; the room closes in 15 s unless they come back.");
    act(() => vi.advanceTimersByTime(1_000));
    const ticking = screen.getByText("the room closes in 14 s unless they come back.");
    expect(ticking).toHaveAttribute("aria-live", "off");
  });

  it("says nothing of a host back within the hold (a restart, a takeover), and holds afresh", () => {
    const { rerender } = render(<HostAway room={room()} closesAt={Date.now() + 20_000} />);
    act(() => vi.advanceTimersByTime(1_500));
    rerender(<HostAway room={room()} closesAt={null} />);
    rerender(<HostAway room={room()} closesAt={Date.now() + 20_000} />);
    act(() => vi.advanceTimersByTime(1_500));
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });

  it("is said at once when the room closes within the hold", () => {
    render(<HostAway room={room()} closesAt={Date.now() + 1_500} />);
    act(() => vi.advanceTimersByTime(250));
    expect(screen.getByRole("status")).toHaveTextContent("Ada lost connection; the room closes in 2 s");
  });
});
