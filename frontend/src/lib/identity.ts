// Who this tab is. The token lives in sessionStorage, so each tab is its own player and a
// reload keeps the seat; a seat's token is also held per room (heldSeats), so that a tab opened
// on the invite link after the player's tab was closed takes the seat back (or, the seat lost
// since, is that player again, whom the server tells why they only watch). The display name
// lives in localStorage, so it is remembered.
import { createSession, fetchRoom } from "./api";
import { heldSeats, releaseSeat, seatState, type HeldSeat } from "./heldSeats";
import type { Room } from "./types";

const TOKEN_KEY = "lounge.token";
const USER_KEY = "lounge.user_id";
const NAME_KEY = "lounge.name";

export interface Identity {
  userId: string;
  token: string;
}

let pending: Promise<Identity> | null = null;

function stored(): Identity | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const userId = sessionStorage.getItem(USER_KEY);
  return token && userId ? { token, userId } : null;
}

function keep(identity: Identity): Identity {
  sessionStorage.setItem(TOKEN_KEY, identity.token);
  sessionStorage.setItem(USER_KEY, identity.userId);
  return identity;
}

/** This tab's identity, asking the server for one the first time. */
export function getIdentity(): Promise<Identity> {
  const known = stored();
  if (known) return Promise.resolve(known);
  if (!pending) {
    pending = createSession()
      .then(({ user_id, token }) => keep({ userId: user_id, token }))
      .finally(() => {
        pending = null;
      });
  }
  return pending;
}

/** The identity a tab opens a room with, and `elsewhere`: the name of a seat this browser plays at
 * that table in another tab, when this tab is a new player there (it should ask before it takes
 * a second seat). */
export interface RoomIdentity {
  identity: Identity;
  elsewhere: string | null;
}

/** The room `code` as the server has it now, when this browser holds seats there; else null. */
async function roomHolding(code: string, held: HeldSeat[]): Promise<Room | null> {
  return held.length > 0 ? fetchRoom(code).catch(() => null) : null;
}

/** The name of the player's seat `userId` holds in the room, if it holds one. */
function playerName(room: Room, userId: string): string | null {
  return room.seats.find((s) => s.user_id === userId && s.kind === "human")?.name ?? null;
}

/**
 * The identity this tab opens the room `code` with. A tab with none of its own takes the one of
 * a seat this browser holds there that nobody plays now (the tab that played it was closed):
 * the seat comes back. A seat played in another tab stays with it, and `elsewhere` names it.
 * With no seat free, the tab comes back as the player whose seat this browser held last and who
 * has lost it (a rematch started without them, the host removed them...): the server then says
 * why they only watch, where a new player would just be watching. Else it is a new player.
 */
export async function identityForRoom(code: string): Promise<RoomIdentity> {
  const held = stored() ? [] : heldSeats(code);
  const room = await roomHolding(code, held);
  let elsewhere: string | null = null;
  let lost: HeldSeat | null = null;
  if (room) {
    for (const seat of held) {
      const state = seatState(room, seat.user_id);
      if (state === "free") return { identity: keep({ userId: seat.user_id, token: seat.token }), elsewhere: null };
      if (state === null) {
        releaseSeat(code, seat.user_id); // this tab may come back as them: no other tab may too
        lost ??= seat;
      }
      if (state === "played") elsewhere ??= playerName(room, seat.user_id);
    }
  }
  const identity = lost ? keep({ userId: lost.user_id, token: lost.token }) : await getIdentity();
  return { identity, elsewhere };
}

/** A seat this browser holds at a table that nobody plays now: whose, and how to play it. */
export interface FreedSeat {
  identity: Identity;
  name: string;
}

/**
 * This browser's seats in the room `code`, looked up as `identityForRoom` does, for a tab that was
 * told a seat is played in another tab and watches for that tab to go: `freed`, a seat whose tab
 * was closed (the room shows it not connected; null while every such seat is played, or gone);
 * the room as it is now (null when this browser holds no seat there or it could not be fetched);
 * and whether any seat of this browser's is still in it (`held`: false once a closed tab's seat
 * was given up, its grace period over).
 */
export async function lookAtHeldSeats(code: string): Promise<{ room: Room | null; freed: FreedSeat | null; held: boolean }> {
  const held = heldSeats(code);
  const room = await roomHolding(code, held);
  if (!room) return { room: null, freed: null, held: true };
  return { room, freed: freeSeatIn(room, held), held: held.some((s) => seatState(room, s.user_id) !== null) };
}

/** The first of the seats `held` that nobody plays in `room` as it is now (a tab watching the
 * room has it live, and needs no look-up). */
export function freeSeatIn(room: Room, held: HeldSeat[] = heldSeats(room.code)): FreedSeat | null {
  for (const seat of held) {
    const name = playerName(room, seat.user_id);
    if (name && seatState(room, seat.user_id) === "free") {
      return { identity: { userId: seat.user_id, token: seat.token }, name };
    }
  }
  return null;
}

/** This tab plays `identity` from now on (and after a reload), in place of its own. */
export function takeIdentity(identity: Identity): Identity {
  return keep(identity);
}

/** Forgets a token the server refused (e.g. after a server restart), so a new one is made. */
export function forgetIdentity(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

export function getName(): string {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export function saveName(name: string): void {
  localStorage.setItem(NAME_KEY, name.trim());
}

/** Trims a display name and checks the server's limits (1 to 32 characters). */
export function validName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return "Choose a display name first.";
  if (trimmed.length > 32) return "Names are at most 32 characters.";
  return null;
}
