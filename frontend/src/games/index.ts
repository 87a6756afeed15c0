// The one map from a game's slug to its board. A game without a board here is drawn by the
// generic board from its view and the server's words: everything else about a game (players,
// private hands, moves, rules) comes from GET /api/games.
import type { ReactElement } from "react";
import { CrazyEights } from "./CrazyEights";
import { GenericBoard } from "./GenericBoard";
import { NineLocks } from "./NineLocks";
import { Poker99 } from "./Poker99";
import { Slapjack } from "./Slapjack";
import { TicTacToe } from "./TicTacToe";
import type { BoardProps } from "./types";

export type Board = (props: BoardProps) => ReactElement;

const BOARDS: Record<string, Board> = {
  "crazy-eights": CrazyEights,
  "nine-locks": NineLocks,
  poker99: Poker99,
  slapjack: Slapjack,
  "tic-tac-toe": TicTacToe,
};

/** The board of a game: its own, else the generic one. */
export function boardFor(slug: string): Board {
  return BOARDS[slug] ?? GenericBoard;
}
