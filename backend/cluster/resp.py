"""Redis's wire protocol (RESP2) for the cluster's two busiest connections, without I/O: the
commands the outbox writes, and the replies and pushes the listener reads.

redis-py reads a subscription one message per call, through its retry wrapper, its pub/sub
layer and a parser that reads a line at a time (with the sockets themselves, 29 % of the
relaying process's samples on a split move). Here one ``recv`` takes in whatever has
arrived, and :class:`Replies` cuts every complete reply out of it at once.
"""

from __future__ import annotations

from typing import Union

Reply = Union[bytes, int, None, list, "RedisError"]
CRLF = b"\r\n"


class RedisError(Exception):
    """An error reply (``-ERR ...``) from Redis."""


class ProtocolError(Exception):
    """Bytes that are not RESP2: the connection cannot be trusted any further."""


def _arg(value: bytes | str | int | float) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    return repr(value).encode()


def pack(*args: bytes | str | int | float) -> bytes:
    """One command as RESP2 (an array of bulk strings)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        raw = _arg(arg)
        parts.append(b"$%d\r\n%s\r\n" % (len(raw), raw))
    return b"".join(parts)


def pack_all(commands: list[tuple]) -> bytes:
    """Several commands in one piece, to be written at once."""
    return b"".join(pack(*command) for command in commands)


class Replies:
    """Cuts complete replies out of what a connection has received so far: :meth:`feed` the
    bytes of each read, and get every reply they complete, in order (an error reply as a
    :class:`RedisError` value; a reply that is still coming waits for the next read)."""

    def __init__(self) -> None:
        self.buffer = b""

    def feed(self, data: bytes) -> list[Reply]:
        """The replies completed by ``data``."""
        buffer = self.buffer + data if self.buffer else data
        replies: list[Reply] = []
        position = 0
        while position < len(buffer):
            parsed = _parse(buffer, position)
            if parsed is None:
                break
            reply, position = parsed
            replies.append(reply)
        self.buffer = buffer[position:]
        return replies


def _parse(buffer: bytes, position: int) -> tuple[Reply, int] | None:
    """The reply starting at ``position`` and where the next one starts; None if it has not
    all arrived yet."""
    end = buffer.find(CRLF, position)
    if end < 0:
        return None
    kind, line = buffer[position:position + 1], buffer[position + 1:end]
    after = end + 2
    if kind == b"$":
        length = _number(line)
        if length < 0:
            return None, after
        if len(buffer) < after + length + 2:
            return None
        return buffer[after:after + length], after + length + 2
    if kind in b"*>":
        count = _number(line)
        if count < 0:
            return None, after
        items: list[Reply] = []
        for _ in range(count):
            parsed = _parse(buffer, after)
            if parsed is None:
                return None
            item, after = parsed
            items.append(item)
        return items, after
    if kind == b":":
        return _number(line), after
    if kind == b"+":
        return line, after
    if kind == b"-":
        return RedisError(line.decode(errors="replace")), after
    raise ProtocolError(f"not a RESP2 reply: {buffer[position:position + 20]!r}")


def _number(line: bytes) -> int:
    try:
        return int(line)
    except ValueError:
        raise ProtocolError(f"not a number: {line[:20]!r}") from None
