"""A game's rules as `/game rules` posts them: the rules document the game ships beside its words
(``rules.en.md``, in French ``rules.fr.md``, in the folder of its presenter: package data, so an
installed bot has them as a checkout does), cut into pages a Discord message holds (2,000 characters), each cut between
paragraphs — a table or a list too long for one page between its lines — so a page never breaks a
sentence. The documents are the rules players and GMs quote (rule ids such as HA-12); the bot posts
them rather than a path in a repository a Discord player cannot open.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from bot.games import entry_for, words_folder

#: the characters of the document a page holds: a Discord message's 2,000 less its header line
PAGE_CHARS = 1900
#: a paragraph that only links to the document in the other language (a repository path, and the
#: reader already reads theirs)
_OTHER_LANGUAGE = re.compile(r"^\*\(.*\]\([\w.]+\.md\)\.?\)\*$")


def rules_path(kind: str, language: str) -> Path:
    """The rules document of `kind` in `language` (French ``rules.fr.md``, every other English)."""
    return words_folder(entry_for(kind)) / ("rules.fr.md" if language == "fr" else "rules.en.md")


@cache
def rules_pages(kind: str, language: str) -> tuple[str, ...]:
    """The rules of `kind` in `language`, a page at a time (read once per process: they ship with it);
    none for a game without a document (the test games: their summary is all they have)."""
    path = rules_path(kind, language)
    if not path.exists():
        return ()
    text = path.read_text(encoding="utf-8")
    paragraphs = [p.strip("\n") for p in text.split("\n\n") if p.strip() and not _OTHER_LANGUAGE.match(p.strip())]
    return tuple(pages_of(paragraphs, PAGE_CHARS))


def pages_of(paragraphs: list[str], limit: int) -> list[str]:
    """`paragraphs` gathered into pages of at most `limit` characters, cut between paragraphs; a
    paragraph longer than a page is cut between its lines (a line longer than a page: within it)."""
    pages: list[str] = []
    current = ""
    for piece in (part for paragraph in paragraphs for part in _pieces(paragraph, limit)):
        joined = f"{current}\n\n{piece}" if current else piece
        if len(joined) <= limit:
            current = joined
            continue
        pages.append(current)
        current = piece
    return [*pages, current] if current else pages


def _pieces(paragraph: str, limit: int) -> list[str]:
    """A paragraph as parts of at most `limit` characters: itself when it fits, else runs of its
    lines (a line longer than a page, which no document has, cut where the page ends)."""
    if len(paragraph) <= limit:
        return [paragraph]
    lines = [line[i:i + limit] for line in paragraph.split("\n") for i in range(0, max(len(line), 1), limit)]
    parts, current = [], ""
    for line in lines:
        joined = f"{current}\n{line}" if current else line
        if len(joined) <= limit:
            current = joined
        else:
            parts.append(current)
            current = line
    return [*parts, current] if current else parts
