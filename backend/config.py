"""Settings from the environment, with safe defaults for a laptop."""

from __future__ import annotations

import ipaddress
import os
import secrets
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

ASYNC_MODES = ("eventlet", "gevent", "threading")
REPO_ROOT = Path(__file__).resolve().parent.parent
MIN_SECRET_KEY_BYTES = 32
REDIS_SCHEMES = ("redis://", "rediss://")  # rediss: TLS
NOT_NEGATIVE = ("HOST_GRACE_SECONDS", "PLAYER_GRACE_SECONDS", "UNCLAIMED_ROOM_SECONDS",
                "BOT_DELAY_SECONDS", "BOT_SLAP_DELAY_SECONDS", "BOT_HARD_SECONDS",
                "ABANDONED_ROOM_SECONDS", "MATCH_RETENTION_DAYS", "AWAY_PAUSE_SECONDS")
POSITIVE = ("SESSION_RATE_PER_MINUTE", "CONNECT_RATE_PER_MINUTE", "REPLAY_RATE_PER_MINUTE",
            "MAX_CONNECTIONS_PER_USER", "MAX_ROOMS_PER_USER", "MAX_CONNECTIONS_PER_ADDRESS",
            "MAX_BOT_SEARCHES_PER_USER", "MAX_BOT_SEARCHES", "HOUSEKEEPING_SECONDS",
            "REQUEST_TIMEOUT_SECONDS")


@dataclass(frozen=True)
class Config:
    """Every setting of the server. Build one with :func:`from_env` or by hand in tests."""

    SECRET_KEY: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    HOST: str = "127.0.0.1"
    PORT: int = 5000
    # Other origins allowed for REST and Socket.IO; the server's own origin always is. Empty by
    # default: the lounge serves its own client. The Vite dev server (npm run dev) keeps its
    # page's origin when it forwards /api and /socket.io, so it needs its origin here.
    CORS_ORIGINS: tuple[str, ...] = ()
    # Addresses of the proxies whose X-Forwarded-* headers are believed ("*": any peer).
    FORWARDED_ALLOW_IPS: tuple[str, ...] = ()
    REQUEST_TIMEOUT_SECONDS: float = 10.0  # to send a whole HTTP request (headers and body)
    ACCESS_LOG: bool = True  # one line per HTTP request, with the client's address
    # permessage-deflate on WebSockets: a state is a few hundred bytes, and deflating each one
    # for each connection cost more CPU than anything else in a move (docs/performance.md)
    WEBSOCKET_COMPRESSION: bool = False
    HOST_GRACE_SECONDS: float = 20.0
    PLAYER_GRACE_SECONDS: float = 30.0
    UNCLAIMED_ROOM_SECONDS: float = 120.0
    BOT_DELAY_SECONDS: float = 0.6
    BOT_SLAP_DELAY_SECONDS: float = 0.5
    BOT_HARD_SECONDS: float = 1.0
    TURN_TIMES: tuple[str, ...] = ("30", "60", "120")  # the turn times a host may choose (s)
    AWAY_PAUSE_SECONDS: float = 3.0  # a player away: a bot plays their turn after this
    ASYNC_MODE: str = "eventlet"
    FRONTEND_DIST: str = str(REPO_ROOT / "frontend" / "dist")
    MAX_MESSAGE_BYTES: int = 32 * 1024
    MAX_PAYLOAD_BYTES: int = 4 * 1024
    SOCKET_RATE_PER_SECOND: float = 15.0  # per identity, over all its connections
    SOCKET_RATE_BURST: float = 30.0
    REST_RATE_PER_MINUTE: float = 120.0
    SESSION_RATE_PER_MINUTE: float = 10.0  # new identities per client address
    CONNECT_RATE_PER_MINUTE: float = 60.0  # new Socket.IO connections per client address
    MAX_CONNECTIONS_PER_USER: int = 8  # open Socket.IO connections of one identity
    MAX_CONNECTIONS_PER_ADDRESS: int = 100  # open Socket.IO connections from one client address
    MAX_ROOMS_PER_USER: int = 4  # rooms one identity is in at once (through its connections)
    MAX_BOT_SEARCHES_PER_USER: int = 1  # hard bots of one host's rooms thinking at once
    MAX_BOT_SEARCHES: int = 1  # hard bots thinking at once in this process (they hold the GIL)
    REPLAY_RATE_PER_MINUTE: float = 30.0  # history reads per client address
    REPLAY_CACHE_ENTRIES: int = 32  # finished games' replays kept in memory
    REPLAY_CACHE_BYTES: int = 64 * 1024 * 1024
    TOKEN_MAX_AGE_SECONDS: int = 30 * 24 * 3600
    LOUNGE_DEBUG_MATCHES: bool = False
    DATABASE_URL: str = ""  # empty: an SQLite file in the instance folder; "memory": none
    DATABASE_FSYNC: bool = False  # also wait for the disk: survive a power cut, not only a crash
    ABANDONED_ROOM_SECONDS: float = 6 * 3600.0
    MATCH_RETENTION_DAYS: float = 30.0
    HOUSEKEEPING_SECONDS: float = 600.0
    REDIS_URL: str = ""  # set: cluster mode (several processes on Redis and PostgreSQL)
    CLUSTER_NAME: str = "lounge"  # namespaces Redis channels and keys: one per lounge
    LEASE_SECONDS: float = 5.0  # how long a process keeps its rooms after its last heartbeat
    # How long an event may take to reach its room's owner. Above LEASE_SECONDS and a heartbeat,
    # so that an event sent as its owner dies waits for the takeover rather than being refused
    # just before it; below the web client's 8 s wait for an answer.
    FORWARD_SECONDS: float = 7.0
    # A room whose connections are all on one other process moves there (its moves then
    # cross no process); off, a room stays where it is until its owner stops or dies
    FOLLOW_PLAYERS: bool = True

    def __post_init__(self) -> None:
        self._check_numbers()
        self._check_proxies()
        self._check_secret()
        self._check_cluster()

    def _check_numbers(self) -> None:
        if self.ASYNC_MODE not in ASYNC_MODES:
            raise ValueError(f"ASYNC_MODE must be one of {', '.join(ASYNC_MODES)}")
        if not 1 <= self.PORT <= 65535:
            raise ValueError("PORT must be between 1 and 65535")
        for name in NOT_NEGATIVE:
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")
        for name in POSITIVE:
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        try:
            times = self.turn_times
        except ValueError:
            times = ()
        if not times or any(t <= 0 for t in times):
            raise ValueError("TURN_TIMES must be whole numbers of seconds, each above 0, "
                             "separated by commas")

    def _check_proxies(self) -> None:
        for address in self.FORWARDED_ALLOW_IPS:
            if address != "*":
                try:
                    ipaddress.ip_network(address, strict=False)
                except ValueError:
                    raise ValueError(f"FORWARDED_ALLOW_IPS: {address!r} is not an address "
                                     "or a network (or * for any)") from None

    def _check_secret(self) -> None:
        if len(self.SECRET_KEY.encode()) < MIN_SECRET_KEY_BYTES:
            raise ValueError(
                f"SECRET_KEY is too short ({len(self.SECRET_KEY.encode())} bytes): it signs every "
                f"token, and a short one can be guessed offline. Use at least "
                f"{MIN_SECRET_KEY_BYTES} random bytes, e.g. the output of "
                "`python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`, or unset it "
                "for a random key that lasts as long as the process")

    def _check_cluster(self) -> None:
        if self.LEASE_SECONDS < 1 or self.FORWARD_SECONDS <= 0:
            raise ValueError("LEASE_SECONDS must be at least 1 and FORWARD_SECONDS positive")
        if self.REDIS_URL and not self.REDIS_URL.startswith(REDIS_SCHEMES):
            raise ValueError("REDIS_URL must start with redis:// or rediss:// (rediss: TLS)")
        if self.REDIS_URL and not self.DATABASE_URL.startswith(("postgres://", "postgresql")):
            raise ValueError("REDIS_URL runs the lounge as a cluster, whose processes share "
                             "their rooms through PostgreSQL: set DATABASE_URL to a "
                             "postgresql:// URL")
        if not all(c.isalnum() or c in "-_" for c in self.CLUSTER_NAME):
            raise ValueError("CLUSTER_NAME may hold only letters, digits, - and _")

    @property
    def turn_times(self) -> tuple[int, ...]:
        """The turn times a host may choose, in seconds."""
        return tuple(int(t) for t in self.TURN_TIMES)

    @property
    def clustered(self) -> bool:
        """Whether this process is one of a cluster (REDIS_URL is set)."""
        return bool(self.REDIS_URL)

    def with_overrides(self, **changes: object) -> Config:
        """A copy with some settings changed."""
        return replace(self, **changes)


def _parse(kind: type, text: str) -> object:
    if kind is bool:
        return text.strip().lower() in ("1", "true", "yes", "on")
    if kind is tuple:
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return kind(text)


def from_env(environ: dict[str, str] | None = None) -> Config:
    """The settings named in the environment; the defaults for the rest."""
    environ = os.environ if environ is None else environ
    kinds = {"int": int, "float": float, "str": str, "bool": bool, "tuple[str, ...]": tuple}
    values: dict[str, object] = {}
    for f in fields(Config):
        text = environ.get(f.name)
        if text is None or text == "":
            continue
        try:
            values[f.name] = _parse(kinds[str(f.type)], text)
        except ValueError as exc:
            raise ValueError(f"{f.name}={text!r} is not a valid {f.type}") from exc
    return Config(**values)
