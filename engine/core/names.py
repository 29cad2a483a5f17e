"""Names people give to characters and games: one check for every way a name comes in.

A name is shown in chat, in board images and in orders (``shoot Jean Luc``), and it identifies a
character; so the same rule applies whether it is typed in a game's ``join`` (``/sc join``),
written in a setup document or read from an imported game. Names are NFKC-normalised (full-width ``Ｃｉｄ`` is
``Cid``) with runs of whitespace folded to one space, and two names are the same name when their
`name_key` is equal (case- and accent-insensitive: ``Zoé`` is ``zoe``), so look-alikes cannot sit
side by side and a name is found however a keyboard typed it. `closest_name` is the one "did you
mean" of every name typed (a character, a ship, a player).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from engine.core.errors import SetupError

NAME_MAX = 32
#: besides letters (with their accents) and digits; no markdown, mention or order separator (`;`)
NAME_PUNCTUATION = frozenset(" -'.")


def normalise_name(text: str) -> str:
    """The stored form of a name: NFKC, trimmed, one space between words."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two names are compared by: `Cid`, `cid` and `Ｃｉｄ` are one name, as are `Zoé` and
    `ZOE` (cached: looking a character up by name compares it with every character of the game)."""
    decomposed = unicodedata.normalize("NFKD", normalise_name(name).casefold())
    return unicodedata.normalize("NFC", "".join(char for char in decomposed if not unicodedata.combining(char)))


#: how alike a typed name must be to a known one to be offered in its place (difflib's ratio)
CLOSE_ENOUGH = 0.6


def closest_name(typed: str, names: Iterable[str]) -> str | None:
    """The known name `typed` most likely meant (``Ursaa`` → ``Ursa``), compared as `name_key`
    does; None when none is close enough to offer."""
    known = {name_key(name): name for name in names}
    close = difflib.get_close_matches(name_key(typed), list(known), n=1, cutoff=CLOSE_ENOUGH)
    return known[close[0]] if close else None


def _allowed(char: str, previous: str) -> bool:
    """Letters, digits, the few punctuation marks, and accents that belong to a letter."""
    category = unicodedata.category(char)[0]
    if category in "LN" or char in NAME_PUNCTUATION:
        return True
    return category == "M" and previous != "" and unicodedata.category(previous)[0] in "LM"


def check_name(value: Any, where: str = "id") -> str:
    """The normalised name, or SetupError("bad_id", where) with a `reason` ("not_text", "length" or
    "char", with the refused `char`) and the `maximum` length; the refused value is never echoed,
    since it may be a megabyte long or a mention."""
    if not isinstance(value, str):
        raise SetupError("bad_id", where, reason="not_text", maximum=NAME_MAX)
    name = normalise_name(value)
    if not 1 <= len(name) <= NAME_MAX:
        raise SetupError("bad_id", where, reason="length", maximum=NAME_MAX)
    previous = ""
    for char in name:
        if not _allowed(char, previous):
            raise SetupError("bad_id", where, reason="char", char=char, maximum=NAME_MAX)
        previous = char
    return name
