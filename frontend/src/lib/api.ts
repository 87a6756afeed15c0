// REST calls to the lounge server (same origin; the Vite dev server proxies /api).
import type { ApiErrorBody, GamesResponse, Room } from "./types";

/** An error the server (or the network) reported, with a sentence for the player. */
export class ApiError extends Error {
  code: string;
  status: number;
  constructor(code: string, message: string, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** What a player reads when the server answers with an error but no sentence of its own (a proxy's
 * 502, a server starting up). */
const NOT_ANSWERING = "The lounge is not answering right now: try again in a moment.";

/** A JSON request to the lounge: its answer, or an ApiError with the server's own sentence. */
export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: { "Content-Type": "application/json", ...(init.headers ?? {}) },
    });
  } catch {
    throw new ApiError("network", "The server cannot be reached. Check your connection and try again.");
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body as { error?: ApiErrorBody } | null)?.error;
    throw new ApiError(error?.code ?? "http", error?.message ?? NOT_ANSWERING, response.status);
  }
  return body as T;
}

function auth(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export function createSession(): Promise<{ user_id: string; token: string }> {
  return request("/api/session", { method: "POST", body: "{}" });
}

export function fetchGames(): Promise<GamesResponse> {
  return request("/api/games");
}

/** The public rooms: those waiting for players, and those playing (to watch), newest first. */
export interface PublicRooms {
  waiting: Room[];
  playing: Room[];
}

export async function fetchPublicRooms(): Promise<PublicRooms> {
  const body = await request<{ rooms: Room[]; playing?: Room[] }>("/api/rooms");
  return { waiting: body.rooms, playing: body.playing ?? [] };
}

/** The room object of an open room, found by its code (`not_found` when there is none). */
export function fetchRoom(code: string): Promise<Room> {
  return request(`/api/rooms/${encodeURIComponent(code)}`);
}

export function createRoom(
  token: string,
  payload: { game: string; name: string; public: boolean },
): Promise<Room> {
  return request("/api/rooms", { method: "POST", body: JSON.stringify(payload), headers: auth(token) });
}
