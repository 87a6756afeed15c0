"""The history API: finished games, to watch again move by move as a spectator.

A finished game never changes, so its replay is computed once (off the event loop) and kept in
a small cache bounded in entries and bytes; both endpoints are rate-limited per client address.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable

import orjson
from flask import Blueprint, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from shared_rules import GAMES, replay_document

from .errors import LoungeError
from .store import HistoryStore

history = Blueprint("history", __name__, url_prefix="/api/matches")
MATCH_ID = re.compile(r"[0-9a-f]{16}")
ROOM_ID = re.compile(r"[0-9a-fA-F-]{1,64}")
LIMIT = re.compile(r"[0-9]{1,3}")  # ASCII digits only, and never a 5,000-digit int() to parse
SINCE = re.compile(r"[0-9]{1,15}")
NO_HISTORY = "This lounge keeps no history: it runs without a database"


class ReplayCache:
    """Replays of finished games as JSON bytes, by match id: the most recently used kept, at
    most ``entries`` of them and ``max_bytes`` in all (one bigger than that is not kept)."""

    def __init__(self, entries: int, max_bytes: int) -> None:
        self.entries = entries
        self.max_bytes = max_bytes
        self.computed = 0  # replays computed by this process (health shows it)
        self._docs: OrderedDict[str, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, match_id: str, compute: Callable[[], bytes | None]) -> bytes | None:
        """The replay of ``match_id``: kept, or computed now (None: there is no such game)."""
        with self._lock:
            body = self._docs.get(match_id)
            if body is not None:
                self._docs.move_to_end(match_id)
                return body
        body = compute()
        if body is None:
            return None
        with self._lock:
            self.computed += 1
            if len(body) <= self.max_bytes and match_id not in self._docs:
                self._docs[match_id] = body
                self._bytes += len(body)
                while len(self._docs) > self.entries or self._bytes > self.max_bytes:
                    self._bytes -= len(self._docs.popitem(last=False)[1])
        return body

    def __len__(self) -> int:
        return len(self._docs)


def _store() -> HistoryStore:
    store = current_app.extensions["lounge"].history
    if store is None:
        raise LoungeError("not_found", NO_HISTORY)
    return store


@history.before_request
def limit_reads() -> None:
    """Replays are the heaviest reads: each client address has its own budget of them."""
    if not current_app.extensions["lounge"].replay_limiter.take(request.remote_addr or "?"):
        raise LoungeError("rate_limited", "Too many replays asked for: try again in a minute")


@history.get("")
def list_matches() -> ResponseReturnValue:
    """The finished games of a room (``?room=<room id>``, and ``since=<ms>`` for one of its
    host's rooms: the games started since it opened), newest first."""
    room_id = request.args.get("room", "")
    if not ROOM_ID.fullmatch(room_id):
        raise LoungeError("bad_request", "Say which room: /api/matches?room=<room id>")
    limit = request.args.get("limit", "20")
    if not LIMIT.fullmatch(limit) or not 1 <= int(limit) <= 100:
        raise LoungeError("bad_request", "limit must be a whole number from 1 to 100")
    since = request.args.get("since", "0")
    if not SINCE.fullmatch(since):
        raise LoungeError("bad_request", "since must be a time in milliseconds (a whole number)")
    return jsonify({"matches": _store().finished_matches(room_id.lower(), int(limit),
                                                         int(since))})


@history.get("/<match_id>")
def get_match(match_id: str) -> ResponseReturnValue:
    """One finished game: players, result, and every step with the spectator's view."""
    store = _store()
    ctx = current_app.extensions["lounge"]

    def compute() -> bytes | None:
        stored = store.finished_match(match_id)
        if stored is None:
            return None
        if stored["game"] not in GAMES:  # an update removed or renamed its game
            raise LoungeError("not_found", f"This was a game of {stored['game']}, which the "
                                           "lounge no longer offers: it cannot be watched again")
        # a long game's replay takes a while: on a native thread, the event loop serves on
        return ctx.service.bots.offload(_replay_bytes, stored)

    body = ctx.replays.get(match_id, compute) if MATCH_ID.fullmatch(match_id) else None
    if body is None:
        raise LoungeError("not_found", f"There is no finished game {match_id[:20]!r}")
    return Response(body, mimetype="application/json")


def _replay_bytes(stored: dict) -> bytes:
    return orjson.dumps(replay_document(stored))


_ERROR = {"$ref": "#/components/schemas/Error"}
_SUMMARY = {"type": "object", "properties": {
    "id": {"type": "string"}, "room_id": {"type": "string"}, "round": {"type": "integer"},
    "game": {"type": "string"}, "num_players": {"type": "integer"},
    "players": {"type": "array", "items": {"type": "object"}},
    "result": {"type": "object", "nullable": True}, "moves": {"type": "integer"},
    "started": {"type": "integer"}, "finished": {"type": "integer"}}}
_STEP = {"type": "object", "properties": {
    "version": {"type": "integer"}, "seat": {"type": "integer", "nullable": True},
    "move": {"type": "string", "nullable": True}, "args": {"type": "array", "items": {}},
    "actor": {"type": "string", "enum": ["player", "timeout", "away", "gone"],
              "description": "who made the move: its player, or a bot for them (not step 0)"},
    "view": {"type": "object", "description": "the spectator's view after this step"},
    "log": {"type": "array", "items": {"type": "string"},
            "description": "the spectators' game log lines of this step"}}}


def _answer(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


OPENAPI_PATHS = {
    "/api/matches": {"get": {
        "summary": "The finished games of a room (its host's id), newest first",
        "parameters": [
            {"name": "room", "in": "query", "required": True, "schema": {"type": "string"}},
            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                        "maximum": 100, "default": 20}},
            {"name": "since", "in": "query", "schema": {"type": "integer", "minimum": 0,
                                                        "default": 0},
             "description": "Only games started then or later (ms): one room's, by its "
                            "created time"}],
        "responses": {
            "200": _answer({"type": "object", "properties": {
                "matches": {"type": "array", "items": _SUMMARY}}}, "The games"),
            "400": _answer(_ERROR, "No room given, or a bad limit or since"),
            "404": _answer(_ERROR, "This lounge keeps no history"),
            "429": _answer(_ERROR, "Too many history reads from this address")}}},
    "/api/matches/{id}": {"get": {
        "summary": "A finished game to watch again: every step with the spectator's view",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {
            "200": _answer({"allOf": [_SUMMARY, {"type": "object", "properties": {
                "title": {"type": "string"},
                "steps": {"type": "array", "items": _STEP}}}]}, "The replay"),
            "404": _answer(_ERROR, "No such finished game"),
            "429": _answer(_ERROR, "Too many history reads from this address")}}},
}
