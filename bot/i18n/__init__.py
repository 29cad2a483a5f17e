"""Player-facing text in French and English.

Every sentence the bot shows comes from a catalog (``fr.json``, ``en.json``) by key, with named
``{placeholders}``; code never builds sentences. A test keeps both catalogs with the same keys and
the same placeholders. Discord locales (``en-US``, ``fr``) are reduced to the language.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"
#: the zone of the lottery's draws (FDJ draws in Paris), and of every time an image states
PARIS = "Europe/Paris"


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


@dataclass(frozen=True)
class Day:
    """A date read as the language writes it: "samedi 1er mars 2025", "Saturday 1 March 2025"."""

    day: dt.date


@dataclass(frozen=True)
class Moment:
    """A moment read as the language writes it, in `zone` (an IANA name; Paris by default, the draws'
    zone): "mercredi 2 décembre 2026 à 20 h 35", "Wednesday 2 December 2026, 8:35 pm". A naive
    `at` is taken as UTC, the zone every stored time is in."""

    at: dt.datetime
    zone: str = PARIS


def _zoned(moment: dt.datetime, zone: str | dt.tzinfo | None) -> dt.datetime:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    if zone is None:
        return moment.astimezone()  # the machine's own zone (the console's reader sits at it)
    if isinstance(zone, str):
        from zoneinfo import ZoneInfo

        zone = ZoneInfo(zone)
    return moment.astimezone(zone)


def format_day(day: dt.date, language: str) -> str:
    """`day` as readers of `language` write a date: weekday, day (French "1er" for the first),
    month and year, words from the ``date.*`` keys — never an ISO date."""
    words = catalog(language)
    number = words["date.first_day"] if day.day == 1 else str(day.day)
    return translate("date.day", language, {"weekday": words[f"date.weekday.{day.weekday()}"], "day": number,
                                            "month": words[f"date.month.{day.month}"], "year": day.year})


def format_time(moment: dt.datetime, language: str, zone: str | dt.tzinfo | None = PARIS) -> str:
    """The time of `moment` in `zone` as `language` writes it: "20 h 35" and "20 h", "8:35 pm" and
    "8 pm" (``date.clock_hours`` says whether the language counts 24 hours or twice 12)."""
    local = _zoned(moment, zone)
    half = "pm" if local.hour >= 12 else "am"
    hour = local.hour if catalog(language)["date.clock_hours"] == "24" else (local.hour - 1) % 12 + 1
    key = f"date.time.{half}" if local.minute else f"date.hour.{half}"
    return translate(key, language, {"hour": hour, "minute": f"{local.minute:02d}"})


def format_moment(moment: dt.datetime, language: str, zone: str | dt.tzinfo | None = PARIS) -> str:
    """`moment` in `zone` as `language` writes it, day and time: `format_day` with `format_time`."""
    local = _zoned(moment, zone)
    return translate("date.moment", language, {"day": format_day(local.date(), language),
                                                "time": format_time(local, language, local.tzinfo)})


_UNITS = (("days", 86400), ("hours", 3600), ("minutes", 60))


def format_relative(moment: dt.datetime, now: dt.datetime, language: str) -> str:
    """How far `moment` is from `now`, as Discord's relative timestamps read: "dans 3 heures",
    "il y a 2 minutes", "in 1 day", rounded to the largest whole unit."""
    seconds = (_zoned(moment, dt.UTC) - _zoned(now, dt.UTC)).total_seconds()
    size = abs(seconds)
    unit = next(((name, length) for name, length in _UNITS if size >= length), None)
    if unit is None:
        return catalog(language)["date.now"]
    span = Count(round(size / unit[1]), f"date.span.{unit[0]}")
    return translate("date.future" if seconds > 0 else "date.past", language, {"span": span})


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
    """The text of `key` in `language` (English, then the key itself, when it is missing), its
    grammar agreed with the values (`_Grammar`: "aucune" for a feminine noun, "d’Orion")."""
    template = catalog(language).get(key) or catalog("en").get(key) or key
    values = _Params({k: _display(v, language) for k, v in (params or {}).items()}, language)
    return _Grammar(language).vformat(template, (), values)


class _Nothing(str):
    """"none" in the masculine (``word.none``), which a placeholder naming a feminine noun's value
    reads in the feminine: ``arme : {weapon:f}`` gives "arme : aucune" (``word.none.f``)."""

    language: str

    def __new__(cls, language: str) -> _Nothing:
        nothing = super().__new__(cls, catalog(language).get("word.none", "-"))
        nothing.language = language
        return nothing

    def agreed(self, gender: str) -> str:
        return catalog(self.language).get(f"word.none.{gender}", str(self)) if gender == "f" else str(self)


#: the French words that lose their vowel before one (elision), with what they become
_ELISIONS = {"fr": {"de": "d’", "le": "l’", "la": "l’", "que": "qu’", "jusque": "jusqu’"}}
#: a value that starts with a word that starts with a vowel, after the markup that may open it
#: (``**Orion**``, "épée"); a code is no word ("E", "NE", "A1": "de E vers NE")
_VOWEL_FIRST = re.compile(r"^[*_`]*(?i:[aeiouàâäéèêëîïôöùûüœæ])[a-zàâäçéèêëîïôöùûüÿœæ]")


def elide(before: str, value: str, language: str) -> str:
    """The text `before` a value, its last word elided when the value starts with a vowel: "Export
    de **" before "Orion**" reads "Export d’**"; "de la partie de " before "Arkeon", "de la partie
    d’". An h is left alone (French aspirates some and not others), and so is a code ("de E5")."""
    elisions = _ELISIONS.get(language)
    if not elisions or not _VOWEL_FIRST.match(value):
        return before
    match = re.search(r"(?<![\w’'])(\w+) ([*_`]*)$", before)
    if match is None or match.group(1).lower() not in elisions:
        return before
    word = elisions[match.group(1).lower()]
    word = word[0].upper() + word[1:] if match.group(1)[0].isupper() else word
    return before[: match.start()] + word + match.group(2)


class _Grammar(string.Formatter):
    """The catalog's formatter: a ``{value:f}`` placeholder says its noun is feminine (for "none"),
    and the French particles before a value that starts with a vowel are elided (`elide`)."""

    def __init__(self, language: str) -> None:
        self.language = language

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in ("f", "m"):
            return value.agreed(format_spec) if isinstance(value, _Nothing) else super().format_field(value, "")
        return super().format_field(value, format_spec)

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        if self.language not in _ELISIONS:
            return super().vformat(format_string, args, kwargs)
        text = ""
        for literal, field, spec, conversion in self.parse(format_string):
            text += literal
            if field is None:
                continue
            value = self.convert_field(self.get_field(field, args, kwargs)[0], conversion)
            shown = self.format_field(value, self.vformat(spec or "", args, kwargs))
            text = elide(text, str(shown), self.language) + str(shown)
        return text


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
    if isinstance(value, Day):
        return format_day(value.day, language)
    if isinstance(value, Moment):
        return format_moment(value.at, language, value.zone)
    if isinstance(value, Listing):
        words = [str(_display(item, language)) for item in value.items]
        if not words:
            return _Nothing(language)
        if value.conjunction and len(words) > 1:
            return value.separator.join(words[:-1]) + catalog(language).get("word.and", " & ") + words[-1]
        return value.separator.join(words)
    if hasattr(value, "key") and hasattr(value, "params"):
        return translate(value.key, language, value.params)
    if isinstance(value, list | tuple | set | frozenset):
        if value and all(hasattr(v, "key") and hasattr(v, "params") for v in value):
            return "".join(translate(v.key, language, v.params) for v in value)
        if not value:
            return _Nothing(language)
        return ", ".join(str(_display(v, language)) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_display(v, language)}" for k, v in value.items())
    if value is None:
        return _Nothing(language)
    if isinstance(value, bool):
        return catalog(language)["word.yes" if value else "word.no"]
    return value


#: Discord's limit for an attachment's ``description`` (`bot.service.replies.ALT_TEXT_LIMIT`)
ALT_TEXT_LIMIT = 1024
#: chat markup a screen reader would read out as symbols: bold, strike-through, code, spoilers
_MARKUP = re.compile(r"\*\*|~~|`|\|\||__")
#: a space left before a full stop or a comma (a line that ends on an empty placeholder, read as one sentence)
_SPACED_STOP = re.compile(r" ([.,])(?=\s|$)")


def alt_text(description: Any, language: str, limit: int = ALT_TEXT_LIMIT) -> str:
    """An image's alt text (a catalog message, see `bot.service.replies.Attachment`) as plain words in
    `language`: its markup dropped, one space between words (none before a full stop or a comma: French
    keeps its space before a colon), and cut to `limit` characters (Discord's
    1,024) at a word, with "…", should a long list of pieces run past it."""
    text = translate(description.key, language, description.params) if hasattr(description, "key") \
        else str(description)
    text = _SPACED_STOP.sub(r"\1", " ".join(_MARKUP.sub("", text).split()))
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
