// The hand of a game where a press on a card plays it, or first asks for a choice its moves leave
// open (Crazy Eights' suit for an 8, Poker 99's sign for a 10 or the next seat for a 5). What may
// be played, and the choices, are the server's legal moves.
import { useEffect, useId, useRef, useState, type CSSProperties, type ReactElement, type ReactNode } from "react";
import { Card } from "../components/Card";
import { directMove, movesByCard, movesNamed } from "../lib/moves";
import { seatName } from "../lib/seats";
import type { LegalMove, SeatInfo } from "../lib/types";
import { FaceDownHand, MyArea } from "./PlayerBox";
import { whose, type BoardProps } from "./types";

/** The hand's legal plays, by card, and the card whose choices are open. */
export interface CardPicker {
  byCard: Map<string, LegalMove[]>;
  /** The card pressed whose moves wait for a choice, if any. */
  choosing: string | null;
  /** A press on a card: its move when there is nothing to choose, else opens (or closes) its choices. */
  pick: (card: string) => void;
  cancel: () => void;
}

/** The "play" moves of the hand as a picker; an open choice closes with each new version. */
export function useCardPicker(legal: LegalMove[], play: BoardProps["play"], version: number): CardPicker {
  const [choosing, setChoosing] = useState<string | null>(null);
  useEffect(() => setChoosing(null), [version]);
  const byCard = movesByCard(movesNamed(legal, "play"));
  const pick = (card: string) => {
    const move = directMove(byCard.get(card) ?? []);
    if (move) play(move.move, move.args);
    else setChoosing(choosing === card ? null : card);
  };
  return { byCard, choosing, pick, cancel: () => setChoosing(null) };
}

/** A card's choices as buttons (each one of its legal moves), and Cancel. Focus goes to the first
 * choice as it opens (a keyboard player is on the card, and the choices come before it), so the
 * question is read with it; Escape or Cancel puts focus back on the card. `twoByTwo`: on a phone
 * the choices go two to a line, as wide as each other, with Cancel under them. */
export function ChoiceBox({ label, question, moves, choice, onPick, onCancel, twoByTwo = false }: {
  label: string;
  question: string;
  twoByTwo?: boolean;
  moves: LegalMove[];
  /** What a choice's button shows, and the name it is read with when that is not its text. */
  choice: (move: LegalMove) => { text: ReactNode; name?: string };
  onPick: (move: LegalMove) => void;
  onCancel: () => void;
}): ReactElement {
  const questionId = useId();
  const first = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    first.current?.focus({ preventScroll: true });
  }, []);
  const cancel = () => {
    onCancel();
    if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus({ preventScroll: true });
  };
  return (
    <div className="choice-box" role="group" aria-label={label} aria-describedby={questionId}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.stopPropagation();
        cancel();
      }}>
      <strong id={questionId}>{question}</strong>
      <div className={`btn-row${twoByTwo ? " two-by-two" : ""}`} style={{ justifyContent: "center" }}>
        {moves.map((m, i) => {
          const { text, name } = choice(m);
          return (
            <button key={String(m.args[1])} type="button" className="btn btn-accent" aria-label={name}
              ref={i === 0 ? first : undefined} onClick={() => onPick(m)}>
              {text}
            </button>
          );
        })}
        <button type="button" className="btn" onClick={cancel}>Cancel</button>
      </div>
    </div>
  );
}

export interface MyHandProps {
  seat: number;
  seats: SeatInfo[];
  owner: string | null;
  isTurn: boolean;
  /** The cards, or null when this screen may not see them. */
  hand: string[] | null;
  /** How many cards the hand holds (drawn face down while it is hidden). */
  count: number;
  /** Hot seat: the hand stays face down. */
  hidden: boolean;
  picker: CardPicker;
  /** Nothing may be pressed while false (a move on its way, a hidden hand, no connection). */
  canAct: boolean;
  /** The choices of the card being chosen. */
  chooser: (card: string, moves: LegalMove[]) => ReactNode;
  hint: string;
  /** Shown beside the heading. */
  badge?: ReactNode;
  /** Every card is a button, disabled when it cannot be played (else those are pictures). */
  cardsStayButtons?: boolean;
  cardStyle?: (code: string) => CSSProperties | undefined;
  /** Shown under the hand. */
  children?: ReactNode;
}

/** The player's own hand: the choices of the card pressed, a hint, and the cards. */
export function MyHand(props: MyHandProps): ReactElement {
  const { seat, seats, owner, hand, hidden, picker, canAct, cardsStayButtons = false } = props;
  const card = (code: string) => {
    const playable = canAct && picker.byCard.has(code);
    return (
      <Card key={code} code={code} playable={playable} selected={picker.choosing === code}
        style={props.cardStyle?.(code)} disabled={cardsStayButtons ? !playable : undefined}
        onSelect={playable || cardsStayButtons ? () => picker.pick(code) : undefined} />
    );
  };
  return (
    <MyArea label={`${seatName(seats, seat)}'s hand`} isTurn={props.isTurn}>
      {picker.choosing && canAct && props.chooser(picker.choosing, picker.byCard.get(picker.choosing) ?? [])}
      <p className="hint" aria-live="polite">{props.hint}</p>
      <h2>{whose(owner, "hand")}{props.badge}</h2>
      <div className="hand">
        {hand && !hidden ? hand.map(card) : <FaceDownHand count={props.count} label={whose(owner, "hand")} />}
        {hand && hand.length === 0 && <div className="empty-slot">no cards</div>}
      </div>
      {props.children}
    </MyArea>
  );
}
