import type { ReactElement } from "react";
import { BotIcon } from "./Icons";

const COLOURS = ["#1565c0", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f"];

/** A round badge with a name's first letter, in the seat's colour (the room gives each seat one). */
export function Avatar({ name, colour, bot }: { name: string; colour: number; bot?: boolean }): ReactElement {
  const letter = bot ? <BotIcon /> : (name.trim()[0] ?? "?").toUpperCase();
  return (
    <span className="avatar" style={{ background: COLOURS[colour % COLOURS.length] }} aria-hidden="true">
      {letter}
    </span>
  );
}
