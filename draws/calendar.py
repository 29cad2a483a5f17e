"""When FDJ Loto results are expected: Monday, Wednesday and Saturday evenings, Paris time.

The schedule is defined in Europe/Paris wall-clock time and every computation goes through
zoneinfo, because the UTC time of a draw moves by an hour twice a year; everything entering or
leaving this module is an aware datetime in UTC, which is what the bot stores.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from draws.errors import FutureDrawError
from draws.model import Draw

UTC = dt.UTC
#: The French Loto's first draw: no results exist before it.
FIRST_LOTO_DRAW = dt.date(1976, 5, 19)
MONDAY, WEDNESDAY, SATURDAY = 0, 2, 5


def _require_aware(name: str, value: dt.datetime) -> None:
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be an aware datetime (UTC), got naive {value!r}")


@dataclass(frozen=True)
class DrawSchedule:
    """Draw days (Python weekday numbers), the local time results are expected, and the zone.

    The time is when results are normally published (the draw itself is at about 20:20), so a
    poll at that moment usually finds them; a wall-clock time that does not exist on a spring DST
    day is taken with the winter offset, i.e. one hour later in summer time.
    """

    weekdays: tuple[int, ...] = (MONDAY, WEDNESDAY, SATURDAY)
    time: dt.time = dt.time(20, 35)
    timezone: str = "Europe/Paris"

    def __post_init__(self) -> None:
        if not self.weekdays or any(d not in range(7) for d in self.weekdays):
            raise ValueError(f"weekdays must be a non-empty set of 0..6, got {self.weekdays!r}")
        if self.time.tzinfo is not None:
            raise ValueError("time is a local wall-clock time: give it without tzinfo")
        ZoneInfo(self.timezone)

    def at(self, day: dt.date) -> dt.datetime:
        """The expected result time of `day` (a local date), in UTC."""
        local = dt.datetime.combine(day, self.time, tzinfo=ZoneInfo(self.timezone))
        return local.astimezone(UTC)

    def check_published(self, draws: Iterable[Draw], now: dt.datetime) -> None:
        """Raise `FutureDrawError` for the first draw whose expected result time is after `now`."""
        _require_aware("now", now)
        for draw in draws:
            if self.at(draw.date) > now:
                raise FutureDrawError(draw.date.isoformat(), self.at(draw.date).isoformat())

    def local_date(self, moment: dt.datetime) -> dt.date:
        return moment.astimezone(ZoneInfo(self.timezone)).date()

    def next_after(self, after: dt.datetime) -> dt.datetime:
        _require_aware("after", after)
        day = self.local_date(after)
        # Today's draw may already be past: the same weekday a week later is the farthest answer.
        days = (day + dt.timedelta(days=offset) for offset in range(8))
        return next(self.at(d) for d in days if d.weekday() in self.weekdays and self.at(d) > after)

    def between(self, start: dt.datetime, end: dt.datetime) -> list[dt.datetime]:
        """Expected draws with start < time <= end (the draws a poll at `end` may have missed)."""
        _require_aware("start", start)
        _require_aware("end", end)
        found = []
        day, last = self.local_date(start), self.local_date(end)
        while day <= last:
            if day.weekday() in self.weekdays and start < self.at(day) <= end:
                found.append(self.at(day))
            day += dt.timedelta(days=1)
        return found


FDJ_LOTO = DrawSchedule()


def next_expected_draw(after: dt.datetime, schedule: DrawSchedule = FDJ_LOTO) -> dt.datetime:
    """The first expected draw strictly after `after` (aware), as an aware UTC datetime."""
    return schedule.next_after(after)


def expected_draws_between(
    start: dt.datetime, end: dt.datetime, schedule: DrawSchedule = FDJ_LOTO
) -> list[dt.datetime]:
    """Every expected draw with start < time <= end, in order, as aware UTC datetimes."""
    return schedule.between(start, end)
