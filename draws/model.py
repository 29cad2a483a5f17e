"""The `Draw` value: one lottery draw exactly as published, whatever the Loto generation.

A draw is identified by (date, index): FDJ's own draw id is not unique (the old Loto reused one
id for the two draws of an evening, and for a Wednesday and the following Saturday) and changed
width several times, so it is not kept at all.

The value checks its own invariants, so a draw read back from storage (`from_json`) is as
trustworthy as one just parsed; the parser and the manual entry turn `InvalidDrawValue` into
their own located errors.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from draws.errors import InvalidDrawValue

BALLS = range(1, 50)
CHANCES = range(1, 11)
#: New Loto (2008+) draws 5 main numbers, the old Loto 6.
MAIN_COUNTS = (5, 6)
SECOND_DRAW_COUNT = 5
INDEXES = (1, 2)
#: The old Loto's last evening: 6 numbers and a complementary number (1..49) until then; from
#: 2008-10-06 the new Loto's 5 numbers and a chance number (1..10), never a complementary one.
LAST_OLD_LOTO_DRAW = dt.date(2008, 10, 4)


@dataclass(frozen=True)
class LotoFormat:
    """What the Loto drew on an evening (SC-13): how many main numbers, and whether a complementary."""

    name: str  # "old", "new"
    numbers: int
    complementary: bool


OLD_LOTO = LotoFormat("old", 6, True)
NEW_LOTO = LotoFormat("new", 5, False)


def loto_format(day: dt.date) -> LotoFormat:
    """The Loto of `day`'s evening: the old one until `LAST_OLD_LOTO_DRAW`, the new one after."""
    return OLD_LOTO if day <= LAST_OLD_LOTO_DRAW else NEW_LOTO


def _check_balls(field: str, values: tuple[int, ...]) -> None:
    seen: set[int] = set()
    for position, value in enumerate(values):
        if type(value) is not int or value not in BALLS:
            raise InvalidDrawValue("number_out_of_range", field, position, value=value)
        if value in seen:
            raise InvalidDrawValue("duplicate_number", field, position, value=value)
        seen.add(value)


@dataclass(frozen=True)
class Draw:
    date: dt.date
    index: int
    numbers: tuple[int, ...]
    complementary: int | None = None
    chance: int | None = None
    second_numbers: tuple[int, ...] | None = None
    source: str = "fdj"

    def __post_init__(self) -> None:
        if type(self.date) is not dt.date:
            raise InvalidDrawValue("bad_date", "date", value=self.date)
        if self.index not in INDEXES:
            raise InvalidDrawValue("bad_index", "index", value=self.index)
        if len(self.numbers) not in MAIN_COUNTS:
            raise InvalidDrawValue("bad_count", "numbers", count=len(self.numbers), expected=MAIN_COUNTS)
        _check_balls("numbers", self.numbers)
        if self.complementary is not None:
            if type(self.complementary) is not int or self.complementary not in BALLS:
                raise InvalidDrawValue("number_out_of_range", "complementary", value=self.complementary)
            if self.complementary in self.numbers:
                raise InvalidDrawValue("duplicate_number", "complementary", value=self.complementary)
        if self.chance is not None and (type(self.chance) is not int or self.chance not in CHANCES):
            raise InvalidDrawValue("chance_out_of_range", "chance", value=self.chance)
        if self.second_numbers is not None:
            if len(self.second_numbers) != SECOND_DRAW_COUNT:
                raise InvalidDrawValue(
                    "bad_count", "second_numbers", count=len(self.second_numbers), expected=SECOND_DRAW_COUNT
                )
            _check_balls("second_numbers", self.second_numbers)
        if not self.source:
            raise InvalidDrawValue("bad_source", "source", value=self.source)

    @property
    def manual(self) -> bool:
        """Typed by a game master (`manual_draw`), not read from FDJ's results."""
        return self.source.partition(":")[0] == "manual"

    @property
    def key(self) -> tuple[dt.date, int]:
        return (self.date, self.index)

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.date.isoformat(),
            "index": self.index,
            "numbers": list(self.numbers),
            "complementary": self.complementary,
            "chance": self.chance,
            "second_numbers": None if self.second_numbers is None else list(self.second_numbers),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Draw:
        """Rebuild a stored draw; a damaged record raises `InvalidDrawValue` naming the field."""
        try:
            day = dt.date.fromisoformat(data["date"])
        except (KeyError, TypeError, ValueError):
            raise InvalidDrawValue("bad_date", "date", value=data.get("date")) from None
        second = data.get("second_numbers")
        return cls(
            date=day,
            index=data.get("index"),
            numbers=numbers_tuple("numbers", data.get("numbers")),
            complementary=data.get("complementary"),
            chance=data.get("chance"),
            second_numbers=None if second is None else numbers_tuple("second_numbers", second),
            source=data.get("source", ""),
        )


def numbers_tuple(field: str, value: Any) -> tuple[int, ...]:
    """A list of numbers from JSON or a caller, refusing a string (whose characters would pass)."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidDrawValue("bad_numbers", field, value=value)
    return tuple(value)
