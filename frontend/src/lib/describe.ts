// Lines for the game log, worked out by comparing two views the server sent. This only says
// what changed on the table; it never decides what is legal.
import { cardName } from "./cards";
import type { View } from "./types";

type Names = string[];

function who(names: Names, seat: unknown): string {
  return typeof seat === "number" ? names[seat] ?? `Seat ${seat + 1}` : "Someone";
}

const CELL_NAMES = [
  "top left", "top centre", "top right", "middle left", "centre", "middle right",
  "bottom left", "bottom centre", "bottom right",
];

function ticTacToe(prev: View, next: View, names: Names): string[] {
  const before = (prev.cells as (string | null)[]) ?? [];
  const after = (next.cells as (string | null)[]) ?? [];
  return after.flatMap((mark, i) =>
    mark && before[i] !== mark ? [`${who(names, prev.current)} put ${mark} in the ${CELL_NAMES[i]}`] : [],
  );
}

interface PileRecord {
  state: string;
  cards: string[];
}

function pileLine(mover: string, i: number, was: PileRecord, now: PileRecord): string | null {
  const pile = `pile ${i + 1}`;
  const top = now.cards[now.cards.length - 1];
  if (was.state === "down" && now.state !== "down") return `${mover} turned up ${pile}: ${cardName(top)}`;
  if (now.cards.length > was.cards.length) {
    const locked = now.state === "locked" && was.state !== "locked" ? ` and locked it` : "";
    return `${mover} played ${cardName(top)} on ${pile}${locked}`;
  }
  if (was.state === "locked" && now.state === "unlocked") return `${mover} unlocked ${pile}`;
  if (was.state === "unlocked" && now.state === "locked") return `${mover} locked ${pile} with the key`;
  return null;
}

function nineLocks(prev: View, next: View, names: Names): string[] {
  const mover = who(names, prev.current);
  const lines: string[] = [];
  if ((next.deck_count as number) < (prev.deck_count as number)) lines.push(`${mover} picked up a card`);
  const piles = (v: View, i: number): PileRecord => ({
    state: (v.pile_states as string[])[i],
    cards: (v.piles as string[][])[i] ?? [],
  });
  for (let i = 0; i < ((next.piles as unknown[]) ?? []).length; i += 1) {
    const line = pileLine(mover, i, piles(prev, i), piles(next, i));
    if (line) lines.push(line);
  }
  return lines;
}

function poker99(prev: View, next: View, names: Names): string[] {
  const lines: string[] = [];
  const last = next.last as { card: string; seat: number; choice: string | number | null } | null;
  const turnMoved = next.turn !== prev.turn;
  if (last && turnMoved && JSON.stringify(last) !== JSON.stringify(prev.last ?? null)) {
    let choice = "";
    if (last.choice === "+" || last.choice === "-") choice = last.choice === "+" ? " (adding)" : " (subtracting)";
    else if (typeof last.choice === "number") choice = `, choosing ${who(names, last.choice)}`;
    lines.push(`${who(names, last.seat)} played ${cardName(last.card)}${choice}: total ${next.total}`);
  }
  const before = (prev.status as string[]) ?? [];
  ((next.status as string[]) ?? []).forEach((status, seat) => {
    if (status === "out" && before[seat] !== "out" && !next.left.includes(seat)) {
      lines.push(`${who(names, seat)} is out`);
    }
  });
  return lines;
}

interface SlapEvent {
  version: number;
  seat: number;
  text: string;
}

function slapjack(prev: View, next: View, names: Names): string[] {
  const lines: string[] = [];
  if ((next.plays as number) > (prev.plays as number) && next.top) {
    lines.push(`${who(names, prev.current)} turned up ${cardName(next.top)}`);
  }
  const seen = prev.version;
  for (const event of (next.events as SlapEvent[]) ?? []) {
    if (event.version > seen) {
      lines.push(event.text.replace(/Seat (\d+)/g, (_m, n: string) => who(names, Number(n))));
    }
  }
  return lines;
}

const BY_GAME: Record<string, (prev: View, next: View, names: Names) => string[]> = {
  "tic-tac-toe": ticTacToe,
  "nine-locks": nineLocks,
  poker99,
  slapjack,
};

/** What happened between two views of the same game, as short sentences. */
export function describeChange(prev: View | null, next: View, names: Names): string[] {
  if (!prev) return next.version === 0 ? ["The game begins"] : [];
  if (next.version <= prev.version) return [];
  const lines = [...(BY_GAME[next.game]?.(prev, next, names) ?? [])];
  for (const seat of next.left ?? []) {
    if (!(prev.left ?? []).includes(seat)) lines.push(`${who(names, seat)} left the game`);
  }
  if (next.result && !prev.result) {
    lines.push("winner" in next.result ? `${who(names, next.result.winner)} wins!` : "The game is a draw");
  }
  return lines;
}
