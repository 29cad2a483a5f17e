"""Player-facing text in French and English.

Every sentence the bot shows comes from a catalog (``fr.json``, ``en.json``) by key, with named
``{placeholders}``; code never builds sentences. A test keeps both catalogs with the same keys and
the same placeholders. Discord locales (``en-US``, ``fr``) are reduced to the language.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


#: folders holding more of the catalog, one ``strings.<language>.json`` each: every game's own words
#: beside its code (`bot.games` names its games' folders), read with the shared catalog
_folders: list[Path] = []


_catalogs: dict[str, dict[str, str]] = {}


def catalog(language: str) -> dict[str, str]:
    """The catalog of one language: the shared words, then each game's (read once; the files ship
    with the package)."""
    words = _catalogs.get(language)
    if words is None:
        text = resources.files(__package__).joinpath(f"{language}.json").read_text(encoding="utf-8")
        words = json.loads(text)
        for folder in _folders:
            _merge(words, _read(folder, language), f"{folder}")
        _catalogs[language] = words
    return words


def _read(folder: Path, language: str) -> dict[str, str]:
    path = folder / f"strings.{language}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _merge(words: dict[str, str], more: Mapping[str, str], source: str) -> None:
    taken = set(more) & set(words)
    if taken:
        raise ValueError(f"{source}: keys already in the catalog: {sorted(taken)}")
    words.update(more)


def add_strings_folder(folder: Path) -> None:
    """A game's own words, in `folder`'s ``strings.<language>.json`` (into catalogs already read, too)."""
    if folder in _folders:
        return
    _folders.append(folder)
    for language, words in _catalogs.items():
        _merge(words, _read(folder, language), f"{folder}")


def add_strings(language: str, strings: Mapping[str, str]) -> None:
    """More text for one language, from outside the shipped catalogs (a test-only game's commands
    and events); a key of the catalogs is never replaced."""
    _merge(catalog(language), strings, "add_strings")


def language_of(locale: str | None, fallback: str = DEFAULT_LANGUAGE) -> str:
    """The catalog language for a Discord locale such as ``en-US``; unknown locales fall back."""
    if locale:
        lang = locale.split("-")[0].split("_")[0].lower()
        if lang in LANGUAGES:
            return lang
    return fallback if fallback in LANGUAGES else DEFAULT_LANGUAGE


@dataclass(frozen=True)
class Count:
    """A number with its noun, agreed in the reader's language: ``Count(2, "sc.cells")`` reads
    "2 cells", ``Count(1, ...)`` "1 cell" (French also puts 0 in the singular). The catalog value
    holds the singular and the plural form separated by ``|``, each with ``{n}``."""

    n: int
    key: str


@dataclass(frozen=True)
class Listing:
    """Several values read as one list in the reader's language: "a, b and c" with
    `conjunction` (``word.and``, spaces included), "a, b, c" without; each item is shown as any
    value is (a label Message becomes its words), and an empty list reads ``word.none``."""

    items: tuple[Any, ...]
    conjunction: bool = False
    separator: str = ", "  # " " for sentences, each ending with its own full stop


def plural_index(language: str, n: int) -> int:
    """0 for the singular form, 1 for the plural: French counts 0 and 1 as singular, English 1 only."""
    if language == "fr":
        return 0 if abs(n) < 2 else 1
    return 0 if abs(n) == 1 else 1


class _Params(dict):
    """Missing placeholders render as ``{name}`` instead of raising: a reply is never lost to a typo.
    A placeholder naming a command (``{/gm resume}``) is that command as the reader types it."""

    def __init__(self, values: Mapping[str, Any], language: str = DEFAULT_LANGUAGE) -> None:
        super().__init__(values)
        self.language = language

    def __missing__(self, key: str) -> str:
        if key.startswith(COMMAND_MARK):
            return command_text(key, self.language)
        return "{" + key + "}"


#: what starts a placeholder that names a command (``{/gm resume}``, ``{/gm clock extend:}``)
COMMAND_MARK = "/"


def placeholders(template: str) -> set[str]:
    """The values a template needs (`commands_in` lists the commands it names)."""
    return {field for _, field, _, _ in string.Formatter().parse(template)
            if field and not field.startswith(COMMAND_MARK)}


def commands_in(template: str) -> list[str]:
    """The commands a template names, as written (``/gm clock extend``)."""
    return [field for _, field, _, _ in string.Formatter().parse(template)
            if field and field.startswith(COMMAND_MARK)]


def command_name(path: str, language: str) -> str:
    """A command as a reader of `language` types it (``/partie plateau``): the names Discord shows
    them, from the ``name.group.*`` and ``name.sub.*`` keys (a group's own ``name.sub.<group>.<sub>``
    first), the English word where there is none."""
    words = catalog(language)
    group, _, sub = path.partition(" ")
    local = [words.get(f"name.group.{group}", group)]
    if sub:
        local.append(words.get(f"name.sub.{group}.{sub}") or words.get(f"name.sub.{sub}", sub))
    return " ".join(local)


def option_name(option: str, language: str) -> str:
    """An option's name as a reader of `language` types it (``nom:``)."""
    return catalog(language).get(f"name.option.{option}", option)


def command_text(written: str, language: str) -> str:
    """A command a template or a reply names, as a reader of `language` types it: ``/gm clock extend``
    (the group, the subcommand, then any options) reads ``/mj pendule prolonger:`` in French. Replies
    name commands this way only (``{/gm resume}`` in a template, `CommandText` as a value), so a
    French reader is never told to type an English command Discord does not show them."""
    words = written.removeprefix(COMMAND_MARK).split()
    options = [option_name(word.rstrip(":"), language) + ":" for word in words[2:]]
    return " ".join([COMMAND_MARK + command_name(" ".join(words[:2]), language), *options])


def choice_key(option: str, value: str, group: str = "") -> str | None:
    """The catalog key of a choice's label, the words Discord shows for it (French players pick
    "soldat", "légère", "manuel"): the first of ``word.choice.<option>.<value>``, the game's own
    ``<group>.<option>.<value>`` (``ak.kind.basic``) and ``label.<value>``; None for a choice
    without words (then shown as its value)."""
    words = catalog("en")
    keys = (f"word.choice.{option}.{value}", f"{group}.{option}.{value}" if group else "", f"label.{value}")
    return next((key for key in keys if key and key in words), None)


def choice_name(option: str, value: str, language: str, group: str = "") -> str:
    """A choice as a reader of `language` sees it on Discord (`choice_key`)."""
    key = choice_key(option, value, group)
    return translate(key, language) if key is not None else value


def choice_aliases(option: str, value: str, language: str) -> list[str]:
    """Other words a reader of `language` may type for a choice, as the guides, the seed and the
    order language name it (``frappe`` for the air strike, ``lunette de visée`` for the scope):
    ``alias.<value>`` and ``word.choice.also.<value>`` (every option holding the value), and
    ``word.choice.also.<option>.<value>`` (a value whose words depend on the option: ``all``,
    ``off``), ``|`` between words (``-`` for none: the other language has some)."""
    words = catalog(language)
    keys = (f"alias.{value}", f"word.choice.also.{value}", f"word.choice.also.{option}.{value}")
    typed = "|".join(words.get(key, "") for key in keys).split("|")
    return [word.strip() for word in typed if word.strip() not in ("", "-")]


@dataclass(frozen=True)
class OptionText:
    """An option named by a reply's value (a refusal's ``option``), read as `option_name`."""

    name: str


@dataclass(frozen=True)
class ChoiceText:
    """A choice named by a reply's value (a refusal's ``choices``), read as `choice_name`."""

    option: str
    value: str
    group: str = ""


@dataclass(frozen=True)
class CommandText:
    """A command named by a reply's value (``CommandText("sc join")``), read as `command_text`;
    `code` quotes it as code (``/sc rejoindre`` in backticks), for lists of commands."""

    path: str
    code: bool = False


def translate(key: str, language: str, params: Mapping[str, Any] | None = None) -> str:
    """The text of `key` in `language` (English, then the key itself, when it is missing)."""
    template = catalog(language).get(key) or catalog("en").get(key) or key
    values = _Params({k: _display(v, language) for k, v in (params or {}).items()}, language)
    return string.Formatter().vformat(template, (), values)


def _display(value: Any, language: str) -> Any:
    """Lists read as comma-separated text; booleans and None as words of the language.

    A value with ``key`` and ``params`` (a service Message) is translated in place, so a reply can
    nest localised fragments; a list of them is joined without separator (each carries its own).
    """
    if isinstance(value, CommandText):
        text = command_text(value.path, language)
        return f"`{text}`" if value.code else text
    if isinstance(value, OptionText):
        return option_name(value.name, language)
    if isinstance(value, ChoiceText):
        return choice_name(value.option, value.value, language, value.group)
    if isinstance(value, Count):
        forms = (catalog(language).get(value.key) or catalog("en").get(value.key) or value.key).split("|")
        return forms[min(plural_index(language, value.n), len(forms) - 1)].strip().format(n=value.n)
    if isinstance(value, Listing):
        words = [str(_display(item, language)) for item in value.items]
        if not words:
            return catalog(language).get("word.none", "-")
        if value.conjunction and len(words) > 1:
            return value.separator.join(words[:-1]) + catalog(language).get("word.and", " & ") + words[-1]
        return value.separator.join(words)
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
