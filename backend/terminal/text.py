"""Text from the server made safe for a terminal."""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_TEXT = 500


def clean(value: Any, limit: int = MAX_TEXT) -> str:
    """Text safe to put on a terminal: control characters (escape sequences!) removed."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    text = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text[:limit * 2])
    return text[:limit]


# The words that start the server's and the library's sentences: lowered after a colon. A
# sentence that starts with anything else (a name: "Bob is here") is left as it is.
PLAIN_STARTS = frozenset(("a", "an", "cannot", "it", "no", "not", "only", "say", "sign", "that",
                          "the", "there", "this", "too", "you", "your"))


def lower_first(sentence: str) -> str:
    """A sentence to follow a colon: "There is no room" as "there is no room"."""
    first = sentence.split(" ", 1)[0]
    return sentence[:1].lower() + sentence[1:] if first.lower() in PLAIN_STARTS else sentence
