"""A plain Tic-Tac-Toe that deep-copies its state on every move: the yardstick that
bench/engine.py measures in the same run, so the engine's figure can be read as a ratio."""

import copy
import random
import time

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class PlainMatch:
    def __init__(self, state: dict) -> None:
        self.state = state

    def legal_moves(self, seat: int) -> list[dict]:
        if self.state["result"] is not None or seat != self.state["current"]:
            return []
        return [{"move": "place", "args": [i]}
                for i, cell in enumerate(self.state["cells"]) if cell is None]

    def apply(self, seat: int, move: str, *args: object) -> "PlainMatch":
        if {"move": move, "args": list(args)} not in self.legal_moves(seat):
            raise ValueError("illegal move")
        state = copy.deepcopy(self.state)
        cells = state["cells"]
        cells[args[0]] = "XO"[seat]
        state["current"] = 1 - seat
        if any(cells[a] and cells[a] == cells[b] == cells[c] for a, b, c in LINES):
            state["result"] = {"winner": seat}
        elif None not in cells:
            state["result"] = {"draw": True}
        return PlainMatch(state)


def one_run(seconds: float, seed: int) -> tuple[float, float]:
    """Random playouts for about ``seconds``: (games/s, moves/s)."""
    rand = random.Random(seed)
    games = moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        match = PlainMatch({"cells": [None] * 9, "current": 0, "result": None})
        while match.state["result"] is None:
            seat = match.state["current"]
            move = rand.choice(match.legal_moves(seat))
            match = match.apply(seat, move["move"], *move["args"])
            moves += 1
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, moves / elapsed
