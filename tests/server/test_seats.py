"""Which seats a connection plays comes from the server (issue 13): ``my_seats`` in the join
answer, then a ``seats`` event to that connection alone when they change."""

from __future__ import annotations

from .harness import Player, assert_no_leaks, start_game


def test_the_join_answer_names_my_seats_hot_seat_included(players, room_of):
    (host,) = players(1)
    room = room_of(host, "nine-locks")
    host.ok("add_local", {"name": "Grace"})
    ack = host.ok("join", {"room": room["code"]})
    assert ack["my_seats"] == [0, 1] and ack["spectator"] is False
    assert ack["left_game"] is False


def test_a_player_who_left_comes_back_as_a_spectator_and_is_told_so(players, room_of, url):
    host, guest, other = players(3)
    room = room_of(host, "nine-locks")
    start_game(room, host, [guest, other])
    guest.ok("leave")
    host.wait_for(lambda: host.last("room")["seats"][1]["left"])
    before = len(guest.messages)
    ack = guest.ok("join", {"room": room["code"], "name": "Linus"})
    # The room still lists the old seat with this user id: the answer alone says it is gone.
    assert ack["room"]["seats"][1]["user_id"] == guest.user_id
    assert ack["my_seats"] == [] and ack["spectator"] is True and ack["left_game"] is True
    watching = guest.wait_for(lambda: guest.states.get(None))
    assert watching["legal_moves"] == []
    assert all(data["seat"] is None for event, data in guest.messages[before:] if event == "state")
    assert guest.call("move", {"move": "pick_up"})["error"]["code"] == "forbidden"
    assert_no_leaks(url, room["id"], [host, guest, other])


def test_a_seat_change_is_told_to_that_connection_only(players, room_of):
    host, guest, friend = players(3)
    room = room_of(host, "nine-locks")
    assert guest.ok("join", {"room": room["code"]})["my_seats"] == [1]
    assert friend.ok("join", {"room": room["code"]})["my_seats"] == [2]
    host.ok("remove_seat", {"seat": 1})
    told = guest.wait_for(lambda: guest.last("seats"))
    assert told == {"my_seats": [], "spectator": True, "left_game": False, "left_out": False}
    # The friend's seat moved down from 2 to 1: they are told too, the host is not.
    assert friend.wait_for(lambda: friend.last("seats")) == {
        "my_seats": [1], "spectator": False, "left_game": False, "left_out": False}
    host.ok("chat", {"text": "sync"})  # everything said before this has arrived
    for player in (host, guest, friend):
        player.wait_for(lambda p=player: p.last("chat"))
    assert host.received("seats") == []
    assert len(guest.received("seats")) == 1 and len(friend.received("seats")) == 1
    # A change that moves nobody's seats sends no seats event at all.
    host.ok("add_bot", {"level": "easy"})
    host.ok("chat", {"text": "sync again"})
    for player in (host, guest, friend):
        player.wait_for(lambda p=player: p.last("chat")["text"] == "sync again")
    assert len(guest.received("seats")) == 1 and len(friend.received("seats")) == 1



def test_a_player_who_leaves_in_one_tab_is_told_so_in_their_other_tab(players, room_of, url):
    host, guest = players(2)
    room = room_of(host, "nine-locks")
    guest.ok("join", {"room": room["code"]})
    # A duplicated browser tab: the same identity, a second connection in the room.
    twin = Player(url, guest.session).connect()
    try:
        twin.ok("join", {"room": room["code"]})
        guest.ok("leave")
        # Dismissed without a word, the twin went on showing its seat in a room it had left.
        twin.wait_for(lambda: twin.received("left"))
        assert not guest.received("left")
        assert twin.call("ready", {"ready": True})["error"]["code"] == "not_in_room"
    finally:
        twin.drop()
