import type { CSSProperties, ReactElement } from "react";
import { Card } from "../components/Card";
import { SaidAs } from "../components/SaidAs";
import { cardName, highlightedCards } from "../lib/cards";
import { seatName } from "../lib/seats";
import type { LegalMove } from "../lib/types";
import { ChoiceBox, MyHand, useCardPicker } from "./HandPicker";
import { FaceDownHand, Opponents } from "./PlayerBox";
import { fromOffset, playsNow, type BoardProps } from "./types";

/** What the chooser's buttons need besides the move: names, and what each 10 or Q is worth. */
interface ChoiceWords {
  seats: BoardProps["seats"];
  /** What each 10 or Q of the hand adds or subtracts (the view's `signed_amounts`). */
  amounts: Record<string, number>;
  /** The server's words for the signs (GET /api/games), when the view says no amount. */
  labels: Record<string, string>;
  /** The running total: said with a 10's or a queen's question, as the choice box covers the dial on
   * a small phone. */
  total: number;
}

/** A choice's button: who plays next (a seat), or what the card adds or subtracts. */
function choiceLabel(choice: string | number | undefined, card: string, words: ChoiceWords): string {
  if (typeof choice === "number") return `${seatName(words.seats, choice)} plays next`;
  const verb = choice === "-" ? "Subtract" : "Add";
  const amount = words.amounts[card];
  if (amount !== undefined) return `${verb} ${amount}`;
  return words.labels[String(choice)] ?? verb;
}

/** The chooser's question, worded by what the server offers: a choice between signs or seats, or
 * the one way the card can go now ("The queen of hearts: subtract 20?"), which still asks before
 * the card is spent, as a press on a 10, Q or 5 always does. */
function choiceQuestion(card: string, moves: LegalMove[], words: ChoiceWords): string {
  const name = cardName(card);
  const only = moves.length === 1 ? moves[0].args[1] : undefined;
  if (typeof moves[0]?.args[1] === "number") {
    return typeof only === "number" ? `Play your ${name}? ${seatName(words.seats, only)} plays next.`
      : `Who plays after your ${name}?`;
  }
  const total = ` The total is ${words.total}.`;
  if (only === undefined) return `The ${name}: add or subtract?${total}`;
  const verb = only === "-" ? "subtract" : "add";
  const amount = words.amounts[card];
  return `The ${name}: ${verb}${amount === undefined ? "" : ` ${amount}`}?${total}`;
}

/** The dial turns red in the last tenth of the totals a play may reach. */
const DANGER_SHARE = 0.9;

/** The running total against the highest a play may reach. */
function TotalDial({ total, max }: { total: number; max: number }): ReactElement {
  return (
    <div className={`total-dial ${total >= max * DANGER_SHARE ? "danger" : ""}`} role="status" aria-live="polite"
      aria-label={`Total ${total} of ${max}`} data-testid="total">
      <small>Total</small>
      <strong>{total}</strong>
      <small>of {max}</small>
    </div>
  );
}

/** Which way the turn goes round the seats. */
function Direction({ clockwise }: { clockwise: boolean }): ReactElement {
  return (
    <span className="direction">
      <span aria-hidden="true" style={{ fontSize: "1.3rem" }}>{clockwise ? "↻" : "↺"}</span>
      <SaidAs words={`Play goes ${clockwise ? "up" : "down"} the seats`}>
        {clockwise ? "Clockwise" : "Counter-clockwise"}
      </SaidAs>
    </span>
  );
}

/** Poker 99: the running total, the direction, the last card played and the hands. */
export function Poker99(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, hideHand, mover, owner, game } = props;
  const counts = (view.hands_count as number[]) ?? [];
  const status = (view.status as string[]) ?? [];
  const last = view.last as { card: string; seat: number } | null;
  const picker = useCardPicker(legal, play, view.version);
  const words: ChoiceWords = {
    seats,
    amounts: (view.signed_amounts as Record<string, number> | null) ?? {},
    labels: game?.moves.find((m) => m.name === "play")?.labels ?? {},
    total: (view.total as number) ?? 0,
  };
  const canAct = !busy && !hideHand;
  const offset = fromOffset(last ? last.seat : mover, seat) as CSSProperties;

  const chooser = (card: string, moves: LegalMove[]) => (
    <ChoiceBox label={`Choices for the ${cardName(card)}`} moves={moves}
      question={choiceQuestion(card, moves, words)}
      choice={(m) => ({ text: choiceLabel(m.args[1], card, words) })}
      onPick={(m) => play("play", m.args)} onCancel={picker.cancel} />
  );

  return (
    <>
      <Opponents view={view} seat={seat} seats={seats} out={(s) => status[s] === "out" || view.left.includes(s)}
        outLabel="Out">
        {(s) => <FaceDownHand count={counts[s] ?? 0} label={`${seatName(seats, s)}'s hand`} />}
      </Opponents>

      <div className="center stacks-only">
        {/* One row, the direction under the total: with six players the table is tall, and a row
            more would put the direction or the last card under the hand, which stays in view. */}
        <div className="deck-area p99-center">
          <div className="deck-col">
            <span className="label-on-felt">Deck</span>
            <FaceDownHand count={(view.deck_count as number) ?? 0} label="Draw deck" />
          </div>
          <div className="deck-col">
            <TotalDial total={(view.total as number) ?? 0} max={view.max_total as number} />
            <Direction clockwise={view.direction >= 0} />
          </div>
          <div className="deck-col">
            <span className="label-on-felt">Last played</span>
            {last ? (
              <Card key={`${last.card}-${view.turn}`} code={last.card} animate style={offset}
                label={`Last played: ${cardName(last.card)} by ${seatName(seats, last.seat)}`} />
            ) : (
              <div className="empty-slot">no card yet</div>
            )}
          </div>
        </div>
      </div>

      {seat !== null && (
        <MyHand seat={seat} seats={seats} owner={owner} isTurn={playsNow(view, seat)}
          hand={(view.hands as string[] | null) ?? null} count={counts[seat] ?? 0} hidden={hideHand}
          picker={picker} canAct={canAct} chooser={chooser}
          hint={picker.byCard.size > 0 && !hideHand && !picker.choosing ? `Play ${highlightedCards([...picker.byCard.keys()])}.` : ""}
          badge={status[seat] === "out" && <span className="pill pill-off">Out</span>} />
      )}
    </>
  );
}
