"""The OpenAPI 3 document of the REST API (the Socket.IO part is in docs/protocol.md)."""

from __future__ import annotations

from functools import cache

from .history import OPENAPI_PATHS as HISTORY_PATHS


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> dict:
    return {str(s): _json(_ref("Error"), "An error") for s in statuses}


SCHEMAS: dict[str, dict] = {
    "Error": {"type": "object", "required": ["error"], "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}},
    "Session": {"type": "object", "required": ["user_id", "token"], "properties": {
        "user_id": {"type": "string", "format": "uuid"}, "token": {"type": "string"}}},
    "Game": {"type": "object", "properties": {
        "slug": {"type": "string"}, "title": {"type": "string"}, "summary": {"type": "string"},
        "min_players": {"type": "integer"}, "max_players": {"type": "integer"},
        "rules": {"type": "string", "description": "markdown"}, "undoable": {"type": "boolean"},
        "real_time": {"type": "boolean", "description": "some move may be made by anyone, "
                                                        "at any moment"},
        "private": {"type": "array", "items": {"type": "string"},
                    "description": "view keys that hold each seat's own private cards"},
        "moves": {"type": "array", "items": _ref("MoveInfo")}}},
    "MoveInfo": {"type": "object", "properties": {
        "name": {"type": "string"}, "args": {"type": "array", "items": {"type": "string"}},
        "min_args": {"type": "integer"},
        "words": {"type": "array", "items": {"type": "string"},
                  "description": "templates saying the move (docs/protocol.md)"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}},
    "Seat": {"type": "object", "properties": {
        "seat": {"type": "integer"}, "name": {"type": "string"},
        "kind": {"type": "string", "enum": ["human", "bot", "local"]},
        "user_id": {"type": "string", "nullable": True},
        "level": {"type": "string", "nullable": True}, "connected": {"type": "boolean"},
        "ready": {"type": "boolean"}, "left": {"type": "boolean"},
        "away": {"type": "boolean", "description": "a bot plays this seat's turns for now"},
        "colour": {"type": "integer", "description": "the seat's avatar colour"}}},
    "Room": {"type": "object", "properties": {
        "id": {"type": "string", "format": "uuid"},
        "code": {"type": "string", "pattern": "^[A-HJKMNP-Z2-9]{6}$"},
        "game": {"type": "string"}, "title": {"type": "string"},
        "min_players": {"type": "integer"}, "max_players": {"type": "integer"},
        "host": {"type": "string", "format": "uuid"}, "public": {"type": "boolean"},
        "status": {"type": "string", "enum": ["waiting", "playing", "finished"]},
        "seats": {"type": "array", "items": _ref("Seat")},
        "spectators": {"type": "integer"}, "created": {"type": "integer"},
        "round": {"type": "integer"},
        "removed": {"type": "array", "description": "players the host removed: they only watch",
                    "items": {"type": "object", "properties": {
                        "user_id": {"type": "string"}, "name": {"type": "string"}}}},
        "turn_seconds": {"type": "integer", "description": "the turn time (0: none)"},
        "closes_at": {"type": "integer", "nullable": True,
                      "description": "the host is gone: when the room closes (ms)"},
        "closes_in_ms": {"type": "integer", "nullable": True},
        "notice": {"type": "string", "nullable": True,
                   "description": "why the room is back in its lobby"}}},
    "CreateRoom": {"type": "object", "required": ["game", "name"],
                   "additionalProperties": False, "properties": {
        "game": {"type": "string"}, "name": {"type": "string", "minLength": 1, "maxLength": 32},
        "public": {"type": "boolean", "default": False}}},
}


@cache
def openapi_document() -> dict:
    """The whole document, built once."""
    bearer = [{"bearer": []}]
    paths = {
        "/api/session": {"post": {"summary": "A new identity", "responses": {
            "201": _json(_ref("Session"), "The new user id and its token"),
            **_errors(429)}}},
        "/api/games": {"get": {"summary": "The games and bot levels", "responses": {
            "200": _json({"type": "object", "properties": {
                "games": {"type": "array", "items": _ref("Game")},
                "bot_levels": {"type": "array", "items": {"type": "string"}},
                "turn_times": {"type": "array", "items": {"type": "integer"}}}}, "The games")}}},
        "/api/rooms": {
            "get": {"summary": "Public rooms waiting for players, and those playing", "responses": {
                "200": _json({"type": "object", "properties": {
                    "rooms": {"type": "array", "items": _ref("Room")},
                    "playing": {"type": "array", "items": _ref("Room")}}}, "The rooms")}},
            "post": {"summary": "Open a room (you are its host, in seat 0)", "security": bearer,
                     "requestBody": {"required": True, "content": {
                         "application/json": {"schema": _ref("CreateRoom")}}},
                     "responses": {"201": _json(_ref("Room"), "The new room"),
                                   **_errors(400, 401, 409, 429)}}},
        "/api/rooms/{key}": {"get": {
            "summary": "One room by its code (any case) or id",
            "parameters": [{"name": "key", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": {"200": _json(_ref("Room"), "The room"), **_errors(404)}}},
        "/api/health": {"get": {"summary": "Liveness and counts", "responses": {
            "200": _json({"type": "object", "properties": {
                "status": {"type": "string"}, "rooms": {"type": "integer"},
                "connections": {"type": "integer"}, "async_mode": {"type": "string"},
                "bot_moves": {"type": "integer"}, "bot_searches": {"type": "integer"},
                "replays_computed": {"type": "integer"}}},
                "The server is up")}}},
        "/api/openapi.json": {"get": {"summary": "This document", "responses": {
            "200": {"description": "OpenAPI 3 document"}}}},
        **HISTORY_PATHS,
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Gaming Lounge", "version": "1.0",
                 "description": "REST part of the lounge; Socket.IO events: docs/protocol.md"},
        "paths": paths,
        "components": {"schemas": SCHEMAS, "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"}}},
    }
