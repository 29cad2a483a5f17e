"""Player-facing text in French and English.

Every sentence the bot shows comes from a catalog (``fr.json``, ``en.json``) by key, with named
``{placeholders}``; code never builds sentences. A test keeps both catalogs with the same keys and
the same placeholders. Discord locales (``en-US``, ``fr``) are reduced to the language.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


@cache
def catalog(language: str) -> dict[str, str]:
    """The catalog of one language (cached; the files ship with the package)."""
    text = resources.files(__package__).joinpath(f"{language}.json").read_text(encoding="utf-8")
    return json.loads(text)


def add_strings(language: str, strings: Mapping[str, str]) -> None:
    """More text for one language, from outside the shipped catalogs (a test-only game's commands
    and events); a key of the catalogs is never replaced."""
    taken = set(strings) & set(catalog(language))
    if taken:
        raise ValueError(f"keys already in the {language} catalog: {sorted(taken)}")
    catalog(language).update(strings)


def language_of(locale: str | None, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The catalog language for a Discord locale such as ``en-US``; unknown locales fall back."""
    if locale:
        lang = locale.split("-")[0].split("_")[0].lower()
        if lang in LANGUAGES:
            return lang
    return fallback if fallback in LANGUAGES else DEFAULT_LANGUAGE


class _Params(dict):
    """Missing placeholders render as ``{name}`` instead of raising: a reply is never lost to a typo."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def translate(key: str, language: str, params: Mapping[str, Any] | None = None) -> str:
    """The text of `key` in `language` (English, then the key itself, when it is missing)."""
    template = catalog(language).get(key) or catalog("en").get(key) or key
    values = _Params({k: _display(v, language) for k, v in (params or {}).items()})
    return string.Formatter().vformat(template, (), values)


def _display(value: Any, language: str) -> Any:
    """Lists read as comma-separated text; booleans and None as words of the language.

    A value with ``key`` and ``params`` (a service Message) is translated in place, so a reply can
    nest localised fragments; a list of them is joined without separator (each carries its own).
    """
    if hasattr(value, "key") and hasattr(value, "params"):
        return translate(value.key, language, value.params)
    if isinstance(value, list | tuple | set | frozenset):
        if value and all(hasattr(v, "key") and hasattr(v, "params") for v in value):
            return "".join(translate(v.key, language, v.params) for v in value)
        if not value:
            return catalog(language).get("word.none", "-")
        return ", ".join(str(_display(v, language)) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_display(v, language)}" for k, v in value.items())
    if value is None:
        return catalog(language).get("word.none", "-")
    if isinstance(value, bool):
        return catalog(language)["word.yes" if value else "word.no"]
    return value
