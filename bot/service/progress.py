"""Visible progress for long work: a replay of eighty frames takes seconds, and a member who sees only
"thinking…" (or a console that says nothing) cannot tell a busy bot from a stuck one.

The work reports ``(done, total)`` through a `Progress` callback; the service turns that into a
catalog line and hands it to the adapter's `Report` (`Context.progress`), which shows it its own
way — an edit of the deferred answer on Discord, a printed line in the console — each at most
once per `Throttle` interval, so a fast loop does not flood Discord's rate limits or the terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.service.replies import Message

#: what long work calls as it goes: (steps done, steps in all)
Progress = Callable[[int, int], None]
#: what an adapter gives the service to show a progress line (called in the service's thread)
Report = Callable[[Message], None]

#: how often an adapter shows a progress line, at most (Discord allows 5 edits of a message per 5 s)
PROGRESS_SECONDS = 2.0


def progress_line(report: Report | None, key: str, **params: object) -> Progress | None:
    """A `Progress` that words each step as `key` (with ``done`` and ``total``) for `report`; None
    when nobody listens, so the work skips its reporting altogether."""
    if report is None:
        return None
    return lambda done, total: report(Message(key, {**params, "done": done, "total": total}))


@dataclass
class Throttle:
    """Lets a report through at most once every `interval` seconds of `clock`. `last` is when the
    previous one went through: None lets the next one through at once, a start time holds the first
    back until the work has lasted `interval` (quick work then shows no progress at all)."""

    interval: float
    clock: Callable[[], float] = time.monotonic
    last: float | None = None

    def due(self) -> bool:
        now = self.clock()
        if self.last is not None and now - self.last < self.interval:
            return False
        self.last = now
        return True
