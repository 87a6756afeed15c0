"""How Socket.IO packets are encoded: plain JSON through orjson, no binary scan, and malformed
JSON from a client turned into an event that gets an error answer instead of a traceback.

JSON from clients, REST bodies included, is parsed by orjson: nesting deeper than 1,024 levels
and integers beyond 64 bits are malformed JSON (a ``ValueError``), never a ``RecursionError``.
What happens to packets no client sends is in :mod:`backend.bad_packets`.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider
from socketio.base_client import BaseClient
from socketio.base_server import BaseServer
from socketio.packet import BINARY_ACK, BINARY_EVENT, EVENT, Packet

MALFORMED = " malformed"  # no client can name an event like this: it would be an unknown event
#: Event names python-socketio treats specially: its connection handlers (a client that sends
#: one as an event would run the server's own ``connect``/``disconnect`` handler) and ``*``,
#: the key of the catch-all handler (which it would call with the arguments shifted).
RESERVED = frozenset({*BaseServer.reserved_events, *BaseClient.reserved_events, "*"})
RESERVED_MARK = " reserved:"  # a reserved name sent by a client, renamed: an unknown event


class OrjsonCodec:
    """The ``json`` interface python-socketio needs, backed by orjson (several times faster than
    the standard library for our state messages; integers beyond 64 bits are refused)."""

    @staticmethod
    def dumps(obj: Any, **_: Any) -> str:
        """JSON text of ``obj``."""
        return orjson.dumps(obj).decode()

    @staticmethod
    def loads(text: str | bytes, **_: Any) -> Any:
        """The value of JSON text."""
        return orjson.loads(text)


EVENT_PACKET = str(EVENT)  # a Socket.IO event on the default namespace, with no ack id


def event_packet(event: str, data: Any) -> str:
    """The text of a Socket.IO event packet on the default namespace, as :class:`TextPacket`
    encodes it: for Engine.IO's ``send`` to one connection, without python-socketio's
    ``emit``."""
    return EVENT_PACKET + OrjsonCodec.dumps([event, data])


class TextPacket(Packet):
    """Our messages are plain JSON: skip python-socketio's recursive scan for binary data on
    every packet (a large share of the cost of sending a state).

    Incoming events named like python-socketio's own (``connect``, ``disconnect``...) are
    renamed here, before the server looks up their handler, so that they reach the catch-all
    handler as unknown events instead of the connection handlers."""

    uses_binary_events = False
    json = OrjsonCodec

    def decode(self, encoded_packet: Any) -> int:
        """Parse a packet; malformed ones become the MALFORMED event."""
        try:
            attachments = super().decode(encoded_packet)
        except ValueError:
            attachments = 0
            self.packet_type, self.data = EVENT, None
        if self.packet_type in (BINARY_EVENT, BINARY_ACK):  # never wait for attachments
            attachments = 0
            self.packet_type, self.data = EVENT, None
        if self.packet_type == EVENT:
            if not _names_an_event(self.data):
                self.data = [MALFORMED]
            elif self.data[0] in RESERVED:
                self.data = [RESERVED_MARK + self.data[0], *self.data[1:]]
        return attachments


def _names_an_event(data: Any) -> bool:
    return isinstance(data, list) and bool(data) and isinstance(data[0], str)


class LoungeJSONProvider(DefaultJSONProvider):
    """Flask's JSON, parsed by orjson: deep nesting and huge numbers are a ValueError, which
    ``request.get_json(silent=True)`` turns into None (a ``bad_request``)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """The value of JSON text."""
        return orjson.loads(s)
