import { useEffect, useState } from "react";

/** `value` once it has stayed the same (by `key`) for `ms`, else null: what holds only for a moment
 * is never shown (a seat whose tab is only being reloaded looks free for a second or two). */
export function useLasting<T>(value: T | null, key: (value: T) => string, ms: number): T | null {
  const current = value === null ? null : key(value);
  const [lasted, setLasted] = useState<string | null>(null);
  useEffect(() => {
    setLasted(null);
    if (current === null) return undefined;
    const timer = window.setTimeout(() => setLasted(current), ms);
    return () => window.clearTimeout(timer);
  }, [current, ms]);
  return current !== null && lasted === current ? value : null;
}
