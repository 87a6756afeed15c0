"""Replays (``shared_rules.replay_document``): the log lines of a stored match, with the bot's
stand-ins said once a turn."""

from __future__ import annotations

from shared_rules import new_match, replay_document

TIME_RAN_OUT = "Ada’s time ran out: a bot played for them"


def stored(match, actors: dict[int, str]) -> dict:
    """A finished-or-not match as the history store gives it (``actors``: version -> why a bot
    played it)."""
    log = [{**entry, "actor": actors.get(version)}
           for version, entry in enumerate(match.log_tail(match.version), start=1)]
    return {"id": "m1", "game": match.game.slug, "round": 1, "room_id": "r1",
            "num_players": match.num_players, "seed": match.seed, "log": log,
            "players": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bob"}],
            "result": match.result, "started": 0, "finished": None}


def test_a_turn_the_bot_played_in_several_steps_is_said_once():
    match = new_match("nine-locks", 2, 1)
    match = match.apply(0, "pick_up")
    match = match.apply(0, "unlock", match.legal_moves(0)[0]["args"][0])
    assert match.ctx["current"] == 1
    first = match.legal_moves(1)[0]
    match = match.apply(1, first["move"], *first["args"])
    replay = replay_document(stored(match, {1: "timeout", 2: "timeout"}))
    said = [line for step in replay["steps"] for line in step["log"]]
    assert said.count(TIME_RAN_OUT) == 1 and replay["steps"][1]["log"][0] == TIME_RAN_OUT
    assert [step["actor"] for step in replay["steps"][1:]] == ["timeout", "timeout", "player"]
