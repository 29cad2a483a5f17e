"""The repository: every read and write of games, seats, logs, guild settings, draws and claims.

Callers get frozen records detached from any session, so nothing outside this module can lazily
load, or accidentally write, a row. A game changes only through `Store.commit`, one transaction
guarded by the version number (optimistic concurrency): of two writers that read the same version,
exactly one wins and the other gets `StaleWrite` with nothing written. Unique-constraint violations
(a log seq or a seat taken by a racing transaction) surface as `Conflict`, a `StaleWrite`, so the
service has one thing to catch: reload and retry, or tell the user.

Effects that must happen once across processes (a draw applied to a game, a turn resolved, a reminder
sent) take a claim key in the database: with the commit that performs them (`commit(claims=...)`) or
alone (`claim`). A taken key raises `AlreadyClaimed` (a `Conflict`) or returns False.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    BigInteger,
    Integer,
    String,
    Text,
    bindparam,
    cast,
    delete,
    func,
    insert,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Row
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import col

from bot.store.db import BEGIN_MODE, make_engine, upgrade
from bot.store.models import (
    GAME_STATUSES,
    LANGUAGES,
    PING_POLICIES,
    REMINDERS,
    BotKey,
    Claim,
    DrawRow,
    GameRow,
    GuildSettings,
    LogEntry,
    MemberSettings,
    Seat,
    StatusMessage,
)
from bot.store.outbox import NewPost, commit_cause, insert_posts, move_posts
from bot.store.timer_rows import TimerPlan, write_plans


@dataclass(frozen=True)
class GameRecord:
    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    name: str
    status: str
    setup: dict[str, Any]
    state: dict[str, Any]
    version: int
    seed: int
    created_by: int | None
    created_at: datetime
    updated_at: datetime
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameHead:
    """A game without its documents (setup and state: most of a row, and most of reading one): what
    a pass over every running game decides from — which games a draw or an alert is owed to — before
    it reads the few it acts on whole (`Store.games_by_id`)."""

    id: int
    kind: str
    guild_id: int | None
    channel_id: int | None
    name: str
    status: str
    created_at: datetime
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatRecord:
    game_id: int
    user_id: int
    actor: str
    mute_pings: bool = False


@dataclass(frozen=True)
class LogRecord:
    game_id: int
    seq: int
    kind: str
    actor: str | None
    user_id: int | None
    payload: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True)
class NewEntry:
    kind: str
    actor: str | None
    user_id: int | None
    payload: dict[str, Any]
    #: when it happened, for entries restored from an export (None: now)
    created_at: datetime | None = None


@dataclass(frozen=True)
class GuildSettingsRecord:
    guild_id: int
    language: str = "fr"
    gm_role_id: int | None = None
    ping_policy: str = "players"
    log_channel_id: int | None = None  # the GMs' log channel (`/gm settings log_channel:`)
    updated_at: datetime | None = None  # None: defaults, never stored


@dataclass(frozen=True)
class MemberSettingsRecord:
    """A member's own settings, the same in every game and on every server."""

    user_id: int
    mute_pings: bool = False  # pinged in no game (their seats' own mute aside)
    language: str | None = None  # their private replies' language; None: their Discord client's
    updated_at: datetime | None = None  # None: defaults, never stored
    reminders: str = "channel"  # where their pings go: the game's channel, or "dm" (a direct message)


@dataclass(frozen=True)
class DrawRecord:
    source: str
    date: date
    index: int
    data: dict[str, Any]
    stored_at: datetime


class StaleWrite(Exception):
    """The game moved on since the caller read it (or no longer exists: actual_version is None)."""

    def __init__(self, game_id: int | None, expected_version: int | None, actual_version: int | None) -> None:
        self.game_id = game_id
        self.expected_version = expected_version
        self.actual_version = actual_version
        super().__init__(f"game {game_id}: expected version {expected_version}, found {actual_version}")


class Conflict(StaleWrite):
    """A unique constraint refused the write (seat or log seq taken concurrently); nothing was written."""

    def __init__(self, game_id: int | None, expected_version: int | None, detail: str) -> None:
        super().__init__(game_id, expected_version, None)
        self.detail = detail
        self.args = (f"game {game_id}: conflicting write ({detail})",)


class AlreadyClaimed(Conflict):
    """The effect was already done (its claim key is taken); nothing was written. Usually: skip it."""

    def __init__(self, game_id: int | None, expected_version: int | None, keys: Sequence[str]) -> None:
        super().__init__(game_id, expected_version, f"already claimed: {', '.join(keys)}")
        self.keys = tuple(keys)


def _now() -> datetime:
    return datetime.now(UTC)


def _json_copy(value: Any, what: str) -> dict[str, Any]:
    """What will be read back: a JSON round trip (tuples become lists), refused before any write if impossible.

    Replaying the log must rebuild the stored snapshot exactly, so what the caller gets back must be
    what the database will return, not the caller's own (possibly later mutated) objects.
    """
    if not isinstance(value, dict):
        raise TypeError(f"{what} must be a dict, not {type(value).__name__}")
    try:
        copy = json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} is not JSON-serialisable: {exc}") from exc
    if copy != value and any(not isinstance(key, str) for key in _keys(value)):  # equal: nothing changed
        raise ValueError(f"{what} has non-string keys, which JSON would silently turn into strings")
    return copy


def _keys(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _keys(item)


def _check_status(status: str) -> None:
    if status not in GAME_STATUSES:
        raise ValueError(f"unknown game status {status!r} (one of {', '.join(GAME_STATUSES)})")


def _game_record(row: GameRow) -> GameRecord:
    assert row.id is not None
    return GameRecord(
        id=row.id,
        kind=row.kind,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        name=row.name,
        status=row.status,
        setup=row.setup,
        state=row.state,
        version=row.version,
        seed=row.seed,
        created_by=row.created_by,
        created_at=row.created_at,
        updated_at=row.updated_at,
        options=dict(row.options or {}),
    )


def _seat_record(row: Seat) -> SeatRecord:
    return SeatRecord(game_id=row.game_id, user_id=row.user_id, actor=row.actor, mute_pings=row.mute_pings)


def _draw_record(row: DrawRow) -> DrawRecord:
    return DrawRecord(
        source=row.source, date=row.draw_date, index=row.draw_index, data=row.data, stored_at=row.stored_at
    )


def _settings_record(row: GuildSettings) -> GuildSettingsRecord:
    return GuildSettingsRecord(
        guild_id=row.guild_id,
        language=row.language,
        gm_role_id=row.gm_role_id,
        ping_policy=row.ping_policy,
        log_channel_id=row.log_channel_id,
        updated_at=row.updated_at,
    )


class _Scope(threading.local):
    """What the current thread holds of one Store: the connection a `request()` checked out, the
    transaction `locked_game()` opened, and what the request already read (dropped at each write)."""

    connection: Connection | None = None
    locked: Connection | None = None
    memo: dict[tuple[Any, ...], Any] | None = None
    #: the games the open write transaction changed: told to the listeners once it commits
    changed: tuple[int, ...] = ()
    #: what waits for the `locked_game()` transaction to commit (`Store.after_commit`)
    after: tuple[Callable[[], None], ...] = ()


#: PostgreSQL's channel of the games' changes: each commit sends the game's id on it, delivered to
#: every listening connection when (and only if) the transaction commits (`bot.web.live`)
CHANGE_CHANNEL = "spacechess_games"
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
#: who hears of the changes committed in this process, by database (`Store.add_change_listener`)
_CHANGE_LISTENERS: dict[str, list[Callable[[int], None]]] = {}


_log = logging.getLogger("spacechess.store")
#: first and longest wait between two tries of a read that must reach the database (`Store.claim_taken`)
UNREACHABLE_FIRST_WAIT, UNREACHABLE_MAX_WAIT = 0.1, 2.0

#: the columns of a `GameHead`, in its fields' order
_HEAD_COLUMNS = ("id", "kind", "guild_id", "channel_id", "name", "status", "created_at", "options")

#: Entries read per step when walking the log from its end (undo listings).
_WALK_STEP = 64

_GAMES, _SEATS, _LOG, _CLAIMS, _STATUS = (
    GameRow.__table__, Seat.__table__, LogEntry.__table__, Claim.__table__,  # type: ignore[attr-defined]
    StatusMessage.__table__,  # type: ignore[attr-defined]
)

# --- statements built once ----------------------------------------------------------------------------
# A draw pass or an order runs these once per commit: built here, SQLAlchemy compiles each once per
# connection's dialect and reuses it, instead of building and hashing a new statement every time.

#: one log entry after the game's last one, numbered by the INSERT itself
_APPEND_ENTRY = insert(_LOG).from_select(
    ["game_id", "seq", "kind", "actor", "user_id", "payload", "created_at"],
    select(
        bindparam("game_id", type_=Integer),
        select(func.coalesce(func.max(_LOG.c.seq), 0) + 1).where(_LOG.c.game_id == bindparam("game_id"))
        .scalar_subquery(),
        bindparam("kind", type_=String), bindparam("actor", type_=String), bindparam("user_id", type_=BigInteger),
        bindparam("payload", type_=_LOG.c.payload.type), bindparam("created_at", type_=_LOG.c.created_at.type),
    ),
)

#: the reads of every command: a game by id, a member's seat, a server's settings, a channel's game
#: (whose guild and channel may be none: a direct message, the console)
_GAME_BY_ID = select(_GAMES).where(_GAMES.c.id == bindparam("game_id"))
_SEAT_OF_USER = select(_SEATS).where(_SEATS.c.game_id == bindparam("game_id"), _SEATS.c.user_id == bindparam("user_id"))
_SETTINGS = GuildSettings.__table__  # type: ignore[attr-defined]
_SETTINGS_OF = select(_SETTINGS).where(_SETTINGS.c.guild_id == bindparam("guild_id"))
_MEMBERS = MemberSettings.__table__  # type: ignore[attr-defined]
_MEMBER_OF = select(_MEMBERS).where(_MEMBERS.c.user_id == bindparam("user_id"))
_GAME_IN_CHANNEL = {
    (no_guild, no_channel): select(_GAMES)
    .where(_GAMES.c.guild_id.is_(None) if no_guild else _GAMES.c.guild_id == bindparam("guild_id"))
    .where(_GAMES.c.channel_id.is_(None) if no_channel else _GAMES.c.channel_id == bindparam("channel_id"))
    .order_by(_GAMES.c.id.desc()).limit(1)
    for no_guild in (False, True) for no_channel in (False, True)
}

@cache
def _guarded_update(columns: tuple[str, ...]) -> Any:
    """A commit's UPDATE of `columns` (bound as ``new_<column>``), the version bumped, guarded by the
    version read: one statement per set of columns a commit may change."""
    return (update(_GAMES)
            .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("expected_version"))
            .values(version=_GAMES.c.version + 1, **{name: bindparam(f"new_{name}", type_=_GAMES.c[name].type)
                                                     for name in columns})
            .returning(*_GAMES.c))


#: claims taken unless already held, answering the keys it took (a held key is left out)
_TAKE_CLAIM = {
    name: dialect.insert(_CLAIMS).on_conflict_do_nothing(index_elements=[_CLAIMS.c.key]).returning(_CLAIMS.c.key)
    for name, dialect in (("sqlite", sqlite), ("postgresql", postgresql))
}


# --- the log in bulk --------------------------------------------------------------------------------
# A whole log (an export, an import, a replay) is 10,000 rows for a long campaign: SQLAlchemy's
# per-row processing (a regex per time on SQLite, a Python call per value) and one bound statement
# per row would cost far more than the database does. Reads take the payload as its JSON text and the
# time as the driver gives it, decoded in C; writes send the rows in one go: one JSON array unpacked by
# one INSERT ... SELECT on SQLite, a COPY on PostgreSQL.

#: the log's columns as the driver reads them: the payload as JSON text, the time without processing
#: (SQLite: SQLAlchemy's naive UTC text; PostgreSQL: an aware datetime), both read by `_log_records`
_LOG_READ = select(
    _LOG.c.game_id, _LOG.c.seq, _LOG.c.kind, _LOG.c.actor, _LOG.c.user_id,
    cast(_LOG.c.payload, Text).label("payload"), type_coerce(_LOG.c.created_at, String).label("created_at"),
)

#: SQLite: the entries of the JSON array `:rows` inserted as rows of `:game_id`, each an array of
#: [seq, kind, actor, user_id, payload, created_at] (read by index, cheaper than by key)
_LOG_FROM_JSON = text(
    "INSERT INTO game_log (game_id, seq, kind, actor, user_id, payload, created_at) "
    "SELECT :game_id, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), "
    "json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]') "
    "FROM json_each(:rows)"
)
#: PostgreSQL: the rows streamed by COPY, which the server neither plans nor parses as one JSON value
#: (a third cheaper than unpacking a JSON array, for the server and for the bot)
_LOG_COPY = "COPY game_log (game_id, seq, kind, actor, user_id, payload, created_at) FROM STDIN"


def _stored_time(moment: datetime, naive: bool) -> str:
    """The text of what `UTCDateTime` binds: on SQLite naive UTC in SQLAlchemy's own format (so that
    times compare as text the same way), elsewhere ISO 8601 in UTC; a naive time is refused the same way."""
    if moment.tzinfo is None:
        raise ValueError(f"naive datetime {moment!r}: the store keeps aware UTC times only")
    moment = moment.astimezone(UTC)
    return moment.replace(tzinfo=None).isoformat(" ", "microseconds") if naive else moment.isoformat()


def _utc(stored: datetime | str) -> datetime:
    """A time of `_LOG_READ` as `UTCDateTime` reads it: aware, in UTC."""
    moment = datetime.fromisoformat(stored) if isinstance(stored, str) else stored
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _log_records(rows: Sequence[Row[Any]]) -> list[LogRecord]:
    """The records of rows read by `_LOG_READ`; their payloads decoded as one JSON array, in one call."""
    payloads = json.loads(f"[{','.join(row.payload for row in rows)}]")
    return [LogRecord(game_id, seq, kind, actor, user_id, payload, _utc(created_at))
            for (game_id, seq, kind, actor, user_id, _, created_at), payload in zip(rows, payloads, strict=True)]


def _json_checked(values: Sequence[Any], what: Callable[[int], str]) -> list[dict[str, Any]]:
    """Values to be written as JSON and never handed back (a new game's log payloads; `what(i)` names
    the i-th), checked as `_json_copy` checks them with one round trip in C for the lot rather than
    one per value: the values themselves when the lot comes back equal (JSON writes them as it writes
    their copies), else each one's `_json_copy`, which raises the precise error (or turns tuples into
    lists)."""
    values = list(values)
    if all(isinstance(value, dict) for value in values):
        try:
            same = json.loads(json.dumps(values, allow_nan=False)) == values
        except (TypeError, ValueError):
            same = False
        if same:
            return values
    return [_json_copy(value, what(index)) for index, value in enumerate(values)]


def _insert_log(connection: Connection, game_id: int, first_seq: int, entries: Sequence[NewEntry | LogRecord],
                payloads: Sequence[dict[str, Any]], now: datetime) -> None:
    """Entries numbered from `first_seq`, in one statement whatever their number. The payloads are
    checked already (`_json_checked`), encoded here with the rest in one call."""
    numbered = enumerate(zip(entries, payloads, strict=True), start=first_seq)
    if connection.dialect.name == "postgresql":  # the transaction's own driver connection, BEGIN sent
        dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
        with connection.connection.driver_connection.cursor() as cursor, cursor.copy(_LOG_COPY) as copy:
            for seq, (entry, payload) in numbered:
                copy.write_row((game_id, seq, entry.kind, entry.actor, entry.user_id, dumps(payload),
                                _stored_time(entry.created_at or now, False)))
        return
    rows = [[seq, entry.kind, entry.actor, entry.user_id, payload, _stored_time(entry.created_at or now, True)]
            for seq, (entry, payload) in numbered]
    connection.execute(_LOG_FROM_JSON, {"game_id": game_id, "rows": json.dumps(rows, allow_nan=False)})


class Store:
    """One engine (and its pool) per process; methods are thread-safe, each is its own transaction.

    A command runs inside `request()`: one connection checked out for all its reads and its commit,
    and each read of the game, seat or settings done once per write (a handler asking twice for the
    channel's game gets the record already read). `locked_game()` reads a game inside a write
    transaction that holds it until its commit: writers that lost a race wait their turn there
    instead of failing (PostgreSQL: the row lock of SELECT ... FOR UPDATE; SQLite: BEGIN IMMEDIATE).
    Queries are SQLAlchemy Core on the tables of models.py: no ORM identity map on the hot path.
    """

    def __init__(self, url: str, *, migrate: bool = True, echo: bool = False) -> None:
        self.engine = make_engine(url, echo=echo)
        self.dialect = self.engine.dialect.name
        self._listeners = _CHANGE_LISTENERS.setdefault(self.engine.url.render_as_string(), [])
        self._scope = _Scope()
        if migrate:
            upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def add_change_listener(self, listener: Callable[[int], None]) -> None:
        """Call `listener(game_id)` after each commit that changed a game of this database, made by
        any Store of this process (the web companion opens its own), on the committing thread."""
        self._listeners.append(listener)

    def remove_change_listener(self, listener: Callable[[int], None]) -> None:
        self._listeners.remove(listener)

    def _changed(self, connection: Connection, game_id: int) -> None:
        """The open transaction changes `game_id`: on PostgreSQL said to the other processes with it
        (NOTIFY is delivered at the commit), and to this process's listeners after it (`_tx`)."""
        if self.dialect == "postgresql":
            connection.execute(_NOTIFY, {"channel": CHANGE_CHANNEL, "payload": str(game_id)})
        self._scope.changed = (*self._scope.changed, game_id)

    def _tell(self, game_ids: Sequence[int]) -> None:
        for game_id in dict.fromkeys(game_ids):
            for listener in list(self._listeners):
                try:
                    listener(game_id)
                except Exception:  # noqa: BLE001 - a listener's failure must not fail a committed change
                    _log.exception("change listener failed for game %s", game_id)

    # --- connections and transactions --------------------------------------------------------------

    @contextmanager
    def request(self) -> Iterator[None]:
        """Everything the block does on this thread shares one connection (one pool checkout) and reads
        each record once between writes. Re-entrant: an inner request joins the outer one."""
        scope = self._scope
        if scope.connection is not None:
            yield
            return
        with self.engine.connect() as connection:
            scope.connection, scope.memo = connection, {}
            try:
                yield
            finally:
                scope.connection, scope.memo = None, None

    @contextmanager
    def _tx(self, *, write: bool, game_id: int | None = None,
            expected_version: int | None = None) -> Iterator[Connection]:
        """One transaction: inside `locked_game()` its own (already holding the write lock); else on the
        request's connection or a connection of its own. A write forgets what the request read."""
        scope = self._scope
        if write:
            self._forget("channel")  # what a write may change; seats and settings say so themselves
        if scope.locked is not None:
            yield scope.locked
            return
        own = scope.connection is None
        connection = self.engine.connect() if own else scope.connection
        assert connection is not None
        try:
            # a read is one statement: it needs no BEGIN (see db._begin_transaction)
            connection.execution_options(**{BEGIN_MODE: "IMMEDIATE" if write else "NONE"})
            with connection.begin():
                yield connection
        except IntegrityError as exc:
            raise Conflict(game_id, expected_version, str(exc.orig)) from exc
        finally:
            changed, scope.changed = scope.changed, ()
            after, scope.after = scope.after, ()
            if own:
                connection.close()
        if changed:  # committed: the games it changed are told (a rolled-back one raised above)
            self._tell(changed)
        for callback in after:
            self._call_after(callback)

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call `callback` once what this thread wrote is committed: at once, unless a `locked_game()`
        block holds the transaction open, then when the block commits (never, if it rolls back). For
        what reads the change from elsewhere: the timer runner woken for a new timer reads it on its
        own connection, and would find nothing before the outermost commit."""
        if self._scope.locked is None:
            self._call_after(callback)
        else:
            self._scope.after = (*self._scope.after, callback)

    @staticmethod
    def _call_after(callback: Callable[[], None]) -> None:
        try:
            callback()
        except Exception:  # noqa: BLE001 - a callback's failure must not fail a committed change
            _log.exception("after-commit callback failed")

    @contextmanager
    def locked_game(self, game_id: int) -> Iterator[GameRecord | None]:
        """The game as it is now, read in a write transaction that keeps every other writer of it
        waiting until the block ends; `commit` inside the block joins that transaction, which commits
        when the block ends (or rolls back if it raises). None: no such game."""
        scope = self._scope
        if scope.locked is not None:
            raise RuntimeError("locked_game blocks do not nest")
        with self._tx(write=True, game_id=game_id) as connection:
            query = select(_GAMES).where(_GAMES.c.id == game_id)
            if self.dialect == "postgresql":
                query = query.with_for_update()
            row = connection.execute(query).first()
            scope.locked = connection
            try:
                yield _game_record(row) if row is not None else None
            finally:
                scope.locked = None
                self._forget("channel", "seat", "settings")

    def _forget(self, *kinds: str) -> None:
        """Drop what the request read of these kinds ("channel", "seat", "settings")."""
        memo = self._scope.memo
        if memo:
            for key in [key for key in memo if key[0] in kinds]:
                del memo[key]

    def _remember(self, key: tuple[Any, ...], read: Callable[[], Any]) -> Any:
        """`read()` once per request between writes (outside a request: every time)."""
        memo = self._scope.memo
        if memo is None:
            return read()
        if key not in memo:
            memo[key] = read()
        return memo[key]

    def _fetch(self, query: Any, params: Mapping[str, Any] | None = None) -> list[Any]:
        with self._tx(write=False) as connection:
            return list(connection.execute(query, params).all())

    # --- games ------------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        kind: str,
        name: str,
        guild_id: int | None,
        channel_id: int | None,
        setup: dict[str, Any],
        state: dict[str, Any],
        seed: int,
        created_by: int | None,
        status: str = "setup",
        entries: Sequence[NewEntry | LogRecord] = (),
        options: dict[str, Any] | None = None,
        seats: Sequence[tuple[int, str, bool]] = (),
        claims: Callable[[int], Sequence[str]] = lambda _game_id: (),
        timers: Callable[[GameRecord], Sequence[TimerPlan]] = lambda _game: (),
    ) -> GameRecord:
        """A new game at version 1; `entries` (usually the creation itself) open its log at seq 1.
        `timers` plans what the new record waits for from the start (its turn driver's call, as data),
        written in the same transaction: a game never exists without its first deadline or clock.

        An imported game comes with its seats (user, actor, mute) and the claims of the effects it
        already had (`claims` maps the new game's id to their keys: the draws it got), all in the
        same transaction, so no crash can leave it without the claims that keep it from getting
        those draws a second time. Its log (an exported log's records as they are, numbered anew)
        goes in in one INSERT, whatever its length."""
        _check_status(status)
        payloads = _json_checked([entry.payload for entry in entries], lambda i: f"entry {entries[i].kind!r} payload")
        now = _now()
        values = {
            "kind": kind, "guild_id": guild_id, "channel_id": channel_id, "name": name, "status": status,
            "setup": _json_copy(setup, "setup"), "state": _json_copy(state, "state"), "version": 1,
            "seed": seed, "created_by": created_by, "created_at": now, "updated_at": now,
            "options": _json_copy(options or {}, "options"),
        }
        with self._tx(write=True) as connection:
            row = connection.execute(insert(_GAMES).values(**values).returning(*_GAMES.c)).one()
            self._append(connection, row.id, entries, payloads, now, first_seq=1)
            self._replace_seats(connection, row.id, [SeatRecord(row.id, *seat) for seat in seats], ())
            self._take_claims(connection, row.id, None, claims(row.id), now)
            record = _game_record(row)
            write_plans(connection, row.id, timers(record))
            self._changed(connection, row.id)
        return record

    def get_game(self, game_id: int) -> GameRecord | None:
        rows = self._fetch(_GAME_BY_ID, {"game_id": game_id})
        return _game_record(rows[0]) if rows else None

    def game_in_channel(self, guild_id: int | None, channel_id: int | None) -> GameRecord | None:
        """The channel's game: the newest one, finished or not — a finished game stays readable
        (info, board, history, export) until a GM creates the next one there."""

        def read() -> GameRecord | None:
            query = _GAME_IN_CHANNEL[guild_id is None, channel_id is None]
            rows = self._fetch(query, {"guild_id": guild_id, "channel_id": channel_id})
            return _game_record(rows[0]) if rows else None

        return self._remember(("channel", guild_id, channel_id), read)

    def list_games(
        self, *, guild_id: int | None = None, statuses: Collection[str] | None = None
    ) -> list[GameRecord]:
        """Oldest first; `guild_id=None` means every guild (direct-message games included)."""
        return [game for batch in self.iter_games(guild_id=guild_id, statuses=statuses) for game in batch]

    def iter_games(
        self, *, guild_id: int | None = None, statuses: Collection[str] | None = None,
        kinds: Collection[str] | None = None, batch: int = 200,
    ) -> Iterator[list[GameRecord]]:
        """The games of `list_games`, oldest first, read `batch` at a time (keyset on the id): a pass
        over every game holds one batch of records, whatever the number of games."""
        query = select(_GAMES)
        if guild_id is not None:
            query = query.where(_GAMES.c.guild_id == guild_id)
        if statuses is not None:
            query = query.where(_GAMES.c.status.in_(list(statuses)))
        if kinds is not None:
            query = query.where(_GAMES.c.kind.in_(list(kinds)))
        for rows in self._game_pages(query, batch):
            yield [_game_record(row) for row in rows]

    def iter_game_heads(self, *, statuses: Collection[str], kinds: Collection[str],
                        batch: int = 200) -> Iterator[list[GameHead]]:
        """The games of these statuses and kinds as `GameHead`s, oldest first, a page of `batch` per
        statement: a pass over thousands of running games reads none of their documents."""
        query = (select(*(_GAMES.c[name] for name in _HEAD_COLUMNS))
                 .where(_GAMES.c.status.in_(list(statuses)), _GAMES.c.kind.in_(list(kinds))))
        for rows in self._game_pages(query, batch):
            yield [GameHead(*row[:-1], options=dict(row.options or {})) for row in rows]

    def games_by_id(self, game_ids: Collection[int]) -> dict[int, GameRecord]:
        """The records of these games (a page's worth: one IN list) in one statement, in id order; a
        game that is gone is left out."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        query = select(_GAMES).where(_GAMES.c.id.in_(wanted)).order_by(_GAMES.c.id)
        return {row.id: _game_record(row) for row in self._fetch(query)}

    def _game_pages(self, query: Any, batch: int) -> Iterator[list[Row[Any]]]:
        """The rows of `query` (a select of the games table's `id` among others) a page of `batch` per
        statement, in id order: each page starts after the last id of the one before (keyset), so a
        page costs the same whatever the number of games before it."""
        after = 0
        while True:
            rows = self._fetch(query.where(_GAMES.c.id > after).order_by(_GAMES.c.id).limit(batch))
            if rows:
                yield rows
            if len(rows) < batch:
                return
            after = rows[-1].id

    def unposted_games(self, *, statuses: Collection[str], guild_ids: Collection[int],
                       batch: int = 1000) -> list[int]:
        """The ids of the games of `statuses` in a channel of one of these servers that have no status
        message yet: their ids and servers only, the status messages joined in, a page of `batch`
        games per statement — not one read of each game and one of its message (a restart with
        thousands of games). Other servers' games are left out here (a process holds thousands of
        servers: too many for one IN list)."""
        servers = set(guild_ids)
        query = (select(_GAMES.c.id, _GAMES.c.guild_id)
                 .outerjoin(_STATUS, _STATUS.c.game_id == _GAMES.c.id)
                 .where(_STATUS.c.game_id.is_(None), _GAMES.c.channel_id.is_not(None),
                        _GAMES.c.status.in_(list(statuses))))
        return [row.id for rows in self._game_pages(query, batch) for row in rows if row.guild_id in servers]

    def commit(
        self,
        game_id: int,
        expected_version: int,
        *,
        state: dict[str, Any],
        entries: Sequence[NewEntry],
        status: str | None = None,
        seats_set: Sequence[SeatRecord] = (),
        seats_removed: Sequence[str] = (),
        claims: Sequence[str] = (),
        setup: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
        outbox: Sequence[NewPost] = (),
        timers: Sequence[TimerPlan] = (),
        channel_id: int | None = None,
    ) -> GameRecord:
        """Apply one accepted change: new snapshot, version + 1, log entries and seats, all or nothing.

        `setup` replaces the setup document (a GM loading another map before the start): the log
        then replays from the new document. `options` replaces the bot's settings of the game (a
        computer player seated).

        `claims` are keys of once-only effects this change performs (``draw:<game>:<date>:<index>``):
        if one is already taken the whole change is refused with `AlreadyClaimed`. `outbox` are the
        channel posts the change causes (`bot.store.outbox`), written in its transaction; its
        `updated_at` is the status message's "needs refresh" mark (`discord_state.dirty_games`), so a
        crash right after the commit still leaves that refresh owed. `timers` are the game's timers
        the change sets, moves or cancels (`bot.store.timer_rows`), in the same transaction.
        `channel_id` moves the game to another channel (`/gm move`), with the posts it still owes there.

        An order's commit is two statements: the guarded UPDATE returning the new row, and the
        log INSERT numbering its entry in SQL (seats and claims add theirs only when given).
        """
        if status is not None:
            _check_status(status)
        new_state = _json_copy(state, "state")
        payloads = [_json_copy(entry.payload, f"entry {entry.kind!r} payload") for entry in entries]
        self._check_seats(game_id, seats_set)
        now = _now()
        changed = {"state": new_state, "updated_at": now}
        if status is not None:
            changed["status"] = status
        if setup is not None:
            changed["setup"] = _json_copy(setup, "setup")
        if options is not None:
            changed["options"] = _json_copy(options, "options")
        channels = self._memoised_channels(game_id)
        if channel_id is not None:  # moved: the channels read before are its no more
            changed["channel_id"] = channel_id
            self._forget("channel")
            channels = []
        with self._tx(write=True, game_id=game_id, expected_version=expected_version) as connection:
            old_channel = (connection.execute(select(_GAMES.c.channel_id).where(_GAMES.c.id == game_id)).scalar()
                           if channel_id is not None else None)
            guarded = _guarded_update(tuple(changed))
            row = connection.execute(guarded, {"game_id": game_id, "expected_version": expected_version,
                                               **{f"new_{name}": value for name, value in changed.items()}}).first()
            if row is None:
                actual = connection.execute(select(_GAMES.c.version).where(_GAMES.c.id == game_id)).scalar()
                raise StaleWrite(game_id, expected_version, actual)
            self._append(connection, game_id, entries, payloads, now)
            if seats_set or seats_removed:
                self._forget("seat")
            self._replace_seats(connection, game_id, seats_set, seats_removed)
            self._take_claims(connection, game_id, expected_version, claims, now)
            if channel_id is not None:
                move_posts(connection, game_id, old_channel, channel_id, now)
            # the posts this change causes: kept or lost with it, linked to the version it makes
            insert_posts(connection, outbox, now, owed_by=commit_cause(expected_version + 1))
            write_plans(connection, game_id, timers)
            self._changed(connection, game_id)
            committed = _game_record(row)
        self._keep_channels(channels, committed)
        return committed

    def _memoised_channels(self, game_id: int) -> list[tuple[Any, ...]]:
        """The request's channel reads that found this game (before a commit of it forgets them)."""
        memo = self._scope.memo or {}
        return [key for key, game in memo.items() if key[0] == "channel" and game is not None and game.id == game_id]

    def _keep_channels(self, channels: Sequence[tuple[Any, ...]], game: GameRecord) -> None:
        """After a commit of `game`, the channels it was the game of still have it — a commit creates
        no game, so it is still their newest — now as committed: the command's later reads of its
        channel (the status refresh the adapter owes) need no statement. Inside `locked_game`, whose
        transaction commits only when its block ends, nothing is kept."""
        memo = self._scope.memo
        if memo is not None and self._scope.locked is None:
            memo.update((key, game) for key in channels)

    @staticmethod
    def _check_seats(game_id: int, seats_set: Sequence[SeatRecord]) -> None:
        actors = [seat.actor for seat in seats_set]
        if len(set(actors)) != len(actors):
            raise ValueError(f"seats_set names an actor twice: {actors}")
        strangers = [seat for seat in seats_set if seat.game_id != game_id]
        if strangers:
            raise ValueError(f"seats_set has seats of another game than {game_id}: {strangers}")

    @staticmethod
    def _append(
        connection: Connection,
        game_id: int,
        entries: Sequence[NewEntry | LogRecord],
        payloads: Sequence[dict[str, Any]],
        now: datetime,
        first_seq: int | None = None,
    ) -> None:
        """Log entries after the game's last one. Without `first_seq` the seq is computed by the INSERT
        itself (one statement for one entry); a known `first_seq` (a new game) inserts in bulk."""
        if not entries:
            return
        if first_seq is None and len(entries) == 1:
            entry = entries[0]
            connection.execute(_APPEND_ENTRY, {"game_id": game_id, "kind": entry.kind, "actor": entry.actor,
                                               "user_id": entry.user_id, "payload": payloads[0],
                                               "created_at": entry.created_at or now})
            return
        if first_seq is None:
            last = connection.execute(select(func.max(_LOG.c.seq)).where(_LOG.c.game_id == game_id)).scalar()
            first_seq = (last or 0) + 1
        _insert_log(connection, game_id, first_seq, entries, payloads, now)

    @staticmethod
    def _replace_seats(
        connection: Connection, game_id: int, seats_set: Sequence[SeatRecord], seats_removed: Sequence[str]
    ) -> None:
        """Delete then insert, so that moving a user between actors in one commit never trips a unique key."""
        actors = {seat.actor for seat in seats_set} | set(seats_removed)
        if not actors:
            return
        connection.execute(delete(_SEATS).where(_SEATS.c.game_id == game_id, _SEATS.c.actor.in_(sorted(actors))))
        if seats_set:
            connection.execute(insert(_SEATS), [
                {"game_id": game_id, "user_id": seat.user_id, "actor": seat.actor, "mute_pings": seat.mute_pings}
                for seat in seats_set
            ])

    @staticmethod
    def _take_claims(
        connection: Connection,
        game_id: int | None,
        expected_version: int | None,
        keys: Sequence[str],
        now: datetime,
    ) -> None:
        """One statement: the keys nobody holds are taken, and any key already held refuses the whole
        change with `AlreadyClaimed` (its transaction rolls back, the keys it took with it)."""
        if not keys:
            return
        wanted = list(dict.fromkeys(keys))
        taking = _TAKE_CLAIM[connection.dialect.name]
        taken = set(connection.execute(taking, [{"key": key, "game_id": game_id, "claimed_at": now}
                                                for key in wanted]).scalars())
        if len(taken) < len(wanted):
            raise AlreadyClaimed(game_id, expected_version, sorted(set(wanted) - taken))

    # --- log and seats ----------------------------------------------------------------------------

    def log(self, game_id: int, *, after_seq: int = 0, limit: int | None = None,
            kinds: Collection[str] | None = None) -> list[LogRecord]:
        """The game's log in seq order; `kinds` keeps only entries of those kinds (the undo entries
        and reveals a page of history needs, without reading every other entry)."""
        query = (
            _LOG_READ
            .where(_LOG.c.game_id == game_id, _LOG.c.seq > after_seq)
            .order_by(_LOG.c.seq)
            .limit(limit)
        )
        if kinds is not None:
            query = query.where(_LOG.c.kind.in_(sorted(kinds)))
        return _log_records(self._fetch(query))

    def log_count(self, game_id: int) -> int:
        """How many entries the game's log holds, counted by the database."""
        with self._tx(write=False) as connection:
            return int(connection.execute(
                select(func.count()).select_from(_LOG).where(_LOG.c.game_id == game_id)).scalar() or 0)

    def log_page(self, game_id: int, *, offset: int, limit: int) -> list[LogRecord]:
        """`limit` entries, newest first, after skipping the `offset` newest: a history page costs the
        page (the (game_id, seq) unique index walks backwards), not the whole log."""
        query = (
            _LOG_READ.where(_LOG.c.game_id == game_id)
            .order_by(_LOG.c.seq.desc()).offset(offset).limit(limit)
        )
        return _log_records(self._fetch(query))

    def log_newest(self, game_id: int, *, kinds: Collection[str], skip: Collection[int] = (),
                   count: int) -> list[LogRecord]:
        """The `count` newest entries of `kinds` whose seq is not in `skip`, oldest first: what an undo
        of `count` inputs takes back, read from the end of the log a few entries at a time."""
        found: list[LogRecord] = []
        before: int | None = None
        skipped, step = set(skip), _WALK_STEP + count
        while len(found) < count:
            query = (
                _LOG_READ.where(_LOG.c.game_id == game_id, _LOG.c.kind.in_(sorted(kinds)))
                .order_by(_LOG.c.seq.desc()).limit(step)
            )
            if before is not None:
                query = query.where(_LOG.c.seq < before)
            rows = self._fetch(query)
            found += [r for r in _log_records(rows) if r.seq not in skipped][:count - len(found)]
            if len(rows) < step:
                break
            before = rows[-1].seq
        return found[::-1]

    def seats(self, game_id: int) -> list[SeatRecord]:
        return self.seats_of([game_id])[game_id]

    def seats_of(self, game_ids: Collection[int]) -> dict[int, list[SeatRecord]]:
        """The seats of many games in one statement, each game's by actor."""
        found: dict[int, list[SeatRecord]] = {game_id: [] for game_id in game_ids}
        query = select(_SEATS).where(_SEATS.c.game_id.in_(sorted(found))).order_by(_SEATS.c.game_id, _SEATS.c.actor)
        for row in self._fetch(query):
            found[row.game_id].append(_seat_record(row))
        return found

    def games_of_member(self, user_id: int, *, statuses: Collection[str] | None = None
                        ) -> list[tuple[GameRecord, SeatRecord]]:
        """Every game `user_id` holds a seat in, on every server, with that seat: oldest first, in
        one statement (a member plays a handful of games, whatever the number of games stored)."""
        query = (select(_GAMES, _SEATS.c.actor, _SEATS.c.mute_pings)
                 .join(_SEATS, _SEATS.c.game_id == _GAMES.c.id)
                 .where(_SEATS.c.user_id == user_id).order_by(_GAMES.c.id))
        if statuses is not None:
            query = query.where(_GAMES.c.status.in_(list(statuses)))
        return [(_game_record(row), SeatRecord(row.id, user_id, row.actor, row.mute_pings))
                for row in self._fetch(query)]

    def seat_of_user(self, game_id: int, user_id: int) -> SeatRecord | None:
        def read() -> SeatRecord | None:
            rows = self._fetch(_SEAT_OF_USER, {"game_id": game_id, "user_id": user_id})
            return _seat_record(rows[0]) if rows else None

        return self._remember(("seat", game_id, user_id), read)

    # --- guild settings ---------------------------------------------------------------------------

    def guild_settings(self, guild_id: int) -> GuildSettingsRecord:
        def read() -> GuildSettingsRecord:
            rows = self._fetch(_SETTINGS_OF, {"guild_id": guild_id})
            return _settings_record(rows[0]) if rows else GuildSettingsRecord(guild_id)

        return self._remember(("settings", guild_id), read)

    def set_guild_settings(self, guild_id: int, **fields: Any) -> GuildSettingsRecord:
        """Change some settings (language, gm_role_id, ping_policy, log_channel_id); the others keep their value."""
        unknown = set(fields) - {"language", "gm_role_id", "ping_policy", "log_channel_id"}
        if unknown:
            raise TypeError(f"unknown guild settings: {', '.join(sorted(unknown))}")
        if "language" in fields and fields["language"] not in LANGUAGES:
            raise ValueError(f"unknown language {fields['language']!r} (one of {', '.join(LANGUAGES)})")
        if "ping_policy" in fields and fields["ping_policy"] not in PING_POLICIES:
            raise ValueError(
                f"unknown ping policy {fields['ping_policy']!r} (one of {', '.join(PING_POLICIES)})"
            )
        changes = {**fields, "updated_at": _now()}
        defaults = GuildSettingsRecord(guild_id)
        row = {
            "guild_id": guild_id,
            "language": defaults.language,
            "gm_role_id": defaults.gm_role_id,
            "ping_policy": defaults.ping_policy,
            "log_channel_id": defaults.log_channel_id,
            **changes,
        }
        self._forget("settings")
        with self._tx(write=True) as connection:
            upsert = self._dialect_insert(GuildSettings).values(**row)
            connection.execute(upsert.on_conflict_do_update(index_elements=["guild_id"], set_=changes))
        return self.guild_settings(guild_id)

    # --- member settings --------------------------------------------------------------------------

    def member_settings(self, user_id: int) -> MemberSettingsRecord:
        """A member's own settings (the defaults when they never set any): read once per request."""
        def read() -> MemberSettingsRecord:
            rows = self._fetch(_MEMBER_OF, {"user_id": user_id})
            if not rows:
                return MemberSettingsRecord(user_id)
            row = rows[0]
            return MemberSettingsRecord(row.user_id, bool(row.mute_pings), row.language, _utc(row.updated_at),
                                        row.reminders)

        return self._remember(("member", user_id), read)

    def set_member_settings(self, user_id: int, **fields: Any) -> MemberSettingsRecord:
        """Change some of a member's settings (mute_pings, language: None follows their Discord client,
        reminders); the others keep their value."""
        unknown = set(fields) - {"mute_pings", "language", "reminders"}
        if unknown:
            raise TypeError(f"unknown member settings: {', '.join(sorted(unknown))}")
        if fields.get("language") is not None and fields["language"] not in LANGUAGES:
            raise ValueError(f"unknown language {fields['language']!r} (one of {', '.join(LANGUAGES)}, or None)")
        if "reminders" in fields and fields["reminders"] not in REMINDERS:
            raise ValueError(f"unknown reminders {fields['reminders']!r} (one of {', '.join(REMINDERS)})")
        if "mute_pings" in fields and not isinstance(fields["mute_pings"], bool):
            raise TypeError(f"mute_pings must be a bool, not {type(fields['mute_pings']).__name__}")
        changes = {**fields, "updated_at": _now()}
        defaults = MemberSettingsRecord(user_id)
        row = {"user_id": user_id, "mute_pings": defaults.mute_pings, "language": defaults.language,
               "reminders": defaults.reminders, **changes}
        self._forget("member")
        with self._tx(write=True) as connection:
            upsert = self._dialect_insert(MemberSettings).values(**row)
            connection.execute(upsert.on_conflict_do_update(index_elements=["user_id"], set_=changes))
        return self.member_settings(user_id)

    def muted_members(self, user_ids: Collection[int]) -> frozenset[int]:
        """Those of `user_ids` who turned pings off for every game, in one statement (none asked: none read)."""
        return self._members_who("muted", user_ids, _MEMBERS.c.mute_pings)

    def dm_members(self, user_ids: Collection[int]) -> frozenset[int]:
        """Those of `user_ids` who take their pings by direct message, in one statement (none asked: none read)."""
        return self._members_who("dm", user_ids, _MEMBERS.c.reminders == "dm")

    def _members_who(self, name: str, user_ids: Collection[int], condition: Any) -> frozenset[int]:
        users = sorted(set(user_ids))
        if not users:
            return frozenset()

        def read() -> frozenset[int]:
            query = select(_MEMBERS.c.user_id).where(_MEMBERS.c.user_id.in_(users), condition)
            return frozenset(row.user_id for row in self._fetch(query))

        return self._remember(("member", name, tuple(users)), read)

    def _dialect_insert(self, model: Any) -> Any:
        """INSERT with the backend's ON CONFLICT clauses."""
        dialect = postgresql if self.dialect == "postgresql" else sqlite
        return dialect.insert(model)

    # --- draws and claims -------------------------------------------------------------------------

    def save_draw(
        self, *, source: str, date: date, index: int, data: dict[str, Any]
    ) -> tuple[DrawRecord, bool]:
        """Store a draw once: (the stored record, True) the first time; (the first one stored, False) after."""
        payload = _json_copy(data, "draw data")
        row = {"source": source, "draw_date": date, "draw_index": index, "data": payload, "stored_at": _now()}
        with self._tx(write=True) as connection:
            statement = self._dialect_insert(DrawRow).values(**row).on_conflict_do_nothing()
            created = connection.execute(statement.returning(col(DrawRow.id))).first() is not None
        stored = self.get_draw(source, date, index)
        assert stored is not None
        return stored, created

    def get_draw(self, source: str, date: date, index: int) -> DrawRecord | None:
        table = DrawRow.__table__  # type: ignore[attr-defined]
        rows = self._fetch(select(table).where(
            table.c.source == source, table.c.draw_date == date, table.c.draw_index == index))
        return _draw_record(rows[0]) if rows else None

    def draws(
        self, *, source: str | None = None, since: date | None = None, until: date | None = None,
        sources: Collection[str] | None = None,
    ) -> list[DrawRecord]:
        """Stored draws in draw order, optionally of one source (or of any of `sources`) and within
        [since, until]."""
        table = DrawRow.__table__  # type: ignore[attr-defined]
        query = select(table).order_by(table.c.draw_date, table.c.draw_index, table.c.source)
        if source is not None:
            query = query.where(table.c.source == source)
        if sources is not None:
            query = query.where(table.c.source.in_(sorted(sources)))
        if since is not None:
            query = query.where(table.c.draw_date >= since)
        if until is not None:
            query = query.where(table.c.draw_date <= until)
        return [_draw_record(row) for row in self._fetch(query)]

    def owe_posts(self, game: GameRecord, posts: Sequence[NewPost]) -> None:
        """Write `posts` as owed by the commit that made `game` (its version), in the transaction of
        the `locked_game` block that made it: they are kept or lost with that commit, as its own
        `outbox` would be — for posts that only its outcome says (whom a draw offer asks). Refused
        outside such a block: there the commit is done already, and a crash before this write would
        lose them."""
        if self._scope.locked is None:
            raise RuntimeError("owe_posts writes in the transaction of a locked_game block only")
        insert_posts(self._scope.locked, posts, owed_by=commit_cause(game.version))

    def claim(self, key: str, *, game_id: int | None = None, outbox: Sequence[NewPost] = ()) -> bool:
        """Take a once-only effect not tied to a game commit (a reminder sent): True for exactly one caller."""
        try:
            with self._tx(write=True, game_id=game_id) as connection:
                self._take_claims(connection, game_id, None, [key], _now())
                insert_posts(connection, outbox, owed_by=key)  # a reminder's post is owed exactly when claimed
        except Conflict:  # AlreadyClaimed, or a racing process inserted the key first
            return False
        return True

    def fresh_game(self, game_id: int, *, patience: float = 0.0) -> GameRecord | None:
        """The game read on a connection of its own, past the request's memo and connection: after a
        commit whose outcome is unknown, the game as the database holds it now (`patience`: see
        `claim_taken`)."""
        row = self._own_read(lambda connection: connection.execute(_GAME_BY_ID, {"game_id": game_id}).first(),
                             patience, f"game {game_id}")
        return _game_record(row) if row is not None else None

    def claim_taken(self, key: str, *, patience: float = 0.0) -> bool:
        """Whether `key` is claimed, read on a connection of its own: after a commit whose outcome is
        unknown (the database went away as it answered), the request's connection is not to be trusted.
        `patience`: seconds to keep asking while the database cannot be reached (it is restarting: the
        answer that it committed or not comes once it is back, rather than a guess now)."""
        return self._own_read(
            lambda connection: connection.execute(select(_CLAIMS.c.key).where(_CLAIMS.c.key == key)).first(),
            patience, f"claim {key}") is not None

    def _own_read(self, read: Callable[[Connection], Any], patience: float, what: str) -> Any:
        """`read` on a connection of its own, asked again (backing off) for up to `patience` seconds while
        the database cannot be reached; the last failure raised after that."""
        deadline = time.monotonic() + patience
        wait = UNREACHABLE_FIRST_WAIT
        while True:
            try:
                with self.engine.connect() as connection:
                    return read(connection)
            except OperationalError as err:
                if time.monotonic() + wait > deadline:
                    raise
                _log.warning("the database is unreachable (%s): asking again for %s in %.1f s",
                            str(err.orig or err).splitlines()[0], what, wait)
                time.sleep(wait)
                wait = min(UNREACHABLE_MAX_WAIT, wait * 2)

    def status_message(self, game_id: int, channel_id: int | None = None) -> int | None:
        """The id of the game's pinned status message, if one was posted — in `channel_id`, if given
        (a game moved to another channel by `/gm move` has none there yet)."""
        table = StatusMessage.__table__  # type: ignore[attr-defined]
        query = select(table.c.message_id).where(table.c.game_id == game_id)
        if channel_id is not None:
            query = query.where(table.c.channel_id == channel_id)
        rows = self._fetch(query)
        return rows[0].message_id if rows else None

    def set_status_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        values = {"channel_id": channel_id, "message_id": message_id, "updated_at": _now()}
        with self._tx(write=True, game_id=game_id) as connection:
            upsert = self._dialect_insert(StatusMessage).values(game_id=game_id, **values)
            connection.execute(upsert.on_conflict_do_update(index_elements=["game_id"], set_=values))

    def bot_key(self, name: str) -> bytes:
        """The bot's secret named `name`: made once, at random, by whichever process asks first (the
        others read that one), then the same for every process and restart."""
        with self._tx(write=True) as connection:
            made = {"name": name, "value": secrets.token_hex(32), "created_at": _now()}
            connection.execute(self._dialect_insert(BotKey).values(**made).on_conflict_do_nothing())
            value = connection.execute(select(BotKey.__table__.c.value).where(  # type: ignore[attr-defined]
                BotKey.__table__.c.name == name)).scalar_one()  # type: ignore[attr-defined]
        return bytes.fromhex(value)

    def is_claimed(self, key: str) -> bool:
        return key in self.claimed([key])

    def claimed(self, keys: Collection[str]) -> frozenset[str]:
        """Those of `keys` already claimed, in one statement: a pass over a page of games asks for the
        page's keys at once rather than one game at a time (none asked: none read)."""
        wanted = sorted(set(keys))
        if not wanted:
            return frozenset()
        return frozenset(row.key for row in self._fetch(select(_CLAIMS.c.key).where(_CLAIMS.c.key.in_(wanted))))
