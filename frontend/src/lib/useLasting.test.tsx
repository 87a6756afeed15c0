import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useLasting } from "./useLasting";

describe("useLasting", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const name = (v: string) => v;

  it("gives a value only once it has lasted", () => {
    const { result } = renderHook(() => useLasting("Grace", name, 3000));
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(2999));
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe("Grace");
  });

  it("never gives a value that went away in between, and starts again when it is back", () => {
    const { result, rerender } = renderHook(({ v }) => useLasting(v, name, 3000),
      { initialProps: { v: "Grace" as string | null } });
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current).toBe("Grace");
    rerender({ v: null }); // the tab reloads: its seat is played again
    expect(result.current).toBeNull();
    rerender({ v: "Grace" });
    expect(result.current).toBeNull();
    act(() => vi.advanceTimersByTime(1500));
    rerender({ v: null });
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current).toBeNull();
  });
});
