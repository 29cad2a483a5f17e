"""FDJ result files for the bot's file source: the committed real slice, re-dated to evenings to come.

A game only gets draws expected after it started (docs/draws.md), and the game of a test starts
now, so its draws must be dated in the future. Each row is a real FDJ row with only its id, day name,
date and claim deadline changed, so it stays valid for the parser, which cross-checks the day name
against the date and the sorted combination against the balls; its numbers are FDJ's.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from draws import FDJ_LOTO, Draw, parse_csv_text
from tests.e2e.botproc import REPO_ROOT

SLICE = REPO_ROOT / "tests" / "draws" / "data" / "loto_2019_numero7_slice.csv"
DAY_NAMES = ("LUNDI", "MARDI", "MERCREDI", "JEUDI", "VENDREDI", "SAMEDI", "DIMANCHE")
DATE_FORMAT = "%d/%m/%Y"


def past_evenings(count: int, before: dt.datetime | None = None) -> list[dt.date]:
    """The last `count` draw evenings of the FDJ calendar whose results are out at `before` (now by
    default), oldest first: the bot refuses a draw dated after now."""
    moment = before or dt.datetime.now(dt.UTC)
    evenings: list[dt.date] = []
    day = FDJ_LOTO.local_date(moment)
    while len(evenings) < count:
        if day.weekday() in FDJ_LOTO.weekdays and FDJ_LOTO.at(day) <= moment:
            evenings.append(day)
        day -= dt.timedelta(days=1)
    return evenings[::-1]


class FdjFile:
    """A CSV in FDJ's current format (the header ending in numero_7) that grows a row per new draw
    (FDJ lists the newest first; the parser sorts, so appending keeps the test simple)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header, *self.templates = SLICE.read_text(encoding="ascii").splitlines()

    def create(self) -> Draw:
        """The file with FDJ's newest real row, unchanged: a draw from before any test's game."""
        self.path.write_text(f"{self.header}\n{self.templates[0]}\n", encoding="ascii")
        return self._parsed(self.templates[0])

    def publish(self, evening: dt.date, template: int) -> Draw:
        """Add the slice's row number `template`, re-dated to `evening`; the draw the bot will read."""
        row = self.redated(evening, template)
        with self.path.open("a", encoding="ascii") as file:
            file.write(row + "\n")
        return self._parsed(row)

    def extract(self, path: Path, evening: dt.date, template: int) -> Draw:
        """A file of its own holding one re-dated row, as `spacechess draws import` takes."""
        row = self.redated(evening, template)
        path.write_text(f"{self.header}\n{row}\n", encoding="ascii")
        return self._parsed(row)

    def redated(self, evening: dt.date, template: int) -> str:
        columns = self.header.split(";")
        cells = self.templates[template].split(";")
        date = dt.datetime.strptime(cells[columns.index("date_de_tirage")], DATE_FORMAT).date()
        deadline = dt.datetime.strptime(cells[columns.index("date_de_forclusion")], DATE_FORMAT).date()
        changes = {
            "annee_numero_de_tirage": f"{evening:%y}{evening.timetuple().tm_yday:03d}",
            "jour_de_tirage": DAY_NAMES[evening.weekday()],
            "date_de_tirage": evening.strftime(DATE_FORMAT),
            "date_de_forclusion": (evening + (deadline - date)).strftime(DATE_FORMAT),
        }
        for column, value in changes.items():
            cells[columns.index(column)] = value
        return ";".join(cells)

    def _parsed(self, row: str) -> Draw:
        (draw,) = parse_csv_text(f"{self.header}\n{row}\n", str(self.path))
        return draw
