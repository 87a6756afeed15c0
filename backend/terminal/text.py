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
