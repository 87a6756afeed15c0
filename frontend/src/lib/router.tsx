// A tiny router over the History API: "/", "/r/CODE", "/rules/SLUG", "/replay/ID",
// "/replays/ROOM?since=MS".
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactElement } from "react";

export type Route =
  | { name: "home" }
  | { name: "room"; code: string; spectate: boolean }
  | { name: "rules"; slug: string | null }
  | { name: "replay"; id: string }
  | { name: "replays"; room: string; since: number }
  | { name: "missing"; path: string };

/** A room code as the lounge gives them out (any case). */
export const CODE_PATTERN = /^[A-Za-z0-9]{6}$/;

/** Whether a room page's key can name a room: a code, or a room's longer id. */
export function isRoomKey(key: string): boolean {
  return CODE_PATTERN.test(key) || key.length > 6;
}

/** Reads a route from a location's path and query. */
export function parseRoute(pathname: string, search = ""): Route {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") return { name: "home" };
  const room = /^\/r\/([A-Za-z0-9-]{1,64})$/.exec(path);
  if (room) {
    const spectate = new URLSearchParams(search).get("watch") === "1";
    return { name: "room", code: room[1].toUpperCase(), spectate };
  }
  if (path === "/rules") return { name: "rules", slug: null };
  const replay = /^\/replay\/([0-9a-f]{16})$/.exec(path);
  if (replay) return { name: "replay", id: replay[1] };
  const replays = /^\/replays\/([0-9a-f-]{1,64})$/.exec(path);
  if (replays) {
    // One of the host's rooms: the games started since it opened (its id is the host's).
    const since = Number(new URLSearchParams(search).get("since") ?? "0");
    return { name: "replays", room: replays[1], since: Number.isSafeInteger(since) && since > 0 ? since : 0 };
  }
  const rules = /^\/rules\/([a-z0-9-]{1,40})$/.exec(path);
  if (rules) return { name: "rules", slug: rules[1] };
  return { name: "missing", path };
}

const listeners = new Set<() => void>();

/** Moves to another page of the app without reloading. */
export function navigate(to: string, replace = false): void {
  if (replace) rewriteAddress(to);
  else {
    window.history.pushState(null, "", to);
    listeners.forEach((notify) => notify());
  }
  window.scrollTo?.(0, 0);
}

/** Changes the address of the page shown, in place: no new history entry, and no scrolling. */
export function rewriteAddress(to: string): void {
  window.history.replaceState(null, "", to);
  listeners.forEach((notify) => notify());
}

/** The current route, updated on navigation and on the browser's back and forward. */
export function useRoute(): Route {
  const read = () => parseRoute(window.location.pathname, window.location.search);
  const [route, setRoute] = useState<Route>(read);
  useEffect(() => {
    const update = () => setRoute(read());
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return route;
}

/** A link that navigates inside the app (and still opens in a new tab with a modifier key). */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }): ReactElement {
  const { href, onClick, ...rest } = props;
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}
