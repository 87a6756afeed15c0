import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchRoom } from "./api";
import { fetchReplay } from "./history";

describe("the server's errors, for players", () => {
  afterEach(() => vi.unstubAllGlobals());

  const answer = (status: number, body: string) =>
    vi.stubGlobal("fetch", async () => new Response(body, { status }));

  it("passes on the server's own sentence", async () => {
    answer(404, JSON.stringify({ error: { code: "not_found", message: "There is no room with code QX7P2M" } }));
    await expect(fetchRoom("QX7P2M")).rejects.toMatchObject({
      code: "not_found", status: 404, message: "There is no room with code QX7P2M",
    });
  });

  it("says the lounge is not answering, never a status number, when a proxy answers instead", async () => {
    answer(502, "<html>Bad Gateway</html>");
    await expect(fetchRoom("QX7P2M")).rejects.toMatchObject({
      status: 502, message: "The lounge is not answering right now: try again in a moment.",
    });
    await expect(fetchReplay("9f2c41d07ab3e655")).rejects.toMatchObject({
      message: "The lounge is not answering right now: try again in a moment.",
    });
  });
});
