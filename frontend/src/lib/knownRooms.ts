// The rooms this browser has been in, so that an old link can say the room closed rather than
// that it never existed. Kept in localStorage, newest first, a few dozen at most.
import { readList, writeList } from "./storedList";

const KEY = "lounge.rooms";
const KEPT = 40;

export interface KnownRoom {
  code: string;
  id: string;
  title: string;
  seen: number;
  /** When the room opened: its games are the host's since then (a room's id is its host's). */
  created?: number;
}

function read(): KnownRoom[] {
  return readList<KnownRoom>(KEY, (r) => typeof (r as KnownRoom | null)?.code === "string");
}

/** Remembers that this browser was in a room. */
export function rememberRoom(room: { code: string; id: string; title: string; created?: number }, now = Date.now()): void {
  const rest = read().filter((r) => r.code !== room.code);
  const kept = { code: room.code, id: room.id, title: room.title, seen: now, created: room.created };
  writeList(KEY, [kept, ...rest], KEPT);
}

/** The room this browser knew under this code, if any. */
export function knownRoom(code: string): KnownRoom | null {
  return read().find((r) => r.code === code.toUpperCase()) ?? null;
}
