// The server's list of games and bot levels, fetched once and shared.
import { useEffect, useState } from "react";
import { fetchGames } from "./api";
import type { GamesResponse } from "./types";

let cache: Promise<GamesResponse> | null = null;

export function loadGames(): Promise<GamesResponse> {
  if (!cache) {
    cache = fetchGames().catch((error) => {
      cache = null;
      throw error;
    });
  }
  return cache;
}

export function useGames(): { data: GamesResponse | null; error: string | null } {
  const [data, setData] = useState<GamesResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    loadGames()
      .then((games) => live && setData(games))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, []);
  return { data, error };
}
