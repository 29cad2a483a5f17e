"""The `;`-separated batch every game's order language shares: words with their positions, cut into
segments, so each game parses one segment its own way and every error points into the typed text."""

from __future__ import annotations

import re
from typing import Any

from engine.core.errors import OrderError

_TOKEN_RE = re.compile(r";|[^\s;]+")

#: one segment's words, each with its offset in the text, and where the segment ends
Segment = tuple[list[tuple[str, int]], int]


def segments(text: str) -> list[Segment]:
    """The segments of `text` between `;`; none for a text without a word. A part with no order
    (``a;;b``, ``a;``, ``;``) is refused wherever it is, naming it (``bad_syntax``, reason
    ``empty_order``, its 1-based number as `order`, `position` the `;` beside it): a stray `;` is
    never silently skipped in one place and an error in another."""
    found: list[list[tuple[str, int]]] = [[]]
    ends: list[int] = []
    for match in _TOKEN_RE.finditer(text):
        if match.group() == ";":
            ends.append(match.start())
            found.append([])
        else:
            found[-1].append((match.group(), match.start()))
    ends.append(len(text))
    if len(found) == 1 and not found[0]:
        return []
    for number, (words, end) in enumerate(zip(found, ends, strict=True), start=1):
        if not words:
            semicolon = end if number < len(found) else ends[number - 2]
            raise OrderError("bad_syntax", reason="empty_order", expected="order", got=";", position=semicolon,
                             order=number)
    return list(zip(found, ends, strict=True))


def segment_text(text: str, segment: Segment) -> str:
    """What was typed for one segment, from its first word to its end (``tir Dee``)."""
    words, end = segment
    return text[words[0][1] : end].strip()


def in_batch(err: OrderError, number: int, typed: str) -> OrderError:
    """`err` raised by the `number`-th order (1-based) of a batch, typed `typed`: the same refusal,
    saying which order it is (`batch_order`, `batch_text`), since all or nothing was applied."""
    params: dict[str, Any] = {**err.params, "batch_order": number, "batch_text": typed}
    return OrderError(err.code, **params)
