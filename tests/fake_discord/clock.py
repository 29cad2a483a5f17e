"""The fake Discord's clock: real time for bot processes, a hand-turned one for tests of deadlines.

Discord's deadlines are long (15 minutes for an interaction token, an hour before an edit counts as
an edit of an old message); a test advances a :class:`ManualClock` instead of sleeping through them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

Clock = Callable[[], float]  # Unix seconds


class ManualClock:
    """Stands still until advanced; thread-safe, as the fake reads it from its own loop."""

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
