"""The local console adapter: the same commands as Discord, typed in a terminal or a script.

A line reads ``[in CHANNEL] [as USER] /group sub option:value option:"quoted value"`` (`split_line`:
``name:O'Brien`` needs no quotes); ``in`` and
``as`` stick to later lines until changed, ``#`` starts a comment. Attachment options take a file
path; member options take a name, with or without ``@`` (``user:ann``, ``user:@ann``). Command and
option names may be written in French, as Discord shows them to French players (``/partie plateau``,
``/sc rejoindre nom:Ann équipe:1 rôle:soldier``). ``click [N]`` presses the N-th button (default 1) of
the last reply that had buttons, as the current user — what a click does on Discord, refused to
anyone but the member it was shown to; ``pick N VALUE[,VALUE]`` chooses in the N-th select menu of
the last reply that had menus, likewise. Names become stable ids (a hash), so a SQLite file keeps
working across console sessions; the names behind the ids are kept in a small book (`names_file`),
so a later session still prints ``@ann`` where a reply mentions her. Images go to ``OUT/<game>/<run>/`` when `per_run` is set (the
interactive console), so a later session never overwrites an earlier one's pictures.
Everything else is the service layer's: this module only parses lines and prints replies.
"""

from __future__ import annotations

import atexit
import datetime as dt
import errno
import hashlib
import json
import os
import re
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.i18n import (
    LANGUAGES,
    Listing,
    catalog,
    command_name,
    format_day,
    format_moment,
    format_relative,
    format_time,
    language_of,
    option_name,
    translate,
)
from bot.service import Attachment, Button, Context, Message, Reply, Select, Visibility
from bot.service.commands import folded, table, unknown_command
from bot.service.progress import PROGRESS_SECONDS, Throttle

if TYPE_CHECKING:  # the service's module imports the store and SQLAlchemy: the prompt comes first
    from bot.service import GameService

CONSOLE_GUILD = 1


def stable_id(kind: str, name: str) -> int:
    """A Discord-like snowflake for a console name: the same name always maps to the same id."""
    digest = hashlib.sha256(f"{kind}:{name.lower()}".encode()).digest()
    return int.from_bytes(digest[:7], "big") + 10**6


class LineError(Exception):
    """A console line that is not a command line; the key is a catalog key."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass
class ParsedLine:
    command: str
    options: dict[str, Any]
    shown_to: int | None = None  # a click or pick: the member the button or menu was shown to
    names: dict[int, str] = field(default_factory=dict)  # the members and roles named, by the id they became


_OPTION = re.compile(r"^([^\W\d][\w-]*):(.*)$", re.DOTALL)
_OPTION_NAME = re.compile(r"[^\W\d][\w-]*:")
_QUOTES = "\"'"


def split_line(text: str) -> list[str]:
    """The words of a line, a value with spaces quoted (``name:"Big game"``, ``text:'add 4'``). A
    quote opens a quoted value only where the value starts, and closes it only before a space or the
    end of the line, so an apostrophe inside a value is one of its letters (``name:O'Brien``,
    ``name:'O'Brien'``), as the names' rule allows it."""
    words: list[str] = []
    at = 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        prefix = _OPTION_NAME.match(text, at)
        start = prefix.end() if prefix else at
        if start < len(text) and text[start] in _QUOTES:
            close = _closing(text, start)
            words.append(text[at:start] + text[start + 1 : close])
            at = close + 1
        else:
            end = next((i for i in range(start, len(text)) if text[i].isspace()), len(text))
            words.append(text[at:end])
            at = end
    return words


def _closing(text: str, start: int) -> int:
    """Where the quote opened at `start` closes: the same quote before a space or the line's end."""
    quote, at = text[start], start + 1
    while True:
        close = text.find(quote, at)
        if close == -1:
            raise LineError("console.bad_quotes", quote=quote, position=start + 1)
        if close + 1 == len(text) or text[close + 1].isspace():
            return close
        at = close + 1


def quoted(value: str) -> str:
    """A value as `split_line` reads it back: as it is, or quoted when it holds a space or starts
    with a quote (``"Big game"``; ``'say "hi"'``)."""
    if value and not any(c.isspace() for c in value) and value[0] not in _QUOTES:
        return value
    return f"'{value}'" if '"' in value else f'"{value}"'


def parse_command(text: str, base_dir: Path) -> ParsedLine:
    """Split ``/group sub name:value ...`` into a command path and raw option values."""
    tokens = split_line(text)
    if not tokens or not tokens[0].startswith("/"):
        raise LineError("console.expected_command", got=text)
    words = [_english("group", tokens[0][1:])]
    rest = tokens[1:]
    while rest and not _OPTION.match(rest[0]) and " ".join([*words, _english("sub", rest[0], words[0])]).lower() in (
            _prefixes()):
        words.append(_english("sub", rest.pop(0), words[0]))
    path = " ".join(words).lower()
    if path not in table():
        typed = [*words, *rest[:1]] if rest and not _OPTION.match(rest[0]) else words
        refusal = unknown_command(" ".join(typed))
        raise LineError(refusal.key, **refusal.params)
    options: dict[str, Any] = {}
    names: dict[int, str] = {}
    for token in rest:
        match = _OPTION.match(token)
        if not match:
            raise LineError("console.expected_option", got=token)
        name, value = match.groups()
        if table()[path].option(name) is None:
            name = _english("option", name)
        if name in options:  # Discord cannot send an option twice: keeping the last would hide a typo
            raise LineError("console.repeated_option", option=name)
        opt = table()[path].option(name)
        if opt is not None and opt.type == "channel" and _is_name(value):
            options[name] = stable_id("channel", value.removeprefix("#"))  # as the channel's own id
            names[options[name]] = "#" + value.removeprefix("#")
        elif opt is not None and opt.type in ("user", "role") and _is_name(value):
            options[name] = stable_id(opt.type, value.removeprefix("@"))
            names[options[name]] = "@" + value.removeprefix("@")
        elif opt is not None and opt.type == "attachment":
            file = (base_dir / value).expanduser()
            try:
                options[name] = Attachment(file.name, file.read_bytes())
            except OSError as err:
                raise LineError("console.cannot_read_file", file=value, reason=file_error(err)) from None
        else:
            options[name] = value
    return ParsedLine(path, options, names=names)


#: why a file could not be read, in the reader's words (the system's own text is English)
_FILE_ERRORS = {errno.ENOENT: "missing", errno.EACCES: "denied", errno.EPERM: "denied", errno.EISDIR: "folder"}


def file_error(err: OSError) -> Message:
    """Why reading a file failed, as a catalog message (``fichier introuvable``), not the C library's
    English (``No such file or directory``)."""
    kind = _FILE_ERRORS.get(err.errno or 0)
    return Message(f"console.file_error.{kind}") if kind else Message("console.file_error.other", {"code": err.errno})


def _fold(word: str) -> str:
    """A name as typed, compared without case or accents (``Déplacer`` is ``deplacer``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


@cache
def _localised(kind: str) -> dict[str, str]:
    """Every language's name of each group, subcommand or option (``name.<kind>.<english>`` keys,
    the names Discord shows French players) → its English name, the one the bot dispatches on; a
    group's own name for a subcommand (``name.sub.<group>.<sub>``) is keyed ``<group> <name>``."""
    prefix = f"name.{kind}."
    names = {}
    for language in LANGUAGES:
        for key, text in catalog(language).items():
            if key.startswith(prefix):
                group, _, english = key.removeprefix(prefix).rpartition(".")
                names[f"{group} {_fold(text)}" if group else _fold(text)] = english
    return names


def _english(kind: str, word: str, group: str = "") -> str:
    """The English name of a typed group, subcommand (of `group`) or option name (unchanged if unknown)."""
    names = _localised(kind)
    return names.get(f"{group} {_fold(word)}") or names.get(_fold(word), word)


def _is_name(value: str) -> bool:
    """A member, role or channel named as the console names them (``@ann``, ``ann``, ``#log``), not an
    id or a mention."""
    return not value.strip().isdigit() and not value.strip().startswith(("<@", "<#"))


def _prefixes() -> set[str]:
    return {" ".join(path.split()[: i + 1]) for path in table() for i in range(len(path.split()))}


@dataclass
class Console:
    """One console session: who is typing where, and where images go."""

    service: GameService
    out_dir: Path
    admins: frozenset[str] = frozenset({"gm"})
    channel: str = "general"
    user: str = "gm"
    #: the console's language, its own words' and, as the server's default, its channel posts' (a GM's
    #: `/gm settings language:` still wins for the posts); None leaves both to the service's default
    language: str | None = None
    base_dir: Path = field(default_factory=Path.cwd)
    stream: TextIO = field(default_factory=lambda: sys.stdout)
    #: images in a folder per game and run (``OUT/<game>/<run>/``), never over an earlier run's
    per_run: bool = False
    run: str = field(default_factory=lambda: run_name(dt.datetime.now()))
    #: long work (a replay) prints how far it is at most once per this many seconds, after as long
    progress_seconds: float = PROGRESS_SECONDS
    #: the names of the members, roles and channels typed in earlier sessions (`names_file()`), by
    #: the id they became; None keeps them for this session only
    names_file: Path | None = None
    _names: dict[int, str] = field(default_factory=dict)
    _image_count: int = 0
    _folders: dict[str, tuple[Path, int]] = field(default_factory=dict)  # game folder → run folder, images so far
    _buttons: tuple[Button, ...] = ()
    _selects: tuple[Select, ...] = ()
    _posting: Context | None = None  # the member whose command wrote the posts being shown

    #: the zone Discord timestamps are shown in (None: the machine's), and the clock "in 3 hours" counts from
    zone: dt.tzinfo | None = None
    now: Callable[[], dt.datetime] = field(default=lambda: dt.datetime.now(dt.UTC))

    def __post_init__(self) -> None:
        self._names = {**self._read_names(), **self._names}
        if self.language is not None:  # one reader, one language: banner, replies and posts alike
            self.service.default_language = self.language

    def _read_names(self) -> dict[int, str]:
        """The book of an earlier session; a missing or damaged one is an empty book (it only names)."""
        if self.names_file is None:
            return {}
        try:
            book = json.loads(self.names_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(book, dict):
            return {}
        return {int(key): name for key, name in book.items() if key.isdigit() and isinstance(name, str)}

    def _remember(self, names: Mapping[int, str]) -> None:
        """Add names to this session's and, when one is new, to the book (best effort: a read-only
        book leaves later sessions printing ids, never stops this one)."""
        if all(self._names.get(key) == name for key, name in names.items()):
            return
        self._names.update(names)
        if self.names_file is None:
            return
        try:
            self.names_file.parent.mkdir(parents=True, exist_ok=True)
            self.names_file.write_text(json.dumps({str(k): v for k, v in self._names.items()}, ensure_ascii=False),
                                       encoding="utf-8")
        except OSError:
            pass

    def context(self) -> Context:
        user_id = stable_id("user", self.user)
        channel_id = stable_id("channel", self.channel)
        self._remember({user_id: "@" + self.user, channel_id: "#" + self.channel})
        return Context(
            user_id=user_id,
            user_name=self.user,
            guild_id=CONSOLE_GUILD,
            channel_id=channel_id,
            locale=self.language,
            manage_server=self.user.lower() in self.admins,
            sole_reader=True,  # the console's reader reads the channel too: all in their language
        )

    def run_line(self, line: str) -> bool:
        """Run one line; False when it was refused (or unreadable)."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        while True:
            head, _, tail = line.partition(" ")
            if head.lower() == "in" and tail:
                self.channel, _, line = tail.strip().partition(" ")
                self.channel = self.channel.lstrip("#")
            elif head.lower() == "as" and tail:
                self.user, _, line = tail.strip().partition(" ")
                self.user = self.user.lstrip("@")
            else:
                break
            line = line.strip()
            if not line:
                return True
        ctx = self.context()
        language = self.service.language(ctx)
        try:
            verb = _fold(line.split()[0])
            if verb in _verbs("click"):
                parsed = self._click(line)
            elif verb in _verbs("pick"):
                parsed = self._pick(line)
            else:
                parsed = parse_command(line, self.base_dir)
        except LineError as err:
            params = {"pick": translate("console.verb.pick", language), **err.params}  # the verb a hint names
            self._print(f"{translate('console.refused', language)} {translate(err.key, language, params)}")
            return False
        self._remember(parsed.names)
        ctx = replace(ctx, progress=self._progress(ctx))
        reply = self.service.handle(ctx, parsed.command, parsed.options, shown_to=parsed.shown_to)
        self.show(ctx, reply)
        self._channel_posts(ctx)
        return reply.ok

    def _channel_posts(self, ctx: Context) -> None:
        """The channel posts the command wrote with its change (the members it handed the turn to,
        pinged), after its reply, as Discord's outbox sender would post them; then what fell due
        meanwhile — a computer's turn its change planned at once, a deadline passed — fired as the
        bot's timer runner would (the console has no scheduler), each with its posts."""
        from bot.drivers import timer_handlers  # the outbox's presenters load only once a game is played
        from bot.outbox import flush
        from bot.service.core import MAX_CHAIN
        from bot.timers import TimerRunner

        self._posting = ctx
        flush(self.service.store, self)
        runner = TimerRunner(self.service.store, timer_handlers(self.service, self), clock=self.service.clock)
        for _ in range(MAX_CHAIN):  # computers playing each other: one turn a pass
            if not runner.run(self.service.clock()).fired:
                break

    def on_turn_post(self, game: Any, reply: Reply) -> None:
        self.show(self._posting or self.context(), reply)

    def on_gm_alert(self, game: Any, reply: Reply) -> None:
        self.show(self._posting or self.context(), reply)

    def on_dm(self, user_id: int, game: Any, reply: Reply) -> None:
        """A direct message to a member (`/game settings reminders:dm`), shown as one, in their language."""
        from bot.service.dms import dm_language

        language = dm_language(self.service.store, user_id, self.service.server_language(game.guild_id))
        to = translate("console.dm", language, {"user": self._names.get(user_id, f"<@{user_id}>")})
        for message in reply.messages:
            self._print(f"{to} {self._names_for_ids(translate(message.key, language, message.params), language)}")

    def _click(self, line: str) -> ParsedLine:
        words = line.split()
        number = words[1] if len(words) > 1 else "1"
        if not number.isdigit() or not 1 <= int(number) <= len(self._buttons):
            raise LineError("console.no_such_button", number=number, count=len(self._buttons))
        button = self._buttons[int(number) - 1]
        return ParsedLine(button.command, dict(button.options), button.shown_to)

    def _pick(self, line: str) -> ParsedLine:
        words = line.split(maxsplit=2)
        number = words[1] if len(words) > 1 else ""
        if not number.isdigit() or not 1 <= int(number) <= len(self._selects) or len(words) < 3:
            raise LineError("console.no_such_menu", number=number, count=len(self._selects))
        select = self._selects[int(number) - 1]
        typed = [v.strip() for v in words[2].split(",") if v.strip()]
        names = {folded(name): choice.value for choice in select.choices for name in (
            choice.value, *(translate(choice.label.key, lang, choice.label.params) for lang in LANGUAGES))}
        values = [names.get(folded(word)) for word in typed]
        if not select.min_values <= len(values) <= select.max_values or None in values:
            raise LineError("console.bad_pick", count=select.max_values,
                            choices=Listing(tuple(c.value if c.value.isdigit() else c.label for c in select.choices)))
        return ParsedLine(select.command, {**select.options, select.option: ",".join(values)}, select.shown_to)

    @staticmethod
    def _choice_words(choice: Any, language: str) -> str:
        """A menu's choice as the reader picks it: a number with its label (``1 (Ann : 3 PA)``), else
        the label alone (``viseur``), which `pick` takes as Discord's menu shows it."""
        label = translate(choice.label.key, language, choice.label.params)
        return f"{choice.value} ({label})" if choice.value.isdigit() else label

    def _progress(self, ctx: Context) -> Callable[[Message], None]:
        """One command's progress lines, printed as ``… line`` once the work has lasted
        `progress_seconds`, then at most once per as long: quick work prints none."""
        throttle = Throttle(self.progress_seconds, last=time.monotonic())

        def report(message: Message) -> None:
            if throttle.due():
                self._print("… " + translate(message.key, self.service.language(ctx), message.params))

        return report

    def run_lines(self, lines: Iterable[str]) -> int:
        """Run a script; the number of refused lines."""
        return sum(0 if self.run_line(line) else 1 for line in lines)

    def show(self, ctx: Context, reply: Reply) -> None:
        language = self.service.language(ctx)
        only_you = translate("console.only_you", language) + " "
        prefix = (translate("console.refused", language) + " " if not reply.ok
                  else only_you if reply.visibility is Visibility.PRIVATE else "")
        for message in reply.messages:
            self._print(prefix + self._names_for_ids(translate(message.key, language, message.params), language))
        for message in reply.aside:
            self._print(only_you + self._names_for_ids(translate(message.key, language, message.params), language))
        for embed in reply.embeds:
            self._print(f"  ▣ {translate(embed.title.key, language, embed.title.params)}")
            if embed.description is not None:
                self._print(f"    {translate(embed.description.key, language, embed.description.params)}")
        if reply.buttons:
            self._buttons = reply.buttons
        if reply.selects:
            self._selects = reply.selects
        for number, select in enumerate(reply.selects, start=1):
            title = translate(select.placeholder.key, language, select.placeholder.params)
            values = " | ".join(self._choice_words(c, language) for c in select.choices)
            self._print("  " + translate("console.menu", language, {
                "title": title, "pick": translate("console.verb.pick", language), "number": number,
                "count": select.max_values, "choices": values}))
        for button in reply.buttons:
            label = translate(button.label.key, language, button.label.params)
            typed = " ".join([f"/{command_name(button.command, language)}", *(
                f"{option_name(k, language)}:{quoted(str(self._option_words(button.command, k, v)))}"
                for k, v in button.options.items())])
            self._print("  " + translate("console.button", language, {"label": label, "command": typed}))
        for file in reply.files:
            path = self._image_path(ctx, file.filename)
            path.write_bytes(file.data)
            self._print(f"  🖼 {path}")

    def _image_path(self, ctx: Context, filename: str) -> Path:
        """Where the next image goes: numbered in the output folder, or with `per_run` in this
        run's folder of the channel's game, made the first time (with a suffix when a folder of
        that name exists already, so nothing of an earlier run is ever written over)."""
        if not self.per_run:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            self._image_count += 1
            return self.out_dir / f"{self._image_count:04d}-{filename}"
        game = self.service.store.game_in_channel(ctx.guild_id, ctx.channel_id)
        name = f"{game.id}-{_slug(game.name)}" if game is not None else "no-game"
        if name not in self._folders:
            base = self.out_dir / name / self.run
            folder, n = base, 1
            while folder.exists():
                n += 1
                folder = base.with_name(f"{self.run}-{n}")
            folder.mkdir(parents=True)
            self._folders[name] = (folder, 0)
        folder, count = self._folders[name]
        self._folders[name] = (folder, count + 1)
        return folder / f"{count + 1:04d}-{filename}"

    def _option_words(self, command: str, option: str, value: Any) -> Any:
        """A button's option as the console would type it: a member or role by the name it was given
        in this session (``user:@ann``), not by the id that name became; other values as they are."""
        opt = table()[command].option(option) if command in table() else None
        if opt is not None and opt.type in ("user", "role", "channel") and isinstance(value, int):
            return self._names.get(value, value)
        return value

    def _names_for_ids(self, text: str, language: str) -> str:
        """Mentions as the names typed in this session, Discord timestamps as Discord shows them to
        a reader of `language` in the console's zone: a date and time, a time, a date or how long
        from now (``<t:…:R>``: "in 3 hours")."""
        text = re.sub(r"<(?:@&?|#)(\d+)>", lambda m: self._names.get(int(m.group(1)), m.group(0)), text)
        return re.sub(r"<t:(-?\d+)(?::([tTdDfFR]))?>", lambda m: self._time(int(m.group(1)), m.group(2), language),
                      text)

    def _time(self, stamp: int, style: str | None, language: str) -> str:
        moment = dt.datetime.fromtimestamp(stamp, dt.UTC)
        if style == "R":
            return format_relative(moment, self.now(), language)
        if style in ("t", "T"):
            return format_time(moment, language, self.zone)
        if style in ("d", "D"):
            return format_day(moment.astimezone(self.zone).date(), language)
        return format_moment(moment, language, self.zone)

    def _print(self, text: str) -> None:
        print(text, file=self.stream, flush=True)


@cache
def _verbs(verb: str) -> frozenset[str]:
    """The console's own verb (``click``, ``pick``) as every language writes it (``cliquer``, ``choisir``)."""
    return frozenset(_fold(catalog(language)[f"console.verb.{verb}"]) for language in LANGUAGES)


def console_language(chosen: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """The console's one language (issue 24): `--lang`, else the system locale's when the bot
    speaks it, else English — so that ``LANG=C.UTF-8`` gets its banner and replies in English."""
    return chosen or system_language(environ) or "en"


def banner(language: str) -> str:
    """The first line of an interactive console, with an example typed as a reader of `language` types it."""
    example = f"as alice /{command_name('game help', language)}"
    return translate("console.banner", language, {
        "example": example, "click": catalog(language)["console.verb.click"],
        "pick": catalog(language)["console.verb.pick"]})


def run_name(started: dt.datetime) -> str:
    """A session's image folder name: the time it started (``20240304-201500``)."""
    return started.strftime("%Y%m%d-%H%M%S")


def _slug(name: str) -> str:
    """A game's name as a folder name: letters and digits, the rest as ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", _fold(name)).strip("-") or "game"


def system_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The reply language the system locale asks for (``LC_ALL``, then ``LC_MESSAGES``, then
    ``LANG``, as POSIX reads them): ``fr_FR.UTF-8`` is French; None for a locale the bot does not
    speak (``C``, ``de_DE``): `console_language` then takes English."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable, "")
        if value:
            language = language_of(value, fallback="")
            return language if language in LANGUAGES and _fold(value).startswith(language) else None
    return None


def line_editing(history: Path) -> bool:
    """Arrow keys, editing and a history kept across sessions in `history`, for `input()`, where
    the platform has readline (not on Windows, for instance): False when it has not."""
    try:
        import readline
    except ImportError:
        return False
    history.parent.mkdir(parents=True, exist_ok=True)
    try:
        readline.read_history_file(history)
    except OSError:  # the first session: no history yet
        readline.clear_history()
    readline.set_history_length(1000)
    atexit.register(readline.write_history_file, history)
    return True


def history_file(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the console keeps its line history: ``$XDG_STATE_HOME/spacechess/console_history``."""
    return _state_dir(environ) / "console_history"


def names_file(environ: Mapping[str, str] = os.environ) -> Path:
    """Where the console keeps the names behind its ids: ``$XDG_STATE_HOME/spacechess/console_names.json``
    (one book for every database: an id is the hash of its name wherever it is stored)."""
    return _state_dir(environ) / "console_names.json"


def _state_dir(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")) / "spacechess"
