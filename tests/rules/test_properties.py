"""Properties every game must have, checked over random legal playouts at every player count."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import GAMES, InvalidMove, Match, replay
from shared_rules.cards import CARD_SET, DECK
from tests.playouts import playout, random_step

CASES = [(slug, n) for slug, game in sorted(GAMES.items())
         for n in range(game.min_players, game.max_players + 1)]
SEEDS = st.integers(min_value=0, max_value=2**63)
PROPERTY = settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
JUNK = [None, -1, 0, 3, 99, 10**9, "", "+", "-", "9H", "AS", "KD", "10C", "1H", "ZZ", [], {},
        True, 1.5, ["9H"]]


def cards_in(value: object) -> list[str]:
    """Every card string anywhere in a nested value."""
    if isinstance(value, str):
        return [value] if value in CARD_SET else []
    if isinstance(value, list | tuple):
        return [c for v in value for c in cards_in(v)]
    if isinstance(value, dict):
        return [c for v in value.values() for c in cards_in(v)]
    return []


def hidden_from(match: Match, seat: int | None) -> set[str]:
    """The cards ``seat`` may not see: secret ones and other seats' private ones."""
    game, G = match.game, match.G
    hidden = set(cards_in([G[k] for k in game.secret if k in G]))
    for key in game.private:
        for owner, part in enumerate(G.get(key, [])):
            if owner != seat:
                hidden.update(cards_in(part))
    return hidden


def check_views(match: Match) -> None:
    for seat in [None, *range(match.num_players)]:
        view = match.view(seat)
        json.dumps(view)  # plain data
        assert view["version"] == match.version
        assert not {"seed", "rng", "state", "log"} & view.keys()
        leaked = set(cards_in(view)) & hidden_from(match, seat)
        assert not leaked, f"seat {seat} sees {leaked}"


def check_cards(match: Match) -> None:
    if match.game.slug != "tic-tac-toe":
        counts = Counter(cards_in(match.G))
        assert sorted(counts) == sorted(DECK) and set(counts.values()) == {1}


def is_listed(match: Match, seat: int, move: str, args: list) -> bool:
    return {"move": move, "args": args} in match.legal_moves(seat)


def late_slap(match: Match, move: object, args: list) -> bool:
    """Slapjack accepts a slap naming an older pile version as a late slap (RULES.md)."""
    return (match.game.slug == "slapjack" and move == "slap" and len(args) == 1
            and isinstance(args[0], int) and not isinstance(args[0], bool)
            and 0 <= args[0] < match.version)


def check_junk(match: Match, rand: random.Random) -> None:
    """Moves that legal_moves does not list are refused with InvalidMove and change nothing."""
    before = match.to_json()
    names = [*match.game.moves, "pass", "", None, 7]
    for _ in range(12):
        seat = rand.choice([*range(-1, match.num_players + 1), None, "0"])
        move = rand.choice(names)
        args = [rand.choice(JUNK) for _ in range(rand.randint(0, 3))]
        if isinstance(seat, int) and 0 <= seat < match.num_players and (
                is_listed(match, seat, move, args) or late_slap(match, move, args)):
            continue
        with pytest.raises(InvalidMove):
            match.apply(seat, move, *args)
        assert match.to_json() == before


@pytest.mark.parametrize(("slug", "num_players"), CASES)
@PROPERTY
@given(seed=SEEDS, choice_seed=SEEDS)
def test_random_playouts_end_and_keep_every_invariant(slug, num_players, seed, choice_seed):
    rand = random.Random(choice_seed)
    match = None
    for match in playout(slug, num_players, seed, rand):
        if rand.random() < 0.15:
            check_views(match)
            check_cards(match)
            check_junk(match, rand)
    assert match.result is not None, "the game did not end"
    assert match.active_seats == []
    assert all(match.legal_moves(s) == [] for s in range(num_players))
    assert "winner" in match.result or match.result == {"draw": True}
    check_views(match)
    check_cards(match)
    assert Match.from_json(match.to_json(), match.game) == match
    assert replay(GAMES[slug], num_players, seed, match.log) == match


@pytest.mark.parametrize(("slug", "num_players"), CASES)
@PROPERTY
@given(seed=SEEDS, choice_seed=SEEDS)
def test_every_legal_move_is_accepted_and_changes_nothing_else(slug, num_players, seed,
                                                               choice_seed):
    rand = random.Random(choice_seed)
    for match in playout(slug, num_players, seed, rand):
        if rand.random() > 0.1 or match.result is not None:
            continue
        before = match.to_json()
        for seat in match.active_seats:
            for move in match.legal_moves(seat):
                after = match.apply(seat, move["move"], *move["args"])
                assert after.version == match.version + 1
                assert after.log[-1] == {"seat": seat, **move}
        assert match.to_json() == before


@pytest.mark.parametrize(("slug", "num_players"), CASES)
@PROPERTY
@given(seed=SEEDS, choice_seed=SEEDS)
def test_serialising_mid_game_and_replaying_reproduce_the_match(slug, num_players, seed,
                                                                choice_seed):
    rand = random.Random(choice_seed)
    for i, match in enumerate(playout(slug, num_players, seed, rand)):
        if i % 7 == 3:
            again = Match.from_json(match.to_json(), match.game)
            assert again == match
            assert again.legal_moves(match.ctx["current"] or 0) == match.legal_moves(
                match.ctx["current"] or 0)
            assert replay(GAMES[slug], num_players, seed, match.log) == match
        if i > 60:
            break


@pytest.mark.parametrize(("slug", "num_players"), CASES)
@PROPERTY
@given(seed=SEEDS, choice_seed=SEEDS)
def test_a_seat_leaving_mid_game_lets_the_rest_finish(slug, num_players, seed, choice_seed):
    rand = random.Random(choice_seed)
    match = None
    for i, match in enumerate(playout(slug, num_players, seed, rand)):
        if i == 5 and match.result is None:
            break
    if match.result is not None:
        return  # over within five moves: nobody can leave mid-game
    leaver = rand.randrange(num_players)
    match = match.drop(leaver)
    assert leaver in match.view(None)["left"]
    assert match.legal_moves(leaver) == []
    for _ in range(20_000):
        if match.result is not None:
            break
        seat, move = random_step(match, rand)
        assert seat != leaver
        match = match.apply(seat, move["move"], *move["args"])
    assert match.result is not None
    assert match.result.get("winner") != leaver
    check_cards(match)
    assert replay(GAMES[slug], num_players, seed, match.log) == match


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_same_seed_and_actions_give_the_same_match(slug):
    n = GAMES[slug].min_players
    a = list(playout(slug, n, 1234, random.Random(9)))
    b = list(playout(slug, n, 1234, random.Random(9)))
    assert [m.to_json() for m in a] == [m.to_json() for m in b]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_seat_that_may_not_act_has_no_legal_moves_and_is_refused(slug):
    match = next(playout(slug, GAMES[slug].min_players, 5, random.Random(5)))
    for seat in range(match.num_players):
        if seat not in match.active_seats:
            assert match.legal_moves(seat) == []
            for name in match.game.moves:
                with pytest.raises(InvalidMove):
                    match.apply(seat, name)
