"""Error codes and the one JSON shape every error has, for any transport (REST's statuses are in
:mod:`backend.api`)."""

from __future__ import annotations

CODES: frozenset[str] = frozenset((
    "bad_request", "unknown_event", "unauthorized", "forbidden", "not_found",
    "method_not_allowed", "already_hosting", "already_in_room", "bad_state", "not_ready",
    "not_in_room", "payload_too_large", "invalid_move", "rate_limited", "internal",
))

#: The sentence of every ``internal`` error: the details go to the log, never to the client.
SERVER_FAULT = "Something went wrong on the server"
#: The start of a ``not_found`` for a room code or id: ``f"{NO_ROOM} {key!r}"``.
NO_ROOM = "There is no room"


class LoungeError(Exception):
    """An error for the client: a code from :data:`CODES` and a sentence for the player."""

    def __init__(self, code: str, message: str) -> None:
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message


def error_body(code: str, message: str) -> dict:
    """The JSON body of an error."""
    return {"error": {"code": code, "message": message}}


# Field names come from the client (unknown fields are named too): the sentence stays short.
MAX_PROBLEMS = 5
MAX_NAME = 40


def validation_message(messages: object) -> str:
    """One readable sentence from marshmallow's nested error messages."""
    if isinstance(messages, dict):
        parts = []
        for key, value in messages.items():
            inner = validation_message(value)
            name = str(key) if len(str(key)) <= MAX_NAME else str(key)[:MAX_NAME] + "…"
            parts.append(inner if key == "_schema" else f"{name}: {inner}")
        if len(parts) > MAX_PROBLEMS:
            parts[MAX_PROBLEMS:] = [f"and {len(parts) - MAX_PROBLEMS} more"]
        return "; ".join(parts)
    if isinstance(messages, list):
        return " ".join(validation_message(m) for m in messages)
    return str(messages)
