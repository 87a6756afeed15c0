import { useEffect, useState, type CSSProperties, type ReactElement } from "react";
import { Card } from "../components/Card";
import { cardName } from "../lib/cards";
import type { LegalMove } from "../lib/types";
import { FaceDownHand, PlayerBox } from "./PlayerBox";
import { fromOffset, movesNamed, othersAround, seatName, whose, type BoardProps } from "./types";

/** What the chooser's buttons need besides the move: names, and what each 10 or Q is worth. */
interface ChoiceWords {
  seats: BoardProps["seats"];
  /** What each 10 or Q of the hand adds or subtracts (the view's `signed_amounts`). */
  amounts: Record<string, number>;
  /** The server's words for the signs (GET /api/games), when the view says no amount. */
  labels: Record<string, string>;
}

/** A choice's button: who plays next (a seat), or what the card adds or subtracts. */
function choiceLabel(choice: string | number | undefined, card: string, words: ChoiceWords): string {
  if (typeof choice === "number") return `${seatName(words.seats, choice)} plays next`;
  const verb = choice === "-" ? "Subtract" : "Add";
  const amount = words.amounts[card];
  if (amount !== undefined) return `${verb} ${amount}`;
  return words.labels[String(choice)] ?? verb;
}

function Choices({ card, moves, words, onPick, onCancel }: {
  card: string; moves: LegalMove[]; words: ChoiceWords;
  onPick: (m: LegalMove) => void; onCancel: () => void;
}): ReactElement {
  const namesSeat = typeof moves[0]?.args[1] === "number";
  return (
    <div className="choice-box" role="group" aria-label={`Choices for the ${cardName(card)}`}>
      <strong>{namesSeat ? `Who plays after your ${cardName(card)}?` : `The ${cardName(card)}: add or subtract?`}</strong>
      <div className="btn-row" style={{ justifyContent: "center" }}>
        {moves.map((m) => (
          <button key={String(m.args[1])} type="button" className="btn btn-accent" onClick={() => onPick(m)}>
            {choiceLabel(m.args[1], card, words)}
          </button>
        ))}
        <button type="button" className="btn" onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

/** The dial turns red in the last tenth of the totals a play may reach. */
const DANGER_SHARE = 0.9;

/** Poker 99: the running total, the direction, the last card played and the hands. */
export function Poker99(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, hideHand, mover, owner, game } = props;
  const total = (view.total as number) ?? 0;
  const maxTotal = view.max_total as number;
  const hand = (view.hands as string[] | null) ?? null;
  const counts = (view.hands_count as number[]) ?? [];
  const status = (view.status as string[]) ?? [];
  const last = view.last as { card: string; seat: number } | null;
  const deckCount = (view.deck_count as number) ?? 0;
  const [choosing, setChoosing] = useState<string | null>(null);
  const words: ChoiceWords = {
    seats,
    amounts: (view.signed_amounts as Record<string, number> | null) ?? {},
    labels: game?.moves.find((m) => m.name === "play")?.labels ?? {},
  };

  useEffect(() => setChoosing(null), [view.version]);

  const plays = movesNamed(legal, "play");
  const byCard = new Map<string, LegalMove[]>();
  plays.forEach((m) => byCard.set(String(m.args[0]), [...(byCard.get(String(m.args[0])) ?? []), m]));
  const canAct = !busy && !hideHand;

  const pick = (card: string) => {
    const options = byCard.get(card) ?? [];
    if (options.length === 1 && options[0].args.length === 1) play("play", options[0].args);
    else setChoosing(choosing === card ? null : card);
  };
  const clockwise = view.direction >= 0;
  const offset = fromOffset(last ? last.seat : mover, seat) as CSSProperties;

  return (
    <>
      <div className="opponents">
        {othersAround(view.num_players, seat).map((s) => (
          <PlayerBox key={s} seat={s} info={seats[s]} isTurn={view.current === s && !view.result}
            out={status[s] === "out" || view.left.includes(s)} outLabel="Out">
            <FaceDownHand count={counts[s] ?? 0} label={`${seatName(seats, s)}'s hand`} />
          </PlayerBox>
        ))}
      </div>

      <div className="center">
        <div className="deck-area">
          <div className="deck-col">
            <span className="label-on-felt">Deck</span>
            <FaceDownHand count={deckCount} label="Draw deck" />
          </div>
          <div className="deck-col">
            <div className={`total-dial ${total >= maxTotal * DANGER_SHARE ? "danger" : ""}`} role="status" aria-live="polite"
              aria-label={`Total ${total} of ${maxTotal}`} data-testid="total">
              <small>Total</small>
              <strong>{total}</strong>
              <small>of {maxTotal}</small>
            </div>
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
        <span className="direction" aria-label={`Play goes ${clockwise ? "up" : "down"} the seats`}>
          <span aria-hidden="true" style={{ fontSize: "1.3rem" }}>{clockwise ? "↻" : "↺"}</span>
          {clockwise ? "Clockwise" : "Counter-clockwise"}
        </span>
      </div>

      {seat !== null && (
        <div className={`me-area ${view.current === seat && !view.result ? "is-turn" : ""}`} role="group"
          aria-label={`${seatName(seats, seat)}'s hand`} tabIndex={-1}>
          {choosing && canAct && (
            <Choices card={choosing} moves={byCard.get(choosing) ?? []} words={words}
              onPick={(m) => play("play", m.args)} onCancel={() => setChoosing(null)} />
          )}
          <p className="hint" aria-live="polite">
            {plays.length > 0 && !hideHand && !choosing ? "Choose a glowing card to play." : ""}
          </p>
          <h3>{whose(owner, "hand")} {status[seat] === "out" && <span className="pill pill-off">Out</span>}</h3>
          <div className="hand">
            {hand && !hideHand
              ? hand.map((code) => (
                  <Card key={code} code={code} playable={canAct && byCard.has(code)} selected={choosing === code}
                    onSelect={canAct && byCard.has(code) ? () => pick(code) : undefined} />
                ))
              : <FaceDownHand count={counts[seat] ?? 0} label={whose(owner, "hand")} />}
            {hand && hand.length === 0 && <div className="empty-slot">no cards</div>}
          </div>
        </div>
      )}
    </>
  );
}
