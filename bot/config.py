"""The bot's settings: one TOML file, validated up front, with two secrets overridable from the environment.

Everything is checked at load time so that a typo fails the start with the file, the dotted key and
the reason, instead of surfacing hours later when the first draw is polled. Types are strict (a TOML
string is never silently turned into a number): a config file is written by a person, and a quoted
number is more often a mistake than an intent.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import tomllib
from collections.abc import Mapping
from datetime import time
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import quote, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, field_validator

TOKEN_ENV = "SPACECHESS_TOKEN"
DATABASE_URL_ENV = "SPACECHESS_DATABASE_URL"
CONFIG_ENV = "SPACECHESS_CONFIG"

#: Where `resolve_config_path` looks when neither the command line nor the environment names a file.
DEFAULT_CONFIG_NAME = "config.toml"

#: The FDJ Loto archive, then a media mirror of the same file (see draws/sources.py).
DEFAULT_DRAW_URLS = (
    "https://www.sto.api.fdj.fr/anonymous/service-draw-info/v3/documentations/1a2b3c4d-9876-4562-b3fc-2c963f66afp6",
    "https://media.fdj.fr/static-draws/csv/loto/loto_201911.zip",
)

_ENV_KEYS = {("bot", "token"): TOKEN_ENV, ("database", "url"): DATABASE_URL_ENV}
_DATABASE_BACKENDS = ("sqlite", "postgresql", "postgres")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: The start of a database URL as SQLAlchemy's `make_url` reads it (``driver[+dbapi]://``), and a SQLite
#: file URL's parts. The config reads its URLs itself: importing SQLAlchemy costs more than the
#: console's whole start-up budget, and only the store needs it (issue 14).
_URL_SCHEME = re.compile(r"([\w+]+)://")
_SQLITE_FILE_URL = re.compile(r"(?P<head>sqlite(?:\+\w+)?:///)(?P<database>[^?]*)(?P<query>\?.*)?\Z", re.DOTALL)


class ConfigError(Exception):
    """A config file the bot refuses to start with; names the file, the dotted key and the reason."""

    def __init__(self, file: str, key: str, reason: str) -> None:
        self.file = file
        self.key = key
        self.reason = reason
        super().__init__(f"{file}: {key}: {reason}" if key else f"{file}: {reason}")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _optional_path(value: Any) -> Any:
    """TOML has no null: an empty string means "not set"."""
    if isinstance(value, str):
        return Path(value) if value else None
    return value


OptionalPath = Annotated[Path | None, BeforeValidator(_optional_path)]


def _http_url(value: str, schemes: tuple[str, ...]) -> str:
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.netloc:
        raise ValueError(f"must be a URL starting with {' or '.join(s + '://' for s in schemes)}")
    return value


class BotSettings(_Section):
    token: str = Field(default="", repr=False)
    language: Literal["fr", "en"] = "fr"
    gm_role: str = ""
    guild_ids: list[int] = Field(default_factory=list)
    status_debounce_seconds: float = Field(default=10.0, ge=1.0)
    #: How long a post being sent is its process's: a process killed while sending leaves it to
    #: another process, or to its own restart, after this long (sent again with the same nonce).
    outbox_lease_seconds: float = Field(default=15.0, ge=1.0, le=600.0)
    #: How many shards the application's gateway is split into (every process of a deployment says the
    #: same); 0 lets Discord recommend it (one process holding every shard).
    shard_count: int = Field(default=0, ge=0, le=4096)
    #: The shards this process runs; empty: all of them (one process).
    shard_ids: list[int] = Field(default_factory=list)
    # Test-only hooks: point discord.py at a fake Discord. Never set them in production.
    api_base: str = ""
    gateway_url: str = ""

    @field_validator("shard_ids")
    @classmethod
    def _distinct_shards(cls, value: list[int]) -> list[int]:
        if any(shard < 0 for shard in value):
            raise ValueError("shard ids count from 0")
        if len(set(value)) != len(value):
            raise ValueError("each shard id once")
        return value

    @field_validator("guild_ids")
    @classmethod
    def _positive_ids(cls, value: list[int]) -> list[int]:
        if any(guild_id <= 0 for guild_id in value):
            raise ValueError("Discord ids are positive integers")
        return value

    @field_validator("api_base")
    @classmethod
    def _api_base_url(cls, value: str) -> str:
        return _http_url(value, ("http", "https")) if value else value

    @field_validator("gateway_url")
    @classmethod
    def _gateway_url(cls, value: str) -> str:
        return _http_url(value, ("ws", "wss")) if value else value


class DatabaseSettings(_Section):
    url: str = "sqlite:///spacechess.sqlite"
    echo: bool = False

    @field_validator("url")
    @classmethod
    def _known_backend(cls, value: str) -> str:
        if not value.strip():
            return value  # reported as a missing value by _check_required
        backend = _backend(value)
        if backend is None:
            raise ValueError("not a database URL (expected BACKEND://..., e.g. sqlite:///bot.sqlite)")
        if backend not in _DATABASE_BACKENDS:
            raise ValueError(f"the URL scheme must be sqlite or postgresql, not {backend!r}")
        return value


class DrawSettings(_Section):
    source: Literal["fdj", "file", "manual"] = "fdj"
    urls: list[str] = Field(default_factory=lambda: list(DEFAULT_DRAW_URLS))
    file: OptionalPath = None
    poll_retry_minutes: int = Field(default=10, ge=1)
    give_up_hours: int = Field(default=6, ge=1)
    timeout_seconds: float = Field(default=20.0, gt=0)
    fetch_deadline_seconds: float = Field(default=120.0, gt=0)
    retries: int = Field(default=3, ge=0)
    max_bytes: int = Field(default=20_000_000, ge=1024)
    user_agent: str = "spacechess-bot (+play-by-post game master)"
    draw_days: list[str] = Field(default_factory=lambda: ["monday", "wednesday", "saturday"])
    draw_time: time = time(20, 35)
    timezone: str = "Europe/Paris"

    @field_validator("urls")
    @classmethod
    def _http_urls(cls, value: list[str]) -> list[str]:
        return [_http_url(url, ("http", "https")) for url in value]

    @field_validator("draw_days")
    @classmethod
    def _weekdays(cls, value: list[str]) -> list[str]:
        days = [day.lower() for day in value]
        unknown = [day for day in days if day not in _WEEKDAYS]
        if unknown or not days:
            raise ValueError(f"must be a non-empty list of weekday names ({', '.join(_WEEKDAYS)})")
        return days

    @field_validator("draw_time", mode="before")
    @classmethod
    def _clock_time(cls, value: Any) -> Any:
        if isinstance(value, str):
            match = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", value.strip())
            if not match:
                raise ValueError('must be a time of day "HH:MM"')
            return time(int(match[1]), int(match[2]))
        return value

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r} (use an IANA name like Europe/Paris)") from exc
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def weekdays(self) -> tuple[int, ...]:
        """Monday = 0, like `datetime.weekday()`."""
        return tuple(_WEEKDAYS.index(day) for day in self.draw_days)


class GameSettings(_Section):
    hp_soldier: int = Field(default=20, ge=1)
    hp_general: int = Field(default=30, ge=1)
    default_map: str = Field(default="standard", min_length=1)
    #: where computers search (`bot.service.computers.ThinkingPool`): a process of their own, or the
    #: timer runner's thread
    computer_thinking: Literal["process", "thread"] = "process"

    @field_validator("default_map")
    @classmethod
    def _known_map(cls, value: str) -> str:
        """A map the bot ships: a typo here would otherwise surface as a refusal at each /sc new. The
        maps are imported here, only when the file names one: they come with Space Chess's rules."""
        from engine.spacechess.maps import MAP_NAMES

        if value not in MAP_NAMES:
            raise ValueError(f"unknown map name; known maps: {', '.join(MAP_NAMES)}")
        return value


class RenderSettings(_Section):
    workers: int = Field(default=2, ge=1, le=32)
    #: where the turn posts' boards are drawn: threads of the bot's process, or processes of their own
    post_drawing: Literal["thread", "process"] = "thread"


class LoggingSettings(_Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    file: OptionalPath = None

    @field_validator("level", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @property
    def level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.level]


class WebSettings(_Section):
    """The read-only web companion (`bot.web`): off unless asked, and bound to the loopback by
    default, so a bot is never exposed by an upgrade; `base_url` is what the shared links start with
    (the public address of a reverse proxy), by default the address it listens on."""

    enabled: bool = False
    host: str = Field(default="127.0.0.1", min_length=1)
    port: int = Field(default=8080, ge=1, le=65535)
    base_url: str = ""

    @field_validator("host")
    @classmethod
    def _bare_host(cls, value: str) -> str:
        if value != value.strip() or "/" in value or " " in value:
            raise ValueError("must be a host name or an address to listen on (e.g. 127.0.0.1), not a URL")
        return value

    @field_validator("base_url")
    @classmethod
    def _base_url(cls, value: str) -> str:
        if not value:
            return value
        _http_url(value, ("http", "https"))
        parts = urlsplit(value)
        if parts.query or parts.fragment:
            raise ValueError("must be a URL without ?query or #fragment (the links are made by adding /g/<token>)")
        return value.rstrip("/")

    @property
    def link_base(self) -> str:
        """What a game's link starts with: `base_url`, else the address the companion listens on."""
        if self.base_url:
            return self.base_url
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


class Settings(_Section):
    bot: BotSettings = Field(default_factory=BotSettings)
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    draws: DrawSettings = Field(default_factory=DrawSettings)
    games: GameSettings = Field(default_factory=GameSettings)
    render: RenderSettings = Field(default_factory=RenderSettings)
    logging: LoggingSettings = Field(default_factory=LoggingSettings)
    web: WebSettings = Field(default_factory=WebSettings)


def resolve_config_path(cli_path: Path | None, env: Mapping[str, str] = os.environ) -> Path | None:
    """The file to load: the command line's, else $SPACECHESS_CONFIG, else ./config.toml if present."""
    if cli_path is not None:
        return cli_path
    if env.get(CONFIG_ENV):
        return Path(env[CONFIG_ENV])
    default = Path(DEFAULT_CONFIG_NAME)
    return default if default.is_file() else None


def load_settings(path: Path | None, env: Mapping[str, str] = os.environ) -> Settings:
    """Read, override from the environment, validate; relative paths in the file resolve next to it.

    With no file every default applies, so `spacechess console` works in an empty folder (SQLite
    file in the working directory).
    """
    raw: dict[str, Any] = _read_toml(path) if path is not None else {}
    overridden: dict[tuple[str, str], str] = {}
    for (section, key), name in _ENV_KEYS.items():
        if env.get(name):
            table = raw.setdefault(section, {})
            if isinstance(table, dict):
                table[key] = env[name]
                overridden[(section, key)] = name
    file_label = str(path) if path is not None else "<defaults>"
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        raise _config_error(exc, file_label, overridden) from None
    _check_required(settings, file_label)
    if path is None:
        return settings
    return _resolve_paths(settings, path.parent, url_from_file=("database", "url") not in overridden)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "", f"cannot read the file ({exc})") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, column = _error_position(str(exc))
        detail = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        reason = f"TOML syntax error at line {line}, column {column}: {detail}"
        raise ConfigError(str(path), _key_at_line(text, line), reason) from None


def _error_position(message: str) -> tuple[int, int]:
    """tomllib (before 3.14) puts the position only in its message: "(at line 3, column 10)"."""
    match = re.search(r"line (\d+), column (\d+)", message)
    return (int(match[1]), int(match[2])) if match else (0, 0)


def _key_at_line(text: str, line: int) -> str:
    """The dotted key a broken line most likely belongs to: the table above it plus the line's own key."""
    lines = text.splitlines()
    table = ""
    for previous in lines[: max(line - 1, 0)]:
        header = re.match(r"\s*\[+\s*([^\]]+?)\s*\]", previous)
        if header:
            table = header[1]
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    own = re.match(r"\s*([A-Za-z0-9_.\-\"']+)\s*=", current)
    header = re.match(r"\s*\[+\s*([^\]]*)", current)
    if own:
        return f"{table}.{own[1]}" if table else own[1]
    if header:
        return header[1].strip() or "(table header)"
    return table or "(top level)"


def _dotted(loc: tuple[int | str, ...]) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


_TOML_TYPES = {str: "string", int: "integer", float: "float", bool: "boolean", list: "array", dict: "table"}


def _config_error(exc: ValidationError, file: str, overridden: Mapping[tuple[str, str], str]) -> ConfigError:
    """Turn pydantic's first complaint into the file/key/reason a person editing the file needs."""
    error = exc.errors()[0]
    loc = tuple(error["loc"])
    key = _dotted(loc)
    if len(loc) >= 2 and (loc[0], loc[1]) in overridden:
        file = f"environment variable {overridden[(str(loc[0]), str(loc[1]))]}"
    value = error.get("input")
    shown = "<hidden>" if loc[-1:] == ("token",) else repr(_without_password(value))
    kind = error["type"]
    if kind == "extra_forbidden":
        reason = "unknown key" + _suggestion(loc)
    elif kind == "missing":
        reason = "missing required value"
    elif kind.endswith("_type") or kind == "model_type":
        got = _TOML_TYPES.get(type(value), type(value).__name__)
        reason = f"wrong type: {error['msg'].lower()}, got {got} {shown}"
    else:
        message = error["msg"].removeprefix("Value error, ")
        reason = f"bad value: {message[:1].lower()}{message[1:]} (got {shown})"
    return ConfigError(file, key, reason)


def _without_password(value: Any) -> Any:
    """A database URL in an error message must not leak its password into logs."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", value) if isinstance(value, str) else value


def _suggestion(loc: tuple[int | str, ...]) -> str:
    model: type[BaseModel] = Settings
    for part in loc[:-1]:
        annotation = model.model_fields[str(part)].annotation if isinstance(part, str) else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return ""
        model = annotation
    close = difflib.get_close_matches(str(loc[-1]), list(model.model_fields), n=1)
    known = ", ".join(model.model_fields)
    return f" (did you mean {close[0]!r}?)" if close else f" (known keys: {known})"


def _check_required(settings: Settings, file: str) -> None:
    """Values that are only required by the choice made in another key."""
    draws = settings.draws
    if draws.source == "file" and draws.file is None:
        raise ConfigError(file, "draws.file", 'missing required value: needed when draws.source = "file"')
    if draws.source == "fdj" and not draws.urls:
        raise ConfigError(file, "draws.urls", 'missing required value: needed when draws.source = "fdj"')
    if not settings.database.url.strip():
        raise ConfigError(file, "database.url", "missing required value")
    _check_shards(settings, file)


def _check_shards(settings: Settings, file: str) -> None:
    """Shard ids only mean something against a shard count; several processes on SQLite would each
    claim the same file's write lock and, worse, each keep their own copy when run on two machines."""
    bot = settings.bot
    if bot.shard_ids and not bot.shard_count:
        raise ConfigError(file, "bot.shard_count", "missing required value: needed when bot.shard_ids is set")
    outside = [shard for shard in bot.shard_ids if shard >= bot.shard_count]
    if outside:
        raise ConfigError(file, "bot.shard_ids", f"bad value: shard {outside[0]} does not exist with "
                          f"bot.shard_count = {bot.shard_count} (ids go from 0 to {bot.shard_count - 1})")
    partial = bool(bot.shard_ids) and len(bot.shard_ids) < bot.shard_count
    if partial and _backend(settings.database.url) == "sqlite":
        raise ConfigError(file, "bot.shard_ids", "bad value: the other shards run in other processes, which "
                          "must share one PostgreSQL database (database.url is SQLite)")


def _resolve_paths(settings: Settings, base: Path, *, url_from_file: bool) -> Settings:
    """Relative paths written in a config file mean "next to this file", not "wherever the bot was started"."""
    database = settings.database
    if url_from_file:
        database = database.model_copy(update={"url": _sqlite_next_to(database.url, base)})
    draws = settings.draws
    if draws.file is not None and not draws.file.is_absolute():
        draws = draws.model_copy(update={"file": base / draws.file})
    logs = settings.logging
    if logs.file is not None and not logs.file.is_absolute():
        logs = logs.model_copy(update={"file": base / logs.file})
    return settings.model_copy(update={"database": database, "draws": draws, "logging": logs})


def _backend(url: str) -> str | None:
    """The backend a database URL names (``sqlite`` for ``sqlite+pysqlite:///x``), as SQLAlchemy's
    `URL.get_backend_name` says it; None for what SQLAlchemy could not read as a URL."""
    match = _URL_SCHEME.match(url)
    return match.group(1).partition("+")[0] if match else None


def _sqlite_next_to(url: str, base: Path) -> str:
    """A SQLite file URL with its relative path made absolute under `base` (quoted as SQLAlchemy
    renders a path); any other URL, an in-memory or ``file:`` database, or an absolute path, as it is."""
    match = _SQLITE_FILE_URL.match(url)
    if match is None:
        return url
    database = unquote(match["database"])
    if not database or database == ":memory:" or database.startswith("file:") or Path(database).is_absolute():
        return url
    return match["head"] + quote(str((base / database).resolve()), safe=" +/") + (match["query"] or "")
