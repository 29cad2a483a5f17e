"""The command table: one declaration per slash command, shared by every adapter.

The Discord adapter builds its app_commands tree from this table and the console validates typed
lines against it, so a command exists in both or in neither. Names, descriptions and option
descriptions are catalog keys (``cmd.<path>``, ``opt.<path>.<option>``) so both languages follow.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.i18n import (
    LANGUAGES,
    ChoiceText,
    CommandText,
    Listing,
    catalog,
    choice_aliases,
    choice_name,
    command_name,
)
from bot.service.replies import Attachment, Message, Reply, ServiceError
from engine.core.errors import SetupError
from engine.core.names import check_name

if TYPE_CHECKING:
    from bot.service.context import Context
    from bot.service.core import GameService

OPTION_TYPES = ("string", "integer", "boolean", "attachment", "user", "role", "channel")
#: The largest file an attachment option takes unless it says less: an export of a long game (10,000 log
#: entries weigh about 2 MB). A larger one is refused before anything reads it, and the Discord adapter
#: refuses it from the size Discord announces, before downloading it.
ATTACHMENT_MAX_BYTES = 8 * 1024 * 1024
#: Setups and maps are hand-written text of a few KB: refused far sooner, before their parser costs anything.
SETUP_MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class Option:
    name: str
    type: str = "string"
    required: bool = False
    choices: tuple[str, ...] = ()
    min_value: int | None = None
    max_value: int | None = None
    max_length: int | None = None
    autocomplete: bool = False
    #: an attachment's size limit, in bytes (default ATTACHMENT_MAX_BYTES)
    max_bytes: int | None = None
    #: what one value of a text option is, when it is one thing: a ``"cell"`` (``C12``) or a
    #: ``"name"`` (a character's, as `check_name` allows it); anything else is refused whole, so a
    #: value never becomes order text (``target:"Ursa; move F1"`` is no name: no shot, no move)
    holds: str = ""
    #: the catalog key of its description where every game shares the words (``opt.new.name``,
    #: ``opt.clock.clock_hours``); else the command's own ``opt.<group>.<sub>.<name>``
    describe: str = ""

    @property
    def internal(self) -> bool:
        """Filled by the bot's own buttons only (a confirmation carries the game version it was shown
        for): never offered to a member typing the command, who could otherwise skip the question."""
        return self.name in INTERNAL_OPTIONS


#: see :attr:`Option.internal`
INTERNAL_OPTIONS = frozenset({"confirm"})
#: what describes every confirmation code
CONFIRM_KEY = "opt.confirm"

Handler = Callable[["GameService", "Context", dict[str, Any]], Reply]


@dataclass(frozen=True)
class Command:
    path: str  # "sc new": the group then the subcommand
    handler: Handler
    options: tuple[Option, ...] = ()
    gm_only: bool = False
    #: a GM command that reaches beyond the channel's game (server settings, a new game): only the
    #: server's GMs (GM role, Manage Server) may run it, not the creator of the game found here
    server_wide: bool = False
    #: the catalog key of its description where games share the words (``cmd.resign``)
    describe: str = ""
    #: it binds a game to the channel (a game's ``new``, ``/gm import``): refused while the bot may
    #: not play there (`bot.service.permissions`)
    binds_channel: bool = False
    #: it answers its member alone (their settings, their games): a deferral shows "thinking…" to
    #: them only, not to the channel
    private: bool = False

    @property
    def description_key(self) -> str:
        return self.describe or "cmd." + self.path.replace(" ", ".")

    def option_key(self, opt: Option) -> str:
        """The catalog key that describes `opt`: one shared key for every confirmation code and
        for the options games share, else this command's own."""
        if opt.internal:
            return CONFIRM_KEY
        return opt.describe or f"opt.{self.path.replace(' ', '.')}.{opt.name}"

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


COMMANDS: dict[str, Command] = {}

#: what declares every command (the composition root, `bot.compose`, sets it): called once, by the
#: first reading of the table, which is frozen from then on but for the games served later
_loader: Callable[[], None] | None = None


def set_loader(loader: Callable[[], None]) -> None:
    global _loader
    _loader = loader


def table(*, load: bool = True) -> dict[str, Command]:
    """Every command of the bot, by path. The first reading declares them all (`set_loader`);
    `load=False` only reads what is declared so far."""
    global _loader
    if load and _loader is not None:
        loader, _loader = _loader, None
        loader()
    return COMMANDS


def command(path: str, *options: Option, gm_only: bool = False, server_wide: bool = False,
            describe: str = "", binds_channel: bool = False, private: bool = False) -> Callable[[Handler], Handler]:
    """Declare a handler as the command `path` (``"group sub"``); `describe` names shared words."""

    def register(handler: Handler) -> Handler:
        if path in COMMANDS:
            raise ValueError(f"command {path!r} declared twice")
        COMMANDS[path] = Command(path, handler, tuple(options), gm_only or server_wide, server_wide, describe,
                                 binds_channel, private)
        return handler

    return register


#: commands of the first layout and the subcommand each game's group has in their place
MOVED = {"gm create": "new", "game join": "join", "gm set": "set", "gm pickup": "pickup", "gm map": "map"}


def unknown_command(typed: str) -> ServiceError:
    """The refusal of a command path that does not exist, naming it whole (``/sc mvoe``, not ``/sc``)
    with the closest command when one is close, else the commands of its group: a typo then costs
    one look, not a trip to the help. The commands it offers read as the reader types them
    (`CommandText`: ``/sc déplacer`` for a French reader)."""
    words = typed.lower().lstrip("/").split()
    command = "/" + " ".join(words)
    paths = sorted(table())
    group = words[0] if words else ""
    siblings = [path for path in paths if path.split()[0] == group]
    sub = MOVED.get(" ".join(words), "")
    if sub:  # a command of the first layout, now in each game's own group
        return ServiceError("error.unknown_command.moved", command=command,
                            commands=[CommandText(path) for path in paths if path.split()[-1] == sub])
    if siblings:
        # the group as the reader types it, then the words they typed (`/partie plateaux`)
        command = Listing((CommandText(group), *words[1:]), separator=" ")
        subs = {name: path for path in siblings for name in (  # as typed in either language
            path.split(maxsplit=1)[1], *(command_name(path, lang).split(maxsplit=1)[1] for lang in LANGUAGES))}
        close = difflib.get_close_matches(" ".join(words[1:]), list(subs), n=1, cutoff=0.6) if words[1:] else []
        if close:
            return ServiceError("error.unknown_command.suggest", command=command, suggestion=CommandText(subs[close[0]]))
        return ServiceError("error.unknown_command.group", command=command, group=CommandText(group),
                            subcommands=[CommandText(path) for path in siblings])
    close = difflib.get_close_matches(" ".join(words), paths, n=1, cutoff=0.6)
    if close:
        return ServiceError("error.unknown_command.suggest", command=command, suggestion=CommandText(close[0]))
    return ServiceError("error.unknown_command", command=command)


_MENTION = re.compile(r"^<(?:@[&!]?|#)(\d+)>$")


def _snowflake(opt: Option, value: Any) -> int:
    """A member, role or channel id, given as an id or as a mention (``<@123>``, ``<@&123>``, ``<#123>``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip()
    match = _MENTION.match(text)
    if match:
        return int(match.group(1))
    if text.isdigit():
        return int(text)
    raise ServiceError(f"error.option_not_{opt.type}", option=opt.name, value=value)


_TRUE = {"true", "yes", "oui", "1", "on", "vrai"}
_FALSE = {"false", "no", "non", "0", "off", "faux"}


def coerce_options(cmd: Command, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check raw option values (text from the console, typed values from Discord) against `cmd`."""
    values: dict[str, Any] = {}
    for name, value in raw.items():
        opt = cmd.option(name)
        if opt is None:
            raise ServiceError("error.unknown_option", option=name, known=[o.name for o in cmd.options])
        if opt.required and opt.type == "string" and not str(value).strip():
            raise _empty(cmd, opt)
        values[name] = _coerce(opt, value, cmd.path.split()[0])
    missing = [o.name for o in cmd.options if o.required and o.name not in values]
    if missing:
        raise ServiceError("error.missing_option", option=missing)
    return values


def _empty(cmd: Command, opt: Option) -> ServiceError:
    """A required text option given empty (``to:`` in the console): said as such, with what it takes,
    rather than as whatever the empty text breaks further on ("expected cell, found end"). An option
    may word its own refusal as ``error.empty_<option>`` (why a correction needs a reason...)."""
    own = f"error.empty_{opt.name}"
    if own in catalog("en"):
        return ServiceError(own)
    description = Message(cmd.option_key(opt))
    return ServiceError("error.option_empty", option=opt.name, expected=description)


def _coerce(opt: Option, value: Any, group: str = "") -> Any:
    if opt.type == "integer":
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ServiceError("error.option_not_integer", option=opt.name, value=value)
        try:
            number = int(value)
        except ValueError:
            raise ServiceError("error.option_not_integer", option=opt.name, value=value) from None
        if (opt.min_value is not None and number < opt.min_value) or (
            opt.max_value is not None and number > opt.max_value
        ):
            raise ServiceError(
                "error.option_out_of_bounds", option=opt.name, value=number, min=opt.min_value, max=opt.max_value
            )
        return number
    if opt.type == "boolean":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE | _FALSE:
            return text in _TRUE
        raise ServiceError("error.option_not_boolean", option=opt.name, value=value)
    if opt.type in ("user", "role", "channel"):
        return _snowflake(opt, value)
    if opt.type == "attachment":
        if not isinstance(value, Attachment):
            raise ServiceError("error.option_not_attachment", option=opt.name)
        check_attachment_size(opt, value.filename, len(value.data))
        return value
    text = str(value).strip()
    if opt.choices:
        choice = choice_named(opt.choices, text, opt.name, group)
        if choice is None:  # the choices as the reader's Discord lists them (`bot.service.refusals`)
            raise ServiceError("error.option_bad_choice", option=opt.name, value=text,
                               choices=[ChoiceText(opt.name, value, group) for value in opt.choices])
        return choice
    if opt.max_length is not None and len(text) > opt.max_length:
        raise ServiceError("error.option_too_long", option=opt.name, max=opt.max_length)
    if opt.holds and text and not SHAPES[opt.holds](text):
        raise ServiceError(f"error.option_not_{opt.holds}", option=opt.name, value=text)
    if opt.holds == "cell":  # one token whatever the spacing: `G 3` is G3, as the rules write it
        return "".join(text.split())
    return text


def check_attachment_size(opt: Option, filename: str, size: int) -> None:
    """Refuse a file larger than the option takes, before anything reads it (the Discord adapter asks
    with the size Discord announces, before the download; the service, with the bytes it was given)."""
    limit = opt.max_bytes or ATTACHMENT_MAX_BYTES
    if size > limit:
        raise ServiceError("error.attachment_too_large", name=filename, size_kb=-(-size // 1024),
                           limit_kb=limit // 1024)
_CELL = re.compile(r"[A-Za-z]\s*[0-9]+", re.ASCII)


def _one_name(text: str) -> bool:
    try:
        check_name(text)
    except SetupError:
        return False
    return True


#: the values `Option.holds` names, each with its test (the engine still says whether the cell is on
#: the board, or the name a character's)
SHAPES: dict[str, Callable[[str], bool]] = {"cell": lambda text: _CELL.fullmatch(text) is not None,
                                             "name": _one_name}


def choice_named(choices: tuple[str, ...], typed: str, option: str = "", group: str = "") -> str | None:
    """The choice `typed` names, the one matcher of every choice of every game: its value
    (``heavy_bolter``, or with spaces or hyphens: ``heavy bolter``), its label in either language —
    the words Discord shows (`choice_key`: ``bolter lourd``, ``Rouge``, ``gauche``) — or an alias the
    guides and the order language use (`choice_aliases`: ``frappe``), compared without case,
    accents or spacing (``legere``, ``DIFFICILE``); None when it names none."""
    wanted = folded(typed)
    for choice in choices:
        if wanted in {folded(name) for name in choice_names(choice, option, group)}:
            return choice
    return None


def choice_names(value: str, option: str = "", group: str = "") -> set[str]:
    """Every name a choice is typed by (`choice_named`), in both languages."""
    names = {value}
    for language in LANGUAGES:
        names.add(choice_name(option, value, language, group))
        names.update(choice_aliases(option, value, language))
    return names


def folded(name: str) -> str:
    """A name as typed, compared without case, accents, underscores, hyphens or extra spaces:
    ``Légère`` is ``legere``, ``heavy_bolter`` is ``Heavy-Bolter``."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.replace("_", " ").replace("-", " ").split())


Completer = Callable[..., list[str]]  # (svc, ctx, current), plus the filled options where declared
COMPLETERS: dict[tuple[str, str], Completer] = {}
#: completers that also read the options already filled in the same command, as a 4th argument
#: (``/ak place cell:`` suggests the cells for the `kind:` chosen): Discord sends them with each key
READS_FILLED: set[tuple[str, str]] = set()
MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices


def completer(path: str, option: str, *, filled: bool = False) -> Callable[[Completer], Completer]:
    """Declare the suggestions for an option marked ``autocomplete=True``; with `filled`, the
    function also gets the command's other options typed so far (a dict, possibly empty)."""

    def register(func: Completer) -> Completer:
        COMPLETERS[(path, option)] = func
        if filled:
            READS_FILLED.add((path, option))
        return func

    return register


_SIGNED = re.compile(r"^(?P<signature>[0-9a-z]{3})~(?P<values>.*)$", re.S)


def options_signature(path: str) -> str:
    """Three characters that change when the command's options do (added, removed, reordered): a
    button packed by position before such a change is told apart from one packed after it."""
    digest = zlib.crc32(",".join(opt.name for opt in table()[path].options).encode()) % 36 ** 3
    return "".join("0123456789abcdefghijklmnopqrstuvwxyz"[digest // 36 ** i % 36] for i in (2, 1, 0))


def pack_options(path: str, options: Mapping[str, Any]) -> str:
    """A command's options as ``sig~v1|v2|...`` in declaration order, after the options' signature:
    short enough for a Discord component id (100 characters), where JSON with the option names would
    not fit."""
    names = [opt.name for opt in table()[path].options]
    unknown = set(options) - set(names)
    if unknown:
        raise ValueError(f"{path}: no option {sorted(unknown)}")
    values = ["" if options.get(name) is None else str(options[name]) for name in names]
    if any("|" in value for value in values):
        raise ValueError(f"{path}: an option value holds '|'")
    return options_signature(path) + "~" + "|".join(values).rstrip("|")


def unpack_options(path: str, packed: str) -> dict[str, str] | None:
    """The options a component's id carries; None where the component is out of date — its command
    is gone, or its options changed since it was posted (a button of an older version of the bot).
    An id from before signatures is read by position, as it was packed."""
    if path not in table():
        return None
    signed = _SIGNED.match(packed)
    if signed is not None:
        if signed["signature"] != options_signature(path):
            return None
        packed = signed["values"]
    names = [opt.name for opt in table()[path].options]
    return {name: value for name, value in zip(names, packed.split("|"), strict=False) if value}
