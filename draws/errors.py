"""Errors of the draws package.

Like the engine, this package never produces sentences for players: every error carries a stable
`code` plus parameters, and the bot turns them into a localised message. The string form exists
for logs and for a person fixing a file by hand, so it names where the fault is.
"""

from __future__ import annotations

from typing import Any


def _describe(code: str, params: dict[str, Any]) -> str:
    detail = ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))
    return f"{code} ({detail})" if detail else code


class DrawError(Exception):
    """Base of every error raised by `draws`, so the bot can catch them all in one place."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(message)


class InvalidDrawValue(DrawError, ValueError):
    """A `Draw` built with values no lottery can produce (raised by the value itself).

    `field` names the Draw attribute and `position` the index inside a tuple field, so the parser
    can point at the exact CSV column and the manual entry at the exact number.
    """

    def __init__(self, code: str, field: str, position: int | None = None, **params: Any) -> None:
        self.field = field
        self.position = position
        where = field if position is None else f"{field}[{position}]"
        super().__init__(code, f"{where}: {_describe(code, params)}", **params)


class DrawFileError(DrawError):
    """A results file that cannot be imported; nothing of it was imported.

    `line` is the 1-based physical line (the header is line 1) and `column` the header name of
    the faulty cell, either of them None when the fault is not located there (empty file, bad ZIP).
    """

    def __init__(
        self, code: str, file: str, line: int | None = None, column: str | None = None, **params: Any
    ) -> None:
        self.file = file
        self.line = line
        self.column = column
        where = file
        if line is not None:
            where += f", line {line}"
        if column is not None:
            where += f", column {column}"
        super().__init__(code, f"{where}: {_describe(code, params)}", **params)


class ManualDrawError(DrawError):
    """A draw typed in by a game master that the parser would have refused in a file."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, _describe(code, params), **params)


class DrawSourceError(DrawError):
    """A source could not deliver draws (network, HTTP, size, archive or file content).

    `url` is the address (or local path) that failed last; `attempts` keeps the errors of the
    addresses tried before it, so a log shows why the mirror was needed too.
    """

    def __init__(
        self,
        code: str,
        url: str | None = None,
        detail: str = "",
        attempts: tuple[DrawSourceError, ...] = (),
        **params: Any,
    ) -> None:
        self.url = url
        self.detail = detail
        self.attempts = attempts
        text = f"{url}: {code}" if url else code
        if detail:
            text += f": {detail}"
        super().__init__(code, text, **params)


class FutureDrawError(DrawError):
    """A draw dated after now: its results cannot exist yet (a typo, a bad row in a file).

    Storing it would be worse than refusing it: games get their draws in date order, so every real
    draw before that date would then be skipped.
    """

    def __init__(self, date: str, expected: str) -> None:
        super().__init__("draw_in_future", f"draw of {date}: its results are not out before {expected}",
                         date=date, expected=expected)
