import { useEffect, useRef, useState, type FormEvent, type ReactElement } from "react";
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
}

/** The room's chat. Messages are rendered as plain text, never as markup. */
export function Chat({ messages, me, send, disabled }: ChatProps): ReactElement {
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
    <section className="panel chat" aria-labelledby="chat-title">
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
