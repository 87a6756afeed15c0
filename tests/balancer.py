"""Lounge processes behind HAProxy, and players that reach them through it: for any test of
several processes.

``Balanced(count=2, **env)`` starts ``count`` real ``lounge serve`` processes
(:class:`tests.live_server.Server`, started side by side) with the settings ``env`` and HAProxy in
front of them (:class:`backend.balancer.Balancer`, the configuration of ``lounge cluster``).
Without ``DATABASE_URL`` in ``env`` each process has an SQLite database of its own; for a
cluster, pass the shared ``DATABASE_URL`` (a PostgreSQL schema of the test's own), ``REDIS_URL``
and a ``CLUSTER_NAME`` of the test's own: the schema is then brought up to date once before the
processes start, as ``lounge cluster`` does (``migrate_first=False`` leaves it to the processes,
to test their own guard against racing on it). Every wait is bounded.

- ``url``: the front; ``balancer``: the :class:`Balancer` (``servers()``, ``wait_status()``,
  ``set_state()``, ``move()``); ``servers``: name (``p1``, ``p2``...) -> :class:`Server`.
- ``health(names=None)``: name -> each process's ``/api/health``, asked directly.
- ``kill(name)``: SIGKILL that process (a crash); ``restart(name)``: a new process with the same
  settings on a new port, put in the dead one's place, back in HAProxy's rotation when this
  returns.
- ``stop()``: HAProxy, then every process; name -> everything that process printed (the same
  answer if called again). It is also a context manager.

``BalancedPlayer(front, transports=("websocket",))`` is the harness's recording
:class:`tests.server.harness.Player` whose REST calls and Socket.IO connections share one
``requests.Session``: its identity is made through the front, so HAProxy's sticky cookie places
it on a process at once, and its Socket.IO connections (``connect()``, ``reconnect()``) and its
``create_room()`` go to that process while it is up (to another one once HAProxy has marked it
down; ``connect()`` of a WebSocket-only player makes a plain request first so that its cookie
is current). ``backend`` names the process it is on; ``transports=("polling",)`` keeps it on long
polling, ``("polling", "websocket")`` is a browser's way (poll, then upgrade).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

import requests
import socketio

from backend.balancer import COOKIE, Balancer, server_names
from tests.live_server import LOUNGE, REPO, Server, start_servers
from tests.server.harness import TIMEOUT, Player


class Balanced:
    """``count`` lounge processes behind HAProxy (see the module's docstring)."""

    def __init__(self, count: int = 2, check_seconds: float = 0.5, migrate_first: bool = True,
                 by_room: bool = True, **env: object) -> None:
        self.env = env
        self.outputs: dict[str, str] | None = None
        if migrate_first and env.get("DATABASE_URL") not in (None, "memory"):
            migrate(env)
        servers = start_servers(count, **env)
        self.servers: dict[str, Server] = dict(zip(server_names(count), servers, strict=True))
        try:
            self.balancer = Balancer([("127.0.0.1", s.port) for s in servers],
                                     check_seconds=check_seconds, by_room=by_room)
            for name in self.servers:
                self.balancer.wait_status(name, "UP", seconds=10)
        except BaseException:
            for server in servers:
                server.stop()
            raise
        self.url = self.balancer.url

    def health(self, names: Sequence[str] | None = None) -> dict[str, dict]:
        """Name -> that process's ``/api/health``, asked directly (all of them by default)."""
        return {name: requests.get(f"{self.servers[name].url}/api/health",
                                   timeout=TIMEOUT).json() for name in names or self.servers}

    def kill(self, name: str) -> None:
        """SIGKILL process ``name``."""
        self.servers[name].kill()

    def restart(self, name: str, seconds: float = 10.0) -> Server:
        """A new process in place of ``name`` (same settings), in rotation once this returns."""
        self.servers[name].stop()
        server = self.servers[name] = Server(**self.env)
        self.balancer.move(name, "127.0.0.1", server.port)
        self.balancer.wait_status(name, "UP", seconds)
        return server

    def stop(self) -> dict[str, str]:
        """Stop HAProxy and the processes; name -> each process's output (again, if called
        again)."""
        if self.outputs is None:
            self.balancer.stop()
            self.outputs = {name: server.stop() for name, server in self.servers.items()}
        return self.outputs

    def __enter__(self) -> Balanced:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def migrate(env: dict[str, object]) -> None:
    """``lounge db upgrade`` once, as ``lounge cluster`` does before its processes start."""
    done = subprocess.run([*LOUNGE, "db", "upgrade"], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, **{k: str(v) for k, v in env.items()}}, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


class BalancedPlayer(Player):
    """A recording player that reaches the lounge through the balancer, sticky to one process
    (see the module's docstring)."""

    def __init__(self, front: str, transports: Sequence[str] = ("websocket",),
                 session: dict | None = None) -> None:
        self.http = requests.Session()
        self.transports = list(transports)
        if session is None:
            response = self.http.post(f"{front}/api/session", timeout=TIMEOUT)
            assert response.status_code == 201, response.text
            session = response.json()
        super().__init__(front, session)

    @property
    def backend(self) -> str | None:
        """The process HAProxy sticks this player to (``p1``...), from its cookie."""
        return self.http.cookies.get(COOKIE)

    def _client(self) -> socketio.Client:
        sio = socketio.Client(reconnection=False, http_session=self.http)
        sio.on("*", self._record)
        return sio

    def connect(self, room: str | None = None) -> BalancedPlayer:
        """Connect through the front; naming a ``room`` as the web client does (the balancer
        then places the connection by the room, not by the cookie)."""
        if "polling" not in self.transports:
            # A WebSocket handshake's cookie never reaches the session: place the player with a
            # plain request first, so that ``backend`` names where the socket goes.
            self.http.get(f"{self.url}/api/health", timeout=TIMEOUT).raise_for_status()
        url = f"{self.url}?room={room.upper()}" if room else self.url
        self.sio.connect(url, auth={"token": self.token}, transports=self.transports,
                         wait_timeout=TIMEOUT)
        return self

    def create_room(self, game: str = "tic-tac-toe", public: bool = False) -> dict:
        """Open a room through the front (on this player's process), hosted by this player."""
        response = self.http.post(f"{self.url}/api/rooms",
                                  json={"game": game, "name": "Host", "public": public},
                                  headers={"Authorization": f"Bearer {self.token}"},
                                  timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        return response.json()
