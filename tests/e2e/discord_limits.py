"""Discord's limits on application commands, checked on a sync payload without Discord.

Discord rejects the whole bulk overwrite when one field breaks a limit (error 50035), and the bot
then starts with no commands at all. The rules follow Discord's documentation of application
commands; names must match ``^[-_'\\p{L}\\p{N}]{1,32}$`` (the `regex` module is not a dependency, so
letters and numbers are recognised with unicodedata, which gives the same Unicode categories).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import discord

LOCALES = frozenset(locale.value for locale in discord.Locale)
MAX_COMMANDS = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
NAME_MAX = 32
DESCRIPTION_MAX = 100
CHOICE_MAX = 100
MAX_TOTAL_CHARACTERS = 4000  # names, descriptions and choices of one command, per locale
SUBCOMMAND, GROUP, STRING = 1, 2, 3
_NAME_PUNCTUATION = frozenset("-_'")


def is_valid_name(name: str) -> bool:
    """``^[-_'\\p{L}\\p{N}]{1,32}$`` and lowercase (Discord refuses a letter that has a lowercase form)."""
    return (
        1 <= len(name) <= NAME_MAX
        and all(char in _NAME_PUNCTUATION or unicodedata.category(char)[0] in "LN" for char in name)
        and name == name.lower()
    )


def problems(payload: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every limit the payload breaks, as ``where: what`` lines (empty when Discord would accept it)."""
    found: list[str] = []
    if len(payload) > MAX_COMMANDS:
        found.append(f"{len(payload)} top-level commands (at most {MAX_COMMANDS})")
    found += _duplicates(payload, "top level")
    for command in payload:
        where = f"/{command.get('name')}"
        found += _texts(command, where)
        found += _options(command.get("options") or [], where, depth=0)
        found += _total_characters(command, where)
    return found


def _duplicates(items: Sequence[Mapping[str, Any]], where: str) -> list[str]:
    names = [item.get("name") for item in items]
    return [f"{where}: name {name!r} used twice" for name in sorted({n for n in names if names.count(n) > 1})]


def _texts(item: Mapping[str, Any], where: str) -> list[str]:
    """Name, description and their localisations."""
    found = []
    name = item.get("name", "")
    if not is_valid_name(name):
        found.append(f"{where}: invalid name {name!r}")
    description = item.get("description", "")
    if not 1 <= len(description) <= DESCRIPTION_MAX:
        found.append(f"{where}: description of {len(description)} characters (1 to {DESCRIPTION_MAX})")
    for locale, text in (item.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            found.append(f"{where}: unknown locale {locale!r} in name_localizations")
        if not is_valid_name(text):
            found.append(f"{where}: invalid {locale} name {text!r}")
    for locale, text in (item.get("description_localizations") or {}).items():
        if locale not in LOCALES:
            found.append(f"{where}: unknown locale {locale!r} in description_localizations")
        if not 1 <= len(text) <= DESCRIPTION_MAX:
            found.append(f"{where}: {locale} description of {len(text)} characters (1 to {DESCRIPTION_MAX})")
    return found


def _options(options: Sequence[Mapping[str, Any]], where: str, depth: int) -> list[str]:
    found = []
    if len(options) > MAX_OPTIONS:
        found.append(f"{where}: {len(options)} options or subcommands (at most {MAX_OPTIONS})")
    found += _duplicates(options, where)
    kinds = {option.get("type") in (SUBCOMMAND, GROUP) for option in options}
    if len(kinds) > 1:
        found.append(f"{where}: subcommands mixed with plain options")
    seen_optional = False
    for option in options:
        inner = f"{where} {option.get('name')}"
        found += _texts(option, inner)
        kind = option.get("type")
        if kind in (SUBCOMMAND, GROUP):
            if kind == GROUP and depth > 0 or kind == SUBCOMMAND and depth > 1:
                found.append(f"{inner}: nested too deep")
            children = option.get("options") or []
            if kind == GROUP and any(child.get("type") != SUBCOMMAND for child in children):
                found.append(f"{inner}: a group holds only subcommands")
            found += _options(children, inner, depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                found.append(f"{inner}: required option after an optional one")
        else:
            seen_optional = True
        found += _choices(option, inner)
        for key in ("min_length", "max_length"):
            if key in option and not (0 if key == "min_length" else 1) <= option[key] <= 6000:
                found.append(f"{inner}: {key} {option[key]} out of 0..6000")
    return found


def _choices(option: Mapping[str, Any], where: str) -> list[str]:
    choices = option.get("choices") or []
    found = []
    if len(choices) > MAX_CHOICES:
        found.append(f"{where}: {len(choices)} choices (at most {MAX_CHOICES})")
    if choices and option.get("autocomplete"):
        found.append(f"{where}: choices and autocomplete together")
    for choice in choices:
        label = choice.get("name", "")
        if not 1 <= len(label) <= CHOICE_MAX:
            found.append(f"{where}: choice name {label!r} not 1 to {CHOICE_MAX} characters")
        for locale, text in (choice.get("name_localizations") or {}).items():
            if locale not in LOCALES or not 1 <= len(text) <= CHOICE_MAX:
                found.append(f"{where}: choice {label!r} has a bad {locale} name {text!r}")
        value = choice.get("value")
        if option.get("type") == STRING and not (isinstance(value, str) and 1 <= len(value) <= CHOICE_MAX):
            found.append(f"{where}: choice value {value!r} not 1 to {CHOICE_MAX} characters")
    return found


def _total_characters(command: Mapping[str, Any], where: str) -> list[str]:
    """Discord adds up names, descriptions and choices of a command in each locale (default included)."""
    found = []
    for locale in (None, *sorted(LOCALES)):
        total = _characters(command, locale)
        if total > MAX_TOTAL_CHARACTERS:
            found.append(f"{where}: {total} characters in locale {locale or 'default'} (at most {MAX_TOTAL_CHARACTERS})")
    return found


def _characters(item: Mapping[str, Any], locale: str | None) -> int:
    def text(key: str) -> str:
        localised = (item.get(f"{key}_localizations") or {}).get(locale) if locale else None
        return localised or str(item.get(key, ""))

    total = len(text("name")) + len(text("description"))
    for choice in item.get("choices") or ():
        total += _characters(choice, locale) + len(str(choice.get("value", "")))
    return total + sum(_characters(option, locale) for option in item.get("options") or ())
