import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RulesDialog } from "./RulesDialog";

describe("the rules over the table", () => {
  afterEach(() => vi.unstubAllGlobals());

  // The server's /api/games answer.
  const serve = () => vi.stubGlobal("fetch", async () => new Response(JSON.stringify({
    games: [{ slug: "poker99", title: "Poker 99", min_players: 2, max_players: 6, rules: "# Poker 99\n\nKeep the total at 99 or under." }],
    bot_levels: ["easy"],
  }), { status: 200 }));

  it("shows the table's game's rules, a new-tab link, and closes on Escape or its button", async () => {
    serve();
    const close = vi.fn();
    render(<RulesDialog slug="poker99" onClose={close} />);
    const dialog = await screen.findByRole("dialog", { name: "Rules of Poker 99" });
    expect(dialog).toHaveTextContent("Keep the total at 99 or under.");
    expect(screen.getByRole("link", { name: "Open in a new tab" })).toHaveAttribute("target", "_blank");
    expect(screen.getByRole("button", { name: "Back to the table" })).toHaveFocus();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(close).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Back to the table" }));
    expect(close).toHaveBeenCalledTimes(2);
  });

  it("keeps Tab inside while open, and gives focus back to what opened it", async () => {
    serve();
    render(<a href="/rules">Rules</a>);
    const opener = screen.getByRole("link", { name: "Rules" });
    opener.focus();
    const { unmount } = render(<RulesDialog slug="poker99" onClose={vi.fn()} />);
    await screen.findByRole("dialog", { name: "Rules of Poker 99" });
    const newTab = screen.getByRole("link", { name: "Open in a new tab" });
    const back = screen.getByRole("button", { name: "Back to the table" });
    expect(back).toHaveFocus();
    fireEvent.keyDown(back, { key: "Tab" });
    expect(newTab).toHaveFocus();
    fireEvent.keyDown(newTab, { key: "Tab", shiftKey: true });
    expect(back).toHaveFocus();
    unmount();
    expect(opener).toHaveFocus();
  });
});
