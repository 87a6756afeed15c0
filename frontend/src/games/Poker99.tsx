import { useEffect, useState, type CSSProperties, type ReactElement } from "react";
import { Card } from "../components/Card";
import { cardName } from "../lib/cards";
import type { LegalMove } from "../lib/types";
import { FaceDownHand, PlayerBox } from "./PlayerBox";
import { fromOffset, movesNamed, othersAround, seatName, type BoardProps } from "./types";

function choiceLabel(choice: string | number | undefined, seats: BoardProps["seats"], card: string): string {
  if (choice === "+" || choice === "-") {
    const amount = card.startsWith("Q") ? 20 : 10;
    return `${choice === "+" ? "Add" : "Subtract"} ${amount}`;
  }
  if (typeof choice === "number") return `${seatName(seats, choice)} plays next`;
  return "Play";
}

function Choices({ card, moves, seats, onPick, onCancel }: {
  card: string; moves: LegalMove[]; seats: BoardProps["seats"];
  onPick: (m: LegalMove) => void; onCancel: () => void;
}): ReactElement {
  const five = card.startsWith("5");
  return (
    <div className="choice-box" role="group" aria-label={`Choices for the ${cardName(card)}`}>
      <strong>{five ? `Who plays after your ${cardName(card)}?` : `The ${cardName(card)}: add or subtract?`}</strong>
      <div className="btn-row" style={{ justifyContent: "center" }}>
        {moves.map((m) => (
          <button key={String(m.args[1])} type="button" className="btn btn-accent" onClick={() => onPick(m)}>
            {choiceLabel(m.args[1], seats, card)}
          </button>
        ))}
        <button type="button" className="btn" onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

/** Poker 99: the running total, the direction, the last card played and the hands. */
export function Poker99(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, hideHand, mover, owner } = props;
  const total = (view.total as number) ?? 0;
  const maxTotal = (view.max_total as number) ?? 99;
  const hand = (view.hands as string[] | null) ?? null;
  const counts = (view.hands_count as number[]) ?? [];
  const status = (view.status as string[]) ?? [];
  const last = view.last as { card: string; seat: number } | null;
  const deckCount = (view.deck_count as number) ?? 0;
  const [choosing, setChoosing] = useState<string | null>(null);

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
            <div className={`total-dial ${total >= 90 ? "danger" : ""}`} role="status" aria-live="polite"
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
          aria-label={`${seatName(seats, seat)}'s hand`}>
          {choosing && canAct && (
            <Choices card={choosing} moves={byCard.get(choosing) ?? []} seats={seats}
              onPick={(m) => play("play", m.args)} onCancel={() => setChoosing(null)} />
          )}
          <p className="hint" aria-live="polite">
            {plays.length > 0 && !hideHand && !choosing
              ? `Choose a glowing card: it must keep the total between 0 and ${maxTotal}.`
              : ""}
          </p>
          <h3>{owner ? `${owner}’s hand` : "Your hand"} {status[seat] === "out" && <span className="pill pill-off">Out</span>}</h3>
          <div className="hand">
            {hand && !hideHand
              ? hand.map((code) => (
                  <Card key={code} code={code} playable={canAct && byCard.has(code)} selected={choosing === code}
                    onSelect={canAct && byCard.has(code) ? () => pick(code) : undefined} />
                ))
              : <FaceDownHand count={counts[seat] ?? 0} label="Your hand" />}
            {hand && hand.length === 0 && <div className="empty-slot">no cards</div>}
          </div>
        </div>
      )}
    </>
  );
}
