"""The searching (``hard``) bot: legal, strong at Tic-Tac-Toe, and blind to hidden cards."""

import random
import time

import pytest

from shared_rules import GAMES, from_view, new_match
from shared_rules.bots import LEVELS, make_bot
from shared_rules.bots.mcts import MctsBot, Node, clearly_better, rewards
from shared_rules.bots.sharp import Poker99SharpBot
from shared_rules.games.slapjack import slap_reason
from tests.playouts import play_bots

from .helpers import position

FAST = 300  # iterations per move: enough for Tic-Tac-Toe, quick for the test suite


def place_all(cells: list[int]):
    match = new_match("tic-tac-toe", 2, 1)
    for cell in cells:
        match = match.apply(match.active_seats[0], "place", cell)
    return match


def bot_move(match, bot) -> dict:
    seat = match.active_seats[0]
    return bot.choose(match.view(seat), match.legal_moves(seat))


def test_hard_is_a_level_and_searches():
    assert "hard" in LEVELS
    bot = make_bot("tic-tac-toe", "hard", 1, seconds=None, iterations=50)
    assert isinstance(bot, MctsBot)
    bot_move(new_match("tic-tac-toe", 2, 1), bot)
    assert bot.last_iterations == 50


@pytest.mark.parametrize(("cells", "good"), [
    ([0, 3, 1, 4], {2}),  # X to move wins on the top row
    ([0, 4, 1], {2}),  # O to move must block the top row
    ([4, 0, 8], {2, 6}),  # O must take a corner: an edge lets X make two threats at once
])
def test_hard_wins_and_blocks(cells, good):
    bot = MctsBot("tic-tac-toe", 7, seconds=None, iterations=2000)
    assert bot_move(place_all(cells), bot)["args"][0] in good


def play_out(slug: str, bots: dict, seed: int, num_players: int = 2):
    return play_bots(new_match(slug, num_players, seed), bots, 2_000)


def test_hard_never_loses_to_easy_at_tic_tac_toe():
    for game in range(8):
        hard_seat = game % 2
        bots = {hard_seat: make_bot("tic-tac-toe", "hard", game, iterations=FAST),
                1 - hard_seat: make_bot("tic-tac-toe", "easy", game)}
        result = play_out("tic-tac-toe", bots, game).result
        assert result.get("winner", hard_seat) == hard_seat, (game, result)


def test_hard_draws_against_itself_at_tic_tac_toe():
    for game in range(2):
        bots = {seat: make_bot("tic-tac-toe", "hard", game * 2 + seat, iterations=1000)
                for seat in (0, 1)}
        assert play_out("tic-tac-toe", bots, game).result == {"draw": True}


SAMPLED = [slug for slug, game in GAMES.items()
           if game.determinize is not None and not game.real_time]


def mix_bots_and_random(match, bots: dict, rand: random.Random, steps: int) -> None:
    """Up to ``steps`` actions, each by the seat's bot or at random, checking every bot move
    is one of the legal moves it was given."""
    for _ in range(steps):
        if match.result is not None:
            return
        seat = match.active_seats[0]
        legal = match.legal_moves(seat)
        move = bots[seat].choose(match.view(seat), legal) if rand.random() < 0.5 else (
            rand.choice(legal))
        assert move in legal
        match = match.apply(seat, move["move"], *move["args"])


@pytest.mark.parametrize("slug", SAMPLED)
def test_hard_only_returns_legal_moves(slug):
    game = GAMES[slug]
    rand = random.Random(3)
    for seed in range(2):
        n = game.max_players if seed else game.min_players
        bots = {s: MctsBot(slug, seed * 10 + s, seconds=None, iterations=8, max_rollout=60)
                for s in range(n)}
        # part of a game: enough to reach keys, unlocks and reshuffles
        mix_bots_and_random(new_match(slug, n, seed), bots, rand, 40)


HIDDEN = [slug for slug in SAMPLED if GAMES[slug].secret or GAMES[slug].private]


def midgame(slug: str, seed: int, steps: int):
    """A match some random moves in, with its seat to move."""
    rand = random.Random(seed)
    match = new_match(slug, 2, seed)
    for _ in range(steps):
        seat = match.active_seats[0]
        move = rand.choice(match.legal_moves(seat))
        nxt = match.apply(seat, move["move"], *move["args"])
        if nxt.result is not None:
            break
        match = nxt
    return match, match.active_seats[0]


@pytest.mark.parametrize("slug", HIDDEN)
def test_search_depends_on_the_view_only(slug):
    """Two different deals that look the same from the bot's seat get the same move: the bot
    cannot tell them apart, because it is only ever given that seat's view."""
    match, seat = midgame(slug, 5, 6)
    other = from_view(match.game, match.view(seat), 99)  # a different truth, the same view
    assert other.G != match.G
    assert other.view(seat) == match.view(seat)
    chosen = [MctsBot(slug, 1, seconds=None, iterations=40).choose(m.view(seat),
                                                                    m.legal_moves(seat))
              for m in (match, other)]
    assert chosen[0] == chosen[1]


@pytest.mark.parametrize("slug", HIDDEN)
def test_search_samples_hidden_cards_from_what_the_seat_saw(slug):
    """Each sample agrees with the view and deals the unseen cards afresh."""
    match, seat = midgame(slug, 8, 4)
    view = match.view(seat)
    bot = MctsBot(slug, 2, seconds=None, iterations=10)
    samples = [bot.sample(view) for _ in range(10)]
    for sample in samples:
        assert sample.view(seat) == view
    hidden = {repr(sample.G) for sample in samples}
    assert len(hidden) > 1  # the hidden cards differ between samples


def test_time_budget_is_kept():
    bot = make_bot("tic-tac-toe", "hard", 1, seconds=0.05)
    start = time.perf_counter()
    bot_move(new_match("tic-tac-toe", 2, 1), bot)
    assert time.perf_counter() - start < 0.5
    assert bot.last_iterations > 0


def test_a_single_legal_move_is_played_at_once():
    match = place_all([0, 1, 2, 4, 3, 5, 7, 6])  # one empty cell left
    bot = make_bot("tic-tac-toe", "hard", 1, seconds=5.0)
    assert bot_move(match, bot) == {"move": "place", "args": [8]}
    assert bot.last_iterations == 0


@pytest.mark.parametrize("kwargs", [
    {"seconds": 0}, {"seconds": -1.0}, {"iterations": 0}, {"seconds": None, "iterations": None},
])
def test_bad_budgets_are_refused(kwargs):
    with pytest.raises(ValueError):
        MctsBot("tic-tac-toe", 1, **kwargs)


def test_unknown_game_or_level_is_refused():
    with pytest.raises(ValueError, match="no game"):
        MctsBot("chess", 1)
    with pytest.raises(ValueError, match="level"):
        make_bot("tic-tac-toe", "impossible")


def test_rewards_per_seat():
    assert rewards({"winner": 2}, 4) == [0.0, 0.0, 1.0, 0.0]
    assert rewards({"draw": True}, 2) == [0.5, 0.5]
    assert rewards(None, 3) == [pytest.approx(1 / 3)] * 3


@pytest.mark.parametrize("slug", [slug for slug in SAMPLED if slug != "tic-tac-toe"])
def test_hard_level_with_its_playouts_returns_legal_moves(slug):
    """The ``hard`` level as hosts get it: guided playouts cut short, and a rule of thumb."""
    rand = random.Random(4)
    n = GAMES[slug].min_players
    bots = {s: make_bot(slug, "hard", s, seconds=None, iterations=6) for s in range(n)}
    mix_bots_and_random(new_match(slug, n, 4), bots, rand, 30)


def node(visits: int, reward: float) -> Node:
    out = Node(None)
    out.visits, out.reward = visits, reward
    return out


def test_search_overrules_the_rule_of_thumb_only_when_clearly_better():
    assert clearly_better(node(400, 300), node(400, 200))  # 0.75 against 0.5, many visits
    assert not clearly_better(node(4, 3), node(4, 2))  # the same means, too few visits
    assert not clearly_better(node(400, 200), node(400, 300))
    assert not clearly_better(node(40, 21), node(40, 20))  # a hair better is not enough


def test_slapjack_hard_never_slaps_wrongly():
    bots = [make_bot("slapjack", "hard", seat) for seat in range(3)]
    match = new_match("slapjack", 3, 6)
    rand = random.Random(6)
    slaps = 0
    for _ in range(600):
        if match.result is not None:
            break
        seats = match.active_seats
        rand.shuffle(seats)
        acted = False
        for seat in seats:
            view = match.view(seat)
            move = bots[seat].choose(view, match.legal_moves(seat))
            if move is None:
                continue
            if move["move"] == "slap":
                slaps += 1
                assert slap_reason(view["pile"]) is not None and not view["pile_slapped"]
            match = match.apply(seat, move["move"], *move["args"])
            acted = True
            break
        assert acted
    assert slaps > 0


def test_poker99_sharp_rule_sheds_the_highest_number_card():
    match = new_match("poker99", 2, 3)
    hand = ["2H", "8C", "KS", "6D", "JH"]
    G = dict(match.G, hands=[hand, match.G["hands"][1]], total=80)
    match = position(match, G)
    view, legal = match.view(0), match.legal_moves(0)
    assert Poker99SharpBot(1).choose(view, legal)["args"] == ["8C"]
    assert make_bot("poker99", "normal", 1).choose(view, legal)["args"] == ["2H"]
