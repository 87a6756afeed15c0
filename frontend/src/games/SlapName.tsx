// The name on a hot-seat slap button. A long name is cut short at the button's edge; two cut names
// that start alike ("Wolfeschlegel…", "Wolfeschlegel…") would leave the players guessing whose
// button is whose, so a name that does not fit is shown by its start and the part that tells it
// from the others' ("Wol…do", "Wol…xy").
import { useLayoutEffect, useRef, useState, type ReactElement } from "react";
import { SaidAs } from "../components/SaidAs";

/** Letters a name shares with another before they differ, from which a cut name is ambiguous. */
const ALIKE = 4;

/** How many letters `name` shares at its start with the most alike of `others`. */
function sharedStart(name: string, others: string[]): number {
  let most = 0;
  for (const other of others) {
    let i = 0;
    while (i < name.length && i < other.length && name[i] === other[i]) i += 1;
    most = Math.max(most, i);
  }
  return most;
}

/** The name shortened to what tells it from `others`: its first three letters and the rest from
 * where it differs; the name itself when it starts unlike them. */
export function telling(name: string, others: string[]): string {
  const shared = sharedStart(name, others);
  if (shared < ALIKE || shared >= name.length) return name;
  return `${name.slice(0, 3)}…${name.slice(shared)}`;
}

/** The name, or its telling short form when the whole name does not fit the button; read out whole. */
export function SlapName({ name, others }: { name: string; others: string[] }): ReactElement {
  const shown = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const measure = () => {
      const el = shown.current;
      if (el) setCut(el.scrollWidth > el.clientWidth);
    };
    const again = () => { setCut(false); requestAnimationFrame(measure); };
    if (!cut) measure();
    window.addEventListener("resize", again);
    return () => window.removeEventListener("resize", again);
  }, [name, cut]);
  return (
    <small ref={shown} data-testid="slap-name">
      <SaidAs words={name}>{cut ? telling(name, others) : name}</SaidAs>
    </small>
  );
}
