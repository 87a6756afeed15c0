"""Moves that arrive at the same moment: each applies to its own version, in arrival order."""

from __future__ import annotations

import threading

from .harness import assert_no_leaks, start_game


def burst(player, payloads: list[dict]) -> list[dict]:
    """Send every payload at once (no waiting between them); all the acknowledgements."""
    acks: list[dict] = []
    done = threading.Event()

    def answered(ack: dict) -> None:
        acks.append(ack)
        if len(acks) == len(payloads):
            done.set()

    for payload in payloads:
        player.sio.emit("move", payload, callback=answered)
    assert done.wait(10), acks
    return acks


def test_a_burst_of_moves_for_one_version_applies_exactly_one(players, room_of, url):
    host, guest = players(2)
    room = room_of(host)
    start_game(room, host, [guest])
    acks = burst(host, [{"move": "place", "args": [cell]} for cell in range(9)])
    assert sum(a["ok"] for a in acks) == 1
    assert {a["error"]["code"] for a in acks if not a["ok"]} == {"invalid_move"}
    guest.wait_for(lambda: guest.states[1]["version"] == 1)
    assert guest.states[1]["view"]["cells"].count("X") == 1
    assert [s["version"] for s in guest.received("state")] == [0, 1]
    assert_no_leaks(url, room["id"], [host, guest])


def test_two_slaps_on_one_pile_only_the_first_counts(players, room_of, url):
    host, guest = players(2)
    room = room_of(host, "slapjack")
    guest.ok("join", {"room": room["code"]})
    guest.ok("ready", {"ready": True})
    host.ok("start")
    guest.wait_for(lambda: guest.states.get(1))
    for _ in range(200):  # play until the pile can be slapped (bounded)
        state = host.states[0]
        view = state["view"]
        top = view["pile"][-3:]
        ranks = [card[:-1] for card in top]
        slappable = top and (ranks[-1] == "J" or ranks[-2:-1] == ranks[-1:]
                             or (len(ranks) == 3 and ranks[0] == ranks[2]))
        if slappable and not view["pile_slapped"]:
            break
        mover = host if view["current"] == 0 else guest
        version = state["version"]
        mover.ok("move", {"move": "play", "args": []})
        for p in (host, guest):
            p.wait_for(lambda p=p, v=version: p.version() > v)
    else:
        raise AssertionError("no slappable pile in 200 plays")
    version = host.states[0]["version"]
    results: dict[str, dict] = {}
    threads = [threading.Thread(target=lambda p=p, n=n: results.__setitem__(
        n, p.call("move", {"move": "slap", "args": [version]})))
        for n, p in (("host", host), ("guest", guest))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert all(r["ok"] for r in results.values()), results
    assert sorted(r["version"] for r in results.values()) == [version + 1, version + 2]
    final = host.wait_for(lambda: host.states[0]["version"] == version + 2 and host.states[0])
    kinds = [e["kind"] for e in final["view"]["events"] if e["version"] > version]
    assert kinds[0] == "good" and kinds[1] in ("late", "bad"), kinds
    assert_no_leaks(url, room["id"], [host, guest])
