import type { GameInfo, LegalMove, SeatInfo, View } from "../lib/types";

/** What every game board gets from the table around it. */
export interface BoardProps {
  view: View;
  /** The legal moves of the seat shown (empty for spectators and while waiting). */
  legal: LegalMove[];
  /** The seat whose view this is, or null for a spectator. */
  seat: number | null;
  seats: SeatInfo[];
  /** Sends one of the legal moves, for the seat shown or, on a hot seat, for another of this
   * connection's seats; resolves true when the server accepted it, false when it refused it (or it
   * could not be sent: offline, no answer in time). */
  play: (move: string, args: (string | number)[], seat?: number) => Promise<boolean>;
  /** Every seat this connection plays, with its legal moves (several on a hot seat), for the moves
   * any seat may make at any moment (Slapjack's slap). Absent: the seat shown alone. */
  localSeats?: LocalSeat[];
  busy: boolean;
  /** Hot seat: the shown player's private cards stay face down until they ask to see them. */
  hideHand: boolean;
  /** Whose cards "mine" are, for labels: null for "your", or a hot-seat player's name. */
  owner: string | null;
  /** A bot made the latest action, playing for its seat's player (their time ran out, or they
   * are away): "a bot played for you", not "you played". */
  byBot?: boolean;
  /** The seat that moved last, when known (used to animate cards from its side). */
  mover: number | null;
  /** What the server says of this game (its moves' words, its private keys), once loaded. */
  game?: GameInfo;
}

/** One seat this connection plays, and the moves the server allows it now. */
export interface LocalSeat {
  seat: number;
  legal: LegalMove[];
}

/** Whether the seat is to move now in a game still going on. */
export function playsNow(view: View, seat: number | null): boolean {
  return seat !== null && view.current === seat && !view.result;
}

/** Something of the shown player's, for labels: "Your hand", or "Grace’s hand" on a hot seat. */
export function whose(owner: string | null, thing: string): string {
  return owner ? `${owner}’s ${thing}` : `Your ${thing}`;
}

/** The seats other than `seat`, in table order starting after it. */
export function othersAround(count: number, seat: number | null): number[] {
  const start = seat === null ? 0 : seat + 1;
  const order: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const s = (start + i) % count;
    if (s !== seat) order.push(s);
  }
  return order;
}

/** Where a moving card comes from: below for this player, above for the others. */
export function fromOffset(mover: number | null, seat: number | null): Record<string, string> {
  if (mover === null) return { "--from-x": "0px", "--from-y": "-60px" };
  return mover === seat ? { "--from-x": "0px", "--from-y": "160px" } : { "--from-x": "0px", "--from-y": "-160px" };
}
