// Who this tab is. The token lives in sessionStorage, so each tab is its own player and a
// reload keeps the seat; the display name lives in localStorage, so it is remembered.
import { createSession } from "./api";

const TOKEN_KEY = "lounge.token";
const USER_KEY = "lounge.user_id";
const NAME_KEY = "lounge.name";

export interface Identity {
  userId: string;
  token: string;
}

let pending: Promise<Identity> | null = null;

function stored(): Identity | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const userId = sessionStorage.getItem(USER_KEY);
  return token && userId ? { token, userId } : null;
}

/** This tab's identity, asking the server for one the first time. */
export function getIdentity(): Promise<Identity> {
  const known = stored();
  if (known) return Promise.resolve(known);
  if (!pending) {
    pending = createSession()
      .then(({ user_id, token }) => {
        sessionStorage.setItem(TOKEN_KEY, token);
        sessionStorage.setItem(USER_KEY, user_id);
        return { userId: user_id, token };
      })
      .finally(() => {
        pending = null;
      });
  }
  return pending;
}

/** Forgets a token the server refused (e.g. after a server restart), so a new one is made. */
export function forgetIdentity(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

export function getName(): string {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export function saveName(name: string): void {
  localStorage.setItem(NAME_KEY, name.trim());
}

/** Trims a display name and checks the server's limits (1 to 32 characters). */
export function validName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return "Choose a display name first.";
  if (trimmed.length > 32) return "Names are at most 32 characters.";
  return null;
}
