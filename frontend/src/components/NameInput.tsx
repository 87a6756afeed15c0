import type { ReactElement } from "react";

/** "Your display name", focused (unless `focus` is false), for a page or form that asks for nothing
 * else first (joining a room, taking a seat as a watcher). The home page's field says more (its
 * problem, on blur). */
export function NameInput({ value, onChange, testId, focus = true }: {
  value: string; onChange: (name: string) => void; testId: string; focus?: boolean;
}): ReactElement {
  return (
    <label className="field">
      Your display name
      <input type="text" value={value} maxLength={32} autoFocus={focus} autoComplete="nickname"
        onChange={(e) => onChange(e.target.value)} data-testid={testId} />
    </label>
  );
}
