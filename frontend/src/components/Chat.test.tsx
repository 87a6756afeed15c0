import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Chat, ChatBadge, useUnreadChat } from "./Chat";
import type { ChatMessage } from "../lib/types";
import type { ReactElement } from "react";

/** A stand-in IntersectionObserver: `seeChat(ratio)` says how much of the chat is in view. */
let report: ((ratio: number) => void) | null = null;
class FakeObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(): void {
    report = (ratio) => this.callback([{ intersectionRatio: ratio } as IntersectionObserverEntry], this as never);
  }
  disconnect(): void {
    report = null;
  }
}
const seeChat = (ratio: number) => act(() => report?.(ratio));

const message = (id: number, user: string): ChatMessage => ({ id, user_id: user, name: user, text: `m${id}`, ts: 0 });

function Room({ messages }: { messages: ChatMessage[] }): ReactElement {
  const unread = useUnreadChat(messages, "me");
  return (
    <>
      <ChatBadge unread={unread.unread} onShow={unread.show} />
      <Chat messages={messages} me="me" send={vi.fn()} watchRef={unread.watch} />
    </>
  );
}

describe("unread chat", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("counts others' new messages while the chat is out of view, and clears once it is seen", () => {
    vi.stubGlobal("IntersectionObserver", FakeObserver);
    const history = [message(1, "ada"), message(2, "me")];
    const { rerender } = render(<Room messages={history} />);
    seeChat(0);
    expect(screen.queryByTestId("chat-badge")).toBeNull(); // the history at joining is not new
    const more = [...history, message(3, "me"), message(4, "ada"), message(5, "bob")];
    rerender(<Room messages={more} />);
    expect(screen.getByTestId("chat-badge")).toHaveTextContent("Chat (2 new)"); // not my own
    seeChat(0.3);
    expect(screen.getByTestId("chat-badge")).toBeInTheDocument(); // a glimpse is not seen
    seeChat(1);
    expect(screen.queryByTestId("chat-badge")).toBeNull();
    seeChat(0);
    expect(screen.queryByTestId("chat-badge")).toBeNull(); // read stays read
    rerender(<Room messages={[...more, message(6, "ada")]} />);
    expect(screen.getByTestId("chat-badge")).toHaveTextContent("Chat (1 new)");
  });
});
