import { useEffect, useRef, useState, type FormEvent, type ReactElement, type RefCallback } from "react";
import { reveal } from "../lib/reveal";
import type { Ack, ChatMessage } from "../lib/types";

function clock(ts: number): string {
  const d = new Date(ts);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

export interface ChatProps {
  messages: ChatMessage[];
  me: string | null;
  send: (text: string) => Promise<Ack>;
  disabled?: boolean;
  /** Given the chat's box, to tell when it is in view (see useUnreadChat). */
  watchRef?: RefCallback<HTMLElement>;
}

/** How much of the newest message must be in view for the chat to count as seen. */
const SEEN_RATIO = 0.6;

export interface UnreadChat {
  /** Messages from others that came while the chat was out of view. */
  unread: number;
  /** The chat's box, watched for when it comes into view. */
  watch: RefCallback<HTMLElement>;
  /** Scrolls the chat into view (which clears the count). */
  show: () => void;
}

/**
 * The chat's new messages the player has not seen. On a phone the chat is far below the table or
 * the lobby, so a message there gives no sign: this counts those from others (not the player's
 * own, nor the history shown at joining) since the chat was last in view.
 */
export function useUnreadChat(messages: ChatMessage[], me: string | null): UnreadChat {
  const newest = messages.length > 0 ? messages[messages.length - 1].id : 0;
  const [seen, setSeen] = useState(newest);
  const [box, setBox] = useState<HTMLElement | null>(null);
  const [inView, setInView] = useState(false);
  // Seen when the newest message is: the chat's top showing, or a sliver of it, is not enough,
  // and its whole box need not be (on a phone it is taller than what is left under the lobby).
  useEffect(() => {
    const last = box?.querySelector(".chat-log > .chat-msg:last-of-type");
    if (!last || typeof IntersectionObserver === "undefined") return undefined;
    const observer = new IntersectionObserver(([entry]) => setInView(entry.intersectionRatio >= SEEN_RATIO),
      { threshold: [0, SEEN_RATIO, 1] });
    observer.observe(last);
    return () => observer.disconnect();
  }, [box, newest]);
  useEffect(() => {
    if (inView) setSeen(newest);
  }, [inView, newest]);
  const unread = inView ? 0 : messages.filter((m) => m.id > seen && m.user_id !== me).length;
  const show = () => {
    reveal(box, "center");
    box?.querySelector<HTMLElement>(".chat-log")?.focus({ preventScroll: true });
  };
  return { unread, watch: setBox, show };
}

/** "Chat (2)": the count of unread messages, in the bar that stays in view on a phone; pressing it
 * scrolls to the chat. Nothing while all is read (and never on a wide screen, where the chat is
 * beside the table: see styles.css). */
export function ChatBadge({ unread, onShow }: { unread: number; onShow: () => void }): ReactElement | null {
  if (unread === 0) return null;
  return (
    <button type="button" className="btn btn-small chat-badge" onClick={onShow} data-testid="chat-badge">
      <span>Chat ({unread}<span className="visually-hidden"> new</span>)</span>
    </button>
  );
}

/** The room's chat. Messages are rendered as plain text, never as markup. */
export function Chat({ messages, me, send, disabled, watchRef }: ChatProps): ReactElement {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const box = log.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [messages.length]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const clean = text.trim();
    if (!clean) return;
    if (clean.length > 500) return setError("Messages are at most 500 characters.");
    setBusy(true);
    const ack = await send(clean);
    setBusy(false);
    if (ack.ok) {
      setText("");
      setError(null);
    } else {
      setError(ack.error.message);
    }
  };

  return (
    <section className="panel chat" aria-labelledby="chat-title" ref={watchRef}>
      <h2 id="chat-title">Chat</h2>
      <div className="chat-log" ref={log} role="log" aria-live="polite" tabIndex={0}
        aria-label="Chat messages" data-testid="chat-log">
        {messages.length === 0 && <p className="muted">No messages yet. Say hello!</p>}
        {messages.map((m) => (
          <p key={m.id} className={`chat-msg ${m.user_id === me ? "mine" : ""}`}>
            <time dateTime={new Date(m.ts).toISOString()}>{clock(m.ts)}</time>
            <span className="who">{m.name}:</span>
            <span className="text">{m.text}</span>
          </p>
        ))}
      </div>
      {error && <p className="error-msg" role="alert" style={{ margin: "0 0.6rem" }}>{error}</p>}
      <form onSubmit={submit}>
        <label className="visually-hidden" htmlFor="chat-input">Message</label>
        <input id="chat-input" type="text" value={text} maxLength={500} placeholder="Say something…"
          autoComplete="off" onChange={(e) => setText(e.target.value)} disabled={disabled} />
        <button type="submit" className="btn btn-primary" disabled={disabled || busy || !text.trim()}>
          Send
        </button>
      </form>
    </section>
  );
}
