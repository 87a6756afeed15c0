import type { Room } from "./types";

/** Whether someone new joining the room would get a seat. The server decides (it seats a
 * newcomer only before the game, in a free seat, and lets anyone else watch); the pages use
 * this only to word their offer: "Take a seat" or "Watch". An unknown room: assume a seat. */
export function seatFree(room: Room | null): boolean {
  return room === null || (room.status === "waiting" && room.seats.length < room.max_players);
}
