import { useEffect, useRef, type ReactElement } from "react";
import { trapTab } from "../lib/trapTab";
import { useGames } from "../lib/useGames";
import { Markdown } from "./Markdown";

/** A game's rules over the table: the room page (and its seat) stays underneath. */
export function RulesDialog({ slug, onClose }: { slug: string; onClose: () => void }): ReactElement {
  const { data, error } = useGames();
  const game = data?.games.find((g) => g.slug === slug);
  const close = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  // Focus goes into the dialog, and back to whatever opened it (the Rules link) when it closes.
  useEffect(() => {
    const opener = document.activeElement;
    close.current?.focus();
    return () => {
      if (opener instanceof HTMLElement) opener.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
      trapTab(event, dialog.current);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="overlay" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="panel rules-dialog" role="dialog" aria-modal="true" aria-labelledby="rules-dialog-title"
        data-testid="rules-dialog" ref={dialog}>
        <div className="rules-dialog-head">
          <h2 id="rules-dialog-title">Rules{game ? ` of ${game.title}` : ""}</h2>
          <a className="btn btn-small" href={`/rules/${slug}`} target="_blank" rel="noopener">Open in a new tab</a>
          <button type="button" className="btn btn-small btn-primary" onClick={onClose} ref={close}>
            Back to the table
          </button>
        </div>
        <div className="rules-dialog-body">
          {error && <p className="error-msg" role="alert">{error}</p>}
          {!data && !error && <p className="muted">Loading the rules…</p>}
          {game && <Markdown source={game.rules} headingOffset={2} />}
        </div>
      </div>
    </div>
  );
}
