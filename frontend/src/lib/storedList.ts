// A short list kept as JSON, newest first, in localStorage (what this browser remembers of rooms)
// or sessionStorage (what one tab does).

/** The list under `key`, keeping only the entries `valid` accepts (an unreadable list is empty). */
export function readList<T>(key: string, valid: (entry: unknown) => boolean, store: Storage = localStorage): T[] {
  try {
    const list: unknown = JSON.parse(store.getItem(key) ?? "[]");
    return Array.isArray(list) ? (list.filter(valid) as T[]) : [];
  } catch {
    return [];
  }
}

/** Stores the first `kept` entries under `key`. Storage may be full or refused: then the list
 * is simply not remembered, which each caller can live with. */
export function writeList<T>(key: string, list: T[], kept: number, store: Storage = localStorage): void {
  try {
    store.setItem(key, JSON.stringify(list.slice(0, kept)));
  } catch {
    // Not remembered: see above.
  }
}
