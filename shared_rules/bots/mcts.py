"""The ``hard`` level: Monte Carlo tree search (UCT) over the public Match API.

The bot is given only its seat's view. Every iteration it plans on a full match sampled to fit
that view (:func:`shared_rules.from_view`: hidden cards dealt at random from those the seat has
not seen), never on the true hidden state. One tree is shared by all the samples and keyed by
moves, not by states (single-observer information-set MCTS): a child is only chosen when its move
is legal in the sample at hand, and its exploration term counts how often it was available.

Rewards are per seat: 1 for a win, 0 for a loss, ``1 / num_players`` for a draw. Each node keeps
the total reward of the seat that made its move, so every seat plays for itself in multi-player
games. Playouts may follow a game's rule of thumb and stop after a few actions, scored by a guess
(``rollouts.py``); in games with hidden cards a rule of thumb's move stands unless the search
finds a clearly better one, so even a small budget plays about as well as that rule.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..engine import Game, Match, from_view
from ..registry import GAMES
from .base import Bot
from .rollouts import CUT_SHORT, GUIDED, KINDS, POLICIES, GuidedPolicy
from .sharp import SHARPER

Key = tuple[int, str, tuple]  # (seat, move name, args)
RolloutPolicy = Callable[[Match, random.Random], "Key | None"]
Kind = Callable[[Key], object]  # the kind of a move: the search overrules only within a kind
Evaluation = Callable[[Match], list[float]]  # each seat's expected reward in a position

EXPLORATION = 0.7  # UCT's constant; rewards are in 0..1
MAX_ROLLOUT = 400  # actions per rollout before it is scored as a draw
CLOCK_EVERY = 16  # iterations between two looks at the clock
PAUSE_EVERY = 0.02  # seconds of search between two chances for other green threads to run
CONFIDENCE = 1.0  # standard errors by which search must beat the rule of thumb to overrule it
MIN_VARIANCE = 0.05  # a floor under the reward variance of a move seen only a few times
HARD_SECONDS = 1.0  # the hard level's default thinking time per move


class Node:
    """One move in the tree, and what the searches through it have learnt."""

    __slots__ = ("key", "children", "visits", "avail", "reward", "match", "untried")

    def __init__(self, key: Key | None, match: Match | None = None) -> None:
        self.key = key
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        # Only when nothing is hidden: the state after the move, and the moves not tried yet.
        self.match = match
        self.untried: list[Key] | None = None


def moves_of(match: Match, seats: list[int]) -> list[Key]:
    """Every legal move of the given seats, as hashable keys."""
    return [(seat, name, args) for seat in seats for name, args in match.legal_actions(seat)]


def play(match: Match, key: Key) -> Match:
    return match.apply_legal(*key)


def random_policy(match: Match, rand: random.Random) -> Key | None:
    """Any seat that may act plays any of its legal moves; None when nobody can act."""
    seats = match.active_seats
    if len(seats) > 1:
        rand.shuffle(seats)
    for seat in seats:
        legal = match.legal_actions(seat)
        if legal:
            name, args = legal[rand.randrange(len(legal))]
            return seat, name, args
    return None


def rewards(result: dict | None, num_players: int) -> list[float]:
    """Each seat's reward for a finished (or cut short, ``None``) game."""
    if result is not None and "winner" in result:
        return [1.0 if seat == result["winner"] else 0.0 for seat in range(num_players)]
    return [1.0 / num_players] * num_players


def eliminated(match: Match) -> list[float]:
    """Rewards once the searching seat is out for good: nothing for the seats that are out, an
    equal chance for the rest."""
    gone = set(match.ctx["out"]) | set(match.ctx["left"])
    alive = [s for s in range(match.num_players) if s not in gone]
    share = 1.0 / len(alive) if alive else 0.0
    return [share if s in alive else 0.0 for s in range(match.num_players)]


def clearly_better(a: Node, b: Node, z: float = CONFIDENCE) -> bool:
    """Whether ``a``'s mean reward beats ``b``'s by more than ``z`` standard errors."""
    if a is b:
        return False
    if a.visits == 0 or b.visits == 0:
        return b.visits == 0 < a.visits
    mean_a, mean_b = a.reward / a.visits, b.reward / b.visits
    spread = (max(mean_a * (1 - mean_a), MIN_VARIANCE) / a.visits
              + max(mean_b * (1 - mean_b), MIN_VARIANCE) / b.visits)
    return mean_a - mean_b > z * math.sqrt(spread)


def has_hidden_state(game: Game) -> bool:
    return bool(game.secret or game.private)


class MctsBot:
    """Searches for ``seconds`` per move, or ``iterations`` (whichever ends first when both are
    given); plays the most-visited legal move, or ``guide``'s move unless that one is clearly
    better (see :func:`clearly_better`). With ``kind``, the search may only replace the guide's
    move by one of the same kind (the rule picks what to do, the search with what)."""

    def __init__(self, slug: str, seed: int | None = None, *, seconds: float | None = 1.0,
                 iterations: int | None = None, exploration: float = EXPLORATION,
                 rollout: RolloutPolicy = random_policy, max_rollout: int = MAX_ROLLOUT,
                 evaluate: Evaluation | None = None, guide: Bot | None = None,
                 kind: Kind | None = None) -> None:
        if slug not in GAMES:
            raise ValueError(f"There is no game called {slug!r}")
        if seconds is None and iterations is None:
            raise ValueError("A search needs a budget: seconds, iterations or both")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be above 0, not {seconds!r}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be 1 or more, not {iterations!r}")
        self.game = GAMES[slug]
        self.random = random.Random(seed)
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout
        self.max_rollout = max_rollout
        self.evaluate = evaluate  # scores a playout cut short; None scores it as a draw
        self.guide = guide  # a rule-of-thumb bot whose move stands unless search clearly beats it
        self.kind = kind
        self.last_iterations = 0  # how many the last search ran (for benchmarks and tests)

    def choose(self, view: dict, legal: list[dict]) -> dict:
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        seat = view["seat"]
        by_key = {(seat, m["move"], tuple(m["args"])): m for m in legal}
        advice = None if self.guide is None else self.guide.choose(view, legal)
        allowed = set(by_key)
        if advice is not None and self.kind is not None:
            wanted = self.kind((seat, advice["move"], tuple(advice["args"])))
            allowed = {key for key in by_key if self.kind(key) == wanted}
            if len(allowed) == 1:  # nothing for the search to choose between
                self.last_iterations = 0
                return advice
        root = self.search(view)
        best = max((child for key, child in root.children.items() if key in allowed),
                   key=lambda child: child.visits, default=None)
        if advice is not None:
            rival = root.children.get((seat, advice["move"], tuple(advice["args"])))
            if best is None or rival is None or not clearly_better(best, rival):
                return advice
        return by_key[best.key] if best is not None else self.random.choice(legal)

    def search(self, view: dict) -> Node:
        """The search tree grown from ``view`` within the budget."""
        seat = view["seat"]
        resample = has_hidden_state(self.game)
        root = Node(None, None if resample else self.sample(view))
        now = time.perf_counter()
        deadline = math.inf if self.seconds is None else now + self.seconds
        next_pause = now + PAUSE_EVERY
        limit = self.iterations if self.iterations is not None else math.inf
        done = 0
        while done < limit:
            if done % CLOCK_EVERY == 0:
                now = time.perf_counter()
                if now >= deadline:
                    break
                if now >= next_pause:
                    time.sleep(0)  # a pause for the caller's other threads (a server's loop)
                    next_pause = now + PAUSE_EVERY
            if resample:
                path, match = self.select(root, self.sample(view), seat)
            else:
                path, match = self.select_known(root, seat)
            self.back_up(path, self.finish(match, seat))
            done += 1
        self.last_iterations = done
        return root

    def sample(self, view: dict) -> Match:
        return from_view(self.game, view, self.random.getrandbits(64))

    def select(self, root: Node, match: Match, seat: int) -> tuple[list[Node], Match]:
        """Down the tree along moves legal in this sample, until one move is new (then added)
        or the game ends; at the root only the searching seat's own choice is at stake."""
        path, node, seats = [root], root, [seat]
        explore = self.exploration
        while match.result is None:
            keys = moves_of(match, seats)
            if not keys:
                break
            children = node.children
            untried = [k for k in keys if k not in children]
            for k in keys:
                if k in children:
                    children[k].avail += 1
            if untried:
                key = untried[self.random.randrange(len(untried))]
                match = play(match, key)
                node = Node(key)
                node.avail = 1
                children[key] = node
                path.append(node)
                break
            node = max((children[k] for k in keys), key=lambda c: c.reward / c.visits
                       + explore * math.sqrt(math.log(c.avail) / c.visits))
            match = play(match, node.key)
            path.append(node)
            seats = match.active_seats
        return path, match

    def select_known(self, root: Node, seat: int) -> tuple[list[Node], Match]:
        """:meth:`select` when nothing is hidden: each node keeps its state and moves."""
        path, node = [root], root
        explore = self.exploration
        while node.match.result is None:
            if node.untried is None:
                seats = [seat] if node is root else node.match.active_seats
                node.untried = moves_of(node.match, seats)
                self.random.shuffle(node.untried)
            if node.untried:
                key = node.untried.pop()
                child = Node(key, play(node.match, key))
                node.children[key] = child
                node = child
                path.append(node)
                break
            if not node.children:
                break
            log_n = math.log(node.visits)
            node = max(node.children.values(), key=lambda c: c.reward / c.visits
                       + explore * math.sqrt(log_n / c.visits))
            path.append(node)
        return path, node.match

    @staticmethod
    def back_up(path: list[Node], score: list[float]) -> None:
        for node in path:
            node.visits += 1
            if node.key is not None:
                node.reward += score[node.key[0]]

    def finish(self, match: Match, seat: int) -> list[float]:
        """Each seat's reward after playing ``match`` out with the rollout policy. A playout
        stops early once ``seat`` (the searching one) is eliminated: its reward is then known."""
        eliminating = self.game.out_is_eliminated
        for _ in range(self.max_rollout):
            if match.result is not None:
                break
            if eliminating and seat in match.ctx["out"]:
                return eliminated(match)
            key = self.rollout(match, self.random)
            if key is None:
                break
            match = play(match, key)
        if match.result is None and self.evaluate is not None:
            return self.evaluate(match)
        return rewards(match.result, match.num_players)


def make_hard_bot(slug: str, seed: int | None = None, *, seconds: float | None = HARD_SECONDS,
                  iterations: int | None = None, guide: Bot | None = None) -> MctsBot:
    """The ``hard`` bot for ``slug``, searching for ``seconds`` or ``iterations`` per move; its
    playouts follow ``guide`` (the rule-of-thumb bot) in the games where that pays."""
    rollout: RolloutPolicy = POLICIES.get(slug, random_policy)
    if guide is not None and slug in GUIDED:
        rollout = GuidedPolicy(guide)
    depth, evaluate = CUT_SHORT.get(slug, (MAX_ROLLOUT, None))
    advisor = guide if guide is not None and has_hidden_state(GAMES[slug]) else None
    if advisor is not None and slug in SHARPER:
        advisor = SHARPER[slug](seed)
    return MctsBot(slug, seed, seconds=seconds, iterations=iterations, rollout=rollout,
                   max_rollout=depth, evaluate=evaluate, guide=advisor,
                   kind=KINDS.get(slug) if advisor is not None else None)
