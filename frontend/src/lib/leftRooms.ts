// The rooms this tab left on purpose (Leave, Close room, or "Back to the lounge" after leaving a
// game), so that coming back to such a room's page (the browser's Back, a reload, the link
// again) asks before joining instead of taking a seat at once. Kept per tab in sessionStorage,
// like the tab's identity, newest first, a few dozen at most; a room is forgotten once the
// player joins it again.

import { readList, writeList } from "./storedList";

const KEY = "lounge.left";
const KEPT = 40;

function read(): string[] {
  return readList<string>(KEY, (code) => typeof code === "string", sessionStorage);
}

function write(list: string[]): void {
  if (list.length) writeList(KEY, list, KEPT, sessionStorage);
  else sessionStorage.removeItem(KEY);
}

/** Remembers that this tab left the room `code` on purpose. */
export function markLeft(code: string): void {
  const key = code.toUpperCase();
  write([key, ...read().filter((c) => c !== key)]);
}

/** Whether this tab left the room `code` on purpose (and has not joined it again since). */
export function hasLeft(code: string): boolean {
  return read().includes(code.toUpperCase());
}

/** Forgets that this tab left the room `code`: the player is joining it again. */
export function forgetLeft(code: string): void {
  const key = code.toUpperCase();
  const list = read();
  if (list.includes(key)) write(list.filter((c) => c !== key));
}
