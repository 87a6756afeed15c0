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
}

function read(): KnownRoom[] {
  return readList<KnownRoom>(KEY, (r) => typeof (r as KnownRoom | null)?.code === "string");
}

/** Remembers that this browser was in a room. */
export function rememberRoom(room: { code: string; id: string; title: string }, now = Date.now()): void {
  const rest = read().filter((r) => r.code !== room.code);
  writeList(KEY, [{ code: room.code, id: room.id, title: room.title, seen: now }, ...rest], KEPT);
}

/** The room this browser knew under this code, if any. */
export function knownRoom(code: string): KnownRoom | null {
  return read().find((r) => r.code === code.toUpperCase()) ?? null;
}
