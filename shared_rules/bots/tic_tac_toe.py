"""Tic-Tac-Toe by rule of thumb: win, else block, else centre, else a corner, else anything."""

from ..games.tic_tac_toe import LINES
from .base import RandomBot


class TicTacToeBot(RandomBot):
    def choose(self, view: dict, legal: list[dict]) -> dict:
        cells = view["cells"]
        me = view["marks"][view["seat"]]
        free = {m["args"][0]: m for m in legal}
        for mark in (me, next(x for x in view["marks"] if x != me)):
            for line in LINES:
                marks = [cells[i] for i in line]
                if marks.count(mark) == 2 and marks.count(None) == 1:
                    return free[line[marks.index(None)]]
        for cell in (4, 0, 2, 6, 8):
            if cell in free:
                return free[cell]
        return self.random.choice(legal)
