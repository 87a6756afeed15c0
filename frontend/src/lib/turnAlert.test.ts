import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FLASH_TITLE, alertsWanted, startFlashing, useAlertSetting, useTurnAlert } from "./turnAlert";

function setVisibility(state: "hidden" | "visible"): void {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}

describe("turn alerts", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    document.head.innerHTML = '<link rel="icon" href="/favicon.svg">';
    document.title = "Poker 99 · K7MPQ2 · Gaming Lounge";
    localStorage.clear();
    setVisibility("visible");
  });
  afterEach(() => vi.useRealTimers());

  const icon = () => document.querySelector("link[rel~='icon']")?.getAttribute("href");

  it("flashes the title and dots the icon, then puts both back", () => {
    const stop = startFlashing();
    expect(document.title).toBe(FLASH_TITLE);
    expect(icon()).toMatch(/^data:image\/svg\+xml/);
    vi.advanceTimersByTime(1000);
    expect(document.title).toBe("Poker 99 · K7MPQ2 · Gaming Lounge");
    vi.advanceTimersByTime(1000);
    expect(document.title).toBe(FLASH_TITLE);
    stop();
    expect(document.title).toBe("Poker 99 · K7MPQ2 · Gaming Lounge");
    expect(icon()).toBe("/favicon.svg");
  });

  it("calls a hidden tab back when a turn starts, and stops when the tab comes to the front", () => {
    setVisibility("hidden");
    const { rerender } = renderHook(({ key }) => useTurnAlert(key, "Your turn", false), {
      initialProps: { key: null as string | null },
    });
    expect(document.title).not.toBe(FLASH_TITLE);
    rerender({ key: "0:3:1" });
    expect(document.title).toBe(FLASH_TITLE);
    act(() => setVisibility("visible"));
    expect(document.title).toBe("Poker 99 · K7MPQ2 · Gaming Lounge");
    expect(icon()).toBe("/favicon.svg");
  });

  it("does nothing while the tab is in front", () => {
    const { rerender } = renderHook(({ key }) => useTurnAlert(key, "Your turn", true), {
      initialProps: { key: null as string | null },
    });
    rerender({ key: "0:3:1" });
    vi.advanceTimersByTime(3000);
    expect(document.title).toBe("Poker 99 · K7MPQ2 · Gaming Lounge");
    expect(icon()).toBe("/favicon.svg");
  });

  it("stops flashing when the turn is over", () => {
    setVisibility("hidden");
    const { rerender } = renderHook(({ key }) => useTurnAlert(key, "Your turn", false), {
      initialProps: { key: "0:3:1" as string | null },
    });
    expect(document.title).toBe(FLASH_TITLE);
    rerender({ key: null });
    expect(document.title).toBe("Poker 99 · K7MPQ2 · Gaming Lounge");
  });

  it("remembers the sound-and-notification switch in this browser, off at first", () => {
    expect(alertsWanted()).toBe(false);
    const { result } = renderHook(() => useAlertSetting());
    expect(result.current.on).toBe(false);
    act(() => result.current.toggle());
    expect(result.current.on).toBe(true);
    expect(alertsWanted()).toBe(true);
    expect(renderHook(() => useAlertSetting()).result.current.on).toBe(true);
  });
});
