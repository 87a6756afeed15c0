import { useId, type CSSProperties, type ReactElement } from "react";
import { parseCard, suitOf, type CardInfo, type Suit } from "../lib/cards";

// Suit shapes drawn in a 100x100 box, so every pip looks the same whatever fonts are installed.
const SUIT_PATHS: Record<Suit, string> = {
  H: "M50 92C22 68 2 50 8 28 14 8 42 6 50 30 58 6 86 8 92 28 98 50 78 68 50 92Z",
  D: "M50 4 86 50 50 96 14 50Z",
  S: "M50 6C58 30 96 44 92 68 88 86 64 88 55 74 57 84 61 91 70 96H30C39 91 43 84 45 74 36 88 12 86 8 68 4 44 42 30 50 6Z",
  C: "M50 10A19 19 0 0 1 66 42 19 19 0 1 1 56 72C57 82 61 90 70 96H30C39 90 43 82 44 72A19 19 0 1 1 34 42 19 19 0 0 1 50 10Z",
};

// Pip centres for the number cards, in the card's 100x140 box (col x, row y).
const L = 31;
const M = 50;
const R = 69;
const PIPS: Record<string, [number, number][]> = {
  "2": [[M, 30], [M, 110]],
  "3": [[M, 30], [M, 70], [M, 110]],
  "4": [[L, 30], [R, 30], [L, 110], [R, 110]],
  "5": [[L, 30], [R, 30], [M, 70], [L, 110], [R, 110]],
  "6": [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  "7": [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  "8": [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [M, 90], [L, 110], [R, 110]],
  "9": [[L, 30], [R, 30], [L, 57], [R, 57], [M, 70], [L, 83], [R, 83], [L, 110], [R, 110]],
  "10": [[L, 30], [R, 30], [M, 44], [L, 57], [R, 57], [L, 83], [R, 83], [M, 96], [L, 110], [R, 110]],
};

const INK = { red: "#c62828", black: "#1b1b1f" };

/** The ink of a suit's symbol, as on the cards: red for hearts and diamonds, else black. */
export function suitInk(suit: unknown): string {
  return suitOf(suit)?.red ? INK.red : INK.black;
}

function SuitShape(props: { suit: Suit; x: number; y: number; size: number; flip?: boolean; fill: string }): ReactElement {
  const { suit, x, y, size, flip, fill } = props;
  const s = size / 100;
  const rotate = flip ? ` rotate(180 50 50)` : "";
  return (
    <path
      d={SUIT_PATHS[suit]}
      fill={fill}
      transform={`translate(${x - size / 2} ${y - size / 2}) scale(${s})${rotate}`}
    />
  );
}

function CornerIndex({ card, fill }: { card: CardInfo; fill: string }): ReactElement {
  const index = (
    <>
      <text x="11" y="21" textAnchor="middle" fontSize={card.rank === "10" ? 15 : 18}
        fontWeight="700" fontFamily="Georgia, 'DejaVu Serif', serif" fill={fill}
        letterSpacing={card.rank === "10" ? -1.5 : 0}>
        {card.rank}
      </text>
      <SuitShape suit={card.suit} x={11} y={32} size={12} fill={fill} />
    </>
  );
  return (
    <>
      <g>{index}</g>
      <g transform="rotate(180 50 70)">{index}</g>
    </>
  );
}

function FaceCentre({ card, fill }: { card: CardInfo; fill: string }): ReactElement {
  if (card.rank === "A") {
    return <SuitShape suit={card.suit} x={50} y={70} size={card.suit === "S" ? 56 : 44} fill={fill} />;
  }
  if (card.rank === "J" || card.rank === "Q" || card.rank === "K") {
    const tint = card.red ? "#fde7e7" : "#e6e9f5";
    const band = card.red ? "#f2b705" : "#3f51b5";
    return (
      <g>
        <rect x="22" y="18" width="56" height="104" rx="4" fill={tint} stroke={fill} strokeWidth="1.5" />
        <rect x="22" y="62" width="56" height="16" fill={band} opacity="0.85" />
        <text x="50" y="58" textAnchor="middle" fontSize="34" fontWeight="700"
          fontFamily="Georgia, 'DejaVu Serif', serif" fill={fill}>{card.rank}</text>
        <text x="50" y="108" textAnchor="middle" fontSize="34" fontWeight="700"
          fontFamily="Georgia, 'DejaVu Serif', serif" fill={fill} transform="rotate(180 50 97)">
          {card.rank}
        </text>
        <SuitShape suit={card.suit} x={50} y={70} size={13} fill="#fff" />
        <SuitShape suit={card.suit} x={32} y={28} size={10} fill={fill} />
        <SuitShape suit={card.suit} x={68} y={112} size={10} fill={fill} flip />
      </g>
    );
  }
  return (
    <g>
      {(PIPS[card.rank] ?? []).map(([x, y], i) => (
        <SuitShape key={i} suit={card.suit} x={x} y={y} size={18} fill={fill} flip={y > 72} />
      ))}
    </g>
  );
}

/** The face of one card as an SVG picture. */
export function CardFace({ code }: { code: string }): ReactElement {
  const card = parseCard(code);
  if (!card) return <CardBack />;
  const fill = suitInk(card.suit);
  return (
    <svg className="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
      <rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b4a8" strokeWidth="1.5" />
      <CornerIndex card={card} fill={fill} />
      <FaceCentre card={card} fill={fill} />
    </svg>
  );
}

/** The back of a card: a lattice on deep red. */
export function CardBack(): ReactElement {
  const id = useId().replace(/:/g, "");
  return (
    <svg className="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">
      <defs>
        <pattern id={`lattice${id}`} width="10" height="10" patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)">
          <rect width="10" height="10" fill="#8e1f2f" />
          <path d="M0 5H10M5 0V10" stroke="#c2485a" strokeWidth="1.6" />
        </pattern>
      </defs>
      <rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#b9b4a8" strokeWidth="1.5" />
      <rect x="7" y="7" width="86" height="126" rx="5" fill={`url(#lattice${id})`} />
      <rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#f3d9a4" strokeWidth="1.5" />
      <circle cx="50" cy="70" r="14" fill="#8e1f2f" stroke="#f3d9a4" strokeWidth="2" />
      <text x="50" y="76" textAnchor="middle" fontSize="16" fill="#f3d9a4"
        fontFamily="Georgia, 'DejaVu Serif', serif" fontWeight="700">GL</text>
    </svg>
  );
}

export interface CardProps {
  /** The card's code, or null/undefined for a face-down card. */
  code?: string | null;
  /** Marks a card the player may play now. */
  playable?: boolean;
  selected?: boolean;
  /** Called when the card is pressed; without it the card is a picture, not a button. */
  onSelect?: () => void;
  /** Replaces the accessible name (default: "9 of hearts", or "Face-down card"). */
  label?: string;
  className?: string;
  style?: CSSProperties;
  /** Plays the short "card arrives" animation when the card first appears. */
  animate?: boolean;
  disabled?: boolean;
  testId?: string;
}

/** One playing card: a picture, or a button when it can be chosen. */
export function Card(props: CardProps): ReactElement {
  const { code, playable, selected, onSelect, label, className, style, animate, disabled } = props;
  const info = parseCard(code);
  const name = label ?? (info ? info.name : "Face-down card");
  const classes = [
    "card",
    info ? "card-face" : "card-back",
    playable ? "card-playable" : "",
    selected ? "card-selected" : "",
    animate ? "card-animate" : "",
    className ?? "",
  ].filter(Boolean).join(" ");
  const picture = info ? <CardFace code={info.code} /> : <CardBack />;
  if (onSelect) {
    // Named by its (hidden) words, not an aria-label: the rank drawn on the card is text, and a
    // button's name must contain the text it shows (WCAG's "label in name"), which "queen of
    // spades" does not for a "Q".
    return (
      <button type="button" className={classes} style={style}
        aria-pressed={selected ?? false} onClick={onSelect} disabled={disabled}
        data-card={info?.code} data-testid={props.testId}>
        {picture}
        <span className="visually-hidden">{name}</span>
      </button>
    );
  }
  return (
    <div className={classes} style={style} role="img" aria-label={name} data-card={info?.code}
      data-testid={props.testId}>
      {picture}
    </div>
  );
}
