import type { ReactElement, ReactNode } from "react";

/** Text shown one way and read out another ("0:27 left" read as "27 seconds left"): screen
 * readers skip what is shown and read the visually hidden words. (An aria-label would not do on
 * a plain span or div: most screen readers ignore it there.) */
export function SaidAs({ words, children }: { words: string; children: ReactNode }): ReactElement {
  return (
    <>
      <span aria-hidden="true">{children}</span>
      <span className="visually-hidden">{words}</span>
    </>
  );
}
