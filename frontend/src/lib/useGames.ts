// The server's list of games and bot levels, fetched once and shared.
import { fetchGames } from "./api";
import type { GamesResponse } from "./types";
import { useLoad } from "./useLoad";

let cache: Promise<GamesResponse> | null = null;

/** The list, asked for once (again only after a failure). */
function loadGames(): Promise<GamesResponse> {
  if (!cache) {
    cache = fetchGames().catch((error) => {
      cache = null;
      throw error;
    });
  }
  return cache;
}

export function useGames(): { data: GamesResponse | null; error: string | null } {
  return useLoad(loadGames, "games");
}
