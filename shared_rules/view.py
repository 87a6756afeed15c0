"""Hidden information removed by construction.

A game names its ``secret`` keys (seen by nobody: the deck's order, face-down cards, Slapjack's
stacks) and its ``private`` keys (one entry per seat, seen only by that seat: hands). Everything
else in the state is public. :func:`redact` keeps only what a seat may see, and replaces what it
may not by sizes, so a view can still say how many cards each pile or hand holds.
"""

from typing import Any


def size(value: Any) -> Any:
    """How big a hidden value is: a list of lists gives each length, a list its non-empty
    entries, a dict its length."""
    if isinstance(value, list | tuple):
        if value and all(isinstance(v, list | tuple) for v in value):
            return [len(v) for v in value]
        return sum(1 for v in value if v is not None)
    if isinstance(value, dict):
        return len(value)
    return 0


_CONTAINERS = frozenset({list, tuple, dict})  # a set: one hash, not three comparisons


def copy_data(value: Any) -> Any:
    """A deep copy of plain JSON-like data (much faster than ``copy.deepcopy``): strings,
    numbers and None are shared, containers copied."""
    kind = type(value)
    if kind is list or kind is tuple:
        return [copy_data(v) if type(v) in _CONTAINERS else v for v in value]
    if kind is dict:
        return {k: copy_data(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    return value


def redact(G: dict, secret: tuple[str, ...], private: tuple[str, ...], seat: int | None) -> dict:
    """The part of ``G`` that ``seat`` may see (``None``: a spectator), as a fresh copy."""
    out: dict[str, Any] = {}
    for key, value in G.items():
        if key in secret:
            out[f"{key}_count"] = size(value)
        elif key in private:
            out[key] = None if seat is None else copy_data(value[seat])
            out[f"{key}_count"] = [len(v) for v in value]
        else:
            out[key] = copy_data(value)
    return out
