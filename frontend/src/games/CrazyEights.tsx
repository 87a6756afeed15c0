import type { CSSProperties, ReactElement } from "react";
import { Card, suitInk } from "../components/Card";
import { capitalised, cardCount, cardName, highlightedCards, suitOf } from "../lib/cards";
import { movesNamed } from "../lib/moves";
import { seatName } from "../lib/seats";
import type { LegalMove } from "../lib/types";
import { ChoiceBox, MyHand, useCardPicker } from "./HandPicker";
import { FaceDownHand, Opponents } from "./PlayerBox";
import { fromOffset, playsNow, type BoardProps } from "./types";

/** A card named inside a sentence: "the jack of hearts", "the 8 of clubs". */
const theCard = (code: unknown): string => `the ${cardName(code)}`;

/** A suit an 8 may name, on its button: the suit's symbol in its ink, and its name. */
function suitChoice(move: LegalMove): { text: ReactElement; name: string } {
  const letter = String(move.args[1]);
  const suit = suitOf(letter);
  return {
    name: `Name ${suit?.name ?? letter}`,
    text: (
      <>
        <span aria-hidden="true" style={{ color: suitInk(letter), fontSize: "1.3rem", lineHeight: 1 }}>
          {suit?.symbol}
        </span>{" "}
        {suit ? capitalised(suit.name) : letter}
      </>
    ),
  };
}

/** What happened last, in words: "Grace played the 8 of spades and named clubs", "A bot played
 * the 4 of hearts for you", "A bot drew a card for Ada" (it played the turn of a player who is away
 * or out of time, whoever they are). */
function lastMove({ view, seats, seat, owner, byBot }: BoardProps): string {
  const last = view.last as { seat: number; move: string } | null;
  if (!last) return "The first card is turned up.";
  // "You" only when this screen has one player: on a hot seat each player is named.
  const mine = last.seat === seat && owner === null;
  const player = mine ? "you" : seatName(seats, last.seat);
  const who = byBot ? "A bot" : mine ? "You" : player;
  const forWhom = byBot ? ` for ${player}` : "";
  if (last.move === "draw") return `${who} drew a card${forWhom}.`;
  if (last.move === "pass") return `${who} passed${forWhom}.`;
  const top = view.top as string;
  const named = top.startsWith("8") ? ` and named ${suitOf(view.suit)?.name}` : "";
  return `${who} played ${theCard(top)}${forWhom}${named}.`;
}

/** What the player may do now, in words (nothing while it is not their turn). */
function hintFor(stage: string | null, drawn: string | null, playable: string[], canDraw: boolean, canPass: boolean): string {
  const canPlay = playable.length > 0;
  if (stage === "drawn") {
    return canPlay ? `You drew ${theCard(drawn)}: play it, or pass.` : `You drew ${theCard(drawn)}: it does not fit, so pass.`;
  }
  if (canPlay) return `Play ${highlightedCards(playable)}${canDraw ? ", or draw" : ""}.`;
  if (canDraw) return "Nothing fits: draw a card.";
  if (canPass) return "Nothing fits and nothing is left to draw: pass.";
  return "";
}

/** The top of the discard pile, and the suit to follow beside it (named with an 8, or the top's). */
function DiscardPile({ view, offset }: { view: BoardProps["view"]; offset: CSSProperties }): ReactElement {
  const top = view.top as string;
  const letter = view.suit as string;
  const follow = suitOf(letter);
  const eightOnTop = top?.startsWith("8");
  // Read out when the suit changes: the dial itself is a picture.
  const followText = follow ? `Suit to follow: ${follow.name}${eightOnTop ? " (named with the 8)" : ""}` : "";
  return (
    <div className="deck-col discard-col">
      <span className="label-on-felt">Discard pile · {((view.discards_count as number) ?? 0) + 1}</span>
      <div style={{ position: "relative" }}>
        {top && (
          <Card key={`${top}-${view.version}`} code={top} animate={view.last !== null} style={offset}
            label={`Top of the discard pile: ${cardName(top)}`} testId="top-card" />
        )}
        {follow && (
          <div role="status" aria-label={followText} data-testid="suit" className="total-dial"
            style={{ position: "absolute", right: -46, top: "50%", transform: "translateY(-50%)", width: 52, height: 52,
              borderWidth: 4, zIndex: 2, borderColor: eightOnTop ? "#4fc3f7" : undefined }}>
            {/* Beside the card, just over its edge halfway down: both corners (their index) show. */}
            <strong aria-hidden="true" style={{ color: suitInk(letter), fontSize: "1.7rem" }}>{follow.symbol}</strong>
            <span className="visually-hidden">{followText}</span>
          </div>
        )}
      </div>
      {follow && (
        <span className="pill" style={{ fontSize: "0.72rem", marginTop: 10, ...(eightOnTop ? { background: "#4fc3f7", color: "#08283a" } : {}) }}>
          {eightOnTop ? `8 named ${follow.name}` : `${capitalised(follow.name)} to follow`}
        </span>
      )}
    </div>
  );
}

/** Crazy Eights: the top of the discard pile and the suit to follow, the stock, and the hands. */
export function CrazyEights(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, hideHand, mover, owner } = props;
  const counts = (view.hands_count as number[]) ?? [];
  const drawn = (view.drawn as string | null) ?? null;
  const picker = useCardPicker(legal, play, view.version);
  const canAct = !busy && !hideHand;
  const draw = canAct ? movesNamed(legal, "draw")[0] : undefined;
  const pass = canAct ? movesNamed(legal, "pass")[0] : undefined;
  const lastSeat = (view.last as { seat: number } | null)?.seat ?? mover;
  const offset = fromOffset(lastSeat, seat) as CSSProperties;
  const myTurn = playsNow(view, seat);
  const hint = myTurn && canAct && !picker.choosing
    ? hintFor(view.stage, drawn, [...picker.byCard.keys()], Boolean(draw), Boolean(pass)) : "";

  const chooser = (card: string, moves: LegalMove[]) => (
    <ChoiceBox label={`Suit to name with the ${cardName(card)}`} question={`Your ${cardName(card)}: which suit follows it?`}
      moves={moves} choice={suitChoice} onPick={(m) => play("play", m.args)} onCancel={picker.cancel} twoByTwo />
  );

  return (
    <>
      <Opponents view={view} seat={seat} seats={seats} out={(s) => view.left.includes(s)} outLabel="Left">
        {(s) => (
          <>
            <FaceDownHand count={counts[s] ?? 0} label={`${seatName(seats, s)}'s hand`} />
            {counts[s] === 1 && !view.left.includes(s) && <span className="pill turn-chip">Last card!</span>}
          </>
        )}
      </Opponents>

      <div className="center stacks-only">
        <div className="deck-area" style={{ gap: "0.9rem" }}>
          <div className="deck-col">
            <span className="label-on-felt">Stock</span>
            <FaceDownHand count={(view.stock_count as number) ?? 0} label="Stock" />
            {draw && (
              <button type="button" className="btn btn-accent btn-small" data-move="draw"
                onClick={() => play("draw", draw.args)}>
                Draw a card
              </button>
            )}
          </div>
          <DiscardPile view={view} offset={offset} />
        </div>
        <p className="direction" data-testid="last-move" style={{ margin: 0 }}>{lastMove(props)}</p>
      </div>

      {seat !== null && (
        <MyHand seat={seat} seats={seats} owner={owner} isTurn={myTurn} hand={(view.hands as string[] | null) ?? null}
          count={counts[seat] ?? 0} hidden={hideHand} picker={picker} canAct={canAct} chooser={chooser} hint={hint}
          badge={<span className="pill">{cardCount(counts[seat] ?? 0)}</span>} cardsStayButtons
          // A ring of its own, not an outline: the outline is the keyboard's focus ring.
          cardStyle={(code) => (code === drawn ? { boxShadow: "0 0 0 3px #0f3d2e, 0 0 0 6px #4fc3f7" } : undefined)}>
          {pass && (
            <div className="btn-row" style={{ justifyContent: "center" }}>
              <button type="button" className="btn btn-accent" data-move="pass" onClick={() => play("pass", pass.args)}>
                Pass
              </button>
            </div>
          )}
        </MyHand>
      )}
    </>
  );
}
