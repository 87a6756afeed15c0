"""Processes that die, stop on purpose or stall: nothing acknowledged is lost, the game goes on.

The processes here beat their heartbeat every 0.4 s and are taken for dead 2 s after the last
one (LEASE_SECONDS=2), so that a takeover happens within the tests' patience; the default is
5 s."""

from __future__ import annotations

import signal
import time

import pytest
import requests

from tests.server.harness import TIMEOUT, create_room, start_game

from .nodes import (
    assert_kept,
    connect,
    contiguous,
    create,
    hosted,
    match_log,
    mid_game,
    play,
    versions,
    wait_until,
)

GAMES = ["tic-tac-toe", "nine-locks", "slapjack", "poker99"]


@pytest.mark.parametrize("game", GAMES)
def test_the_owner_is_killed_mid_game_and_the_game_goes_on(cluster_of, game):
    cluster = cluster_of(2)
    survivor = cluster.node_id(1)
    host, room = hosted(cluster, 0, 0, game)  # process 0 owns it, and the host is on it
    guest = connect(cluster.url(1))
    start_game(room, host, [guest])
    acked: list[dict] = []
    round_ = mid_game(host, [host, guest], seed=3, moves=3, acked=acked)
    killed = time.monotonic()
    cluster.kill(0)
    host = connect(cluster.url(1), host.session)  # the host's client reconnects elsewhere
    back = host.ok("join", {"room": room["code"]})
    assert back["seats"] == [0] and not back["spectator"]
    assert wait_until(lambda: cluster.owner(room["id"])[0] == survivor, 10)
    took = time.monotonic() - killed
    assert took < 10, took
    assert play([host, guest], seed=4, acked=acked) is not None
    log = match_log(cluster.url(1), room["id"])["log"]
    assert_kept(acked, log)
    seen = versions(guest, round_)
    assert contiguous(seen), seen  # the guest never reconnected
    assert guest.sio.connected


@pytest.mark.parametrize("game", GAMES)
def test_a_stopped_process_hands_its_rooms_over_within_a_second(cluster_of, game):
    cluster = cluster_of(2)
    survivor = cluster.node_id(1)
    host, room = hosted(cluster, 0, 1, game)  # owned by the process that stops
    guest = connect(cluster.url(1))
    leaving = connect(cluster.url(0))  # a spectator on the stopping process
    start_game(room, host, [guest])
    leaving.ok("join", {"room": room["code"], "spectate": True})
    acked: list[dict] = []
    play([host, guest], seed=5, stop_after=3, acked=acked)
    stopped = time.monotonic()
    cluster.signal(0, signal.SIGTERM)
    wait_until(lambda: cluster.owner(room["id"])[0] == survivor, 5, step=0.005)
    handed = time.monotonic() - stopped
    gaps: list[float] = []
    last = time.monotonic()
    before = len(acked)
    while play([host, guest], seed=6, stop_after=1, acked=acked) is None and len(acked) < 12:
        gaps.append(time.monotonic() - last)
        last = time.monotonic()
    assert handed < 1.0, handed
    assert max(gaps, default=0) < 1.0, gaps
    assert len(acked) > before or gaps == []
    assert cluster.nodes[0].process.wait(10) == 0  # it exits by itself once handed over
    leaving.wait_for(lambda: not leaving.sio.connected, 5)
    back = connect(cluster.url(1), leaving.session)
    assert back.ok("join", {"room": room["code"], "spectate": True})["spectator"]
    assert play([host, guest], seed=7, acked=acked) is not None
    assert_kept(acked, match_log(cluster.url(1), room["id"])["log"])
    assert contiguous(versions(guest, 1)), versions(guest, 1)


def test_bots_move_once_per_turn_across_three_processes(cluster_of):
    cluster = cluster_of(3)
    host, room = hosted(cluster, 0, 1, "nine-locks")
    for level in ("easy", "normal"):
        host.ok("add_bot", {"level": level})
    watcher = connect(cluster.url(2))
    watcher.ok("join", {"room": room["code"], "spectate": True})
    host.ok("start")
    host.wait_for(lambda: host.states)
    assert play([host], seed=8) is not None
    log = match_log(cluster.url(2), room["id"])["log"]
    bot_moves = sum(1 for entry in log if entry["seat"] in (1, 2) and entry["move"] != "drop")
    counts = [cluster.health(i)["bot_moves"] for i in range(3)]
    assert counts == [bot_moves, 0, 0], (counts, bot_moves)
    watcher.wait_for(lambda: watcher.version() == len(log))
    assert contiguous(versions(watcher, 1)), versions(watcher, 1)


def test_a_stalled_owner_writes_nothing_after_it_wakes(cluster_of):
    cluster = cluster_of(2)
    cluster.tracebacks_allowed = False
    first, survivor = cluster.node_id(0), cluster.node_id(1)
    host, room = hosted(cluster, 0, 1, "nine-locks")
    guest = connect(cluster.url(1))
    host.ok("add_bot", {"level": "easy"})
    start_game(room, host, [guest])
    sleeper = connect(cluster.url(0), guest.session)  # a connection on the stalled process
    sleeper.ok("join", {"room": room["code"]})
    acked: list[dict] = []
    play([host, guest], seed=9, stop_after=2, acked=acked)
    assert cluster.owner(room["id"]) == (first, 1)
    cluster.signal(0, signal.SIGSTOP)
    try:
        sleeper.sio.emit("chat", {"text": "sent while my server slept"})
        play([host, guest], seed=10, stop_after=3, acked=acked)  # served by the new owner
        assert cluster.owner(room["id"]) == (survivor, 2)
    finally:
        cluster.signal(0, signal.SIGCONT)
    time.sleep(1.5)  # the woken process renews, learns it lost the room, and lets it go
    assert cluster.health(0)["cluster"]["owned"] == 0
    host.wait_for(lambda: any(m["text"] == "sent while my server slept"
                              for m in host.received("chat")))
    assert play([host, guest], seed=11, acked=acked) is not None
    match = match_log(cluster.url(0), room["id"])
    assert_kept(acked, match["log"])
    stored = cluster.schema.query(
        "SELECT m.version, m.seat, m.move FROM match_moves m JOIN matches x ON x.id = m.match_id"
        " WHERE x.room_id = :r ORDER BY m.version", r=room["id"])
    assert [(r.version, r.seat, r.move) for r in stored] == [
        (i + 1, e["seat"], e["move"]) for i, e in enumerate(match["log"])]
    assert cluster.owner(room["id"]) == (survivor, 2)
    assert contiguous(versions(host, 1)), versions(host, 1)


def test_a_removed_player_still_only_watches_after_a_takeover(cluster_of):
    cluster = cluster_of(2)
    survivor = cluster.node_id(1)
    host, room = hosted(cluster, 0, 1, "poker99")
    mallory = connect(cluster.url(1))
    mallory.ok("join", {"room": room["code"], "name": "Mallory"})
    host.ok("remove_seat", {"seat": 1})
    cluster.kill(0)
    assert wait_until(lambda: cluster.owner(room["id"])[0] == survivor, 10)
    again = connect(cluster.url(1), mallory.session)
    answer = again.ok("join", {"room": room["code"], "name": "Mallory"})
    assert answer["spectator"] and answer["my_seats"] == []
    assert [r["name"] for r in answer["room"]["removed"]] == ["Mallory"]


def test_a_room_whose_game_is_withdrawn_is_closed_by_the_process_taking_it_over(cluster_of):
    """A rolling update removed the room's game: the process that takes the room over closes
    it for good (no lease left to claim again and again), takes it off the public list, tells
    the players still connected (through another process) that it closed, and says why at its
    code."""
    cluster = cluster_of(2)
    host = connect(cluster.url(0))
    room = create_room(cluster.url(0), host.token, "tic-tac-toe", public=True)
    host.ok("join", {"room": room["code"]})
    guest = connect(cluster.url(1))
    guest.ok("join", {"room": room["code"], "name": "Linus"})
    listed = f"{cluster.url(1)}/api/rooms"
    assert [r["code"] for r in requests.get(listed, timeout=TIMEOUT).json()["rooms"]] == [
        room["code"]]
    cluster.schema.query("UPDATE rooms SET game = 'pirate-poker' RETURNING id")
    cluster.kill(0)
    assert wait_until(lambda: cluster.owner(room["id"]) == ("", -1), 10)
    assert cluster.schema.query("SELECT count(*) AS n FROM rooms")[0].n == 0
    guest.wait_for(lambda: guest.received("closed") == [{"reason": "game_withdrawn"}])
    assert guest.call("chat", {"text": "anyone?"})["error"]["code"] == "not_in_room"
    assert wait_until(lambda: requests.get(listed, timeout=TIMEOUT).json()["rooms"] == [], 5)
    answer = requests.get(f"{cluster.url(1)}/api/rooms/{room['code']}", timeout=TIMEOUT)
    assert answer.status_code == 404
    assert answer.json()["error"]["message"] == (
        f"Room {room['code']} has closed: its game (pirate-poker) is no longer offered here. "
        "The host can open a new room with another game.")


def test_another_process_tells_a_late_arrival_that_the_host_left(cluster_of):
    cluster = cluster_of(2)
    host, room = hosted(cluster, 0, 0, "tic-tac-toe")
    host.ok("leave")
    why = f"Room {room['code']} has closed: the host closed it."
    answer = requests.get(f"{cluster.url(1)}/api/rooms/{room['code']}", timeout=TIMEOUT)
    assert (answer.status_code, answer.json()["error"]) == (
        404, {"code": "not_found", "message": why})
    late = connect(cluster.url(1))
    assert late.call("join", {"room": room["code"]})["error"] == {
        "code": "not_found", "message": why}


def test_a_room_taken_over_before_its_host_came_closes_as_never_came(cluster_of):
    """The owner of a room whose host never joined dies: the process taking it over waits
    for the host as for a new room, not a host grace period, and says the host never came."""
    cluster = cluster_of(2, HOST_GRACE_SECONDS=1.0, UNCLAIMED_ROOM_SECONDS=4.0)
    survivor = cluster.node_id(1)
    host = connect(cluster.url(1))
    room = create(cluster.url(0), host, "tic-tac-toe")  # process 0 owns it; the host stays away
    guest = connect(cluster.url(1))
    guest.ok("join", {"room": room["code"], "name": "Linus"})
    cluster.kill(0)
    assert wait_until(lambda: cluster.owner(room["id"])[0] == survivor, 10)
    guest.wait_for(lambda: guest.received("closed"), TIMEOUT + 4.0)
    assert guest.received("closed") == [{"reason": "host_never_came"}]
    answer = requests.get(f"{cluster.url(1)}/api/rooms/{room['code']}", timeout=TIMEOUT)
    assert answer.json()["error"]["message"] == (
        f"Room {room['code']} has closed: the host never came.")
