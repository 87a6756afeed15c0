import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { Card } from "./Card";
import { Chat } from "./Chat";
import { Markdown } from "./Markdown";
import { ErrorBoundary } from "./ErrorBoundary";
import type { ReactElement } from "react";

describe("Card", () => {
  it("is a picture with the card's spoken name", () => {
    render(<Card code="9H" />);
    expect(screen.getByRole("img", { name: "9 of hearts" })).toBeInTheDocument();
  });

  it("is a face-down card when it has no code", () => {
    render(<Card />);
    expect(screen.getByRole("img", { name: "Face-down card" })).toBeInTheDocument();
  });

  it("is a button when it can be chosen", () => {
    const choose = vi.fn();
    render(<Card code="10C" playable onSelect={choose} />);
    const button = screen.getByRole("button", { name: "10 of clubs" });
    fireEvent.click(button);
    expect(choose).toHaveBeenCalledOnce();
    expect(button).toHaveClass("card-playable");
  });

  it("draws every rank of every suit", () => {
    const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
    const { container } = render(<>{ranks.flatMap((r) => ["S", "H", "D", "C"].map((s) => <Card key={r + s} code={r + s} />))}</>);
    expect(container.querySelectorAll("svg")).toHaveLength(52);
    // A 7 has seven pips plus the two corner suits.
    const seven = container.querySelector('[data-card="7S"] svg')!;
    expect(seven.querySelectorAll("path")).toHaveLength(9);
  });
});

describe("Chat", () => {
  it("shows messages as text, never as markup", () => {
    const messages = [{ id: 1, user_id: "u2", name: "Mallory", text: "<img src=x onerror=alert(1)><b>hi</b>", ts: 0 }];
    const { container } = render(<Chat messages={messages} me="u1" send={vi.fn()} />);
    expect(container.querySelector("img, b")).toBeNull();
    expect(screen.getByText("<img src=x onerror=alert(1)><b>hi</b>")).toBeInTheDocument();
  });

  it("sends trimmed text and shows a refusal inline", async () => {
    const send = vi.fn().mockResolvedValue({ ok: false, error: { code: "rate_limited", message: "Slow down" } });
    render(<Chat messages={[]} me="u1" send={send} />);
    fireEvent.change(screen.getByRole("textbox", { name: "Message" }), { target: { value: "  hello  " } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Slow down");
    expect(send).toHaveBeenCalledWith("hello");
  });
});

describe("Markdown", () => {
  it("renders tables", () => {
    const { container } = render(<Markdown source={"| Card | Does |\n|---|---|\n| K | 99 |\n| 4 | reverse |"} />);
    expect(container.querySelectorAll("th")).toHaveLength(2);
    expect(container.querySelectorAll("tbody tr")).toHaveLength(2);
    expect(screen.getByRole("cell", { name: "reverse" })).toBeInTheDocument();
  });

  it("renders headings, lists and emphasis without raw HTML", () => {
    const { container } = render(<Markdown source={"# Title\n\nSome **bold** and `code`.\n\n- one\n- two <script>x</script>"} />);
    expect(screen.getByRole("heading", { name: "Title" })).toBeInTheDocument();
    expect(container.querySelector("strong")).toHaveTextContent("bold");
    expect(container.querySelectorAll("li")).toHaveLength(2);
    expect(container.querySelector("script")).toBeNull();
  });
});

describe("ErrorBoundary", () => {
  function Broken({ fail }: { fail: boolean }): ReactElement {
    if (fail) throw new Error("bad view");
    return <p>drawn</p>;
  }

  it("shows a message instead of a part that fails, and tries again on a new key", () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { rerender } = render(<ErrorBoundary message="Could not draw" resetKey={1}><Broken fail /></ErrorBoundary>);
    expect(screen.getByRole("alert")).toHaveTextContent("Could not draw");
    rerender(<ErrorBoundary message="Could not draw" resetKey={2}><Broken fail={false} /></ErrorBoundary>);
    expect(screen.getByText("drawn")).toBeInTheDocument();
    quiet.mockRestore();
  });
});
