import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clockText, useSecondsLeft } from "./useCountdown";

describe("useSecondsLeft", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it("counts from now when a moment arrives long after the component was shown", () => {
    const seen: (number | null)[] = [];
    const { rerender } = renderHook(({ at }) => {
      const left = useSecondsLeft(at);
      seen.push(left);
      return left;
    }, { initialProps: { at: null as number | null } });
    act(() => vi.advanceTimersByTime(1_500)); // shown, no countdown, for a while
    rerender({ at: Date.now() + 4_000 }); // "the room closes in 4 s"
    expect(seen.filter((left) => left !== null)).toEqual(expect.arrayContaining([4]));
    expect(Math.max(...seen.filter((left): left is number => left !== null))).toBe(4);
  });

  it("ticks down and stops at zero", () => {
    const at = Date.now() + 2_100;
    const { result } = renderHook(() => useSecondsLeft(at));
    expect(result.current).toBe(3);
    act(() => vi.advanceTimersByTime(1_000)); // the clock moves with the fake timers
    expect(result.current).toBe(2);
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(0);
  });
});

describe("clockText", () => {
  it("writes minutes and seconds", () => {
    expect(clockText(65)).toBe("1:05");
    expect(clockText(-3)).toBe("0:00");
  });
});
