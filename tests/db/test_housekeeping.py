"""Housekeeping closes rooms nobody used for a long time and removes old games; ``lounge db``
manages the schema."""

from __future__ import annotations

from sqlalchemy import text

from backend import create_app
from backend.balancer import free_port
from backend.cli import main
from backend.config import Config
from backend.db.queries import count_rows
from backend.housekeeping import DAY_MS, Housekeeper
from backend.rooms import now_ms

from .helpers import new_user, play, started_room


def lounge_app(url: str):
    """An app on the database at ``url`` whose rooms are abandoned after an hour and whose
    games are kept a week: (app, its lounge parts, its store)."""
    app = create_app(Config(ASYNC_MODE="threading", DATABASE_URL=url,
                            ABANDONED_ROOM_SECONDS=3600, MATCH_RETENTION_DAYS=7))
    ctx = app.extensions["lounge"]
    return app, ctx, ctx.lounge.store


def test_abandoned_rooms_close_and_old_games_go(sqlite_url):
    _, ctx, store = lounge_app(sqlite_url)
    finished = started_room(ctx.lounge, "tic-tac-toe", 2)
    with finished.lock:
        play(finished, store, 9)
    idle = ctx.lounge.create_room(new_user(), "poker99", "Idle", public=True)
    keeper = Housekeeper(ctx.service, store)
    assert keeper.sweep() == {"rooms": 0, "matches": 0, "users": 0}
    assert keeper.sweep(now_ms() + 2 * 3600 * 1000) == {"rooms": 2, "matches": 0, "users": 0}
    assert store.get(idle.id) is None and idle.closed and store.count() == 0
    assert store.closed_note(idle.code).reason == "abandoned"
    assert len(store.finished_matches(finished.id)) == 1
    assert keeper.sweep(now_ms() + 8 * DAY_MS) == {"rooms": 0, "matches": 1, "users": 3}
    with store.worker.engine.connect() as conn:
        assert set(count_rows(conn).values()) == {0}


def test_the_db_command_upgrades_and_reports(sqlite_url, capsys):
    assert main(["db", "status", "--database-url", sqlite_url]) == 1
    assert main(["db", "upgrade", "--database-url", sqlite_url]) == 0
    assert main(["db", "status", "--database-url", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "revision: 0009 (latest: 0009)" in out and "match_moves    0" in out
    assert main(["db", "downgrade", "--database-url", sqlite_url]) == 2
    assert main(["db", "current", "--database-url", "not a url"]) == 2
    capsys.readouterr()
    for action in ("upgrade", "downgrade"):
        assert main(["db", action, "--revision", "zzz", "--database-url", sqlite_url]) == 2
        assert capsys.readouterr().err == "lounge db: Can't locate revision identified by 'zzz'\n"
    assert main(["db", "current", "--database-url", sqlite_url]) == 0
    assert "revision: 0009 (latest: 0009)" in capsys.readouterr().out


def test_the_db_command_says_in_one_line_that_a_database_cannot_be_used(tmp_path, capsys):
    for url in (f"sqlite:///{tmp_path}/no-such-folder/lounge.db",
                f"postgresql://postgres@127.0.0.1:{free_port()}/test"):
        assert main(["db", "upgrade", "--database-url", url]) == 1
        err = capsys.readouterr().err
        assert err.startswith("lounge db: cannot use the database ("), err
        assert "DATABASE_URL (or --database-url) names it" in err and "Traceback" not in err


def test_chat_keeps_a_room_alive(sqlite_url):
    _, ctx, store = lounge_app(sqlite_url)
    chatty = ctx.lounge.create_room(new_user(), "poker99", "Chatty", public=True)
    quiet = ctx.lounge.create_room(new_user(), "poker99", "Quiet", public=True)
    two_hours = 2 * 3600 * 1000
    for room in (chatty, quiet):  # as if both had last changed two hours ago
        store._saved[room.id].updated -= two_hours
    with chatty.lock:
        ctx.lounge.chat(chatty, chatty.host, "anyone here?")
    assert store.last_active(chatty.id) >= now_ms() - 1000
    keeper = Housekeeper(ctx.service, store)
    assert keeper.sweep() == {"rooms": 1, "matches": 0, "users": 0}
    assert quiet.closed and not chatty.closed
    with store.worker.engine.connect() as conn:  # the database knows it too (for a restart)
        updated = conn.execute(text("SELECT updated FROM rooms WHERE id = :id"),
                               {"id": chatty.id}).scalar_one()
    assert updated >= now_ms() - 1000


def test_a_game_cut_short_by_the_closing_is_kept_as_abandoned(sqlite_url):
    """Issue 13: a room closed mid-game keeps its unfinished game in the history with the
    result {"abandoned": true}, to watch again, for as long as finished games are kept."""
    app, ctx, store = lounge_app(sqlite_url)
    room = started_room(ctx.lounge, "nine-locks", 3)
    with room.lock:
        play(room, store, 4)
    keeper = Housekeeper(ctx.service, store)
    assert keeper.sweep(now_ms() + 2 * 3600 * 1000)["rooms"] == 1
    (kept,) = store.finished_matches(room.id)
    assert kept["result"] == {"abandoned": True} and kept["moves"] == 4
    assert kept["finished"] is not None
    replay = app.test_client().get(f"/api/matches/{kept['id']}").get_json()
    assert replay["result"] == {"abandoned": True} and len(replay["steps"]) == 5
    assert keeper.sweep(now_ms() + 6 * DAY_MS)["matches"] == 0  # kept like a finished game
    assert keeper.sweep(now_ms() + 8 * DAY_MS)["matches"] == 1
