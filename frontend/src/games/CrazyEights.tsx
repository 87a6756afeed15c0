import { useEffect, useState, type CSSProperties, type ReactElement } from "react";
import { Card } from "../components/Card";
import { cardName } from "../lib/cards";
import type { LegalMove } from "../lib/types";
import { FaceDownHand, PlayerBox } from "./PlayerBox";
import { fromOffset, movesNamed, othersAround, seatName, whose, type BoardProps } from "./types";

const SUITS: Record<string, { name: string; symbol: string; red: boolean }> = {
  S: { name: "spades", symbol: "♠", red: false },
  H: { name: "hearts", symbol: "♥", red: true },
  D: { name: "diamonds", symbol: "♦", red: true },
  C: { name: "clubs", symbol: "♣", red: false },
};

const suitInk = (suit: string): string => (SUITS[suit]?.red ? "#c62828" : "#1b1b1f");

/** A card named inside a sentence: "the jack of hearts", "the 8 of clubs". */
const theCard = (code: unknown): string => `the ${cardName(code).replace(/^[A-Z]/, (c) => c.toLowerCase())}`;

/** The four suits an 8 may name, as the server's legal moves offer them. */
function SuitChooser({ card, moves, onPick, onCancel }: {
  card: string; moves: LegalMove[]; onPick: (m: LegalMove) => void; onCancel: () => void;
}): ReactElement {
  return (
    <div className="choice-box" role="group" aria-label={`Suit to name with the ${cardName(card)}`}>
      <strong>Your {cardName(card)}: which suit follows it?</strong>
      <div className="btn-row" style={{ justifyContent: "center" }}>
        {moves.map((m) => {
          const suit = SUITS[String(m.args[1])];
          return (
            <button key={String(m.args[1])} type="button" className="btn btn-accent"
              aria-label={`Name ${suit?.name ?? m.args[1]}`} onClick={() => onPick(m)}>
              <span aria-hidden="true" style={{ color: suitInk(String(m.args[1])), fontSize: "1.3rem", lineHeight: 1 }}>
                {suit?.symbol}
              </span>{" "}
              {suit ? suit.name[0].toUpperCase() + suit.name.slice(1) : m.args[1]}
            </button>
          );
        })}
        <button type="button" className="btn" onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

/** What happened last, in words: "Grace played the 8 of spades and named clubs". */
function lastMove(view: BoardProps["view"], seats: BoardProps["seats"], seat: number | null, owner: string | null): string {
  const last = view.last as { seat: number; move: string } | null;
  if (!last) return "The first card is turned up.";
  // "You" only when this screen has one player: on a hot seat each player is named.
  const who = last.seat === seat && owner === null ? "You" : seatName(seats, last.seat);
  if (last.move === "draw") return `${who} drew a card.`;
  if (last.move === "pass") return `${who} passed.`;
  const top = view.top as string;
  const named = top.startsWith("8") ? ` and named ${SUITS[view.suit as string]?.name}` : "";
  return `${who} played ${theCard(top)}${named}.`;
}

/** Crazy Eights: the top of the discard pile and the suit to follow, the stock, and the hands. */
export function CrazyEights(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, hideHand, mover, owner } = props;
  const hand = (view.hands as string[] | null) ?? null;
  const counts = (view.hands_count as number[]) ?? [];
  const top = view.top as string;
  const suit = view.suit as string;
  const stock = (view.stock_count as number) ?? 0;
  const under = (view.discards_count as number) ?? 0;
  const drawn = (view.drawn as string | null) ?? null;
  const [choosing, setChoosing] = useState<string | null>(null);

  useEffect(() => setChoosing(null), [view.version]);

  const byCard = new Map<string, LegalMove[]>();
  movesNamed(legal, "play").forEach((m) => byCard.set(String(m.args[0]), [...(byCard.get(String(m.args[0])) ?? []), m]));
  const canAct = !busy && !hideHand;
  const draw = canAct ? movesNamed(legal, "draw")[0] : undefined;
  const pass = canAct ? movesNamed(legal, "pass")[0] : undefined;
  const pick = (card: string) => {
    const options = byCard.get(card) ?? [];
    if (options.length === 1 && options[0].args.length === 1) play("play", options[0].args);
    else setChoosing(choosing === card ? null : card);
  };
  const eightOnTop = top?.startsWith("8");
  const follow = SUITS[suit];
  // Read out when the suit changes: the dial itself is a picture.
  const followText = follow ? `Suit to follow: ${follow.name}${eightOnTop ? " (named with the 8)" : ""}` : "";
  const lastSeat = (view.last as { seat: number } | null)?.seat ?? mover;
  const offset = fromOffset(lastSeat, seat) as CSSProperties;
  const myTurn = seat !== null && view.current === seat && !view.result;

  let hint = "";
  if (myTurn && canAct && !choosing) {
    if (view.stage === "drawn") {
      hint = byCard.size > 0 ? `You drew ${theCard(drawn)}: play it, or pass.` : `You drew ${theCard(drawn)}: it does not fit, so pass.`;
    } else if (byCard.size > 0) {
      hint = draw ? "Choose a glowing card to play, or draw." : "Choose a glowing card to play.";
    } else if (draw) {
      hint = "Nothing fits: draw a card.";
    } else if (pass) {
      hint = "Nothing fits and nothing is left to draw: pass.";
    }
  }

  return (
    <>
      <div className="opponents">
        {othersAround(view.num_players, seat).map((s) => (
          <PlayerBox key={s} seat={s} info={seats[s]} isTurn={view.current === s && !view.result}
            out={view.left.includes(s)} outLabel="Left">
            <FaceDownHand count={counts[s] ?? 0} label={`${seatName(seats, s)}'s hand`} />
            {counts[s] === 1 && !view.left.includes(s) && <span className="pill turn-chip">Last card!</span>}
          </PlayerBox>
        ))}
      </div>

      <div className="center">
        <div className="deck-area" style={{ gap: "0.9rem" }}>
          <div className="deck-col">
            <span className="label-on-felt">Stock</span>
            <FaceDownHand count={stock} label="Stock" />
            {draw && (
              <button type="button" className="btn btn-accent btn-small" data-move="draw"
                onClick={() => play("draw", draw.args)}>
                Draw a card
              </button>
            )}
          </div>
          <div className="deck-col" style={{ "--card-w": "92px", paddingRight: 30 } as CSSProperties}>
            <span className="label-on-felt">Discard pile · {under + 1}</span>
            <div style={{ position: "relative" }}>
              {top && (
                <Card key={`${top}-${view.version}`} code={top} animate={view.last !== null} style={offset}
                  label={`Top of the discard pile: ${cardName(top)}`} testId="top-card" />
              )}
              {follow && (
                <div role="status" aria-label={followText} data-testid="suit" className="total-dial"
                  style={{ position: "absolute", right: -32, bottom: -12, width: 62, height: 62, borderWidth: 4, zIndex: 2,
                    borderColor: eightOnTop ? "#4fc3f7" : undefined }}>
                  <strong aria-hidden="true" style={{ color: suitInk(suit), fontSize: "2rem" }}>{follow.symbol}</strong>
                  <span className="visually-hidden">{followText}</span>
                </div>
              )}
            </div>
            {follow && (
              <span className="pill" style={{ fontSize: "0.72rem", marginTop: 10, ...(eightOnTop ? { background: "#4fc3f7", color: "#08283a" } : {}) }}>
                {eightOnTop ? `8 named ${follow.name}` : `${follow.name[0].toUpperCase() + follow.name.slice(1)} to follow`}
              </span>
            )}
          </div>
        </div>
        <p className="direction" data-testid="last-move" style={{ margin: 0 }}>{lastMove(view, seats, seat, owner)}</p>
      </div>

      {seat !== null && (
        <div className={`me-area ${myTurn ? "is-turn" : ""}`} role="group"
          aria-label={`${seatName(seats, seat)}'s hand`} tabIndex={-1}>
          {choosing && canAct && (
            <SuitChooser card={choosing} moves={byCard.get(choosing) ?? []}
              onPick={(m) => play("play", m.args)} onCancel={() => setChoosing(null)} />
          )}
          <p className="hint" aria-live="polite">{hint}</p>
          <h3>
            {whose(owner, "hand")}
            <span className="pill">{counts[seat] ?? 0} card{counts[seat] === 1 ? "" : "s"}</span>
          </h3>
          <div className="hand">
            {hand && !hideHand
              ? hand.map((code) => (
                  <Card key={code} code={code} playable={canAct && byCard.has(code)} selected={choosing === code}
                    disabled={!(canAct && byCard.has(code))} onSelect={() => pick(code)}
                    style={code === drawn ? { outline: "3px dashed #4fc3f7", outlineOffset: 3 } : undefined} />
                ))
              : <FaceDownHand count={counts[seat] ?? 0} label={whose(owner, "hand")} />}
            {hand && hand.length === 0 && <div className="empty-slot">no cards</div>}
          </div>
          {pass && (
            <div className="btn-row" style={{ justifyContent: "center" }}>
              <button type="button" className="btn btn-accent" data-move="pass" onClick={() => play("pass", pass.args)}>
                Pass
              </button>
            </div>
          )}
        </div>
      )}
    </>
  );
}
