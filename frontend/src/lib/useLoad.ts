import { useEffect, useState } from "react";

/** What `load` gives, loaded again whenever `key` changes: its data, or its error's message. */
export function useLoad<T>(load: () => Promise<T>, key: string): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    setError(null);
    load().then((value) => live && setData(value), (err: Error) => live && setError(err.message));
    return () => {
      live = false;
    };
  }, [key]);
  return { data, error };
}
