"""The `;`-separated batch every game's order language shares: words with their positions, cut into
segments, so each game parses one segment its own way and every error points into the typed text."""

from __future__ import annotations

import re

_TOKEN_RE = re.compile(r";|[^\s;]+")

#: one segment's words, each with its offset in the text, and where the segment ends
Segment = tuple[list[tuple[str, int]], int]


def segments(text: str) -> list[Segment]:
    """The non-empty segments of `text` between `;` (empty ones are ignored: ``a;;b`` is two)."""
    found: list[list[tuple[str, int]]] = [[]]
    ends: list[int] = []
    for match in _TOKEN_RE.finditer(text):
        if match.group() == ";":
            ends.append(match.start())
            found.append([])
        else:
            found[-1].append((match.group(), match.start()))
    ends.append(len(text))
    return [(words, end) for words, end in zip(found, ends, strict=True) if words]
