import type { ReactElement, ReactNode } from "react";
import { Avatar } from "../components/Avatar";
import { CardBack } from "../components/Card";
import { cardCount } from "../lib/cards";
import { ClockPill } from "../components/TurnClock";
import { playerName } from "../lib/seats";
import type { SeatInfo, View } from "../lib/types";
import { othersAround, playsNow } from "./types";

export interface PlayerBoxProps {
  seat: number;
  info: SeatInfo | undefined;
  isTurn: boolean;
  out?: boolean;
  outLabel?: string;
  children?: ReactNode;
}

/** Another player at the table: name, status, and their cards (given as children). */
export function PlayerBox({ seat, info, isTurn, out, outLabel, children }: PlayerBoxProps): ReactElement {
  const name = playerName(info, seat);
  const label = `${name}${isTurn ? ", playing now" : ""}${out ? `, ${outLabel ?? "out"}` : ""}`;
  return (
    <section className={`player-box ${isTurn ? "is-turn" : ""} ${out ? "is-out" : ""}`} aria-label={label}
      data-testid={`player-${seat}`}>
      <div className="player-head">
        <Avatar name={name} colour={info?.colour ?? seat} bot={info?.kind === "bot"} />
        <span className="name" title={name}>{name}</span>
      </div>
      <div className="btn-row" style={{ justifyContent: "center", gap: "0.25rem" }}>
        {isTurn && <span className="pill turn-chip">Their turn</span>}
        {info?.clock && <ClockPill clock={info.clock} />}
        {info?.away && !info.left && <span className="pill pill-off">Away</span>}
        {/* The bot's name says its level ("Bot 1 (easy)"): the pill does not say it again. */}
        {info?.kind === "bot" && <span className="pill pill-bot">Bot</span>}
        {info?.kind === "local" && <span className="pill pill-local">Hot seat</span>}
        {/* One pill for a player both away and disconnected: a bot plays for them either way. */}
        {info && info.kind === "human" && !info.connected && !info.left && !info.away && (
          <span className="pill pill-off">Disconnected</span>
        )}
        {info?.left && <span className="pill pill-off">Left</span>}
        {out && !info?.left && <span className="pill pill-off">{outLabel ?? "Out"}</span>}
      </div>
      {children}
    </section>
  );
}

/** The other players, in table order from the shown seat, each with what the game shows of them. */
export function Opponents({ view, seat, seats, out, outLabel, children }: {
  view: View;
  seat: number | null;
  seats: SeatInfo[];
  /** Whether a seat is out of the game (its box is greyed, with `outLabel`). */
  out?: (seat: number) => boolean;
  outLabel?: string;
  children: (seat: number) => ReactNode;
}): ReactElement {
  const others = othersAround(view.num_players, seat);
  // Three others or more: a phone's Slapjack shows them as chips. Five or more: smaller boxes,
  // so that they fit one row of a desktop's table.
  const size = `${others.length >= 3 ? " several" : ""}${others.length >= 5 ? " many" : ""}`;
  return (
    <div className={`opponents${size}`}>
      {others.map((s) => (
        <PlayerBox key={s} seat={s} info={seats[s]} isTurn={playsNow(view, s)} out={out?.(s)} outLabel={outLabel}>
          {children(s)}
        </PlayerBox>
      ))}
    </div>
  );
}

/** The shown player's own place at the foot of the table (where focus goes when a move takes it
 * away: it can be focused, but is not a tab stop). */
export function MyArea({ label, isTurn, children }: { label: string; isTurn: boolean; children: ReactNode }): ReactElement {
  return (
    <div className={`me-area ${isTurn ? "is-turn" : ""}`} role="group" aria-label={label} tabIndex={-1}>
      {children}
    </div>
  );
}

/** The place of a hand or a pile with no card in it. The word does not fit a small slot (another
 * player's hand on a phone): there a dash shows instead, and screen readers still read the word. */
export function EmptySlot({ word = "empty" }: { word?: string }): ReactElement {
  return (
    <div className="empty-slot">
      <span className="empty-word">{word}</span>
      <span className="empty-mark" aria-hidden="true">—</span>
    </div>
  );
}

/** A hand seen from behind: a fan of card backs and how many there are. */
export function FaceDownHand({ count, label }: { count: number; label: string }): ReactElement {
  const shown = Math.min(count, 6);
  return (
    <div className="pile-stack" role="img" aria-label={`${label}: ${cardCount(count)}`}>
      {count === 0 ? (
        <EmptySlot word="none" />
      ) : (
        <div className="fan fan-tight" aria-hidden="true">
          {Array.from({ length: shown }, (_, i) => (
            <div key={i} className="card card-back">
              <CardBack />
            </div>
          ))}
        </div>
      )}
      <span className="count-badge" aria-hidden="true">{count}</span>
    </div>
  );
}
