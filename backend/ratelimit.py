"""Token buckets, one per key: events per identity, and per client address REST writes, new
identities, new connections and history reads."""

from __future__ import annotations

import time
from collections import OrderedDict


class TokenBucket:
    """``rate`` tokens a second, up to ``burst``; each event takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """Whether one more event is allowed now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class KeyedLimiter:
    """One bucket per key (e.g. a client address), remembering at most ``max_keys`` keys."""

    def __init__(self, rate: float, burst: float, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    @classmethod
    def per_minute(cls, rate: float) -> KeyedLimiter:
        """``rate`` a minute per key, as many at once."""
        return cls(rate / 60.0, max(1.0, rate))

    def take(self, key: str) -> bool:
        """Whether one more event from ``key`` is allowed now."""
        bucket = self._buckets.pop(key, None) or TokenBucket(self.rate, self.burst)
        self._buckets[key] = bucket
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return bucket.take()
