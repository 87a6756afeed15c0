"""What a bot is: something that picks one of its seat's legal moves from its seat's view."""

import random
from typing import Protocol


class Bot(Protocol):
    """A bot sees only its own seat's view (never the full state) and its legal moves."""

    def choose(self, view: dict, legal: list[dict]) -> dict | None:
        """One of ``legal``; only called when ``legal`` is not empty. ``None`` means "not now":
        only where the seat need not act, as in Slapjack, where a seat that is not playing
        may slap but should wait for a pile worth slapping."""
        ...


class RandomBot:
    """The ``easy`` level: any legal move, uniformly."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose(self, view: dict, legal: list[dict]) -> dict:
        return self.random.choice(legal)
