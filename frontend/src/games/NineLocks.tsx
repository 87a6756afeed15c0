import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactElement, type ReactNode } from "react";
import { Card, CardFace } from "../components/Card";
import { LockIcon } from "../components/Icons";
import { cardName, highlightedCards } from "../lib/cards";
import { listed } from "../lib/lists";
import { reveal } from "../lib/reveal";
import { movesNamed } from "../lib/moves";
import { seatName } from "../lib/seats";
import type { LegalMove } from "../lib/types";
import { EmptySlot, FaceDownHand, MyArea, Opponents } from "./PlayerBox";
import { fromOffset, playsNow, whose, type BoardProps } from "./types";

interface Pile {
  pile: number;
  state: "down" | "unlocked" | "locked";
  cards: string[];
  top: string | null;
  count: number;
}

const STATE_LABEL = { down: "Face down", unlocked: "Unlocked", locked: "Locked" };

function PileView({ pile, target, onPick, style, selectedCard }: {
  pile: Pile; target: boolean; onPick: (() => void) | null; style: CSSProperties; selectedCard: string | null;
}): ReactElement {
  const label = `Pile ${pile.pile + 1}, ${STATE_LABEL[pile.state].toLowerCase()}` +
    (pile.top ? `, ${cardName(pile.top)} on top` : "") + (pile.count > 1 ? `, ${pile.count} cards` : "");
  const action = selectedCard ? `Play ${cardName(selectedCard)} on pile ${pile.pile + 1}` : `Choose pile ${pile.pile + 1}`;
  const inner = (
    <span className="pile-stack" aria-hidden="true">
      {pile.cards.length > 1 && (
        <span className="under-card" aria-hidden="true">
          <CardFace code={pile.cards[pile.cards.length - 2]} />
        </span>
      )}
      <Card key={`${pile.top}-${pile.count}`} code={pile.top} animate={Boolean(pile.top)} style={style}
        label={label} />
      {pile.state === "locked" && (
        <span className="lock-icon" aria-hidden="true"><span><LockIcon size={18} /></span></span>
      )}
      {pile.count > 1 && <span className="count-badge" aria-hidden="true">{pile.count}</span>}
    </span>
  );
  return (
    <div className="nl-pile" data-testid={`pile-${pile.pile}`} data-state={pile.state}>
      {/* Always a button, so that becoming a target does not re-create (and re-animate) it. */}
      {/* Named by hidden words, not an aria-label, for the name holds all the card shows. */}
      <button type="button" className={`target ${target ? "is-target" : ""}`} onClick={onPick ?? undefined}
        disabled={!onPick}>
        {inner}
        <span className="visually-hidden">{onPick ? `${action} (${label})` : label}</span>
      </button>
      <span className={`state state-${pile.state === "down" ? "facedown" : pile.state}`}>
        {pile.state === "locked" && <LockIcon size={11} />}{STATE_LABEL[pile.state]}
      </span>
    </div>
  );
}

/** What the player may do now, in words. The cards and piles to choose are named (a screen reader
 * does not see them highlighted). */
function hintFor(stage: string | null, canPick: boolean, selected: string | null, playable: string[],
  piles: number[]): string {
  if (stage === "unlock") return "Choose a pile to unlock.";
  if (stage === "key") return "Use the key on a pile: a locked or face-down pile opens, an open one locks.";
  if (selected) {
    const where = `pile ${listed([...piles].sort((a, b) => a - b).map((p) => String(p + 1)), "or")}`;
    return `Choose a highlighted pile for the ${cardName(selected)} (${where}), or press Escape or the card again to cancel.`;
  }
  if (playable.length > 0) return `Choose ${highlightedCards(playable)} to play${canPick ? ", or pick up from the deck" : ""}.`;
  if (canPick) return "No card fits: pick up from the deck.";
  return "";
}

/** The deck, a button when the player may pick up from it. */
function Deck({ count, onPickUp }: { count: number; onPickUp: (() => void) | null }): ReactElement {
  return (
    <div className="deck-col">
      <span className="label-on-felt">Deck</span>
      {onPickUp ? (
        <button type="button" className="target pile-stack card-playable"
          style={{ border: 0, background: "transparent", padding: 0, cursor: "pointer", borderRadius: 8 }}
          onClick={onPickUp}>
          <span aria-hidden="true"><FaceDownHand count={count} label="Deck" /></span>
          <span className="visually-hidden">{`Pick up a card from the deck (${count} left)`}</span>
        </button>
      ) : (
        <FaceDownHand count={count} label="Deck" />
      )}
    </div>
  );
}

/** Another player's two hands: the visible one face up, the hidden one face down. */
function TheirHands({ name, visible, hiddenCount }: { name: string; visible: string[]; hiddenCount: number }): ReactElement {
  return (
    <div className="nl-hands">
      <section aria-label={`${name}'s visible hand`}>
        <span className="label-on-felt">Visible</span>
        <div className="fan fan-open">
          {visible.map((c) => <Card key={c} code={c} />)}
          {visible.length === 0 && <EmptySlot />}
        </div>
      </section>
      <section>
        <span className="label-on-felt">Hidden</span>
        <FaceDownHand count={hiddenCount} label={`${name}'s hidden hand`} />
      </section>
    </div>
  );
}

/** One of the player's own hands, under its name and who sees it. */
function OwnHand({ title, seenBy, children }: { title: string; seenBy: string; children: ReactNode }): ReactElement {
  return (
    <section>
      <h2>{title} <span className="muted" style={{ color: "#e0f3e9", fontWeight: 400 }}>{seenBy}</span></h2>
      <div className="hand">{children}</div>
    </section>
  );
}

/** The moves a press on a pile makes: the chosen card's plays, else unlocking or the key. */
function pileTargets(legal: LegalMove[], selected: string | null): Map<number, LegalMove> {
  const targets = new Map<number, LegalMove>();
  if (selected) {
    movesNamed(legal, "play").filter((m) => m.args[0] === selected).forEach((m) => targets.set(Number(m.args[1]), m));
  } else {
    legal.filter((m) => m.move === "unlock" || m.move === "key").forEach((m) => targets.set(Number(m.args[0]), m));
  }
  return targets;
}

/** Nine Locks: the 3x3 grid of piles, the deck, and each player's visible and hidden hands. */
export function NineLocks(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, hideHand, mover, owner } = props;
  const grid = (view.grid as Pile[]) ?? [];
  const visible = (view.visible as string[][]) ?? [];
  const hidden = (view.hidden as string[] | null) ?? null;
  const hiddenCount = (view.hidden_count as number[]) ?? [];
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => setSelected(null), [view.version]);

  const plays = movesNamed(legal, "play");
  const playable = new Set(plays.map((m) => String(m.args[0])));
  const pickUp = movesNamed(legal, "pick_up")[0];
  const targets = pileTargets(legal, selected);
  const canAct = !busy && !hideHand;
  const offset = fromOffset(mover, seat) as CSSProperties;
  // A pile to choose may sit under the player's own hand, which sticks to the bottom of the window.
  const gridBox = useRef<HTMLDivElement>(null);
  const choosing = canAct && targets.size > 0 ? `${view.version}:${selected}` : null;
  useEffect(() => {
    if (choosing) reveal(gridBox.current);
  }, [choosing]);
  // A chosen card's piles come before the hand on the page: focus goes to the first of them, as it
  // goes to a choice box's first choice in the other games, so that a keyboard player does not tab
  // through the rest of the hand to reach them. Escape puts it back on the card.
  useEffect(() => {
    if (selected) gridBox.current?.querySelector<HTMLElement>("button.is-target:enabled")?.focus({ preventScroll: true });
  }, [selected]);
  const handsBox = useRef<HTMLDivElement>(null);
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !selected) return;
    event.stopPropagation();
    setSelected(null);
    handsBox.current?.querySelector<HTMLElement>(`button[data-card="${selected}"]`)?.focus({ preventScroll: true });
  };

  const myCard = (code: string) => (
    <Card key={code} code={code} playable={canAct && playable.has(code)} selected={selected === code}
      onSelect={canAct && playable.has(code) ? () => setSelected(selected === code ? null : code) : undefined} />
  );
  const empty = <EmptySlot />;

  return (
    <>
      <Opponents view={view} seat={seat} seats={seats} out={(s) => view.out.includes(s) || view.left.includes(s)}
        outLabel="Locked out">
        {(s) => <TheirHands name={seatName(seats, s)} visible={visible[s] ?? []} hiddenCount={hiddenCount[s] ?? 0} />}
      </Opponents>

      <div className="center">
        <div className="deck-area">
          <Deck count={(view.deck_count as number) ?? 0} onPickUp={pickUp && canAct ? () => play("pick_up", []) : null} />
          <div className="nl-grid" role="group" aria-label="The nine piles" ref={gridBox} onKeyDown={cancelOnEscape}>
            {grid.map((pile) => {
              const move = targets.get(pile.pile);
              return (
                <PileView key={pile.pile} pile={pile} target={Boolean(move)} style={offset} selectedCard={selected}
                  onPick={move && canAct ? () => play(move.move, move.args) : null} />
              );
            })}
          </div>
        </div>
      </div>

      {seat !== null && (
        <MyArea label={`${seatName(seats, seat)}'s hands`} isTurn={playsNow(view, seat)}>
          <p className="hint" aria-live="polite">
            {legal.length > 0 && !hideHand ? hintFor(view.stage, Boolean(pickUp), selected, [...playable], [...targets.keys()]) : ""}
          </p>
          <div className="nl-hands" ref={handsBox} onKeyDown={cancelOnEscape}>
            <OwnHand title={owner ? `${owner}’s visible hand` : "Visible hand"} seenBy="everyone sees">
              {(visible[seat] ?? []).map(myCard)}
              {(visible[seat] ?? []).length === 0 && empty}
            </OwnHand>
            <OwnHand title={owner ? `${owner}’s hidden hand` : "Hidden hand"} seenBy={owner ? `only ${owner} sees` : "only you see"}>
              {hidden && !hideHand
                ? hidden.map(myCard)
                : <FaceDownHand count={hiddenCount[seat] ?? 0} label={whose(owner, "hidden hand")} />}
              {hidden && !hideHand && hidden.length === 0 && empty}
            </OwnHand>
          </div>
        </MyArea>
      )}
    </>
  );
}
