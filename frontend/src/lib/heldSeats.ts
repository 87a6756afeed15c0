// The seats this browser holds, so that a tab opened later on an invite link can take back a seat
// whose tab was closed, or come back as its player once it is lost (the token itself lives in each
// tab's sessionStorage, and goes with it).
// Kept in localStorage, newest first, a few dozen at most: a room's code and an identity seated
// there (several per room when several tabs of this browser took seats).
import { useEffect } from "react";
import { readList, writeList } from "./storedList";
import type { Room } from "./types";

const KEY = "lounge.seats";
const KEPT = 40;

export interface HeldSeat {
  code: string;
  token: string;
  user_id: string;
}

function read(): HeldSeat[] {
  return readList<HeldSeat>(KEY, (entry) => {
    const s = entry as HeldSeat | null;
    return typeof s?.code === "string" && typeof s.token === "string";
  });
}

function write(list: HeldSeat[]): void {
  writeList(KEY, list, KEPT);
}

/** Remembers that this user sits in the room `code`. */
export function holdSeat(code: string, identity: { token: string; userId: string }): void {
  const key = code.toUpperCase();
  const rest = read().filter((s) => s.code !== key || s.user_id !== identity.userId);
  write([{ code: key, token: identity.token, user_id: identity.userId }, ...rest]);
}

/** The seats this browser holds in the room `code`, newest first. */
export function heldSeats(code: string): HeldSeat[] {
  return read().filter((s) => s.code === code.toUpperCase());
}

/** Forgets the seat held in the room `code`: only this user's, or whoever's when `userId` is null
 * (the room is gone). */
export function releaseSeat(code: string, userId: string | null = null): void {
  const list = read();
  const kept = list.filter((s) => s.code !== code.toUpperCase() || (userId !== null && s.user_id !== userId));
  if (kept.length !== list.length) write(kept);
}

/** The user's seat as the room shows it: "free" when nobody plays it (their tab was closed),
 * "played" (in another tab), or null when it is gone (left, lost, or never there). */
export function seatState(room: Room, userId: string): "free" | "played" | null {
  const seat = room.seats.find((s) => s.user_id === userId && s.kind === "human" && !s.left);
  if (!seat) return null;
  return seat.connected ? "played" : "free";
}

/** Keeps the held seat in step with the room: held while this user plays a seat in it (`seated`,
 * null until joined), forgotten once they do not or once the room is gone. */
export function useHeldSeat(code: string, identity: { token: string; userId: string } | null,
  seated: boolean | null, roomGone: boolean): void {
  useEffect(() => {
    if (!identity || seated === null) return;
    if (seated) holdSeat(code, identity);
    else releaseSeat(code, identity.userId);
  }, [code, identity?.token, seated]);
  useEffect(() => {
    if (roomGone) releaseSeat(code);
  }, [code, roomGone]);
}
