import { useEffect } from "react";

/** Sets the browser tab's title for the page shown (null: leave it to the page on screen). */
export function useTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    document.title = title ? `${title} · Gaming Lounge` : "Gaming Lounge";
  }, [title]);
}
