"""Whole games of every game over the real server, and the no-leak check over every message."""

from __future__ import annotations

import pytest

from shared_rules import GAMES

from .harness import assert_no_leaks, play_out

CASES = [(slug, n) for slug, game in GAMES.items() for n in (2, 3, 4)
         if game.min_players <= n <= game.max_players]


@pytest.mark.parametrize(("slug", "count"), CASES)
def test_a_whole_game_between_clients_leaks_nothing(players, room_of, url, slug, count):
    host, *guests = players(count)
    room = room_of(host, slug)
    for guest in guests:
        ack = guest.ok("join", {"room": room["code"].lower(), "name": "Guest"})
        assert not ack["spectator"] and len(ack["seats"]) == 1
        guest.ok("ready", {"ready": True})
    watcher = players(1)[0]
    assert watcher.ok("join", {"room": room["id"], "spectate": True})["spectator"]
    host.ok("start")
    everyone = [host, *guests]
    for p in everyone:
        p.wait_for(lambda p=p: p.states)
    result = play_out(everyone, seed=count)
    assert result.get("winner") in range(count) or result == {"draw": True}
    for p in [*everyone, watcher]:
        p.wait_for(lambda p=p: (p.last("room") or {}).get("status") == "finished")
    watcher.wait_for(lambda: watcher.states.get(None, {}).get("result") == result)
    assert set(watcher.states) == {None}
    for i, p in enumerate(everyone):
        assert set(p.states) == {i}
    assert assert_no_leaks(url, room["id"], [*everyone, watcher]) > count
