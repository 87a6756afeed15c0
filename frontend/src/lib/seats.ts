// Seats and the people in them, in words: the names the pages show, and who may sit down.
import type { Room, SeatInfo } from "./types";

/** Whether someone new joining the room would get a seat. The server decides (it seats a
 * newcomer only before the game, in a free seat, and lets anyone else watch); the pages use
 * this only to word their offer: "Take a seat" or "Watch". An unknown room: assume a seat. */
export function seatFree(room: Room | null): boolean {
  return room === null || (room.status === "waiting" && room.seats.length < room.max_players);
}

/** The name of the player in a seat ("Ada"), or "Seat 2" when the seat is not known. */
export function playerName(player: { name: string } | undefined, seat: number): string {
  return player?.name ?? `Seat ${seat + 1}`;
}

/** The name of a seat of a table (a room's seats, or a finished game's players, by seat number);
 * nothing for no seat. */
export function seatName(seats: readonly { name: string }[], seat: number | null | undefined): string {
  if (seat === null || seat === undefined) return "";
  return playerName(seats[seat], seat);
}

/** Whether a seat is the host's own (not one of the host's hot-seat players). */
export function isHostSeat(room: Room, seat: SeatInfo): boolean {
  return seat.kind === "human" && seat.user_id === room.host;
}

/** The host's name, or `otherwise` before anyone sits. The host opens a room in the first
 * seat, but a rematch moves every seat one place round the table. */
export function hostName(room: Room, otherwise: string): string {
  return room.seats.find((seat) => isHostSeat(room, seat))?.name ?? otherwise;
}

/** How many play a game: "2 players", "2 to 4 players". */
export function playerCount(game: { min_players: number; max_players: number }): string {
  const { min_players: least, max_players: most } = game;
  return least === most ? `${least} players` : `${least} to ${most} players`;
}
