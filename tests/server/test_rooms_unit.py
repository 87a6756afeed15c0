"""The transport-free parts: rooms, the store, tokens, settings, schemas."""

from __future__ import annotations

import subprocess
import sys

import pytest
from marshmallow import ValidationError

from backend import views
from backend.api import STATUS
from backend.auth import TokenSigner, bearer_token
from backend.bots import BotRunner
from backend.closing import NOTE_MS, WHY, ClosedNote
from backend.config import Config, from_env
from backend.errors import CODES, LoungeError
from backend.lounge import Lounge
from backend.ratelimit import KeyedLimiter, TokenBucket
from backend.rooms import CODE_ALPHABET, FINISHED, PLAYING, now_ms
from backend.runtime import Runtime
from backend.schemas import SOCKET_SCHEMAS, Remembered
from backend.store import MemoryRoomStore
from backend.turns import timed_seat, turn_moves
from backend.wire import OrjsonCodec

HOST, GUEST, OTHER = "host-id-0000-0000-0000-000000000000", "guest", "other"


def lounge_with_room(game: str = "tic-tac-toe"):
    lounge = Lounge(MemoryRoomStore())
    room = lounge.create_room(HOST, game, "Ada", public=True)
    room.attach("c-host", HOST, None, False)
    return lounge, room


def started_with_linus(game: str = "tic-tac-toe", bot: bool = False, seed: int = 1):
    """A room whose game has started: Ada hosting, Linus (connection ``c1``) beside her, and a
    bot after them if asked."""
    _, room = lounge_with_room(game)
    room.attach("c1", GUEST, "Linus", False)
    room.set_ready(GUEST, True)
    if bot:
        room.add_bot(HOST, "easy")
    room.start(HOST, seed=seed)
    return room


def code_of(error: pytest.ExceptionInfo) -> str:
    return error.value.code


def test_codes_use_the_alphabet_without_look_alikes_and_find_any_case():
    lounge, room = lounge_with_room()
    assert set(room.code) <= set(CODE_ALPHABET) and len(room.code) == 6
    assert lounge.find(room.code.lower()) is room and lounge.find(HOST) is room
    with pytest.raises(LoungeError) as err:
        lounge.find("ZZZZZZ")
    assert code_of(err) == "not_found"


def test_a_closed_rooms_code_says_why_it_closed_for_a_day(monkeypatch):
    lounge, room = lounge_with_room()
    lounge.close(room, "host_left")
    with pytest.raises(LoungeError) as err:
        lounge.find(room.code.lower())
    assert (err.value.code, err.value.message) == (
        "not_found", f"Room {room.code} has closed: the host closed it.")
    a_day_later = now_ms() + NOTE_MS
    monkeypatch.setattr("backend.closing.now_ms", lambda: a_day_later)
    with pytest.raises(LoungeError) as err:
        lounge.find(room.code)
    assert err.value.message == f"There is no room {room.code!r}"


def test_each_closing_reason_is_worded_for_players():
    said = {reason: ClosedNote("K7QX2M", reason, "pirate-poker", 0).message() for reason in WHY}
    assert said == {
        "host_left": "Room K7QX2M has closed: the host closed it.",
        "host_disconnected": "Room K7QX2M has closed: the host lost their connection and did "
                             "not come back in time.",
        "host_never_came": "Room K7QX2M has closed: the host never came.",
        "abandoned": "Room K7QX2M has closed: nothing had happened in it for hours.",
        "game_withdrawn": "Room K7QX2M has closed: its game (pirate-poker) is no longer offered "
                          "here. The host can open a new room with another game."}


def test_a_new_room_with_a_closed_rooms_code_replaces_its_note(monkeypatch):
    lounge, room = lounge_with_room()
    lounge.close(room, "abandoned")
    monkeypatch.setattr("backend.lounge.new_code", lambda: room.code)
    again = lounge.create_room(OTHER, "tic-tac-toe", "Zoe", public=True)
    assert again.code == room.code and lounge.find(room.code) is again
    lounge.close(again, "host_left")
    with pytest.raises(LoungeError) as err:
        lounge.find(room.code)
    assert err.value.message == f"Room {room.code} has closed: the host closed it."


def test_the_memory_store_lets_notes_past_their_day_go():
    store = MemoryRoomStore()
    store.note_closed(ClosedNote("AAAAAA", "host_left", "tic-tac-toe", now_ms() - NOTE_MS))
    store.note_closed(ClosedNote("BBBBBB", "abandoned", "tic-tac-toe", now_ms()))
    assert store.closed_note("aaaaaa") is None and store.closed_note("bbbbbb").reason == "abandoned"
    assert list(store._notes) == ["BBBBBB"]


def test_a_guest_gets_a_seat_then_the_full_room_makes_spectators():
    _, room = lounge_with_room()
    assert room.attach("c1", GUEST, "Linus", False) == {"seats": [1], "spectator": False}
    assert room.attach("c2", OTHER, "Zoe", False) == {"seats": [], "spectator": True}
    assert room.attach("c3", GUEST, None, True) == {"seats": [1], "spectator": False}
    summary = views.summary(room)
    assert summary["spectators"] == 1 and [s["name"] for s in summary["seats"]] == ["Ada", "Linus"]


def test_start_needs_the_host_enough_seats_and_everyone_ready():
    _, room = lounge_with_room()
    with pytest.raises(LoungeError) as err:
        room.start(HOST)
    assert code_of(err) == "not_ready"
    room.attach("c1", GUEST, "Linus", False)
    with pytest.raises(LoungeError) as err:
        room.start(GUEST)
    assert code_of(err) == "forbidden"
    with pytest.raises(LoungeError) as err:
        room.start(HOST)
    assert code_of(err) == "not_ready"
    room.set_ready(GUEST, True)
    room.start(HOST, seed=1)
    assert room.status == PLAYING and room.round == 1


def test_deliveries_send_each_connection_only_its_seats():
    _, room = lounge_with_room()
    room.attach("c1", GUEST, "Linus", False)
    room.attach("c2", OTHER, "Zoe", True)
    room.set_ready(GUEST, True)
    room.start(HOST, seed=3)
    sent = {(conn, state["seat"]) for conn, state in views.deliveries(room)}
    assert sent == {("c-host", 0), ("c1", 1), ("c2", None)}


def test_the_spectators_log_is_written_once_someone_sees_it_from_the_games_start():
    _, room = lounge_with_room()
    room.attach("c1", GUEST, "Linus", False)
    room.set_ready(GUEST, True)
    room.start(HOST, seed=3)
    for cell, user in ((4, HOST), (0, GUEST)):
        room.move(user, "place", [cell])
        views.update_log(room)
    assert None not in room.game_log.readers and None not in room.log_news
    room.attach("c2", OTHER, "Zoe", True)  # a spectator comes: its lines from the start
    room.move(HOST, "place", [8])
    views.update_log(room)
    expected = ["The game begins", "Ada put X in the centre", "Linus put O in the top left",
                "Ada put X in the bottom right"]
    assert [line["text"] for line in room.game_log.lines[None]] == expected
    assert [line["text"] for line in room.log_news[None]["log"]] == expected[-1:]
    assert room.game_log.lines[None] == room.game_log.lines[0] == room.game_log.lines[1]
    room.detach("c2")  # gone again: the lines go on being written, for whoever comes next
    room.move(GUEST, "place", [2])
    views.update_log(room)
    assert len(room.game_log.lines[None]) == 5


def test_moves_check_seats_and_rules_and_finish_the_game():
    _, room = lounge_with_room()
    room.add_local(HOST, "Sofa")
    room.start(HOST, seed=1)
    with pytest.raises(LoungeError) as err:
        room.move(GUEST, "place", [0])
    assert code_of(err) == "forbidden"
    for cell, seat in ((0, 0), (3, 1), (1, 0), (4, 1), (2, 0)):
        room.move(HOST, "place", [cell], seat)
    assert room.status == FINISHED and room.match.result == {"winner": 0}
    with pytest.raises(LoungeError) as err:
        room.move(HOST, "place", [8], 1)
    assert code_of(err) == "bad_state"
    room.rematch(HOST, seed=2)
    assert room.status == PLAYING and room.match.version == 0 and room.round == 2


def test_a_seat_keeps_its_colour_when_seats_move_and_a_newcomer_takes_the_free_one():
    _, room = lounge_with_room("nine-locks")
    room.attach("c1", GUEST, "Linus", False)
    room.add_bot(HOST, "easy")
    assert [s.colour for s in room.seats] == [0, 1, 2]
    room.remove_seat(HOST, 1, "Linus")
    room.add_local(HOST, "Grace")
    assert [(s.name, s.colour) for s in room.seats] == [("Ada", 0), ("Bot 1 (easy)", 2),
                                                       ("Grace", 1)]
    _, room = lounge_with_room()
    room.add_local(HOST, "Sofa")
    room.start(HOST, seed=1)
    for cell, seat in ((0, 0), (3, 1), (1, 0), (4, 1), (2, 0)):
        room.move(HOST, "place", [cell], seat)
    room.rematch(HOST, seed=2)
    assert [(s.name, s.colour) for s in room.seats] == [("Sofa", 1), ("Ada", 0)]


def test_a_player_gone_in_a_game_keeps_the_seat_away_and_a_rematch_leaves_them_out():
    room = started_with_linus()
    room.detach("c1")
    assert room.expire(GUEST) is False
    assert room.seats[1].away and not room.seats[1].left and room.status == PLAYING
    for cell, seat in ((0, 0), (3, 1), (1, 0), (4, 1), (2, 0)):
        room.apply_seat(seat, "place", [cell])
    with pytest.raises(LoungeError) as err:
        room.rematch(HOST)  # without the player still gone, one seat is too few
    assert err.value.message == "Tic-Tac-Toe needs at least 2 players: Linus lost their connection"
    room.attach("c2", GUEST, None, False)  # back: they stay at the table
    room.rematch(HOST, seed=2)
    assert [s.name for s in room.seats] == ["Linus", "Ada"]


def test_a_player_gone_after_the_result_keeps_the_seat_until_the_rematch_leaves_them_out():
    room = started_with_linus("nine-locks", bot=True)
    play_to_the_end(room)
    room.detach("c1")  # a phone put away while the players talk over the result
    assert room.expire(GUEST) is False
    assert room.seats_of(GUEST) == [1] and not room.seats[1].away  # no turn to play for them
    room.attach("c2", GUEST, None, False)  # back before the rematch: still at the table
    assert room.seats_of(GUEST) == [1]
    room.detach("c2")
    room.expire(GUEST)
    room.rematch(HOST, seed=2)  # gone still: left out, and told why once back
    assert [s.name for s in room.seats] == ["Bot 1 (easy)", "Ada"]
    room.attach("c3", GUEST, None, False)
    assert views.seats_message(room, "c3")["left_out"] is True


def test_a_rematch_too_few_for_says_who_lost_their_connection_after_the_result():
    room = started_with_linus()
    play_to_the_end(room)
    room.detach("c1")
    room.expire(GUEST)
    with pytest.raises(LoungeError) as err:
        room.rematch(HOST)
    assert err.value.message == "Tic-Tac-Toe needs at least 2 players: Linus lost their connection"


def play_to_the_end(room) -> None:
    """The rules' first legal move for whoever may move, until the game is over."""
    for _ in range(2000):
        if room.match.result is not None:
            return
        seat = next(s for s in range(len(room.seats)) if room.match.legal_moves(s))
        move = room.match.legal_moves(seat)[0]
        room.apply_seat(seat, move["move"], move["args"])
    raise AssertionError("the game did not end")


def test_a_player_the_rematch_left_out_is_told_why_when_back():
    room = started_with_linus("nine-locks", bot=True)
    room.detach("c1")
    room.expire(GUEST)
    play_to_the_end(room)
    room.rematch(HOST, seed=2)
    assert [s.name for s in room.seats] == ["Bot 1 (easy)", "Ada"]
    room.attach("c2", GUEST, None, False)
    told = views.seats_message(room, "c2")
    assert told == {"my_seats": [], "spectator": True, "left_game": True, "left_out": True}
    assert views.seats_message(room, "c-host")["left_out"] is False
    play_to_the_end(room)  # in the next game they are a spectator like any other
    room.rematch(HOST, seed=3)
    assert views.seats_message(room, "c2") == {"my_seats": [], "spectator": True,
                                               "left_game": False, "left_out": False}


def test_a_take_back_after_a_bot_played_for_someone_else_says_who_moved():
    room = started_with_linus()
    room.move(HOST, "place", [4])
    room.play_for(1, "place", [0], "timeout")
    with pytest.raises(LoungeError) as err:
        room.undo(HOST)
    assert err.value.message.startswith("Another player has moved since")
    with pytest.raises(LoungeError) as err:
        room.undo(GUEST)
    assert err.value.message == "A bot made that move for you: it cannot be taken back"


def test_a_seat_left_during_play_is_dropped_and_the_host_leaving_closes():
    lounge, room = lounge_with_room("nine-locks")
    room.attach("c1", GUEST, "Linus", False)
    room.add_bot(HOST, "easy")
    room.set_ready(GUEST, True)
    room.start(HOST, seed=5)
    assert room.leave(GUEST) is False
    assert room.seats[1].left and 1 in room.match.ctx["left"]
    assert room.status == PLAYING
    assert room.leave(HOST) is True
    lounge.close(room, "host_left")
    assert lounge.store.get(HOST) is None


def test_expire_does_nothing_to_a_user_who_came_back():
    _, room = lounge_with_room()
    room.attach("c1", GUEST, "Linus", False)
    assert room.detach("c1") == GUEST
    room.attach("c2", GUEST, None, False)
    assert room.expire(GUEST) is False and len(room.seats) == 2


def test_bot_levels_are_checked_and_seats_are_bounded():
    _, room = lounge_with_room()
    with pytest.raises(LoungeError):
        room.add_bot(HOST, "godlike")
    room.add_bot(HOST, "easy")
    with pytest.raises(LoungeError) as err:
        room.add_bot(HOST, "easy")
    assert code_of(err) == "bad_state"


def test_bots_get_names_no_other_bot_at_the_table_has():
    _, room = lounge_with_room("poker99")
    for level in ("hard", "normal", "normal"):
        room.add_bot(HOST, level)
    assert [s.name for s in room.seats[1:]] == ["Bot 1 (hard)", "Bot 2 (normal)", "Bot 3 (normal)"]
    room.remove_seat(HOST, 2)
    room.add_bot(HOST, "easy")
    assert [s.name for s in room.seats[1:]] == ["Bot 1 (hard)", "Bot 3 (normal)", "Bot 2 (easy)"]


def test_a_removal_names_who_the_host_saw_so_a_seat_that_moved_up_is_not_removed():
    _, room = lounge_with_room("poker99")
    room.attach("c1", GUEST, "Linus", False)
    room.attach("c2", OTHER, "Zoe", False)
    room.leave(GUEST)  # Zoe moves up to seat 1 as the host clicks Linus's "Remove"
    with pytest.raises(LoungeError) as err:
        room.remove_seat(HOST, 1, "linus")
    assert code_of(err) == "bad_state" and "seat has changed" in err.value.message
    assert [s.name for s in room.seats] == ["Ada", "Zoe"] and not room.removed
    with pytest.raises(LoungeError) as err:
        room.remove_seat(HOST, 2, "Zoe")  # the last seat, gone as Zoe moved up
    assert code_of(err) == "bad_state"
    room.remove_seat(HOST, 1, "ZOE")
    assert [s.name for s in room.seats] == ["Ada"] and list(room.removed.values()) == ["Zoe"]


def test_a_bot_is_not_named_as_a_player_who_took_a_bot_like_name():
    _, room = lounge_with_room("poker99")
    room.attach("c1", GUEST, "bot 1 (EASY)", False)
    room.attach("c2", OTHER, "Bot 2 (easy)", True)  # watching
    room.add_bot(HOST, "easy")
    assert [s.name for s in room.seats] == ["Ada", "bot 1 (EASY)", "Bot 3 (easy)"]


def test_chat_history_keeps_the_last_hundred():
    lounge, room = lounge_with_room()
    for i in range(130):
        lounge.chat(room, HOST, f"m{i}")
    history = lounge.chat_history(room)
    assert len(history) == 100 and history[0]["text"] == "m30" and history[-1]["id"] == 130


def test_tokens_are_signed_with_the_secret():
    signer = TokenSigner("one", 3600)
    session = signer.new_session()
    assert signer.user_id(session["token"]) == session["user_id"]
    assert TokenSigner("two", 3600).user_id(session["token"]) is None
    for bad in (None, "", session["user_id"], session["token"] + "x", 42, "a" * 600):
        assert signer.user_id(bad) is None
    assert bearer_token("Bearer abc") == "abc" and bearer_token("Basic abc") is None


def test_settings_come_from_the_environment_with_checks():
    config = from_env({"PORT": "8080", "CORS_ORIGINS": "http://a, http://b",
                       "LOUNGE_DEBUG_MATCHES": "0", "HOST_GRACE_SECONDS": "2.5"})
    assert config.PORT == 8080 and config.CORS_ORIGINS == ("http://a", "http://b")
    assert config.HOST_GRACE_SECONDS == 2.5 and not config.LOUNGE_DEBUG_MATCHES
    assert Config().HOST_GRACE_SECONDS == 20 and Config().ASYNC_MODE == "eventlet"
    for bad in ({"PORT": "abc"}, {"ASYNC_MODE": "asyncio"}, {"BOT_DELAY_SECONDS": "-1"}):
        with pytest.raises(ValueError):
            from_env(bad)


def test_rate_limits_allow_a_burst_then_refuse():
    bucket = TokenBucket(rate=0.0, burst=3)
    assert [bucket.take() for _ in range(5)] == [True, True, True, False, False]
    keyed = KeyedLimiter(rate=0.0, burst=1, max_keys=2)
    assert keyed.take("a") and not keyed.take("a") and keyed.take("b")


def test_text_comes_in_as_plain_trimmed_text():
    chat = SOCKET_SCHEMAS["chat"].load({"text": "  a\x1b[31m red\nline\x00 é 👍 "})
    assert chat["text"] == "a[31m red\nline é 👍"
    join = SOCKET_SCHEMAS["join"].load({"room": " k7mpq2 ", "name": "Bo\nb\x07"})
    assert join == {"room": "k7mpq2", "name": "Bob", "spectate": False}
    with pytest.raises(ValidationError):
        SOCKET_SCHEMAS["chat"].load({"text": "\x00\x01 "})


PAYLOADS = [  # (event, payload): accepted and refused, some differing only in a JSON type
    ("move", {"move": "place", "args": [4]}), ("move", {"move": "place", "args": [4], "seat": 1}),
    ("move", {"args": [4], "move": "place"}), ("move", {"move": "place", "args": ["4"]}),
    ("move", {"move": "place", "args": [4.0]}), ("move", {"move": "place", "args": [True]}),
    ("move", {"move": "place", "seat": True}), ("move", {"move": "place", "seat": 1.0}),
    ("move", {"move": "", "args": []}), ("move", {"move": "x" * 33}),
    ("move", {"move": "place", "args": [1] * 9}), ("move", {"move": "place", "extra": 1}),
    ("chat", {"text": " hi\u200b "}), ("chat", {"text": "\u200b"}),
    ("join", {"room": "K7MPQ2", "name": "Bo"}), ("join", {"room": "K7MPQ2", "spectate": 1}),
    ("ready", {"ready": True}), ("ready", {"ready": 1}), ("rematch", {}), ("rematch", {"x": 1}),
]


def load_or_refusal(load, event: str, payload: dict) -> object:
    try:
        return load(event, payload)
    except ValidationError as exc:
        return ("refused", exc.messages)


def test_a_remembered_payload_gets_exactly_what_its_schema_gives():
    remembered = {event: Remembered(schema) for event, schema in SOCKET_SCHEMAS.items()}

    def schema(event: str, payload: dict) -> dict:
        return SOCKET_SCHEMAS[event].load(payload)

    def memo(event: str, payload: dict) -> dict:
        return remembered[event].load(payload, OrjsonCodec.dumps(payload))

    for _ in range(3):  # first seen, then remembered (or refused again)
        for event, payload in PAYLOADS:
            assert load_or_refusal(memo, event, payload) == load_or_refusal(schema, event,
                                                                             payload)
    accepted = [p for e, p in PAYLOADS if not isinstance(load_or_refusal(schema, e, p), tuple)]
    assert sum(len(r.accepted) for r in remembered.values()) == len(accepted)


def test_each_caller_gets_its_own_copy_and_the_memory_is_bounded():
    moves = Remembered(SOCKET_SCHEMAS["move"])
    payload = {"move": "place", "args": [4]}
    first = moves.load(payload, OrjsonCodec.dumps(payload))
    first["args"].append(5)
    first["move"] = "changed"
    assert moves.load(payload, OrjsonCodec.dumps(payload)) == {
        "move": "place", "args": [4], "seat": None}
    for cell in range(2 * Remembered.LIMIT + 10):
        payload = {"move": "place", "args": [cell]}
        assert moves.load(payload, OrjsonCodec.dumps(payload))["args"] == [cell]
        assert len(moves.accepted) <= Remembered.LIMIT
    last = 2 * Remembered.LIMIT + 9  # forgotten at the limit, then filled again
    assert f'{{"move":"place","args":[{last}]}}' in moves.accepted
    assert '{"move":"place","args":[0]}' not in moves.accepted
    long = {"move": "place", "args": ["x" * 32] * 6}  # accepted, but too long to keep
    assert moves.load(long, OrjsonCodec.dumps(long))["args"] == ["x" * 32] * 6
    assert OrjsonCodec.dumps(long) not in moves.accepted


def test_slapjack_times_the_turn_never_a_slap():
    """Issue 13: a turn time runs for the seat to turn up a card; the moves a bot may make
    for them are that turn only, never a slap; a bot's own seat is never timed."""
    _, room = lounge_with_room("slapjack")
    room.attach("c-guest", GUEST, "Linus", False)
    room.set_ready(GUEST, True)
    room.add_bot(HOST, "easy")
    room.set_turn_time(HOST, 30, (30, 60, 120))
    room.start(HOST, seed=3)
    seat = room.match.ctx["current"]
    assert timed_seat(room) == seat and room.match.legal_moves(seat)
    assert {m["move"] for m in turn_moves(room, seat)} == {"play"}
    assert any(m["move"] == "slap" for m in room.match.legal_moves(seat))
    while room.match.ctx["current"] != 2:  # the bot's turn is not timed
        room.apply_seat(room.match.ctx["current"], "play", [])
    assert timed_seat(room) is None
    with pytest.raises(LoungeError) as err:
        room.set_turn_time(GUEST, 60, (30, 60, 120))
    assert code_of(err) == "forbidden"
    with pytest.raises(LoungeError) as err:
        room.set_turn_time(HOST, 45, (30, 60, 120))
    assert code_of(err) == "bad_request"


def test_two_stand_ins_in_a_row_make_a_seat_away_and_a_move_ends_it():
    _, room = lounge_with_room()
    room.attach("c-guest", GUEST, "Linus", False)
    room.set_ready(GUEST, True)
    room.start(HOST, seed=1)
    room.play_for(0, "place", [4], "timeout")
    assert room.ran_out(0) is False and not room.seats[0].away
    room.move(GUEST, "place", [0])
    room.play_for(0, "place", [8], "timeout")
    assert room.ran_out(0) is True and room.seats[0].away
    assert room.stand_ins == {1: "timeout", 3: "timeout"}
    room.move(GUEST, "place", [1])
    room.play_for(0, "place", [2], "away")
    assert room.stand_ins[5] == "away"
    room.move(GUEST, "place", [3])
    room.move(HOST, "place", [5])  # the player moves: no longer away
    assert not room.seats[0].away and room.timeouts == {}


def test_rooms_and_errors_load_no_web_framework_and_every_code_has_an_http_status():
    assert set(STATUS) == CODES
    check = "import sys, backend.rooms; print(sorted({'flask', 'werkzeug'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_an_easy_bot_slaps_more_slowly_than_a_hard_one():
    """A person reacts to a jack in 0.25 to 0.5 s: an easy bot as quick as the others won them
    all. Its reaction is twice BOT_SLAP_DELAY_SECONDS, a hard one's 0.8 of it (each varied)."""
    _, room = lounge_with_room("slapjack")
    room.add_bot(HOST, "easy")
    room.add_bot(HOST, "hard")
    config = Config(BOT_SLAP_DELAY_SECONDS=0.5, ASYNC_MODE="threading")
    runner = BotRunner(Runtime.threads(), config, lambda room: None)
    easy = [runner._pause(room, 1, "slap") for _ in range(200)]
    hard = [runner._pause(room, 2, "slap") for _ in range(200)]
    assert min(easy) >= 0.7 and max(easy) <= 1.4 and min(hard) >= 0.28 and max(hard) <= 0.56
    assert runner._pause(room, 1, "play") == runner.config.BOT_DELAY_SECONDS  # a turn: no reflex
