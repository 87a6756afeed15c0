"""The game log is written on the server (issue 13): the whole log with the first state after
a join, then only the new lines with each state; a take-back removes its line; the lines a
seat gets never name a card it could not see (``assert_no_leaks`` checks every line)."""

from __future__ import annotations

from .harness import Player, assert_no_leaks, start_game


def kept_log(player: Player, seat: int | None) -> list[dict]:
    """The log a client keeps from the states of one seat: replaced by a whole log, then
    extended by new lines, less the lines of moves taken back."""
    log: list[dict] = []
    for event, data in list(player.messages):
        if event != "state" or data["seat"] != seat:
            continue
        if data.get("log_full"):
            log = list(data["log"])
            continue
        gone = set(data["log_undone"])
        log = [line for line in log if line["version"] not in gone] + data["log"]
    return log


def texts(log: list[dict]) -> list[str]:
    return [line["text"] for line in log]


def test_the_whole_log_on_join_then_only_new_lines(players, room_of, url):
    host, guest = players(2)
    room = room_of(host, "tic-tac-toe")
    start_game(room, host, [guest])
    first = guest.wait_for(lambda: guest.states.get(1))
    assert texts(first["log"]) == ["The game begins"]
    host.ok("move", {"move": "place", "args": [4]})
    moved = guest.wait_for(lambda: guest.states[1]["version"] == 1 and guest.states[1])
    assert texts(moved["log"]) == ["Host put X in the centre"] and not moved.get("log_full")
    guest.ok("move", {"move": "place", "args": [0]})
    host.wait_for(lambda: host.states[0]["version"] == 2)
    assert texts(host.states[0]["log"]) == ["Guest put O in the top left"]

    guest.reconnect()  # a reload: the whole log again, from the server
    guest.ok("join", {"room": room["code"]})
    again = guest.wait_for(lambda: guest.states[1].get("log_full") and guest.states[1])
    assert texts(again["log"]) == ["The game begins", "Host put X in the centre",
                                   "Guest put O in the top left"]
    watcher = Player(url).connect()
    try:
        watcher.ok("join", {"room": room["code"], "spectate": True})
        watched = watcher.wait_for(lambda: watcher.states.get(None))
        assert watched["log_full"] and texts(watched["log"]) == texts(again["log"])
    finally:
        watcher.drop()


def test_a_take_back_removes_its_line_and_says_who_took_it(players, room_of):
    host, guest = players(2)
    room = room_of(host, "tic-tac-toe")
    start_game(room, host, [guest])
    host.ok("move", {"move": "place", "args": [4]})
    guest.wait_for(lambda: guest.states[1]["version"] == 1)
    host.ok("undo", {})
    took = guest.wait_for(lambda: guest.states[1]["version"] == 2 and guest.states[1])
    assert took["log_undone"] == [1] and texts(took["log"]) == ["Host took back a move"]
    assert texts(kept_log(guest, 1)) == ["The game begins", "Host took back a move"]
    host.ok("move", {"move": "place", "args": [8]})
    guest.wait_for(lambda: guest.states[1]["version"] == 3)
    assert texts(kept_log(guest, 1)) == ["The game begins", "Host took back a move",
                                         "Host put X in the bottom right"]
    guest.reconnect()
    guest.ok("join", {"room": room["code"]})
    guest.wait_for(lambda: guest.states[1].get("log_full"))
    assert texts(guest.states[1]["log"]) == texts(kept_log(guest, 1))


def test_every_seat_keeps_the_log_a_fresh_join_gets_and_no_line_leaks(players, room_of, url):
    host, a, b, watcher = players(4)
    room = room_of(host, "nine-locks")
    everyone = start_game(room, host, [a, b])
    for move in range(12):  # some moves, then compare what was kept with a fresh join
        if move == 6:  # a spectator half-way: what it keeps from then on is what a join gets
            watcher.ok("join", {"room": room["code"], "spectate": True})
        if any(p.states[s]["result"] for p in everyone for s in p.states):
            break  # some deals end within 12 first moves (never within 8)
        state = next(p.states[s] for p in everyone for s in p.states
                     if p.states[s]["legal_moves"] and p.states[s]["view"]["current"] == s)
        owner = next(p for p in everyone if state["seat"] in p.states)
        version = owner.ok("move", {**state["legal_moves"][0], "seat": state["seat"]})["version"]
        for p in everyone:
            p.wait_for(lambda p=p, v=version: p.version() >= v)
    watcher.wait_for(lambda: watcher.states[None]["version"] == version)
    watched = kept_log(watcher, None)
    assert watched[0]["text"] == "The game begins" and watched[-1]["version"] == version
    late = Player(url).connect()
    try:
        late.ok("join", {"room": room["code"], "spectate": True})
        late.wait_for(lambda: late.states.get(None))
        assert late.states[None]["log"] == watched
    finally:
        late.drop()
    for seat, player in enumerate(everyone):
        kept = kept_log(player, seat)
        assert len(kept) > 3 and kept[0]["text"] == "The game begins"
        player.reconnect()
        player.ok("join", {"room": room["code"]})
        player.wait_for(lambda p=player, s=seat: p.states[s].get("log_full")
                        and p.states[s]["version"] == version)
        assert player.states[seat]["log"] == kept
    assert assert_no_leaks(url, room["id"], [*everyone, watcher]) > 12
