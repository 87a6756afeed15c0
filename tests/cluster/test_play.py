"""Games played with their players on different processes of one cluster."""

from __future__ import annotations

import threading

import pytest
import requests

from tests.server.harness import assert_no_leaks, start_game
from tests.server.test_races import burst

from .nodes import connect, hosted, match_log, play, versions

GAMES = ["tic-tac-toe", "nine-locks", "slapjack", "poker99"]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_to_the_end_across_processes(cluster_of, game):
    cluster = cluster_of(2)
    host, room = hosted(cluster, 0, 0, game)
    guests = [connect(cluster.url(1)), connect(cluster.url(0))][:2 if game != "tic-tac-toe"
                                                                 else 1]
    players = start_game(room, host, guests)
    watcher = connect(cluster.url(1))
    joined = watcher.ok("join", {"room": room["code"], "spectate": True, "name": "Eve"})
    assert joined["spectator"] and joined["room"]["code"] == room["code"]
    assert play(players, seed=7) is not None
    log = match_log(cluster.url(1), room["id"])["log"]
    for player in [*players, watcher]:
        player.wait_for(lambda p=player: p.version() == len(log))
        assert versions(player, 1)[-1] == len(log)
    assert assert_no_leaks(cluster.url(1), room["id"], [*players, watcher]) > len(log)
    guests[0].ok("chat", {"text": "good game"})
    for player in [host, watcher]:
        player.wait_for(lambda p=player: (p.last("chat") or {}).get("text") == "good game")
    assert cluster.health(1)["cluster"]["owned"] == 0  # everything ran on its owner
    assert cluster.health(0)["cluster"]["owned"] == 1


@pytest.mark.parametrize("mode", ["gevent", "threading"])
def test_a_cluster_runs_in_the_other_async_modes(cluster_of, mode):
    cluster = cluster_of(2, mode=mode)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")
    players = start_game(room, host, [connect(cluster.url(1))])
    assert play(players, seed=3) is not None
    players[1].ok("chat", {"text": "across"})
    host.wait_for(lambda: (host.last("chat") or {}).get("text") == "across")
    assert cluster.health(1)["cluster"]["redis"] is True


def test_rest_answers_the_same_on_every_process(cluster_of):
    cluster = cluster_of(2)
    host, room = hosted(cluster, 0, 1, "poker99")
    for url in (cluster.url(0), cluster.url(1)):
        listed = requests.get(f"{url}/api/rooms", timeout=5).json()["rooms"]
        assert [r["code"] for r in listed] == [] and room["public"] is False
        one = requests.get(f"{url}/api/rooms/{room['code'].lower()}", timeout=5).json()
        assert one["code"] == room["code"] and one["seats"][0]["connected"] is True
    other = connect(cluster.url(1))
    public = requests.post(f"{cluster.url(1)}/api/rooms",
                           json={"game": "slapjack", "name": "Bo", "public": True},
                           headers={"Authorization": f"Bearer {other.token}"}, timeout=5).json()
    for url in (cluster.url(0), cluster.url(1)):
        listed = requests.get(f"{url}/api/rooms", timeout=5).json()
        assert [r["code"] for r in listed["rooms"]] == [public["code"]] and listed["playing"] == []
    other.ok("join", {"room": public["code"], "name": "Bo"})
    start_game(public, other, [connect(cluster.url(0))])
    for url in (cluster.url(0), cluster.url(1)):  # now it is there to watch
        listed = requests.get(f"{url}/api/rooms", timeout=5).json()
        assert listed["rooms"] == [] and [r["code"] for r in listed["playing"]] == [public["code"]]
    again = requests.post(f"{cluster.url(0)}/api/rooms", json={"game": "slapjack", "name": "Bo"},
                          headers={"Authorization": f"Bearer {other.token}"}, timeout=5)
    assert again.status_code == 409 and again.json()["error"] == {
        "code": "already_hosting",
        "message": f"You already host room {public['code']}: leave it before opening another"}


def test_a_refused_move_gets_the_same_answer_on_any_process(cluster_of):
    cluster = cluster_of(2)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")
    guest = connect(cluster.url(1))
    start_game(room, host, [guest])
    host.ok("move", {"move": "place", "args": [4]})
    remote = guest.call("move", {"move": "place", "args": [4]})
    local_guest = connect(cluster.url(0), guest.session)
    local_guest.ok("join", {"room": room["code"]})
    local = local_guest.call("move", {"move": "place", "args": [4]})
    assert not remote["ok"] and remote == local
    assert remote["error"]["code"] == "invalid_move"
    out_of_turn = connect(cluster.url(1), host.session)
    out_of_turn.ok("join", {"room": room["code"]})
    assert out_of_turn.call("move", {"move": "place", "args": [0]}) == \
        host.call("move", {"move": "place", "args": [0]})
    assert guest.call("undo", {}) == local_guest.call("undo", {})


def test_moves_racing_from_two_processes_apply_in_one_order(cluster_of):
    cluster = cluster_of(2)
    host, room = hosted(cluster, 1, 0, "tic-tac-toe")  # owned by the other process
    guest = connect(cluster.url(1))
    start_game(room, host, [guest])
    twin = connect(cluster.url(1), host.session)
    twin.ok("join", {"room": room["code"]})
    for turn in range(3):
        mover, other = (host, twin) if turn % 2 == 0 else (guest, connect(cluster.url(0),
                                                                           guest.session))
        if other is not twin and other is not host:
            other.ok("join", {"room": room["code"]})
        payloads = [{"move": "place", "args": [cell]} for cell in range(9)]
        answers: list[dict] = []
        threads = [threading.Thread(target=lambda p=p, load=payloads, out=answers: out.extend(
            burst(p, load))) for p in (mover, other)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
        assert len(answers) == 18 and sum(a["ok"] for a in answers) == 1
        assert {a["error"]["code"] for a in answers if not a["ok"]} == {"invalid_move"}
    seen = versions(guest, 1)
    assert seen == sorted(seen) and seen[-1] == 3
    assert len(match_log(cluster.url(0), room["id"])["log"]) == 3
    assert assert_no_leaks(cluster.url(0), room["id"], [host, guest]) > 0
