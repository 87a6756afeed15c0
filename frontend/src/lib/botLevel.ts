// The level the host's "Add bot" offers: the one this browser's host chose last, else the middle
// of the server's levels ("normal" of easy, normal, hard), so a new host does not meet the
// strongest bots by default.
const LEVEL_KEY = "lounge.bot-level";

/** The level to offer first among `levels` (the server's, weakest first); none before they are known. */
export function firstBotLevel(levels: string[]): string | undefined {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(LEVEL_KEY);
  } catch {
    // Storage refused (private browsing): the middle level, as for a first visit.
  }
  if (saved && levels.includes(saved)) return saved;
  return levels[Math.floor(levels.length / 2)];
}

/** Remembers the host's choice for the next "Add bot", in this room and the next. */
export function rememberBotLevel(level: string): void {
  try {
    localStorage.setItem(LEVEL_KEY, level);
  } catch {
    // Not remembered: the choice lasts for this lobby only.
  }
}
