"""A results file the draws package refused (`DrawFileError`: a code, the file, line and column),
in a sentence of the reader's language: ``spacechess draws import`` says what is wrong and where,
never a code with its raw parameters."""

from __future__ import annotations

from typing import Any

from bot.i18n import Count
from bot.service.refusals import known
from bot.service.replies import Message
from draws import DrawFileError

#: parameters that count the columns of a row or header ("1 column", "5 columns")
_COLUMN_COUNTS = ("columns", "found", "expected")


def draw_file_message(err: DrawFileError) -> Message:
    """``drawfile.refused``: where (file, line, column) and why (``drawfile.<code>``)."""
    params: dict[str, Any] = {key: Count(value, "drawfile.columns") if key in _COLUMN_COUNTS and type(value) is int
                              else value for key, value in err.params.items()}
    reason_key = f"drawfile.{err.code}"
    reason = Message(reason_key if known(reason_key) else "drawfile.other", params)
    if err.line is None:
        where: Any = ""
    elif err.column is None:
        where = Message("drawfile.line", {"line": err.line})
    else:
        where = Message("drawfile.cell", {"line": err.line, "column": err.column})
    return Message("drawfile.refused", {"file": err.file, "where": where, "reason": reason})
