import { useEffect } from "react";

/** Sets the browser tab's title for the page shown. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Gaming Lounge` : "Gaming Lounge";
  }, [title]);
}
