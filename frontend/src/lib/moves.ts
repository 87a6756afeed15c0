// The server's legal moves, sorted for a board: the board never works out a move itself.
import type { LegalMove } from "./types";

/** The moves of one kind, e.g. every "play". */
export function movesNamed(legal: LegalMove[], name: string): LegalMove[] {
  return legal.filter((m) => m.move === name);
}

/** Moves by the card they play (their first argument), in the server's order. */
export function movesByCard(moves: LegalMove[]): Map<string, LegalMove[]> {
  const byCard = new Map<string, LegalMove[]>();
  for (const move of moves) {
    const card = String(move.args[0]);
    byCard.set(card, [...(byCard.get(card) ?? []), move]);
  }
  return byCard;
}

/** The move a card's press sends at once: its only move, when that names nothing but the card.
 * Null when the player has a choice to make first (a suit, a sign, a seat). */
export function directMove(options: LegalMove[]): LegalMove | null {
  return options.length === 1 && options[0].args.length === 1 ? options[0] : null;
}
