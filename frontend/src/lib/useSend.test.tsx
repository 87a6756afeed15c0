import { act, renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { heldSend } from "./fixtures";
import type { Ack } from "./types";
import { useSend } from "./useSend";

describe("sending an event from a control", () => {
  it("keeps the refusal's message until an event is accepted", async () => {
    const answers: Ack[] = [{ ok: false, error: { code: "not_your_turn", message: "Wait for your turn" } }, { ok: true }];
    const send = vi.fn(async () => answers.shift() as Ack);
    const { result } = renderHook(() => useSend(send));
    let accepted = true;
    await act(async () => {
      accepted = await result.current.run("move", { move: "play", args: ["9H"] });
    });
    expect(send).toHaveBeenCalledWith("move", { move: "play", args: ["9H"] });
    expect(accepted).toBe(false);
    expect(result.current.error).toBe("Wait for your turn");
    await act(async () => {
      accepted = await result.current.run("ready");
    });
    expect(send).toHaveBeenLastCalledWith("ready", {});
    expect(accepted).toBe(true);
    expect(result.current.error).toBeNull();
  });

  it("tells of each refusal as it comes, the same one twice too", async () => {
    const refused = vi.fn();
    const send = vi.fn(async (): Promise<Ack> => ({ ok: false, error: { code: "invalid_move", message: "Too late" } }));
    const { result } = renderHook(() => useSend(send, { onRefused: refused }));
    await act(async () => {
      await result.current.run("move", { move: "slap", args: [3] });
      await result.current.run("move", { move: "slap", args: [4] });
    });
    expect(refused.mock.calls).toEqual([["Too late"], ["Too late"]]);
  });

  it("is busy while an event is on its way", async () => {
    const { send, answer } = heldSend();
    const { result } = renderHook(() => useSend(send));
    let sent: Promise<boolean> = Promise.resolve(true);
    act(() => {
      sent = result.current.run("start");
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      answer({ ok: true });
      await sent;
    });
    expect(result.current.busy).toBe(false);
  });

  it("sends nothing more with runAlone while an event is on its way", async () => {
    const { send, answer } = heldSend();
    const { result } = renderHook(() => useSend(send));
    let first: Promise<boolean | null> = Promise.resolve(null);
    let second: Promise<boolean | null> = Promise.resolve(true);
    const sentFirst = vi.fn();
    const sentSecond = vi.fn();
    act(() => {
      first = result.current.runAlone("ready", { ready: true }, sentFirst);
      second = result.current.runAlone("ready", { ready: true }, sentSecond);
    });
    expect(send).toHaveBeenCalledTimes(1);
    expect(sentFirst).toHaveBeenCalledTimes(1); // at once, before the answer
    expect(sentSecond).not.toHaveBeenCalled();
    expect(await second).toBeNull(); // not sent, which is not a refusal
    await act(async () => {
      answer({ ok: true });
      expect(await first).toBe(true);
    });
    expect(result.current.busy).toBe(false);
    act(() => {
      void result.current.runAlone("ready", { ready: false });
    });
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("sends nothing more with runAlone for quietMs after an event went out, answered or not", async () => {
    vi.useFakeTimers();
    try {
      const send = vi.fn(async (): Promise<Ack> => ({ ok: true }));
      const { result } = renderHook(() => useSend(send, { quietMs: 400 }));
      await act(async () => {
        expect(await result.current.runAlone("add_bot")).toBe(true);
      });
      expect(result.current.busy).toBe(false);
      expect(result.current.held).toBe(true); // answered, still held
      act(() => vi.advanceTimersByTime(399));
      await act(async () => {
        expect(await result.current.runAlone("add_bot")).toBeNull();
      });
      expect(send).toHaveBeenCalledTimes(1);
      act(() => vi.advanceTimersByTime(1));
      expect(result.current.held).toBe(false);
      await act(async () => {
        expect(await result.current.runAlone("add_bot")).toBe(true);
      });
      expect(send).toHaveBeenCalledTimes(2);
      // `run` is not held by it.
      await act(async () => {
        expect(await result.current.run("ready")).toBe(true);
      });
      expect(send).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
