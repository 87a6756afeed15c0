// Small inline icons, so nothing depends on an emoji font being installed.
import type { ReactElement } from "react";

export function LockIcon({ size = 16 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M7 10V7a5 5 0 0 1 10 0v3" fill="none" stroke="currentColor" strokeWidth="2.4" />
      <rect x="4" y="10" width="16" height="11" rx="2.5" fill="currentColor" />
      <circle cx="12" cy="15.5" r="1.8" fill="#222" />
    </svg>
  );
}

export function BotIcon({ size = 18 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <line x1="12" y1="2.5" x2="12" y2="6" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="2.5" r="1.6" fill="currentColor" />
      <rect x="4" y="6" width="16" height="13" rx="4" fill="currentColor" />
      <circle cx="9" cy="12" r="2" fill="#fff" />
      <circle cx="15" cy="12" r="2" fill="#fff" />
      <rect x="8.5" y="15.5" width="7" height="1.6" rx="0.8" fill="#fff" />
    </svg>
  );
}

export function EyeIcon({ size = 18 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12Z" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="3.2" fill="currentColor" />
    </svg>
  );
}

export function TrophyIcon({ size = 28 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" data-testid="trophy">
      <path d="M7 3h10v5a5 5 0 0 1-10 0Z" fill="#f2b705" />
      <path d="M7 5H4a3 3 0 0 0 3 4M17 5h3a3 3 0 0 1-3 4" fill="none" stroke="#f2b705" strokeWidth="1.8" />
      <rect x="11" y="12.5" width="2" height="4" fill="#b88a00" />
      <rect x="8" y="16.5" width="8" height="3" rx="1" fill="#b88a00" />
    </svg>
  );
}

/** A draw: nobody won, so no trophy; an equals sign, the two sides even. */
export function DrawIcon({ size = 28 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" data-testid="draw-sign">
      <circle cx="12" cy="12" r="10" fill="none" stroke="#6b7a8a" strokeWidth="2" />
      <rect x="7" y="8.6" width="10" height="2.4" rx="1.2" fill="#6b7a8a" />
      <rect x="7" y="13" width="10" height="2.4" rx="1.2" fill="#6b7a8a" />
    </svg>
  );
}

/** A box with an arrow out of it: the link opens in a new tab (its words say so to screen readers). */
export function NewTabIcon({ size = 14 }: { size?: number }): ReactElement {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M14 3h7v7M21 3l-9 9M18 14v5a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h5" fill="none"
        stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
