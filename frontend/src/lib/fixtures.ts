// Small room, state and view fixtures in the shapes docs/protocol.md shows.
import { act } from "@testing-library/react";
import { vi } from "vitest";
import type { Ack, GameState, Room, SeatInfo, View } from "./types";

export function seat(n: number, name: string, extra: Partial<SeatInfo> = {}): SeatInfo {
  return {
    seat: n, name, kind: "human", user_id: `u${n}`, level: null, connected: true, ready: true,
    left: false, ...extra,
  };
}

export function room(extra: Partial<Room> = {}): Room {
  return {
    id: "u0", code: "K7MPQ2", game: "nine-locks", title: "Nine Locks", min_players: 2, max_players: 4,
    host: "u0", public: true, status: "waiting", seats: [seat(0, "Ada"), seat(1, "Grace")],
    spectators: 0, created: 1732900000000, round: 0, ...extra,
  };
}

export function view(game: string, extra: Record<string, unknown> = {}): View {
  return {
    game, seat: 0, version: 0, num_players: 2, current: 0, stage: null, direction: 1, turn: 0,
    out: [], left: [], active_seats: [0], result: null, ...extra,
  };
}

export function state(v: View, extra: Partial<GameState> = {}): GameState {
  return {
    seat: v.seat, view: v, legal_moves: [], active_seats: v.active_seats, result: v.result,
    version: v.version, round: 1, ...extra,
  };
}

const DOWN = { state: "down", cards: [], top: null, count: 1 };

/** A Nine Locks view for seat 0 of two: pile 4 unlocked with the 8 of hearts. */
export function nineLocksView(extra: Record<string, unknown> = {}): View {
  const grid = Array.from({ length: 9 }, (_, i) =>
    i === 4 ? { pile: 4, state: "unlocked", cards: ["8H"], top: "8H", count: 1 } : { pile: i, ...DOWN });
  return view("nine-locks", {
    piles: grid.map((p) => p.cards), pile_states: grid.map((p) => p.state), grid,
    facedown_count: 8, deck_count: 30, visible: [["9H", "2C", "KD"], ["3S", "4S", "5S"]],
    hidden: ["7H", "JS", "QC"], hidden_count: [3, 3], ...extra,
  });
}

/** A `send` whose acknowledgements the test gives, in `answers` (one per event sent, oldest
 * first); `answer` answers the latest. */
export function heldSend() {
  const answers: ((ack: Ack) => void)[] = [];
  const send = vi.fn(() => new Promise<Ack>((resolve) => {
    answers.push(resolve);
  }));
  return { send, answers, answer: (ack: Ack) => answers[answers.length - 1](ack) };
}

/** A double click as fast as it gets: both clicks in one act, the second before any render. */
export function clickTwice(element: HTMLElement): void {
  act(() => {
    element.click();
    element.click();
  });
}
