"""The REST blueprint under /api: identities, games, rooms, health."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from shared_rules import GAMES, LEVELS, game_facts

from .auth import bearer_token
from .errors import SERVER_FAULT, LoungeError, error_body, validation_message
from .openapi import openapi_document
from .schemas import CREATE_ROOM
from .service import Caller

if TYPE_CHECKING:
    from .app import LoungeContext

api = Blueprint("api", __name__, url_prefix="/api")

STATUS: dict[str, int] = {
    "bad_request": 400,
    "unknown_event": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "already_hosting": 409,
    "already_in_room": 409,
    "bad_state": 409,
    "not_ready": 409,
    "not_in_room": 409,
    "payload_too_large": 413,
    "invalid_move": 422,
    "rate_limited": 429,
    "internal": 500,
}

HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 413: "payload_too_large", 429: "rate_limited"}


def lounge_context() -> LoungeContext:
    """The app's lounge parts (see :class:`backend.app.LoungeContext`)."""
    return current_app.extensions["lounge"]


@api.before_request
def limit_writes() -> None:
    """Every write counts against the client address's REST rate limit."""
    writing = request.method in ("POST", "PUT", "PATCH", "DELETE")
    if writing and not lounge_context().rest_limiter.take(request.remote_addr or "?"):
        raise LoungeError("rate_limited", "Too many requests: try again in a minute")


def current_user() -> str:
    """The user id of the request's bearer token; unauthorized without a valid one."""
    token = bearer_token(request.headers.get("Authorization"))
    user_id = lounge_context().signer.user_id(token)
    if user_id is None:
        raise LoungeError("unauthorized", "Sign in first: send Authorization: Bearer <token>")
    return user_id


def json_body() -> dict:
    """The request's JSON object; bad_request for anything else."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    # A chunked body says no length: Werkzeug stops reading it at the limit, and the JSON cut
    # off there would be called malformed.
    if request.content_length is None and len(request.get_data()) >= limit:
        raise LoungeError("payload_too_large", f"The request body is too large: at most "
                                               f"{limit // 1024} KiB")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise LoungeError("bad_request", "The request body must be a JSON object")
    return data


@api.post("/session")
def create_session() -> ResponseReturnValue:
    """A new identity: 201 with its user id and token. Each client address may make only a few
    a minute, so that minting identities does not get round the per-identity limits."""
    ctx = lounge_context()
    if not ctx.session_limiter.take(request.remote_addr or "?"):
        raise LoungeError("rate_limited", "Too many new players from your address: try again "
                                          "in a minute")
    return jsonify(ctx.signer.new_session()), 201


@api.get("/games")
def list_games() -> ResponseReturnValue:
    """Every game with what clients need to know of it (its players, private hands, undo,
    moves and how to say them, rules text), the bot levels and the turn times a host may
    set."""
    games = [game_facts(g) for g in GAMES.values()]
    turn_times = list(lounge_context().config.turn_times)
    return jsonify({"games": games, "bot_levels": list(LEVELS), "turn_times": turn_times})


@api.post("/rooms")
def create_room() -> ResponseReturnValue:
    """Open a room hosted by the caller, who sits in seat 0."""
    user_id = current_user()
    try:
        data = CREATE_ROOM.load(json_body())
    except ValidationError as exc:
        raise LoungeError("bad_request", validation_message(exc.messages)) from None
    summary = lounge_context().router.create_room(user_id, data["game"], data["name"],
                                                  data["public"])
    return jsonify(summary), 201


@api.get("/rooms")
def list_rooms() -> ResponseReturnValue:
    """Public rooms: those still waiting for players, and those playing, to watch."""
    router = lounge_context().router
    return jsonify({"rooms": router.public_rooms(),
                    "playing": router.public_rooms(waiting=False)})


@api.get("/rooms/<key>")
def get_room(key: str) -> ResponseReturnValue:
    """One room by its code (any case) or its id."""
    return jsonify(lounge_context().router.room_summary(key.strip()[:64]))


@api.get("/health")
def health() -> ResponseReturnValue:
    """Liveness and a few counts."""
    ctx = lounge_context()
    body = {"status": "ok", "rooms": ctx.lounge.store.count(),
            "connections": len(ctx.sockets.connections), "async_mode": ctx.config.ASYNC_MODE,
            "bot_moves": ctx.service.bots.moves,
            "bot_searches": sum(ctx.service.bots.searching.values()),
            "replays_computed": ctx.replays.computed}
    if ctx.cluster is not None:
        body["cluster"] = ctx.cluster.health()
        if ctx.cluster.stopping:  # handing its rooms over: balancers send nobody new here
            return jsonify({**body, "status": "stopping"}), 503
    return jsonify(body)


@api.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    """The OpenAPI document of this API."""
    return jsonify(openapi_document())


@api.get("/debug/rooms/<key>/match")
def debug_match(key: str) -> ResponseReturnValue:
    """The full match, seed and log included: for tests only, off unless configured."""
    ctx = lounge_context()
    if not ctx.config.LOUNGE_DEBUG_MATCHES:
        raise LoungeError("not_found", "There is no such page")
    room_id = ctx.router.resolve(key[:64])
    answer = ctx.router.dispatch("debug_match", Caller("debug", "", room_id), {})
    return current_app.response_class(answer["match"], mimetype="application/json")


METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@api.route("/<path:anything>", methods=METHODS)
def unknown(anything: str) -> ResponseReturnValue:
    """Any other /api path or method: a JSON method_not_allowed (with ``Allow``) for an
    endpoint asked with a method it does not take, else not_found."""
    allowed = endpoint_methods(request.path)
    if allowed:
        raise MethodNotAllowed(allowed, f"{request.path[:60]} takes {' or '.join(allowed)}, "
                                        f"not {request.method}")
    raise LoungeError("not_found", f"There is no API endpoint /api/{anything[:60]}")


def endpoint_methods(path: str) -> list[str]:
    """The methods that reach a real endpoint at ``path`` (this catch-all's aside)."""
    adapter = current_app.url_map.bind_to_environ(request.environ)
    allowed = []
    for method in METHODS:
        try:
            endpoint, _ = adapter.match(path, method=method)
        except HTTPException:
            continue
        if endpoint != "api.unknown":
            allowed.append(method)
    return allowed


def error_response(code: str, message: str) -> tuple[Response, int]:
    """A Flask response for an error code, with its HTTP status."""
    return jsonify(error_body(code, message)), STATUS.get(code, 500)


def register_error_handlers(app: Flask) -> None:
    """JSON errors for everything, including Flask's own 404/405 and unexpected crashes."""

    @app.errorhandler(LoungeError)
    def _lounge(exc: LoungeError):
        return error_response(exc.code, exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        code = HTTP_CODES.get(exc.code or 500, "bad_request")
        response = jsonify(error_body(code, exc.description or exc.name))
        if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
            response.headers["Allow"] = ", ".join(exc.valid_methods)
        return response, exc.code or 500

    @app.errorhandler(Exception)
    def _crash(exc: Exception):
        app.logger.exception("unhandled error")
        return error_response("internal", SERVER_FAULT)
