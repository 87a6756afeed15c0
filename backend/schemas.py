"""Marshmallow schemas for every payload that comes in, REST and Socket.IO.

Unknown fields are refused (marshmallow's default), so no payload can name the acting user
(``allow`` names the removed user it lets back, never who is asking).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

NAME_LENGTH = validate.Length(min=1, max=32)
#: Removed from every text: control and format characters (bidi overrides and isolates, zero
#: width spaces and joiners, the soft hyphen, the byte-order mark...), line and paragraph
#: separators, and the invisible Hangul fillers and Braille blank, which could hide or reorder
#: what others read.
STRIPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
INVISIBLE = frozenset("\u034f\u115f\u1160\u2800\u3164\uffa0")
#: Combining marks kept on one character: more than any script stacks, fewer than it takes to
#: pile accents over the lines above and below (the rest of a run is dropped).
MAX_MARKS = 4
CHAT_LENGTH = validate.Length(min=1, max=500)
ARG_TEXT_MAX = 32
ARG_INT_LIMIT = 10**9
MAX_ARGS = 8


class Trimmed(fields.String):
    """Plain text: control, format and invisible characters removed (``keep`` names the ones
    allowed, e.g. a chat message's line breaks), then surrounding whitespace, before it is
    validated."""

    def __init__(self, keep: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.keep = keep

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not text.isprintable() or not INVISIBLE.isdisjoint(text):
            text = "".join(c for c in text if c in self.keep or (
                unicodedata.category(c) not in STRIPPED_CATEGORIES and c not in INVISIBLE))
        if not text.isascii():
            text = few_marks(text)
        return text.strip()


def few_marks(text: str) -> str:
    """The text with at most :data:`MAX_MARKS` combining marks on any one character."""
    kept, run = [], 0
    for c in text:
        run = run + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if run <= MAX_MARKS:
            kept.append(c)
    return "".join(kept)


class StrictInt(fields.Integer):
    """A whole number that must arrive as one: no strings, floats or booleans."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise ValidationError("Not a valid integer.")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBool(fields.Boolean):
    """true or false only (marshmallow would also take "yes", 1, ...)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError("Not a valid boolean.")
        return value


class MoveArgs(fields.Field):
    """A move's arguments: at most MAX_ARGS, each a short text or a whole number. Checked in
    one pass: marshmallow's List runs a whole field's deserialisation for each item, and was
    a fifth of a move's validation."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> list:
        if not isinstance(value, list):
            raise ValidationError("Not a valid list.")
        errors = {i: [error] for i, arg in enumerate(value) if (error := _arg_error(arg))}
        if errors:
            raise ValidationError(errors)  # read as "args: 0: ..." (errors.validation_message)
        if len(value) > MAX_ARGS:
            raise ValidationError(f"Longer than maximum length {MAX_ARGS}.")
        return value


def _arg_error(arg: Any) -> str | None:
    """What is wrong with one move argument, if anything."""
    kind = type(arg)
    if kind is int:
        return "That number is too large." if abs(arg) > ARG_INT_LIMIT else None
    if kind is str:
        return "That text is too long." if len(arg) > ARG_TEXT_MAX else None
    return "A move argument is a text or a whole number."


class CreateRoomSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64))
    name = Trimmed(required=True, validate=NAME_LENGTH)
    public = StrictBool(load_default=False)


class EmptySchema(Schema):
    """Events that take no fields: ``leave``, ``start``, ``rematch``."""


class JoinSchema(Schema):
    room = Trimmed(required=True, validate=validate.Length(min=1, max=64))
    name = Trimmed(load_default=None, validate=NAME_LENGTH)
    spectate = StrictBool(load_default=False)


class ChatSchema(Schema):
    text = Trimmed(required=True, validate=CHAT_LENGTH, keep="\n")


class AllowSchema(Schema):
    user_id = fields.String(required=True, validate=validate.Length(min=1, max=64))


class ReadySchema(Schema):
    ready = StrictBool(required=True)


class AddBotSchema(Schema):
    level = fields.String(required=True, validate=validate.Length(min=1, max=32))


class AddLocalSchema(Schema):
    name = Trimmed(required=True, validate=NAME_LENGTH)


class SeatSchema(Schema):
    seat = StrictInt(required=True, validate=validate.Range(min=0, max=63))


class RemoveSeatSchema(SeatSchema):
    # The name the host saw in that seat: seats move up when a player leaves before the start.
    name = fields.String(load_default=None, validate=validate.Length(min=1, max=64))


class MoveSchema(Schema):
    move = fields.String(required=True, validate=validate.Length(min=1, max=32))
    args = MoveArgs(load_default=list)
    seat = StrictInt(load_default=None, validate=validate.Range(min=0, max=63))


class TurnTimeSchema(Schema):
    seconds = StrictInt(required=True, validate=validate.Range(min=0, max=3600))


class UndoSchema(Schema):
    seat = StrictInt(load_default=None, validate=validate.Range(min=0, max=63))


class Remembered:
    """A schema that remembers the payloads it accepted, by their JSON text.

    A schema here is a pure function of the payload, and one JSON text is one payload, so a
    text accepted before gets the same result without marshmallow's pass over its fields
    (about a tenth of a move's cost in the server; a game's moves repeat the same few
    payloads). Refused payloads are not kept: they are checked again each time. Only short
    texts are kept, at most LIMIT a schema (all forgotten when it is reached: the few a game
    repeats come back at once); each caller gets its own copy of the result."""

    LIMIT = 512
    LONGEST = 200  # characters of a payload's text worth keeping (a move's is about 40)

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.accepted: dict[str, dict] = {}

    def load(self, data: dict, text: str) -> dict:
        """``data`` validated (a ValidationError if refused); ``text`` is its JSON text."""
        result = self.accepted.get(text)
        if result is None:
            result = self.schema.load(data)
            if len(text) <= self.LONGEST:
                if len(self.accepted) >= self.LIMIT:
                    self.accepted.clear()  # at once, even with another thread here
                self.accepted[text] = result
        return {key: list(value) if type(value) is list else value
                for key, value in result.items()}


#: Every Socket.IO event the lounge takes, with its payload's schema: the one table of events
#: (the service's :data:`~backend.service.OPERATIONS` are these, and two of its own).
SOCKET_SCHEMAS: dict[str, Schema] = {
    "join": JoinSchema(),
    "leave": EmptySchema(),
    "chat": ChatSchema(),
    "ready": ReadySchema(),
    "add_bot": AddBotSchema(),
    "add_local": AddLocalSchema(),
    "remove_seat": RemoveSeatSchema(),
    "allow": AllowSchema(),
    "start": EmptySchema(),
    "rematch": EmptySchema(),
    "move": MoveSchema(),
    "undo": UndoSchema(),
    "set_turn_time": TurnTimeSchema(),
    "back": EmptySchema(),
    "stand_in": SeatSchema(),
}
CREATE_ROOM = CreateRoomSchema()
