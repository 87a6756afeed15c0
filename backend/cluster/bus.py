"""Redis between the processes of a cluster: Flask-SocketIO's message queue, plus one channel
per process and one for everyone, on the same subscription.

:class:`ClusterBus` is python-socketio's Redis manager with what a lounge needs of it:

- a publish that fails is known: :class:`BusDown` is raised (the stock manager logs and drops
  it), and counted;
- the listener checks the connection's health and reconnects within a second of Redis coming
  back (the stock one backs off for up to a minute), and never blocks forever on a half-open
  socket;
- messages on the lounge's own channels (``<cluster>:node:<id>``, ``<cluster>:all``) go to a
  handler; those on the Socket.IO channel are emits, handled as usual.

Channels are namespaced by ``CLUSTER_NAME``: Redis pub/sub ignores database numbers.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import socketio

log = logging.getLogger(__name__)
REDIS_OPTIONS = {"socket_timeout": 2.0, "socket_connect_timeout": 2.0,
                 "health_check_interval": 5, "retry_on_timeout": False}
POLL_SECONDS = 1.0
POOL_SIZE = 64  # Redis connections a process may hold for publishing
POOL_WAIT_SECONDS = 2.0  # how long a publish waits for a free one
RETRY_SECONDS = 0.5


class BusDown(Exception):
    """Redis could not be reached."""


def node_channel(cluster: str, node: str) -> str:
    """The channel a process listens on for messages to it alone."""
    return f"{cluster}:node:{node}"


class ClusterBus(socketio.RedisManager):
    """The Socket.IO client manager of a cluster process (see the module docstring)."""

    def __init__(self, url: str, cluster: str, node: str,
                 on_message: Callable[[str, dict], None]) -> None:
        super().__init__(url, channel=f"{cluster}:socketio", redis_options=dict(REDIS_OPTIONS))
        self.cluster = cluster
        self.own = node_channel(cluster, node)
        self.everyone = f"{cluster}:all"
        self.on_message = on_message
        self.lost = 0  # publishes that failed
        self.up = False  # whether the listener is subscribed

    # -- sending -----------------------------------------------------------------------------

    def send(self, channel: str, message: dict) -> int:
        """Publish one of the lounge's messages; how many processes heard it."""
        return self._send(channel, orjson.dumps(message))

    def to_node(self, node: str, message: dict) -> int:
        """A message to one process; how many heard it (0: it is gone)."""
        return self.send(node_channel(self.cluster, node), message)

    def to_all(self, message: dict) -> int:
        """A message to every process, this one included."""
        return self.send(self.everyone, message)

    def _publish(self, data: Any) -> int:
        return self._send(self.channel, self.json.dumps(data))

    def _send(self, channel: str, payload: bytes | str) -> int:
        for attempt in (1, 2):  # redis-py replaces a broken connection by itself
            try:
                return self._client().publish(channel, payload)
            except Exception as exc:
                if attempt == 2:
                    self.lost += 1
                    log.error("Redis: a message to %s was not sent (%s)", channel, exc)
                    raise BusDown(str(exc)) from None
        raise AssertionError("unreachable")

    def command(self, name: str, *args: Any) -> Any:
        """Run one Redis command on the manager's connection pool; BusDown if it fails."""
        try:
            return self._client().execute_command(name, *args)
        except Exception as exc:
            raise BusDown(str(exc)) from None

    def pipeline(self) -> Any:
        """A pipeline on the manager's connection pool (its errors are the caller's)."""
        return self._client().pipeline(transaction=False)

    def _client(self) -> Any:
        # One client for the process's life, on a pool that makes a green thread wait for a
        # free connection rather than fail: a client replaced after an error would close
        # connections other green threads are still using (a storm of reconnections).
        if self.redis is None:
            module = self._get_redis_module()
            pool = module.BlockingConnectionPool.from_url(
                self.redis_url, max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS,
                **self.redis_options)
            self.redis = module.Redis(connection_pool=pool)
        return self.redis

    # -- listening ---------------------------------------------------------------------------

    def _redis_listen_with_retries(self) -> Iterator[dict]:
        # Its own client and subscription: a publisher that reconnects replaces self.redis.
        while True:
            pubsub = None
            try:
                client = self._get_redis_module().Redis.from_url(self.redis_url,
                                                                 **self.redis_options)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel, self.own, self.everyone)
                self.up = True
                while True:  # get_message waits with a timeout; listen() would not
                    message = pubsub.get_message(timeout=POLL_SECONDS)
                    if message is not None:
                        yield message
            except Exception as exc:
                if self.up:
                    log.error("Redis: the subscription was lost (%s); reconnecting", exc)
                self.up = False
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()
                time.sleep(RETRY_SECONDS)

    def _listen(self) -> Iterator[bytes]:
        ours = {self.own.encode(), self.everyone.encode()}
        queue = self.channel.encode()
        for message in self._redis_listen_with_retries():
            if message.get("type") != "message":
                continue
            channel = message["channel"]
            if channel == queue:
                yield message["data"]
            elif channel in ours:
                try:
                    self.on_message(channel.decode(), orjson.loads(message["data"]))
                except Exception:
                    log.exception("a cluster message could not be handled")
