import { useEffect, useRef, useState, type CSSProperties, type ReactElement } from "react";
import { Card } from "../components/Card";
import { capitalised, cardCount, cardName, parseCard } from "../lib/cards";
import { movesNamed } from "../lib/moves";
import { seatName } from "../lib/seats";
import type { LegalMove, SeatInfo, View } from "../lib/types";
import { useSpaceBar } from "../lib/useSpaceBar";
import { FaceDownHand, MyArea, Opponents } from "./PlayerBox";
import { SlapName } from "./SlapName";
import { fromOffset, playsNow, whose, type BoardProps } from "./types";

/** A slap or a departure, as the view's `events` list it (docs/games/slapjack.md). */
interface SlapEvent {
  version: number;
  seat: number;
  kind: string;
  reason: string | null;
  cards: number;
  text: string;
}

const TILT = [-8, 5, -2];

/** After a seat's slap goes out, further slap presses from that seat are ignored for this long (ms),
 * whatever the view's version: a good slap makes a new version (the empty pile) within tens of ms,
 * so the second click of a double click (30-250 ms later) or a quick second Space would otherwise
 * slap that pile, wrongly, and cost cards. 350 ms swallows a human double tap, and is short of a
 * real reaction to a new card: someone must turn it up, and seeing it is a jack and slapping takes
 * a player some 300-500 ms more. */
export const SLAP_QUIET_MS = 350;

/** The slap to send: the one naming the version seen, so that a slap on a pile already taken is late. */
function slapIn(legal: LegalMove[]): LegalMove | undefined {
  const slaps = movesNamed(legal, "slap");
  return slaps.find((m) => m.args.length === 1) ?? slaps[0];
}

/** The slap a seat's button sends. A seat with no cards is offered a slap only when the pile can be
 * won: were its button lit only then, it would tell that player what the others must see for
 * themselves. So it stays pressable for every seat still in the game, and the server refuses,
 * in words, a slap that cannot win the pile back. */
function slapFor(legal: LegalMove[], view: View, slapper: number): LegalMove | undefined {
  const offered = slapIn(legal);
  if (offered || view.result || view.left.includes(slapper)) return offered;
  return { move: "slap", args: [view.version] };
}

/** The version a slap names: the view's version its seat saw (a slap without one: the view shown). */
function slapVersion(move: LegalMove, shown: number): number {
  const named = move.args[0];
  return typeof named === "number" ? named : shown;
}

/** An event in words, naming its seat's player (the server's own text numbers the seats); `you`:
 * the seat said "You", this screen's only player's (on a hot seat each player is named). */
function eventText(event: SlapEvent, seats: SeatInfo[], you: number | null): string {
  const who = event.seat === you ? "You" : seatName(seats, event.seat);
  const cards = event.cards === 0 ? "no cards" : cardCount(event.cards);
  if (event.kind === "good") return `${who} took the pile with a ${event.reason}: ${cards}`;
  if (event.kind === "bad") return `${who} slapped wrongly: ${cards} under the pile`;
  if (event.kind === "late") {
    const what = event.reason === "slapped" ? "a pile already slapped" : "too late";
    return `${who} slapped ${what}: ${cards} under the pile`;
  }
  if (event.kind === "left") return `${who} left: ${cards} under the pile`;
  return event.text;
}

/** A jack just turned up on the pile, in words ("Jack of hearts on the pile: slap!"), else "": the
 * pile is a picture, and the log comes too late to slap by. A jack already there when the board came
 * up (a reload, a return to the table) is not news; a slap on it, or the next card, ends the news. */
function useJackNews(view: View, canSlap: boolean): string {
  const plays = (view.plays as number | undefined) ?? 0;
  const firstPlays = useRef(plays);
  const pile = (view.pile as string[]) ?? [];
  const top = parseCard(pile[pile.length - 1]);
  if (top?.rank !== "J" || plays === firstPlays.current || view.pile_slapped === true || view.result) return "";
  return `${capitalised(top.name)} on the pile${canSlap ? ": slap!" : "."}`;
}

/** The pile in the middle: its top three cards, a little askew, the top one named. `slapped`:
 * someone slapped it since its last card (the view's `pile_slapped`): any slap on it now is late
 * and costs three cards, which it may not look like (a bad slap's cards under an empty pile can
 * make a pair on top), so it says so until the next card. */
function SlapPile({ pile, offset, slapped }: { pile: string[]; offset: CSSProperties; slapped: boolean }): ReactElement {
  const top3 = pile.slice(-3);
  const said = slapped ? ", already slapped: wait for the next card" : "";
  return (
    <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: "0.3rem" }}>
      <span className="label-on-felt">Pile · {cardCount(pile.length)}</span>
      <div className="sj-pile" role="group" aria-label={`The pile, ${cardCount(pile.length)}${said}`} data-testid="sj-pile">
        {top3.length === 0 && <div className="empty-slot" style={{ position: "absolute", inset: "12%" }}>empty</div>}
        {top3.map((code, i) => {
          const isTop = i === top3.length - 1;
          const rotate = TILT[(pile.length - top3.length + i) % 3];
          return (
            <Card key={`${code}-${pile.length - top3.length + i}`} code={code} animate={isTop}
              label={isTop ? `Top of the pile: ${cardName(code)}` : undefined}
              style={{ ...(isTop ? offset : {}), transform: `rotate(${rotate}deg)`,
                marginLeft: `calc(var(--card-w) * -0.5 + ${(i - 1) * 14}px)` }} />
          );
        })}
      </div>
      {slapped && <span className="pill pill-warn sj-slapped" data-testid="sj-slapped">Already slapped: wait for the next card</span>}
    </div>
  );
}

/** Slapjack: the central pile, everyone's face-down stacks, and a big slap button per seat played here
 * (the space bar slaps too when only one seat is played here: with several, whose it is would change
 * with every turn). */
export function Slapjack(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, mover, owner, localSeats } = props;
  const counts = (view.stacks_count as number[]) ?? [];
  const events = (view.events as SlapEvent[]) ?? [];
  const latest = events[events.length - 1];
  const slappers = localSeats ?? (seat === null ? [] : [{ seat, legal }]);
  const turnUp = movesNamed(legal, "play")[0];
  const [pressed, setPressed] = useState<number | null>(null);
  const release = useRef<number | undefined>(undefined);
  // A pile is slapped once: after a slap naming version v, a seat sends no other slap (a second
  // click, a key pressed again) until its view has another version. The second would reach the
  // server after the first had taken the pile, and be judged late: three cards lost. The ref stops
  // presses that come before the board is drawn again, the state keeps the button pressed meanwhile.
  // A refused slap (too many, not connected, no answer) took nothing: its seat may slap again. Each
  // game has a board of its own (the table draws it anew for each round), so a new game, which
  // starts again at version 0, remembers no slap of the last one.
  const sent = useRef<Record<number, number>>({});
  // When each seat's last slap went out (Date.now()): presses within SLAP_QUIET_MS are ignored.
  const sentAt = useRef<Record<number, number>>({});
  const [sentFor, setSentFor] = useState<Record<number, number>>({});
  const shown = view.version;
  const waiting = (slapper: number, move: LegalMove | undefined) =>
    move !== undefined && sentFor[slapper] === slapVersion(move, shown);

  const slap = (slapper: number, move: LegalMove) => {
    const version = slapVersion(move, shown);
    if (sent.current[slapper] === version) return;
    const now = Date.now();
    if (now - (sentAt.current[slapper] ?? -Infinity) < SLAP_QUIET_MS) return;
    sentAt.current[slapper] = now; // a ref no render reads: changed in place
    sent.current = { ...sent.current, [slapper]: version };
    setSentFor(sent.current);
    setPressed(slapper);
    window.clearTimeout(release.current);
    release.current = window.setTimeout(() => setPressed(null), 120);
    void play("slap", move.args, slapper).then((accepted) => {
      // Only while the seat still remembers this slap: not one a later version's slap replaced.
      if (accepted || sent.current[slapper] !== version) return;
      const others = { ...sent.current };
      delete others[slapper];
      sent.current = others;
      setSentFor(others);
      delete sentAt.current[slapper];
    });
  };
  // The button's pressed look ends with the board: no state set after it is gone.
  useEffect(() => () => window.clearTimeout(release.current), []);
  const jackNews = useJackNews(view, slappers.length > 0);
  const mySlap = seat === null ? undefined : slapFor(legal, view, seat);
  const spaceSlaps = seat !== null && slappers.length === 1;
  useSpaceBar(spaceSlaps && mySlap ? () => slap(seat, mySlap) : null);

  return (
    <>
      <Opponents view={view} seat={seat} seats={seats} out={(s) => view.left.includes(s)} outLabel="Left">
        {(s) => <FaceDownHand count={counts[s] ?? 0} label={`${seatName(seats, s)}'s stack`} />}
      </Opponents>

      <div className="center stacks-only">
        <div className="sj-row">
          <SlapPile pile={(view.pile as string[]) ?? []} offset={fromOffset(mover, seat) as CSSProperties}
            slapped={view.pile_slapped === true} />
          {slappers.map(({ seat: slapper, legal: moves }) => {
            const move = slapFor(moves, view, slapper);
            // With one seat the space bar slaps, with several the seat's name says whose button it is.
            const name = slappers.length > 1 ? seatName(seats, slapper) : null;
            const held = waiting(slapper, move);
            return (
              <button key={slapper} type="button"
                className={`slap-btn ${pressed === slapper || held ? "pressed" : ""}`}
                disabled={!move || held} onClick={() => move && slap(slapper, move)}
                aria-keyshortcuts={spaceSlaps ? "Space" : undefined} data-testid="slap" data-seat={slapper}>
                SLAP!{" "}
                {name === null ? <small>{spaceSlaps && <span className="key-hint">space bar</span>}</small>
                  : <SlapName name={name} others={slappers.filter((o) => o.seat !== slapper).map((o) => seatName(seats, o.seat))} />}
              </button>
            );
          })}
        </div>
        {/* One region, kept mounted: screen readers read each new event as its text changes. */}
        <div role="status">
          {latest && <p className="notice" style={{ margin: 0 }}>{eventText(latest, seats, owner === null ? seat : null)}</p>}
        </div>
        {/* A jack is said at once, over whatever is being read: a slap is a matter of a second. */}
        <p className="visually-hidden" aria-live="assertive" data-testid="sj-jack-news">{jackNews}</p>
      </div>

      {seat !== null && (
        <MyArea label={whose(owner, "stack")} isTurn={playsNow(view, seat)}>
          <h2>{whose(owner, "stack")}</h2>
          <div className="btn-row sj-stack-row">
            <FaceDownHand count={counts[seat] ?? 0} label={whose(owner, "stack")} />
            <button type="button" className="btn btn-accent" disabled={!turnUp || busy} data-testid="turn-up"
              onClick={() => play("play", [])}>
              Turn up a card
            </button>
          </div>
        </MyArea>
      )}
    </>
  );
}
