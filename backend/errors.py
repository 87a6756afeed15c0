"""Error codes and the one JSON shape every error has."""

from __future__ import annotations

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

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


class LoungeError(Exception):
    """An error for the client: a code from :data:`STATUS` and a sentence for the player."""

    def __init__(self, code: str, message: str) -> None:
        if code not in STATUS:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message


def error_body(code: str, message: str) -> dict:
    """The JSON body of an error."""
    return {"error": {"code": code, "message": message}}


def error_response(code: str, message: str) -> tuple[Response, int]:
    """A Flask response for an error code, with its HTTP status."""
    return jsonify(error_body(code, message)), STATUS.get(code, 500)


def validation_message(messages: object) -> str:
    """One readable sentence from marshmallow's nested error messages."""
    if isinstance(messages, dict):
        parts = []
        for key, value in messages.items():
            inner = validation_message(value)
            parts.append(inner if key == "_schema" else f"{key}: {inner}")
        return "; ".join(parts)
    if isinstance(messages, list):
        return " ".join(validation_message(m) for m in messages)
    return str(messages)


def register_error_handlers(app: Flask) -> None:
    """JSON errors for everything, including Flask's own 404/405 and unexpected crashes."""

    @app.errorhandler(LoungeError)
    def _lounge(exc: LoungeError):
        return error_response(exc.code, exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException):
        code = HTTP_CODES.get(exc.code or 500, "bad_request")
        return jsonify(error_body(code, exc.description or exc.name)), exc.code or 500

    @app.errorhandler(Exception)
    def _crash(exc: Exception):
        app.logger.exception("unhandled error")
        return error_response("internal", "Something went wrong on the server")
