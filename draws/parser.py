"""Reading FDJ Loto result files (CSV, or a ZIP holding one CSV) into `Draw` values.

All or nothing: a file is fully validated before anything is returned, and the first bad row
raises `DrawFileError` naming the file, the line and the column. A half-imported archive would
leave games with some draws applied and others silently missing, which nobody could untangle.
Validation is deliberately stricter than FDJ's own consistency (see the README of the real files):
the redundant columns (day name, sorted combination) are cross-checked against the balls so a
shifted or hand-edited column cannot slip through as plausible numbers.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from draws.errors import DrawFileError, InvalidDrawValue
from draws.generations import Generation, detect
from draws.model import Draw

#: (done_rows, total_rows), for a progress bar.
Progress = Callable[[int, int], None]

#: A member bigger than this is refused before decompression (FDJ's largest is ~0.7 MB).
MAX_MEMBER_BYTES = 64 * 1024 * 1024

WEEKDAYS = {
    name: number
    for number, names in enumerate(
        [
            ("LU", "LUNDI"),
            ("MA", "MARDI"),
            ("ME", "MERCREDI"),
            ("JE", "JEUDI"),
            ("VE", "VENDREDI"),
            ("SA", "SAMEDI"),
            ("DI", "DIMANCHE"),
        ]
    )
    for name in names
}

_COMBINATION = re.compile(r"(?P<main>\d+(?:-\d+)*)(?:\+(?P<extra>\d+))?")


class _Row:
    """One data row with its location, so every check can raise a located error."""

    def __init__(self, file: str, line: int, cells: dict[str, str]) -> None:
        self.file = file
        self.line = line
        self.cells = cells

    def fail(self, code: str, column: str | None = None, **params: object) -> DrawFileError:
        return DrawFileError(code, self.file, self.line, column, **params)

    def text(self, column: str) -> str:
        value = self.cells[column].strip()
        if not value:
            raise self.fail("missing_value", column)
        return value

    def number(self, column: str) -> int:
        value = self.text(column)
        if not (value.isascii() and value.isdigit()):
            raise self.fail("not_a_number", column, value=value)
        return int(value)


def _parse_date(row: _Row, gen: Generation) -> dt.date:
    value = row.text(gen.date)
    match = gen.date_pattern.fullmatch(value)
    try:
        if match is None:
            raise ValueError(value)
        day = dt.date(int(match["y"]), int(match["m"]), int(match["d"]))
    except ValueError:
        raise row.fail("bad_date", gen.date, value=value) from None
    weekday = row.text(gen.weekday).upper()
    if weekday not in WEEKDAYS:
        raise row.fail("bad_weekday", gen.weekday, value=weekday)
    if WEEKDAYS[weekday] != day.weekday():
        raise row.fail("weekday_mismatch", gen.weekday, value=weekday, date=day.isoformat())
    return day


def _check_combination(row: _Row, column: str, numbers: tuple[int, ...], extra: int | None) -> None:
    """The sorted combination column must restate the balls (and the chance number, '+n')."""
    value = row.text(column).replace(" ", "")
    match = _COMBINATION.fullmatch(value)
    if match is not None:
        main = tuple(int(n) for n in match["main"].split("-"))
        found_extra = None if match["extra"] is None else int(match["extra"])
        if main == tuple(sorted(numbers)) and found_extra == extra:
            return
    expected = "-".join(map(str, sorted(numbers))) + ("" if extra is None else f"+{extra}")
    raise row.fail("combination_mismatch", column, value=value, expected=expected)


def _column_of(gen: Generation, error: InvalidDrawValue) -> str | None:
    if error.field == "numbers" and error.position is not None:
        return gen.balls[error.position]
    if error.field == "second_numbers" and error.position is not None:
        return gen.second_balls[error.position]
    return {"complementary": gen.complementary, "chance": gen.chance, "index": gen.index}.get(error.field)


def _second_draw(row: _Row, gen: Generation) -> tuple[int, ...] | None:
    if not gen.second_balls or all(not row.cells[c].strip() for c in gen.second_balls):
        return None
    return tuple(row.number(c) for c in gen.second_balls)


def _parse_row(row: _Row, gen: Generation, source: str) -> Draw:
    day = _parse_date(row, gen)
    numbers = tuple(row.number(c) for c in gen.balls)
    chance = row.number(gen.chance) if gen.chance else None
    second = _second_draw(row, gen)
    try:
        draw = Draw(
            date=day,
            index=row.number(gen.index) if gen.index else 1,
            numbers=numbers,
            complementary=row.number(gen.complementary) if gen.complementary else None,
            chance=chance,
            second_numbers=second,
            source=source,
        )
    except InvalidDrawValue as error:
        raise row.fail(error.code, _column_of(gen, error), **error.params) from None
    _check_combination(row, gen.combination, numbers, chance)
    if gen.second_combination and second is not None:
        _check_combination(row, gen.second_combination, second, None)
    return draw


def _decode(data: bytes) -> str:
    """FDJ files are ASCII. Latin-1 decodes any byte, so a stray accented byte (Windows-1252 or
    Latin-1) in a column we do not read cannot stop an import; the columns we read are digits."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _records(reader: Any, file: str) -> Iterator[list[str]]:
    """The csv module's own refusals (a field over its size limit) become located file errors."""
    try:
        yield from reader
    except csv.Error as error:
        raise DrawFileError("bad_csv", file, reader.line_num, detail=str(error)) from None


def parse_csv_text(text: str, file: str, source: str = "fdj") -> list[Draw]:
    """Every draw of one CSV text, sorted by (date, index); raises `DrawFileError` on any fault."""
    if not text.strip():
        raise DrawFileError("empty_file", file)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=";")
    rows = _records(reader, file)
    raw_header = next(rows)
    # FDJ ends every line, header included, with ';' (one extra empty cell): when the header
    # does, a row's last cell is that separator, so a row that lost a cell is still caught.
    trailing = bool(raw_header) and raw_header[-1] == ""
    header = [c.strip() for c in (raw_header[:-1] if trailing else raw_header)]
    gen = detect(header, file)
    by_key: dict[tuple[dt.date, int], tuple[int, Draw]] = {}
    for raw in rows:
        if not raw:
            continue
        cells = raw[:-1] if trailing and raw[-1] == "" else raw
        line = reader.line_num
        if len(cells) != len(header):
            raise DrawFileError("bad_row_length", file, line, expected=len(header), found=len(cells))
        row = _Row(file, line, dict(zip(header, cells, strict=True)))
        draw = _parse_row(row, gen, source)
        if draw.key in by_key:
            first_line = by_key[draw.key][0]
            raise row.fail("duplicate_draw", gen.date, date=draw.date.isoformat(), first_line=first_line)
        by_key[draw.key] = (line, draw)
    if not by_key:
        raise DrawFileError("no_rows", file)
    return [by_key[key][1] for key in sorted(by_key)]


def _zip_member(data: bytes, file: str) -> tuple[str, bytes]:
    """The one file of an FDJ archive, whatever it is called (FDJ renamed it several times)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [
                m for m in archive.infolist() if not m.is_dir() and not m.filename.startswith("__MACOSX/")
            ]
            if len(members) != 1:
                raise DrawFileError("zip_members", file, names=[m.filename for m in members])
            member = members[0]
            if member.file_size > MAX_MEMBER_BYTES:
                raise DrawFileError("too_large", file, size=member.file_size, limit=MAX_MEMBER_BYTES)
            return member.filename, archive.read(member)
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise DrawFileError("bad_zip", file, detail=str(error)) from None


def is_zip(data: bytes) -> bool:
    return data.startswith((b"PK\x03\x04", b"PK\x05\x06"))


def parse_bytes(data: bytes, file: str, source: str = "fdj") -> list[Draw]:
    """A CSV or a ZIP holding one CSV (recognised by content, not by name)."""
    if not data.strip():
        raise DrawFileError("empty_file", file)
    if is_zip(data):
        member, data = _zip_member(data, file)
        file = f"{file}[{member}]"
    return parse_csv_text(_decode(data), file, source)


def parse_path(path: str | Path, source: str = "fdj") -> list[Draw]:
    """Every draw of a local CSV or ZIP file. I/O errors (missing file...) propagate as OSError."""
    path = Path(path)
    return parse_bytes(path.read_bytes(), str(path), source)


def iter_path(path: str | Path, progress: Progress | None = None, source: str = "fdj") -> Iterator[Draw]:
    """The draws of a file one at a time, reporting `progress(done, total)` as each is consumed.

    The whole file is validated before the first draw is yielded, so a consumer storing draws as
    they come can never store part of a bad file; the progress bar tracks the consumer's work.
    """
    draws = parse_path(path, source)
    total = len(draws)
    if progress is not None:
        progress(0, total)
    for done, draw in enumerate(draws, start=1):
        yield draw
        if progress is not None:
            progress(done, total)
