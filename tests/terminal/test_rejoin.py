"""Getting back into the room after a reconnect, or after the server lost the connection's place
in it. A cluster play-test (the room's process killed and relaunched) said "Connected again: you
are back in the room" before the rejoin was answered; the answer never came, and every move was
then refused "Join a room first", with nothing telling the player."""

from __future__ import annotations

import re
import time

from backend.terminal import commands
from backend.terminal.app import (
    BACK,
    BACK_IN,
    JOIN_TIMEOUT,
    LOST_ROOM,
    NOT_BACK,
    REJOIN_WAIT,
    REJOINING,
    STILL_OUT,
)
from backend.terminal.client import Incoming
from shared_rules import new_match

from .harness import Proxy
from .test_play import host_room, messages
from .test_screen import app_for, model_for, said, text_of

OK = {"ok": True, "my_seats": [0], "spectator": False}


def refusal(code: str, message: str = "No") -> dict:
    return {"ok": False, "error": {"code": code, "message": message}}


def reconnected():
    """A player in a game whose connection just came back: the rejoin is on its way."""
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app, link = app_for(model)
    app.on_incoming(Incoming("disconnect", "transport close"))
    app.on_incoming(Incoming("connect"))
    return model, app, link


def joins(link) -> int:
    return sum(1 for event, _ in link.sent if event == "join")


def test_back_waits_for_the_rejoin_s_answer_and_an_unanswered_rejoin_is_sent_again():
    model, app, link = reconnected()
    assert said(model)[-1] == REJOINING and BACK not in said(model)
    assert "rejoining…" in text_of(model) and joins(link) == 1
    for _ in range(2):  # it would be answered not_in_room: not sent, said once
        app.perform(commands.parse("hello?", model))
    assert said(model).count(NOT_BACK) == 1 and [e for e, _ in link.sent] == ["join"]
    app._check_join()
    assert joins(link) == 1  # not yet
    app.join_sent_at -= REJOIN_WAIT + 0.1
    app._check_join()
    assert joins(link) == 2 and said(model).count(REJOINING) == 1
    app.on_ack("join", OK | {"room": model.room})
    assert said(model)[-1] == BACK and "rejoining…" not in text_of(model)
    app.on_ack("join", OK | {"room": model.room})  # the first one's answer, late
    app.on_ack("join", refusal("internal"))
    assert said(model).count(BACK) == 1 and app.exit_code is None
    app.perform(commands.parse("hello", model))
    assert link.sent[-1] == ("chat", {"text": "hello"})


def test_a_rejoin_that_could_not_be_sent_is_sent_in_a_moment():
    model, app, link = reconnected()
    link.connected = False
    app.on_incoming(Incoming("disconnect"))
    app.on_incoming(Incoming("connect"))  # and gone again before the join went
    assert joins(link) == 1 and app.join_due is not None
    link.connected = True
    app.join_due -= 5
    app._check_join()
    assert joins(link) == 2 and app.join_due is None


def test_a_rejoin_refused_try_again_goes_again_and_another_refusal_ends_the_client():
    model, app, link = reconnected()
    for code in ("internal", "rate_limited"):
        sent = joins(link)
        app.on_ack("join", refusal(code, "The room's server could not be reached: try again"))
        app._check_join()
        assert app.exit_code is None and joins(link) == sent  # after a pause, not at once
        app.join_due -= 5
        app._check_join()
        assert joins(link) == sent + 1
    assert said(model).count(REJOINING) == 1
    app.on_ack("join", refusal("not_found", "There is no room 'K7MPQ2'"))
    assert app.exit_code == 1
    assert app.farewell == "Cannot get back into room K7MPQ2: there is no room 'K7MPQ2'"


def test_a_rejoin_refused_for_a_closed_rooms_reason_says_only_that():
    model, app, link = reconnected()
    why = "Room K7MPQ2 has closed: its game (pirate-poker) is no longer offered here."
    app.on_ack("join", refusal("not_found", why))
    assert (app.exit_code, app.farewell) == (1, why)


def test_a_first_join_refused_still_ends_the_client():
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app, link = app_for(model)
    app.joined = False
    app.on_incoming(Incoming("connect"))
    assert REJOINING not in said(model)
    app.on_ack("join", refusal("internal", "The server is still starting: try again"))
    assert app.exit_code == 1
    assert app.farewell == "Cannot join room k7mpq2: the server is still starting: try again"


def test_getting_back_in_is_never_given_up_for_time_and_a_long_wait_is_said_once():
    """The room's grace period may outlast a slow way back (a cluster whose Redis is away):
    the client keeps trying, says so once, and an outage meanwhile starts the count again."""
    model, app, link = reconnected()
    app.rejoin_since -= JOIN_TIMEOUT - 1
    app.on_incoming(Incoming("disconnect"))  # the server is away: the client waits for it
    app._check_join()
    assert STILL_OUT not in said(model)
    app.on_incoming(Incoming("connect"))
    app.rejoin_since -= JOIN_TIMEOUT + 0.1
    app._check_join()
    app._check_join()
    assert app.exit_code is None and said(model).count(STILL_OUT) == 1
    app.join_sent_at -= REJOIN_WAIT + 0.1
    app._check_join()
    assert joins(link) == 3  # still trying
    app.on_ack("join", {"ok": True, "room": model.room, "my_seats": [0], "spectator": False})
    assert said(model)[-1] == BACK


def test_a_move_answered_not_in_room_gets_back_in_once_at_a_time():
    model = model_for(new_match("tic-tac-toe", num_players=2, seed=1), 0)
    app, link = app_for(model)
    lost = refusal("not_in_room", "Join a room first")
    app.on_ack("move", lost, {"move": "place", "args": [4]})
    assert said(model) == [LOST_ROOM] and link.sent[-1][0] == "join"
    app.on_ack("chat", lost, {"text": "hi"})  # sent before the first answer came
    app.on_ack("chat", lost, {"text": "hi again"})
    assert joins(link) == 1 and said(model) == [LOST_ROOM, NOT_BACK]
    app.on_ack("join", OK | {"room": model.room})
    assert said(model)[-1] == BACK_IN and app.rejoin_since is None
    app.on_ack("chat", lost, {"text": "later"})  # lost again: in again
    assert joins(link) == 2 and said(model)[-1] == LOST_ROOM


# -- against the real server -------------------------------------------------------------------


def bob_through(proxy: Proxy, terms, server) -> tuple:
    """Ada hosts Tic-Tac-Toe; Bob joins through the proxy: (ada, bob)."""
    ada, code = host_room(terms, server, "tic-tac-toe")
    bob = terms("--server", proxy.url, "--join", code, "--name", "Bob")
    bob.wait("You joined room")
    return ada, bob


def test_a_rejoin_unanswered_then_refused_goes_again_until_it_is_back(terms, server):
    proxy = Proxy(server.port)
    try:
        ada, bob = bob_through(proxy, terms, server)
        proxy.joins = ["drop", "refuse"]  # lost, then "try again": the cluster's takeover
        proxy.cut()
        screen = bob.wait(re.escape(REJOINING)).string
        assert "rejoining…" in screen or "reconnecting…" in screen
        bob.line("anyone?")
        bob.wait(re.escape(NOT_BACK))
        assert BACK not in bob.screen()
        bob.wait(BACK, timeout=REJOIN_WAIT + 8)
        assert proxy.joins == []
        bob.line("back again")
        ada.wait("Bob: back again")
        pane = messages(bob.settle())
        assert pane.count(REJOINING) == 1 and pane.count(BACK) == 1, pane
        assert "anyone?" not in messages(ada.screen())
    finally:
        proxy.stop()


def test_a_rejoin_long_unanswered_is_said_and_tried_until_it_is_back(terms, server):
    proxy = Proxy(server.port)
    try:
        ada, bob = bob_through(proxy, terms, server)
        proxy.joins = ["drop"] * 4  # sent again every REJOIN_WAIT: 20 s of silence
        proxy.cut()
        bob.wait(re.escape(REJOINING))
        started = time.monotonic()
        bob.wait(re.escape(STILL_OUT[:40]), timeout=JOIN_TIMEOUT + 5)
        assert time.monotonic() - started > JOIN_TIMEOUT - 2 and BACK not in bob.raw
        bob.wait(re.escape(BACK), timeout=REJOIN_WAIT * 2 + 5)
        bob.line("made it")
        ada.wait("Bob: made it")
    finally:
        proxy.stop()


def test_a_connection_out_of_its_room_gets_back_in(terms, server):
    """The server forgets the connection's place (here: a leave slipped in by the proxy) while
    the client still believes it is in: its next line is refused not_in_room, and it rejoins."""
    proxy = Proxy(server.port)
    try:
        ada, bob = bob_through(proxy, terms, server)
        ada.wait("Bob sat down")
        proxy.to_server('42["leave",{}]')
        ada.wait("Bob left the table")
        bob.line("lost?")
        bob.wait(re.escape(LOST_ROOM))
        bob.wait(BACK_IN)
        ada.wait(r"(?s)Bob left the table.*Bob sat down")
        bob.line("found")
        ada.wait("Bob: found")
        assert "Join a room first" not in messages(bob.settle())
    finally:
        proxy.stop()
