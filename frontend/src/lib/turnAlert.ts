// Calling a player back to the table: when their turn starts while the tab is hidden, the tab's
// title flashes and its icon shows a dot; with alerts on, a short beep and a notification too.
// Nothing happens while the tab is in front.
import { useCallback, useEffect, useRef, useState } from "react";

const ALERTS_KEY = "lounge.turn-alerts";
const FLASH_MS = 1000;
export const FLASH_TITLE = "▶ Your turn!";
const ICON_SELECTOR = "link[rel~='icon']";

// The normal icon, and the same with a red dot in the corner.
const DOT_ICON = "data:image/svg+xml," + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'>" +
  "<rect x='8' y='4' width='40' height='54' rx='6' fill='#fffdf8' stroke='#0f3d2e' stroke-width='4'/>" +
  "<circle cx='46' cy='46' r='16' fill='#e53935' stroke='#fff' stroke-width='4'/></svg>",
);

/** Whether this browser wants a sound and a notification on the player's turn (off at first). */
export function alertsWanted(): boolean {
  try {
    return localStorage.getItem(ALERTS_KEY) === "on";
  } catch {
    return false;
  }
}

function rememberAlerts(on: boolean): void {
  try {
    localStorage.setItem(ALERTS_KEY, on ? "on" : "off");
  } catch {
    // Private browsing may refuse storage: the choice then lasts for this page only.
  }
}

let audio: AudioContext | null = null;

// Browsers let a page play sound only once the player has pressed something on it: the context
// is made (or woken) by the toggle's click, and kept for the beeps of later turns.
function audioContext(): AudioContext | null {
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  if (!audio) audio = new Ctor();
  if (audio.state === "suspended") void audio.resume();
  return audio;
}

/** A short two-tone beep made by WebAudio (no sound file to download). */
function beep(): void {
  const ctx = audioContext();
  if (!ctx) return;
  const start = ctx.currentTime;
  [660, 880].forEach((frequency, i) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + i * 0.16);
    gain.gain.exponentialRampToValueAtTime(0.2, start + i * 0.16 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.16 + 0.14);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + i * 0.16);
    osc.stop(start + i * 0.16 + 0.15);
  });
}

function notify(text: string): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  try {
    const note = new Notification("Gaming Lounge", { body: text, tag: "lounge-turn" });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the title still flashes.
  }
}

/** The sound-and-notification switch of the room, remembered in this browser. */
export function useAlertSetting(): { on: boolean; blocked: boolean; toggle: () => void } {
  const [on, setOn] = useState(alertsWanted);
  const [blocked, setBlocked] = useState(
    () => typeof Notification !== "undefined" && Notification.permission === "denied");
  const toggle = useCallback(() => {
    const next = !on;
    setOn(next);
    rememberAlerts(next);
    if (!next) return;
    audioContext();
    // The browser asks the player once; after that it remembers the answer itself.
    if (typeof Notification !== "undefined" && Notification.permission === "default") {
      void Notification.requestPermission().then((answer) => setBlocked(answer === "denied"));
    }
  }, [on]);
  return { on, blocked, toggle };
}

/** Starts the hidden-tab signals; returns the function that stops them and puts things back. */
export function startFlashing(doc: Document = document): () => void {
  const title = doc.title;
  const icon = doc.querySelector<HTMLLinkElement>(ICON_SELECTOR);
  const iconHref = icon?.getAttribute("href") ?? null;
  icon?.setAttribute("href", DOT_ICON);
  let flashed = true;
  doc.title = FLASH_TITLE;
  const timer = window.setInterval(() => {
    flashed = !flashed;
    doc.title = flashed ? FLASH_TITLE : title;
  }, FLASH_MS);
  return () => {
    window.clearInterval(timer);
    doc.title = title;
    if (icon && iconHref !== null) icon.setAttribute("href", iconHref);
  };
}

/**
 * Calls the player back when their turn starts while the tab is hidden. `turnKey` names the
 * turn (null when it is not this player's turn): a new key is a new turn to announce.
 */
export function useTurnAlert(turnKey: string | null, text: string, alertsOn: boolean): void {
  const stop = useRef<(() => void) | null>(null);
  const settings = useRef({ text, alertsOn });
  settings.current = { text, alertsOn };

  useEffect(() => {
    const end = () => {
      stop.current?.();
      stop.current = null;
    };
    if (turnKey === null) return end;
    const begin = () => {
      if (document.visibilityState !== "hidden" || stop.current) return;
      stop.current = startFlashing();
      if (settings.current.alertsOn) {
        beep();
        notify(settings.current.text);
      }
    };
    const onVisibility = () => (document.visibilityState === "hidden" ? undefined : end());
    begin();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      end();
    };
  }, [turnKey]);
}
