"""The catalog's words as HTML: what Discord renders from its markup, the page renders from tags.

A catalog text is written for Discord (``**bold**``, ``~~struck~~``, `` `code` ``, mentions
``<@123>``, timestamps ``<t:1700000000:R>``). Here it is escaped first, then each of those becomes
its HTML: a timestamp a `<time>` the page's script shows in the reader's own time zone, a mention
"a member" (a page never shows a Discord id: the web knows no member's name).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from markupsafe import Markup, escape

from bot.i18n import PARIS, format_moment, format_relative, translate

_TIME = re.compile(r"&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;")
_MENTION = re.compile(r"&lt;(?:@&amp;|@!?|#)\d+&gt;")
_MARKUP = (
    (re.compile(r"\*\*(.+?)\*\*", re.DOTALL), r"<strong>\1</strong>"),
    (re.compile(r"~~(.+?)~~", re.DOTALL), r"<del>\1</del>"),
    (re.compile(r"`([^`]+?)`"), r"<code>\1</code>"),
    (re.compile(r"\|\|(.+?)\|\|", re.DOTALL), r"\1"),
    (re.compile(r"__(.+?)__", re.DOTALL), r"\1"),
)


def html_text(text: str, language: str, now: dt.datetime) -> Markup:
    """Discord-flavoured `text` as safe HTML for a reader of `language` at `now`."""
    escaped = str(escape(text))

    def moment(match: re.Match[str]) -> str:
        at = dt.datetime.fromtimestamp(int(match.group(1)), dt.UTC)
        if match.group(2) == "R":
            shown = format_relative(at, now, language)
            return f'<time datetime="{at.isoformat()}">{escape(shown)}</time>'
        shown = format_moment(at, language, PARIS)
        return f'<time datetime="{at.isoformat()}" data-local="1">{escape(shown)}</time>'

    escaped = _TIME.sub(moment, escaped)
    escaped = _MENTION.sub(str(escape(translate("web.member", language))), escaped)
    for pattern, tag in _MARKUP:
        escaped = pattern.sub(tag, escaped)
    return Markup(escaped.replace("\n", "<br>"))


def html_message(message: Any, language: str, now: dt.datetime) -> Markup:
    """A catalog `Message` in `language`, as HTML (`html_text`)."""
    return html_text(translate(message.key, language, message.params), language, now)
