// A legal move in words, from the templates the server gives for its game (docs/protocol.md):
// placeholders {arg} or {arg:kind}, the first template that fits the move's arguments wins.
import { cardName, isCard } from "./cards";
import type { LegalMove, MoveInfo } from "./types";

type Piece = { kind: "text"; text: string } | { kind: "card"; code: string } | { kind: "seat"; seat: number };

const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g;

function text(value: string): Piece {
  return { kind: "text", text: value };
}

function piece(value: string | number, kind: string | undefined, labels: Record<string, string>): Piece | null {
  const whole = typeof value === "number" && Number.isInteger(value);
  if (kind === undefined) return text(String(value));
  if (kind === "card") return isCard(value) ? { kind: "card", code: value } : null;
  if (kind === "seat") return whole ? { kind: "seat", seat: value as number } : null;
  if (kind === "position") return whole ? text(String((value as number) + 1)) : null;
  if (kind === "label") return String(value) in labels ? text(labels[String(value)]) : null;
  return null;
}

/** The template's pieces for these arguments, or null when it does not fit them. */
function fill(template: string, move: MoveInfo, args: (string | number)[]): Piece[] | null {
  const out: Piece[] = [];
  let at = 0;
  for (const found of template.matchAll(PLACEHOLDER)) {
    const index = move.args.indexOf(found[1]);
    const part = index >= 0 && index < args.length ? piece(args[index], found[2], move.labels) : null;
    if (part === null) return null;
    out.push(text(template.slice(at, found.index)), part);
    at = (found.index ?? 0) + found[0].length;
  }
  out.push(text(template.slice(at)));
  return out.filter((p) => p.kind !== "text" || p.text !== "");
}

/** A legal move as pieces: its first fitting template, else its name and its arguments. */
function movePieces(info: MoveInfo | undefined, legal: LegalMove): Piece[] {
  for (const template of info?.words ?? []) {
    const found = fill(template, info as MoveInfo, legal.args);
    if (found) return found;
  }
  const args = legal.args.map((a): Piece => (isCard(a) ? { kind: "card", code: a } : text(String(a))));
  return [text(legal.move.replace(/_/g, " ")), ...args.flatMap((a) => [text(" "), a])];
}

/** A legal move as one sentence, with seats named by `seatName`. */
export function sayMove(info: MoveInfo | undefined, legal: LegalMove, seatName: (seat: number) => string): string {
  return movePieces(info, legal)
    .map((p) => (p.kind === "text" ? p.text : p.kind === "card" ? cardName(p.code) : seatName(p.seat)))
    .join("");
}
