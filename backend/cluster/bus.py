"""Redis between the processes of a cluster: Flask-SocketIO's message queue, plus one channel
per process and one for everyone, on the same subscription.

:class:`ClusterBus` is python-socketio's Redis manager with what a lounge needs of it:

- messages that need no answer (states, replies, room broadcasts) go through an :class:`Outbox`:
  one task writes whatever is queued in one go, on a connection of its own on which Redis sends
  no replies, so a message costs one write shared with the others queued beside it; one that
  cannot be sent is counted and logged (the stock manager logs and drops it);
- a forwarded event is refused with :class:`BusDown` at once while Redis is out of reach;
- the listener reads without a timeout (a poll with one costs more than the message), and a
  watchdog posts a heartbeat to this process's own channel every second: when nothing at all
  has arrived for a few seconds (a half-open socket) it drops the subscription; the listener
  reconnects within a second of Redis coming back (the stock one backs off for up to a minute);
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
HEARTBEAT_SECONDS = 1.0
SILENT_SECONDS = 3.5  # heard nothing, not even our own heartbeats, for this long: drop it
LISTENER_OPTIONS = {**REDIS_OPTIONS, "socket_timeout": None, "health_check_interval": 0}
POOL_SIZE = 64  # Redis connections a process may hold for commands (the room directory)
POOL_WAIT_SECONDS = 2.0  # how long a command waits for a free one
RETRY_SECONDS = 0.5
HEARTBEAT = b"{}"
BATCH = 256  # messages written at once by the outbox, at most


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
        self.failed = 0  # forwarded events refused while Redis was out of reach
        self.outbox: Outbox | None = None  # made when the server starts the manager
        self.up = False  # whether the listener is subscribed
        self.subscription: Any = None
        self.heard_at = time.monotonic()

    # -- sending -----------------------------------------------------------------------------

    def initialize(self) -> None:
        """Start the listener (the stock manager's) and the outbox."""
        self.outbox = Outbox(self.redis_url, self.server.eio.create_queue())
        self.server.start_background_task(self.outbox.run)
        self.server.start_background_task(self._watch)
        super().initialize()

    def to_node(self, node: str, message: dict) -> None:
        """A message to one process, sent in order with everything else this one says."""
        self.outbox.post(node_channel(self.cluster, node), orjson.dumps(message))

    def call(self, node: str, message: dict) -> None:
        """A forwarded event to one process: as :meth:`to_node`, but refused with BusDown at
        once while Redis is out of reach (its sender would wait for an answer in vain)."""
        if not self.up:  # the listener's view: it finds out, and reconnects, within a second
            self.failed += 1
            raise BusDown("Redis is out of reach")
        self.to_node(node, message)

    def to_all(self, message: dict) -> None:
        """A message to every process, this one included."""
        self.outbox.post(self.everyone, orjson.dumps(message))

    def _publish(self, data: Any) -> None:
        self.outbox.post(self.channel, self.json.dumps(data))

    def close_room(self, room: str, namespace: str | None = None) -> None:
        """Close a Socket.IO room on this process only: the others leave theirs when the
        owner dismisses their connections, in order with what it told them before (a close
        through the queue could overtake a ``closed`` still held for a forwarded event)."""
        self._handle_close_room({"room": room, "namespace": namespace or "/"})

    @property
    def lost(self) -> int:
        """Messages that could not be sent."""
        return self.failed + (self.outbox.lost if self.outbox else 0)

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
                                                                 **LISTENER_OPTIONS)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel, self.own, self.everyone)
                self.subscription, self.heard_at, self.up = pubsub, time.monotonic(), True
                while True:
                    message = pubsub.get_message(timeout=None)
                    if message is not None:
                        self.heard_at = time.monotonic()
                        yield message
            except Exception as exc:
                if self.up:
                    log.error("Redis: the subscription was lost (%s); reconnecting", exc)
                self.up = False
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()
                time.sleep(RETRY_SECONDS)

    def _watch(self) -> None:
        """Post a heartbeat to this process's channel every second, and drop a subscription
        that has heard nothing for SILENT_SECONDS: its socket is dead without knowing it."""
        while True:
            slept = time.monotonic()
            time.sleep(HEARTBEAT_SECONDS)
            self.outbox.post(self.own, HEARTBEAT)
            pubsub, now = self.subscription, time.monotonic()
            if now - slept > 2 * HEARTBEAT_SECONDS:
                continue  # this process was too busy to run anything: so was the listener
            if self.up and now - self.heard_at > SILENT_SECONDS:
                log.error("Redis: nothing heard for %.1f s, not even this process's heartbeat; "
                          "reconnecting", SILENT_SECONDS)
                self.outbox.stale = True  # the heartbeat went out on it: it may be the dead one
                with contextlib.suppress(Exception):
                    pubsub.connection.disconnect()  # the blocked read fails, and reconnects

    def _listen(self) -> Iterator[bytes]:
        ours = {self.own.encode(), self.everyone.encode()}
        queue = self.channel.encode()
        for message in self._redis_listen_with_retries():
            if message.get("type") != "message":
                continue
            channel = message["channel"]
            if channel == queue:
                yield message["data"]
            elif message["data"] == HEARTBEAT:
                continue
            elif channel in ours:
                try:
                    self.on_message(channel.decode(), orjson.loads(message["data"]))
                except Exception:
                    log.exception("a cluster message could not be handled")


class Outbox:
    """Messages to publish, and other commands whose answer nobody waits for, written by one
    task on a Redis connection of its own with replies switched off (``CLIENT REPLY OFF``): a
    message costs neither a wait for Redis's answer nor the answer's wake-up, and the commands
    queued while one write goes out leave together in the next, in the order they were posted."""

    def __init__(self, url: str, queue: Any) -> None:
        import redis

        options = {**REDIS_OPTIONS, "health_check_interval": 0}  # a PING would get no answer
        self.pool = redis.ConnectionPool.from_url(url, **options)
        self.connection: Any = None
        self.queue = queue
        self.lost = 0
        self.up = True  # whether the last write went out (for the logs)
        self.stale = False  # set by the watchdog: make a new connection before the next write

    def post(self, channel: str, payload: bytes | str) -> None:
        """Queue a message for the channel."""
        self.queue.put(("PUBLISH", channel, payload))

    def send(self, *command: Any) -> None:
        """Queue any other command whose answer nobody waits for."""
        self.queue.put(command)

    def run(self) -> None:
        """The outbox's task: write what is queued, for ever."""
        while True:
            batch = [self.queue.get()]
            while len(batch) < BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            self.write(batch)

    def write(self, batch: list[tuple]) -> None:
        """Send the commands in one write (a second try on a new connection); counted as
        lost if that fails too."""
        for attempt in (1, 2):
            try:
                connection = self._connection()
                connection.send_packed_command(connection.pack_commands(batch),
                                               check_health=False)
                if not self.up:
                    log.info("Redis: the outbox is connected again")
                self.up = True
                return
            except Exception as exc:
                self._drop()
                if attempt == 2:
                    self.lost += len(batch)
                    if self.up:
                        log.error("Redis: %d messages were not sent (%s)", len(batch), exc)
                    self.up = False

    def _connection(self) -> Any:
        if self.stale:
            self.stale = False
            self._drop()
        connection = self.connection
        # Nothing ever comes back on this connection but the end of it: a socket that has
        # something to read was closed by Redis (a restart), and a write now would be lost.
        if connection is not None and connection.can_read(timeout=0):
            raise ConnectionError("Redis closed the outbox's connection")
        if connection is None:
            connection = self.pool.make_connection()
            connection.connect()
            connection.send_command("CLIENT", "REPLY", "OFF", check_health=False)
            self.connection = connection
        return connection

    def _drop(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(Exception):
                self.connection.disconnect()
        self.connection = None
