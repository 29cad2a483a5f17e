"""Members' commands before the bot's own background passes (issue 28, "players first").

A draw reaching a thousand games applies each one's draw in a background thread of the same
interpreter as the members' commands: Python gives every thread an equal share of its lock, so
while the pass runs an order waits behind it as often as not. A pass that walks many games asks
`give_way` between two of them: while a member's command is being served it pauses a moment, long
enough for a command to run, short enough that its games stay ahead of the posts Discord takes
(about 45 a second: one every 22 ms)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: seconds a background pass pauses between two games while members' commands are being served
PAUSE_SECONDS = 0.01


class PlayersFirst:
    """How many members' commands are being served now, and the pause a background pass takes for them."""

    def __init__(self, pause: float = PAUSE_SECONDS, sleep: Callable[[float], None] = time.sleep) -> None:
        self.pause = pause
        self._sleep = sleep
        self._lock = threading.Lock()
        self._serving = 0

    @contextmanager
    def serving(self) -> Iterator[None]:
        """Around one member's command."""
        with self._lock:
            self._serving += 1
        try:
            yield
        finally:
            with self._lock:
                self._serving -= 1

    @property
    def busy(self) -> bool:
        return self._serving > 0

    def give_way(self) -> None:
        """Between two games of a background pass: a pause while members' commands are being served."""
        if self.busy:
            self._sleep(self.pause)
