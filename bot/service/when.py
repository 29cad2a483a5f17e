"""Days and times as a reader writes them, in Paris time: « samedi 1er mars 2025 », « mercredi
2 décembre à 20 h 35 », "Wednesday 2 December, 20:35 Paris time" — never an ISO date or UTC.

The lottery's draws are Paris events (FDJ draws at 20:35 Paris time whatever the season), and the
community reads French dates; a Discord timestamp shows each reader their own zone, but an image
or a console line cannot, so it says Paris time. The result is a catalog `Message` made of
messages and numbers only, so a post stored in the outbox keeps it and words it when it is sent,
in the language of that moment.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from bot.service.replies import Message

PARIS = ZoneInfo("Europe/Paris")


def _day_params(day: dt.date) -> dict[str, object]:
    return {"weekday": Message(f"when.weekday.{day.weekday()}"),
            "day": Message("when.first") if day.day == 1 else day.day,
            "month": Message(f"when.month.{day.month}"), "year": day.year}


def day_words(day: dt.date) -> Message:
    """A date with its weekday, day, month and year: « samedi 1er mars 2025 »."""
    return Message("when.day", _day_params(day))


def moment_words(moment: dt.datetime) -> Message:
    """A moment in Paris time, its day without the year (it is near): « mercredi 2 décembre à
    20 h 35 »; a naive moment is taken as UTC, the zone every stored time is in."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    local = moment.astimezone(PARIS)
    key = "when.moment" if local.minute else "when.moment.hour"
    return Message(key, {**_day_params(local.date()), "hour": local.hour, "minute": f"{local.minute:02d}"})
