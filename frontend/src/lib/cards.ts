// Card codes as the rules use them everywhere: rank then suit, e.g. "9H", "10C", "AS".
import { listed } from "./lists";

export type Suit = "S" | "H" | "D" | "C";
export type Rank = "A" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "10" | "J" | "Q" | "K";

export interface CardInfo {
  code: string;
  rank: Rank;
  suit: Suit;
  red: boolean;
  /** "queen of hearts", as said inside a sentence (as the server's game log says it). */
  name: string;
}

export interface SuitInfo {
  /** "spades", as said inside a sentence. */
  name: string;
  symbol: string;
  red: boolean;
}

/** The four suits, by the letter the card codes (and the moves naming a suit) use. */
const SUITS: Record<Suit, SuitInfo> = {
  S: { name: "spades", symbol: "♠", red: false },
  H: { name: "hearts", symbol: "♥", red: true },
  D: { name: "diamonds", symbol: "♦", red: true },
  C: { name: "clubs", symbol: "♣", red: false },
};

const RANK_NAMES: Record<string, string> = { A: "ace", J: "jack", Q: "queen", K: "king" };

/** Parses a card code, or returns null when it is not one. */
export function parseCard(code: unknown): CardInfo | null {
  if (typeof code !== "string") return null;
  const match = /^(A|[2-9]|10|J|Q|K)([SHDC])$/.exec(code.trim().toUpperCase());
  if (!match) return null;
  const rank = match[1] as Rank;
  const suit = match[2] as Suit;
  return {
    code: `${rank}${suit}`,
    rank,
    suit,
    red: SUITS[suit].red,
    name: `${RANK_NAMES[rank] ?? rank} of ${SUITS[suit].name}`,
  };
}

/** The suit a letter names ("H": hearts), or null when it names none. */
export function suitOf(letter: unknown): SuitInfo | null {
  return typeof letter === "string" && Object.hasOwn(SUITS, letter) ? SUITS[letter as Suit] : null;
}

/** "9 of hearts" for "9H", "queen of spades" for "QS", as said inside a sentence (a sentence that
 * starts with one capitalises it: `capitalised`); the code itself when it is not a card. */
export function cardName(code: unknown): string {
  return parseCard(code)?.name ?? String(code);
}

/** The words with their first letter capitalised, to start a sentence: "Queen of spades", "Hearts". */
export function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The cards a player may play, for a hint that a screen reader says too (the highlight alone is a
 * look): up to three named ("the 4 of hearts or the 7 of clubs (highlighted)"), more counted
 * ("one of the 5 highlighted cards": the cards' own buttons name them). */
export function highlightedCards(cards: string[]): string {
  if (cards.length > 3) return `one of the ${cards.length} highlighted cards`;
  return `${listed(cards.map((c) => `the ${cardName(c)}`), "or")} (highlighted)`;
}

/** "1 card", "3 cards". */
export function cardCount(count: number): string {
  return `${count} card${count === 1 ? "" : "s"}`;
}

/** True when the value looks like a card code. */
export function isCard(value: unknown): value is string {
  return parseCard(value) !== null;
}

/** Replaces card codes inside a sentence with their spoken names ("play 9H" -> "play 9 of hearts";
 * "QS is not yours" -> "Queen of spades is not yours"). */
export function nameCardsIn(text: string): string {
  return text.replace(/\b(A|[2-9]|10|J|Q|K)([SHDC])\b/g, (code, _rank, _suit, at: number) =>
    (at === 0 ? capitalised(cardName(code)) : cardName(code)));
}
