// The history API: finished games, to watch again step by step (docs/protocol.md).
import { request } from "./api";
import { seatName } from "./seats";
import type { Result, SeatInfo, View } from "./types";

export interface MatchPlayer {
  seat: number;
  name: string;
  kind: SeatInfo["kind"];
  user_id: string | null;
  level: string | null;
}

export interface MatchSummary {
  id: string;
  room_id: string;
  round: number;
  game: string;
  num_players: number;
  players: MatchPlayer[];
  /** A game the room's closing cut short is kept with `{abandoned: true}`. */
  result: Result | { abandoned: true };
  moves: number;
  started: number;
  finished: number;
}

export interface ReplayStep {
  version: number;
  seat: number | null;
  move: string | null;
  args: (string | number | null)[];
  view: View;
  /** What happened at this step, in the server's words (the spectator's game log). */
  log?: string[];
  /** Who made the move: its player, or a bot standing in ("timeout", "away", "gone"). */
  actor?: "player" | "timeout" | "away" | "gone";
}

export interface Replay extends MatchSummary {
  title: string;
  steps: ReplayStep[];
}

/** One finished game with every step's spectator view. */
export function fetchReplay(id: string): Promise<Replay> {
  return request(`/api/matches/${encodeURIComponent(id)}`);
}

/** The finished games of a room (its host's id), newest first; `since` (ms): only those
 * started then or later, the games of the room that opened then. */
export async function fetchRoomMatches(roomId: string, since = 0): Promise<MatchSummary[]> {
  const query = `room=${encodeURIComponent(roomId)}${since ? `&since=${since}` : ""}`;
  const body = await request<{ matches: MatchSummary[] }>(`/api/matches?${query}`);
  return body.matches;
}

/** The seats of a finished game, shaped like a live room's, for the boards. */
export function seatsOf(players: MatchPlayer[]): SeatInfo[] {
  return players.map((p) => ({ ...p, connected: true, ready: true, left: false }));
}

/** Who won, in words. */
export function resultText(result: MatchSummary["result"], players: MatchPlayer[]): string {
  if (!result) return "Unfinished";
  if ("abandoned" in result) return "Not finished (the room closed)";
  if ("winner" in result) return `${seatName(players, result.winner)} won`;
  return "A draw";
}
