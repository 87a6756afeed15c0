// The rooms this browser has been in, so that an old link can say the room closed rather than
// that it never existed. Kept in localStorage, newest first, a few dozen at most.
const KEY = "lounge.rooms";
const KEPT = 40;

export interface KnownRoom {
  code: string;
  id: string;
  title: string;
  seen: number;
}

function read(): KnownRoom[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? (list as KnownRoom[]).filter((r) => typeof r?.code === "string") : [];
  } catch {
    return [];
  }
}

/** Remembers that this browser was in a room. */
export function rememberRoom(room: { code: string; id: string; title: string }, now = Date.now()): void {
  const rest = read().filter((r) => r.code !== room.code);
  const list = [{ code: room.code, id: room.id, title: room.title, seen: now }, ...rest].slice(0, KEPT);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // Storage may be full or refused: the worst case is the plainer "No such room" later.
  }
}

/** The room this browser knew under this code, if any. */
export function knownRoom(code: string): KnownRoom | null {
  return read().find((r) => r.code === code.toUpperCase()) ?? null;
}
