import type { ReactElement } from "react";
import { movesNamed } from "../lib/moves";
import { Opponents } from "./PlayerBox";
import type { BoardProps } from "./types";

const CELLS = ["top left", "top centre", "top right", "middle left", "centre", "middle right",
  "bottom left", "bottom centre", "bottom right"];

/** Tic-Tac-Toe: the 3x3 board, with the free cells as buttons on your turn. */
export function TicTacToe({ view, legal, seat, seats, play, busy, owner }: BoardProps): ReactElement {
  const cells = (view.cells as (string | null)[]) ?? [];
  const line = new Set((view.line as number[] | null) ?? []);
  const marks = view.marks as string[] | undefined;
  // While a move is on its way or the connection is down, no cell looks playable.
  const free = new Set(busy ? [] : movesNamed(legal, "place").map((m) => Number(m.args[0])));
  return (
    <>
      <Opponents view={view} seat={seat} seats={seats}>
        {(s) => marks && <span className="pill">plays {marks[s]}</span>}
      </Opponents>
      <div className="center">
        <div className="ttt" role="group" aria-label="Board">
          {cells.map((mark, i) => (
            <button key={i} type="button" className={`${free.has(i) ? "is-target" : ""} ${line.has(i) ? "in-line" : ""}`}
              disabled={!free.has(i)} onClick={() => play("place", [i])}
              aria-label={`${CELLS[i]}: ${mark ?? "empty"}`} data-testid={`cell-${i}`}>
              <span className={`mark-${mark}`}>{mark}</span>
            </button>
          ))}
        </div>
        {seat !== null && marks && <p className="hint">{owner ? `${owner} plays` : "You play"} {marks[seat]}.</p>}
      </div>
    </>
  );
}
