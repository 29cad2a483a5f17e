"""A per-address rate limit: a token bucket for each client address, refilled as time passes.

A page, its board and its event stream are three requests; a reader clicking through the history
is a few more. The default (a burst of 60, then 5 a second) never slows a reader down and stops a
script hammering the server: it gets 429 until its bucket fills again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimit:
    def __init__(self, rate: float = 5.0, burst: int = 60, *, clock: Callable[[], float] = time.monotonic,
                 max_addresses: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._max = max_addresses
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, as of)

    def allow(self, address: str | None) -> bool:
        """Whether `address` may make one more request now (it spends a token if so)."""
        key = address or "?"
        now = self._clock()
        with self._lock:
            tokens, since = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) * self.rate)
            allowed = tokens >= 1.0
            self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
            if len(self._buckets) > self._max:
                self._forget_full(now)
        return allowed

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that are full again: those addresses are as new (keeps the table small)."""
        for key, (tokens, since) in list(self._buckets.items()):
            if tokens + (now - since) * self.rate >= self.burst:
                del self._buckets[key]
