"""The history API never reveals a hidden card: over many random games of every game, saved
through the SQL store and read back through ``GET /api/matches/<id>``, every card the replay
names was on the table for a spectator at some point, and every step's view is exactly the
spectator's view of the real match."""

from __future__ import annotations

import json
import random
import re

import pytest

from backend import create_app
from backend.config import Config
from backend.history import ReplayCache
from shared_rules import GAMES
from tests.server.harness import named_cards

from .helpers import new_user

CARD = re.compile(r"^(?:10|[2-9AJQK])[SHDC]$")
GAMES_EACH = 25
MAX_ACTIONS = 300


def card_strings(value) -> set[str]:
    found: set[str] = set()

    def walk(item) -> None:
        if isinstance(item, str):
            if CARD.match(item):
                found.add(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                walk(key)
                walk(inner)
        elif isinstance(item, list):
            for inner in item:
                walk(inner)

    walk(value)
    return found


@pytest.fixture(scope="module")
def lounge_app(tmp_path_factory):
    db = tmp_path_factory.mktemp("replays") / "lounge.db"
    app = create_app(Config(ASYNC_MODE="threading", DATABASE_URL=f"sqlite:///{db}",
                            SECRET_KEY="replay-tests-only-secret-0123456789abcdef",
                            REPLAY_RATE_PER_MINUTE=1e6))
    return app


def random_game(ctx, slug: str, rng: random.Random) -> tuple[str, list[dict]]:
    """A random game played to its end (seats drop out after a while so that it ends), saved
    at random moments; the room id and the true spectator view at every version."""
    game = GAMES[slug]
    players = rng.randint(game.min_players, game.max_players)
    lounge, store = ctx.lounge, ctx.lounge.store
    room = lounge.create_room(new_user(), slug, "Host", public=False)
    with room.lock:
        for i in range(1, players):
            room.attach(f"c{i}", new_user(), f"P{i}", spectate=False)
            room.set_ready(room.seats[i].user_id, True)
        room.start(room.host, seed=rng.randrange(2 ** 32))
        store.save(room)
        views = [json.loads(json.dumps(room.match.view(None)))]
        for action in range(MAX_ACTIONS * 2):
            match = room.match
            if match.result is not None:
                break
            if action >= MAX_ACTIONS or rng.random() < 0.01:
                staying = [s for s in range(1, players) if s not in match.ctx["left"]]
                room.leave(room.seats[rng.choice(staying)].user_id)
            else:
                seat = rng.choice([s for s in match.active_seats if match.legal_moves(s)])
                move = rng.choice(match.legal_moves(seat))
                room.apply_seat(seat, move["move"], move["args"])
            views.append(json.loads(json.dumps(room.match.view(None))))
            if rng.random() < 0.1:
                store.save(room)
        store.save(room)
        assert room.match.result is not None
        return room.id, views


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_replays_never_reveal_a_hidden_card(lounge_app, slug):
    ctx = lounge_app.extensions["lounge"]
    client = lounge_app.test_client()
    rng = random.Random(slug)
    hidden_at_deal = 0
    for _ in range(GAMES_EACH):
        room_id, views = random_game(ctx, slug, rng)
        (summary,) = client.get(f"/api/matches?room={room_id}").get_json()["matches"]
        response = client.get(f"/api/matches/{summary['id']}")
        assert response.status_code == 200
        replay = response.get_json()
        assert "seed" not in replay and "seed" not in json.dumps(replay)
        assert [step["view"] for step in replay["steps"]] == views
        shown = set().union(*(card_strings(view) for view in views))
        assert card_strings(replay) <= shown
        for before, after, step in zip(views[:-1], views[1:], replay["steps"][1:], strict=True):
            named = card_strings({k: v for k, v in step.items() if k != "view"})
            assert named <= card_strings(before) | card_strings(after), step
            in_words = set().union(*(named_cards(line) for line in step["log"]))
            assert in_words <= card_strings(before) | card_strings(after), step["log"]
        hidden_at_deal += len(card_strings(views[0])) < 52
    assert slug == "tic-tac-toe" or hidden_at_deal == GAMES_EACH  # there was something to hide


def test_unknown_matches_and_bad_queries_get_clear_errors(lounge_app):
    client = lounge_app.test_client()
    assert client.get("/api/matches/0123456789abcdef").status_code == 404
    assert client.get("/api/matches/<script>").get_json()["error"]["code"] == "not_found"
    assert client.get("/api/matches").get_json()["error"]["code"] == "bad_request"
    assert client.get(f"/api/matches?room={new_user()}&limit=0").status_code == 400
    assert client.get(f"/api/matches?room={new_user()}").get_json() == {"matches": []}


def test_the_replay_cache_keeps_the_most_recent_within_its_bounds():
    cache = ReplayCache(entries=2, max_bytes=10)
    made: list[str] = []

    def compute(key: str, size: int):
        return lambda: made.append(key) or key.encode() * size

    assert cache.get("a", compute("a", 4)) == b"aaaa"
    assert cache.get("a", compute("a", 4)) == b"aaaa" and made == ["a"]
    cache.get("b", compute("b", 4))
    cache.get("a", compute("a", 4))  # a is now the most recent
    cache.get("c", compute("c", 4))  # over two entries and ten bytes: b goes
    assert len(cache) == 2 and cache.computed == 3
    cache.get("a", compute("a", 4))
    cache.get("b", compute("b", 4))
    assert made == ["a", "b", "c", "b"]
    assert cache.get("big", compute("big", 20)) is not None and len(cache) == 2  # not kept
    assert cache.get("none", lambda: None) is None and cache.computed == 5
