"""Engine.IO sessions that have not signed in yet: a few per client address, for a few seconds.

A client first opens an Engine.IO session (a long poll's first GET, or a WebSocket), then signs
in with Socket.IO's CONNECT packet, whose token :meth:`backend.sockets.LoungeSockets.on_connect`
checks along with its address's caps. A session that never sends it is no Socket.IO connection,
so none of those caps counts it, and thousands of them would fill the server's connection pool.
So an address may hold as many sessions that have not signed in as it may hold connections
(``MAX_CONNECTIONS_PER_ADDRESS``), each for at most ``deadline`` seconds
(``REQUEST_TIMEOUT_SECONDS``, the time a request has to arrive whole).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .errors import error_body

TOO_MANY = error_body("rate_limited", "Too many connections from your address are still "
                                      "signing in: wait a few seconds and try again")


class PendingSessions:
    """The Engine.IO sessions that have not signed in, by the address they came from."""

    def __init__(self, server: Any, deadline: float, per_address: int) -> None:
        self.server = server
        self.deadline = deadline
        self.most = per_address
        self.address: dict[str, str] = {}  # Engine.IO session id -> client address
        self.per_address: Counter[str] = Counter()

    def opened(self, eio_sid: str, environ: dict) -> dict | None:
        """A new session: None to accept it, or the error that refuses it."""
        address = environ.get("REMOTE_ADDR") or "?"
        if self.per_address[address] >= self.most:
            return TOO_MANY
        self.address[eio_sid] = address
        self.per_address[address] += 1
        self.server.eio.start_background_task(self._expire, eio_sid)
        return None

    def signed_in(self, sid: str) -> None:
        """The Socket.IO connection ``sid`` was accepted: its session is no longer pending."""
        self.forget(self.server.manager.eio_sid_from_sid(sid, "/"))

    def forget(self, eio_sid: str | None) -> None:
        """The session signed in, or is gone."""
        address = self.address.pop(eio_sid, None) if eio_sid is not None else None
        if address is not None:
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

    def _expire(self, eio_sid: str) -> None:
        self.server.eio.sleep(self.deadline)
        if eio_sid in self.address:
            self.forget(eio_sid)
            self.server.eio.disconnect(eio_sid)


def limit_pending(server: Any, deadline: float, per_address: int) -> PendingSessions:
    """Count a python-socketio server's Engine.IO sessions until they sign in; refuse an
    address's sessions past ``per_address`` (401 with the lounge's JSON error), and close a
    session that has not signed in within ``deadline`` seconds."""
    pending = PendingSessions(server, deadline, per_address)
    eio = server.eio
    on_connect, on_disconnect = eio.handlers["connect"], eio.handlers["disconnect"]

    def connect(eio_sid: str, environ: dict) -> Any:
        refusal = pending.opened(eio_sid, environ)
        return refusal if refusal is not None else on_connect(eio_sid, environ)

    def disconnect(eio_sid: str, reason: Any = None) -> Any:
        pending.forget(eio_sid)
        return on_disconnect(eio_sid, reason)

    eio.on("connect", connect)
    eio.on("disconnect", disconnect)
    return pending
