"""Redis between the processes of a cluster: Flask-SocketIO's message queue, plus one channel
per process and one for everyone, on the same subscription.

:class:`ClusterBus` is python-socketio's Redis manager with what a lounge needs of it:

- messages that need no answer (states, replies, room broadcasts) go through an :class:`Outbox`:
  one task writes whatever is queued in one go, on a connection of its own on which Redis sends
  no replies, so a message costs one write shared with the others queued beside it; one that
  cannot be sent is counted and logged (the stock manager logs and drops it);
- a forwarded event is refused with :class:`BusDown` at once while Redis is out of reach;
- the subscription and the outbox are plain sockets (:mod:`backend.cluster.link`) that the
  bus reads and writes itself (:mod:`backend.cluster.resp`): the listener takes in everything
  that has arrived in one ``recv``, where redis-py's pub/sub read one message per call through
  several layers (a relaying process now spends about a fifth less on a split move); redis-py
  is left the room directory's commands;
- the listener reads without a timeout (a poll with one costs more than the message), and a
  watchdog posts a heartbeat to this process's own channel every second: when nothing at all
  has arrived for a few seconds (a half-open socket) it drops the subscription; the listener
  reconnects within a second of Redis coming back (the stock one backs off for up to a minute);
- messages on the lounge's own channels (``<cluster>:node:<id>``, ``<cluster>:all``) go to a
  handler; those on the Socket.IO channel are emits, handled as usual;
- a subscription made again after one was lost calls ``on_resubscribed``: whatever was published
  to this process meanwhile is lost (Redis pub/sub keeps nothing), so its connections must be
  brought up to date.

Channels are namespaced by ``CLUSTER_NAME``: Redis pub/sub ignores database numbers.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import ssl
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import socketio

from .link import open_connection
from .resp import RedisError, Replies, pack, pack_all

log = logging.getLogger(__name__)
REDIS_OPTIONS = {"socket_timeout": 2.0, "socket_connect_timeout": 2.0,
                 "health_check_interval": 5, "retry_on_timeout": False}
HEARTBEAT_SECONDS = 1.0
SILENT_SECONDS = 3.5  # heard nothing, not even our own heartbeats, for this long: drop it
POOL_SIZE = 64  # Redis connections a process may hold for commands (the room directory)
POOL_WAIT_SECONDS = 2.0  # how long a command waits for a free one
RETRY_SECONDS = 0.5
HEARTBEAT = b"{}"
BATCH = 256  # messages written at once by the outbox, at most
READ_BYTES = 64 * 1024  # what the listener takes in at once (a larger buffer is mmapped a read)
SUBSCRIBED = 3  # the subscription's channels: Socket.IO's, this process's, everyone's


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
        self.node = node  # this process's name
        self.own = node_channel(cluster, node)
        self.everyone = f"{cluster}:all"
        self.on_message = on_message
        self.on_resubscribed: Callable[[], None] = _nothing
        self.failed = 0  # forwarded events refused while Redis was out of reach
        self.outbox: Outbox | None = None  # made when the server starts the manager
        self.up = False  # whether the listener is subscribed
        self.missed = False  # whether messages were missed since the subscription was lost
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

    def _messages(self) -> Iterator[tuple[bytes, bytes]]:
        """(channel, data) of every message on this process's three channels, for ever, on a
        connection of its own, made again within RETRY_SECONDS of losing it."""
        refused = ""
        while True:
            sock = None
            try:
                sock = open_connection(self.redis_url, None)
                yield from self._subscribe(sock)
            except Exception as exc:
                refused = self._log_loss(exc, refused)
                self.up = False
                if sock is not None:
                    with contextlib.suppress(Exception):
                        sock.close()
                time.sleep(RETRY_SECONDS)

    def _subscribe(self, sock: Any) -> Iterator[tuple[bytes, bytes]]:
        """Subscribe on ``sock`` and yield its messages, read a whole ``recv`` at a time (see
        :mod:`backend.cluster.resp`), until it fails. An error reply (a wrong password, say)
        ends it too."""
        sock.sendall(pack("SUBSCRIBE", self.channel, self.own, self.everyone))
        self.subscription, self.heard_at = sock, time.monotonic()
        replies, channels = Replies(), 0
        while True:
            data = sock.recv(READ_BYTES)
            if not data:
                raise ConnectionError("Redis closed the subscription")
            self.heard_at = time.monotonic()
            for reply in replies.feed(data):
                kind = _push_kind(reply)
                if kind == b"message":
                    yield reply[1], reply[2]
                elif kind == b"subscribe":
                    channels += 1
                    self._subscribed(channels)
                elif isinstance(reply, RedisError):
                    raise reply

    def _subscribed(self, channels: int) -> None:
        self.up = channels == SUBSCRIBED
        if self.up and self.missed:
            self.missed = False
            self.on_resubscribed()

    def _log_loss(self, exc: Exception, refused: str) -> str:
        """Log a lost subscription, or a refused one once; what was refused last."""
        if self.up:
            log.error("Redis: the subscription was lost (%s); reconnecting", exc)
            self.missed = True
        elif isinstance(exc, RedisError) and str(exc) != refused:
            log.error("Redis refused the subscription: %s", exc)
            return str(exc)
        return refused

    def _watch(self) -> None:
        """Post a heartbeat to this process's channel every second, and drop a subscription
        that has heard nothing for SILENT_SECONDS: its socket is dead without knowing it."""
        while True:
            slept = time.monotonic()
            time.sleep(HEARTBEAT_SECONDS)
            self.outbox.post(self.own, HEARTBEAT)
            subscription, now = self.subscription, time.monotonic()
            if now - slept > 2 * HEARTBEAT_SECONDS:
                continue  # this process was too busy to run anything: so was the listener
            if self.up and now - self.heard_at > SILENT_SECONDS:
                log.error("Redis: nothing heard for %.1f s, not even this process's heartbeat; "
                          "reconnecting", SILENT_SECONDS)
                self.outbox.stale = True  # the heartbeat went out on it: it may be the dead one
                with contextlib.suppress(Exception):
                    subscription.shutdown(socket.SHUT_RDWR)  # the blocked read ends, and reconnects

    def _listen(self) -> Iterator[bytes]:
        ours = {self.own.encode(), self.everyone.encode()}
        queue = self.channel.encode()
        for channel, data in self._messages():
            if channel == queue:
                yield data
            elif data == HEARTBEAT:
                continue
            elif channel in ours:
                try:
                    self.on_message(channel.decode(), orjson.loads(data))
                except Exception:
                    log.exception("a cluster message could not be handled")


def _nothing() -> None:
    pass


class Outbox:
    """Messages to publish, and other commands whose answer nobody waits for, written by one
    task on a Redis connection of its own with replies switched off (``CLIENT REPLY OFF``): a
    message costs neither a wait for Redis's answer nor the answer's wake-up, and the commands
    queued while one write goes out leave together in the next, in the order they were posted."""

    def __init__(self, url: str, queue: Any) -> None:
        self.url = url
        self.sock: Any = None
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
        data = pack_all(batch)
        for attempt in (1, 2):
            try:
                self._connection().sendall(data)
                if not self.up:
                    log.info("Redis: the outbox is connected again")
                self.up = True
                return
            except Exception as exc:
                self._drop()
                if attempt == 2:
                    self.lost += len(batch)
                    if self.up:
                        log.error("Redis: %d message(s) not sent (%s)", len(batch), exc)
                    self.up = False

    def _connection(self) -> Any:
        if self.stale:
            self.stale = False
            self._drop()
        if self.sock is not None and _closed(self.sock):
            raise ConnectionError("Redis closed the outbox's connection")
        if self.sock is None:
            sock = open_connection(self.url, REDIS_OPTIONS["socket_timeout"])
            sock.sendall(pack("CLIENT", "REPLY", "OFF"))
            self.sock = sock
        return self.sock

    def _drop(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(Exception):
                self.sock.close()
        self.sock = None


def _closed(sock: Any) -> bool:
    """Whether Redis has closed a connection it never answers on (a restart): a write now
    would be lost. Nothing ever comes back on it but the end of it."""
    timeout = sock.gettimeout()
    sock.settimeout(0.0)
    try:
        return sock.recv(1) == b""  # only the end, or an error, can be read
    except (BlockingIOError, ssl.SSLWantReadError, TimeoutError):
        return False
    except OSError:
        return True
    finally:
        sock.settimeout(timeout)


def _push_kind(reply: object) -> bytes | None:
    """``message``, ``subscribe``... for a pub/sub push; None for anything else."""
    if isinstance(reply, list) and len(reply) == 3 and isinstance(reply[0], bytes):
        return reply[0]
    return None
