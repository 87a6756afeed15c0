import { useEffect, useRef, useState, type ReactElement } from "react";
import { DrawIcon, NewTabIcon, TrophyIcon } from "../components/Icons";
import { reveal } from "../lib/reveal";
import { hostName, seatName } from "../lib/seats";
import type { Result, Room } from "../lib/types";

/** The result's headline: who won, or a draw (and why, when the game was cut at its length limit). */
function resultTitle(result: NonNullable<Result>, room: Room, mySeats: number[]): string {
  if ("winner" in result) {
    const solo = mySeats.length === 1;
    return solo && result.winner === mySeats[0] ? "You win!" : `${seatName(room.seats, result.winner)} wins!`;
  }
  return result.reason === "too_long" ? "It’s a draw: the game reached its length limit" : "It’s a draw";
}

/** What a guest waits for: the host's rematch, or, while the host is away (the room closes unless
 * they come back, as the warning above the table counts down), the host's return. */
function rematchNote(room: Room): string {
  const host = hostName(room, "the host");
  return room.closes_at ? `A rematch waits for ${host} to come back.` : `Waiting for ${host} to start a rematch…`;
}

/** The end of a game over the table: who won, a rematch (the host's), leaving, the replay. */
export function ResultBox({ result, room, mySeats, isHost, onRematch, onLeave, offline }: {
  result: NonNullable<Result>; room: Room; mySeats: number[]; isHost: boolean;
  /** Asks for the rematch; resolves true when the server accepted it, false when it refused it, null
   * when nothing was sent (an ask is already on its way). */
  onRematch: () => Promise<boolean | null>;
  onLeave: () => void; offline: boolean;
}): ReactElement {
  const box = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const rematch = useRef<HTMLButtonElement>(null);
  // Asked for: the button waits for the next game, which takes this box away (or for a refusal: a
  // press that sent nothing is none, the ask on its way will be answered).
  const [asked, setAsked] = useState(false);
  const askRematch = () => {
    if (asked) return;
    setAsked(true);
    void onRematch().then((accepted) => {
      if (accepted === false) setAsked(false);
    });
  };
  // Whoever had scrolled down sees the result come into view. The host lands on Rematch, everyone
  // else on the result itself: without the focus's own jump, which would cut the smooth scroll.
  useEffect(() => {
    (isHost ? rematch : heading).current?.focus({ preventScroll: true });
    reveal(box.current, "center");
  }, []);
  return (
    <div className="result-overlay" role="alertdialog" aria-labelledby="result-title" data-testid="result" ref={box}>
      {"winner" in result ? <TrophyIcon size={40} /> : <DrawIcon size={40} />}
      <h2 id="result-title" ref={heading} tabIndex={-1}>{resultTitle(result, room, mySeats)}</h2>
      {/* The next game first, on a line of its own; then the two ways to look back or leave, side by
          side on any screen (one of three on a line would wrap alone under the others). */}
      {isHost ? (
        <button type="button" className="btn btn-primary result-main" onClick={askRematch} disabled={offline || asked}
          ref={rematch} aria-busy={asked}>
          Rematch
        </button>
      ) : (
        <span className="muted">{rematchNote(room)}</span>
      )}
      <div className="result-more">
        <button type="button" className="btn" onClick={onLeave}>{isHost ? "Close room" : "Leave table"}</button>
        <a className="btn" href={`/replays/${room.id}?since=${room.created}`} target="_blank" rel="noopener">
          Watch again <NewTabIcon /><span className="visually-hidden">(opens in a new tab)</span>
        </a>
      </div>
    </div>
  );
}
