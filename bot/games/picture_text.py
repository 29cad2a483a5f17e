"""Chat lines made picture text: what a board's caption says is what the channel read, without the
Markdown and emoji a chat line carries (the bundled font draws neither)."""

from __future__ import annotations

import re

_EMOJI = re.compile("[\U00010000-\U0010ffff\u2600-\u27bf\ufe0f\u200d]")
_MARKDOWN = re.compile(r"\*\*|__|`")


def plain(text: str) -> str:
    """A chat line as picture text: no Markdown, no emoji (the bundled font has none), single spaces."""
    return " ".join(_MARKDOWN.sub("", _EMOJI.sub("", text)).split())
