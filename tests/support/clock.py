"""A clock a test moves by hand, for services and drivers that read the time (`GameService(clock=)`)."""

from __future__ import annotations

import datetime as dt

#: the moment the clock shows until a test moves it
NOW = dt.datetime(2026, 12, 1, 18, 0, tzinfo=dt.UTC)


class Clock:
    """Stands still at `now` until the test sets `now` again."""

    def __init__(self, now: dt.datetime = NOW) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now
