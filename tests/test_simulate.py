"""``lounge simulate``: bot-only games, rotating seats, and a table of win rates."""

import io

import pytest

from backend import cli
from backend.simulate import ProgressBar
from shared_rules.simulate import (
    Budget,
    format_summary,
    labels_of,
    parse_bots,
    seat_of,
    simulate,
    wilson,
)


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 200)
    assert lo == 0.0 and hi == pytest.approx(0.0188, abs=1e-4)
    assert wilson(200, 200)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_seats_rotate_evenly():
    for n in (2, 3, 4):
        for bot in range(n):
            assert sorted(seat_of(bot, game, n) for game in range(n)) == list(range(n))
        for game in range(n):  # one bot per seat in every game
            assert sorted(seat_of(bot, game, n) for bot in range(n)) == list(range(n))


def test_labels_number_repeated_levels():
    assert labels_of(["hard", "normal", "hard"]) == ["hard#1", "normal", "hard#2"]


@pytest.mark.parametrize(("text", "slug", "words"), [
    ("hard,normal", "chess", "no game"),
    ("hard,genius", "tic-tac-toe", "no bot level 'genius'"),
    ("hard,normal,easy", "tic-tac-toe", "2 to 2 players, but 3"),
    ("", "tic-tac-toe", "but 0"),
])
def test_bad_bot_lists_are_refused(text, slug, words):
    with pytest.raises(ValueError, match=words):
        parse_bots(text, slug)


def test_parse_bots_accepts_spaces():
    assert parse_bots(" hard , easy", "tic-tac-toe") == ["hard", "easy"]


def test_simulate_tallies_every_game():
    summary = simulate("tic-tac-toe", ["normal", "easy"], 12, 3, Budget())
    assert summary.games == 12 and len(summary.moves) == 12
    for tally in summary.tallies:
        assert tally.wins + tally.draws + tally.losses == 12
    wins = sum(t.wins for t in summary.tallies)
    assert wins + summary.draws == 12
    assert all(5 <= moves <= 9 for moves in summary.moves)
    # the rule-of-thumb bot is clearly better than random at Tic-Tac-Toe
    assert summary.tallies[0].wins > summary.tallies[1].wins


def test_simulate_is_reproducible():
    runs = [simulate("nine-locks", ["normal", "easy"], 3, 11, Budget()) for _ in range(2)]
    assert runs[0].moves == runs[1].moves
    assert [t.wins for t in runs[0].tallies] == [t.wins for t in runs[1].tallies]


def test_simulate_real_time_game_and_hard_bots_finish():
    summary = simulate("slapjack", ["hard", "normal"], 1, 2, Budget())
    assert summary.games == 1 and summary.unfinished == 0
    summary = simulate("tic-tac-toe", ["hard", "hard"], 1, 2, Budget(None, 200))
    assert summary.draws == 1


def test_time_limit_stops_early():
    summary = simulate("tic-tac-toe", ["easy", "easy"], 10_000, 1, Budget(), time_limit=0.2)
    assert 1 <= summary.games < 10_000


def test_table_and_progress():
    stream = io.StringIO()
    summary = simulate("tic-tac-toe", ["hard", "easy"], 4, 5, Budget(None, 100),
                       progress=ProgressBar(stream))
    table = format_summary(summary)
    assert "| hard |" in table and "| easy |" in table and "95% CI" in table
    assert "ms per choice" in table
    assert "100 iterations per move" in table and "games/s" in table
    assert "4/4 games" in stream.getvalue()


def test_command_line(capsys):
    status = cli.main(["simulate", "--game", "tic-tac-toe", "--bots", "normal,easy",
                       "--games", "3", "--seed", "4"])
    out, err = capsys.readouterr()
    assert status == 0
    assert "Tic-Tac-Toe, 2 players, 3 games, seed 4" in out
    assert "3/3 games" in err


@pytest.mark.parametrize("args", [
    ["--bots", "normal,easy", "--games", "0"],
    ["--bots", "normal,easy", "--iterations", "0"],
    ["--bots", "normal,easy", "--seconds", "-1"],
    ["--bots", "normal"],
])
def test_command_line_refuses_bad_input(capsys, args):
    assert cli.main(["simulate", "--game", "tic-tac-toe", *args]) == 2
    assert "lounge simulate:" in capsys.readouterr().err
