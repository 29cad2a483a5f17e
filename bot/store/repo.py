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
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from bot.store.db import make_engine, upgrade, writer
from bot.store.models import (
    GAME_STATUSES,
    PING_POLICIES,
    Claim,
    DrawRow,
    GameRow,
    GuildSettings,
    LogEntry,
    Seat,
    StatusMessage,
)

LANGUAGES = ("fr", "en")


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
    updated_at: datetime | None = None  # None: defaults, never stored


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
    if any(not isinstance(key, str) for key in _keys(value)):
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


def _log_record(row: LogEntry) -> LogRecord:
    return LogRecord(
        game_id=row.game_id,
        seq=row.seq,
        kind=row.kind,
        actor=row.actor,
        user_id=row.user_id,
        payload=row.payload,
        created_at=row.created_at,
    )


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
        updated_at=row.updated_at,
    )


class Store:
    """One engine (and its pool) per process; methods are thread-safe, each is its own transaction."""

    def __init__(self, url: str, *, migrate: bool = True, echo: bool = False) -> None:
        self.engine = make_engine(url, echo=echo)
        self._writer = writer(self.engine)
        if migrate:
            upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # --- sessions ---------------------------------------------------------------------------------

    def _read(self) -> Session:
        return Session(self.engine)

    @contextmanager
    def _write(self, game_id: int | None, expected_version: int | None = None) -> Iterator[Session]:
        try:
            with Session(self._writer, expire_on_commit=False) as session, session.begin():
                yield session
        except IntegrityError as exc:
            raise Conflict(game_id, expected_version, str(exc.orig)) from exc

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
        entries: Sequence[NewEntry] = (),
        options: dict[str, Any] | None = None,
        seats: Sequence[tuple[int, str, bool]] = (),
        claims: Callable[[int], Sequence[str]] = lambda _game_id: (),
    ) -> GameRecord:
        """A new game at version 1; `entries` (usually the creation itself) open its log at seq 1.

        An imported game comes with its seats (user, actor, mute) and the claims of the effects it
        already had (`claims` maps the new game's id to their keys: the draws it got), all in the
        same transaction, so no crash can leave it without the claims that keep it from getting
        those draws a second time."""
        _check_status(status)
        payloads = [_json_copy(entry.payload, f"entry {entry.kind!r} payload") for entry in entries]
        now = _now()
        row = GameRow(
            kind=kind,
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            status=status,
            setup=_json_copy(setup, "setup"),
            state=_json_copy(state, "state"),
            version=1,
            seed=seed,
            created_by=created_by,
            created_at=now,
            updated_at=now,
            options=_json_copy(options or {}, "options"),
        )
        with self._write(None) as session:
            session.add(row)
            session.flush()
            assert row.id is not None
            self._append(session, row.id, entries, payloads, now, first_seq=1)
            self._replace_seats(session, row.id, [SeatRecord(row.id, *seat) for seat in seats], ())
            self._take_claims(session, row.id, None, claims(row.id), now)
        return _game_record(row)

    def get_game(self, game_id: int) -> GameRecord | None:
        with self._read() as session:
            row = session.get(GameRow, game_id)
            return _game_record(row) if row is not None else None

    def game_in_channel(self, guild_id: int | None, channel_id: int | None) -> GameRecord | None:
        """The channel's game: the newest one, finished or not — a finished game stays readable
        (info, board, history, export) until a GM creates the next one there."""
        query = (
            select(GameRow)
            .where(col(GameRow.guild_id).is_(None) if guild_id is None else GameRow.guild_id == guild_id)
            .where(
                col(GameRow.channel_id).is_(None) if channel_id is None else GameRow.channel_id == channel_id
            )
            .order_by(col(GameRow.id).desc())
            .limit(1)
        )
        with self._read() as session:
            row = session.exec(query).first()
            return _game_record(row) if row is not None else None

    def list_games(
        self, *, guild_id: int | None = None, statuses: Collection[str] | None = None
    ) -> list[GameRecord]:
        """Oldest first; `guild_id=None` means every guild (direct-message games included)."""
        query = select(GameRow).order_by(col(GameRow.id))
        if guild_id is not None:
            query = query.where(GameRow.guild_id == guild_id)
        if statuses is not None:
            query = query.where(col(GameRow.status).in_(list(statuses)))
        with self._read() as session:
            return [_game_record(row) for row in session.exec(query)]

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
    ) -> GameRecord:
        """Apply one accepted change: new snapshot, version + 1, log entries and seats, all or nothing.

        `setup` replaces the setup document (a GM loading another map before the start): the log
        then replays from the new document. `options` replaces the bot's settings of the game (a
        computer player seated).

        `claims` are keys of once-only effects this change performs (``draw:<game>:<date>:<index>``):
        if one is already taken the whole change is refused with `AlreadyClaimed`.
        """
        if status is not None:
            _check_status(status)
        new_state = _json_copy(state, "state")
        payloads = [_json_copy(entry.payload, f"entry {entry.kind!r} payload") for entry in entries]
        self._check_seats(game_id, seats_set)
        now = _now()
        values: dict[str, Any] = {"state": new_state, "version": GameRow.version + 1, "updated_at": now}
        if status is not None:
            values["status"] = status
        if setup is not None:
            values["setup"] = _json_copy(setup, "setup")
        if options is not None:
            values["options"] = _json_copy(options, "options")
        with self._write(game_id, expected_version) as session:
            guarded = (
                update(GameRow)
                .where(col(GameRow.id) == game_id, col(GameRow.version) == expected_version)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            if session.execute(guarded).rowcount != 1:  # type: ignore[attr-defined]
                actual = session.exec(select(GameRow.version).where(GameRow.id == game_id)).first()
                raise StaleWrite(game_id, expected_version, actual)
            self._append(session, game_id, entries, payloads, now)
            self._replace_seats(session, game_id, seats_set, seats_removed)
            self._take_claims(session, game_id, expected_version, claims, now)
            row = session.get(GameRow, game_id)
            assert row is not None
            return _game_record(row)

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
        session: Session,
        game_id: int,
        entries: Sequence[NewEntry],
        payloads: Sequence[dict[str, Any]],
        now: datetime,
        first_seq: int | None = None,
    ) -> None:
        if not entries:
            return
        if first_seq is None:
            last = session.exec(select(func.max(LogEntry.seq)).where(LogEntry.game_id == game_id)).first()
            first_seq = (last or 0) + 1
        for offset, (entry, payload) in enumerate(zip(entries, payloads, strict=True)):
            session.add(
                LogEntry(
                    game_id=game_id,
                    seq=first_seq + offset,
                    kind=entry.kind,
                    actor=entry.actor,
                    user_id=entry.user_id,
                    payload=payload,
                    created_at=entry.created_at or now,
                )
            )
        session.flush()

    @staticmethod
    def _replace_seats(
        session: Session, game_id: int, seats_set: Sequence[SeatRecord], seats_removed: Sequence[str]
    ) -> None:
        """Delete then insert, so that moving a user between actors in one commit never trips a unique key."""
        actors = {seat.actor for seat in seats_set} | set(seats_removed)
        if not actors:
            return
        session.execute(delete(Seat).where(col(Seat.game_id) == game_id, col(Seat.actor).in_(sorted(actors))))
        session.add_all(
            Seat(game_id=game_id, user_id=seat.user_id, actor=seat.actor, mute_pings=seat.mute_pings)
            for seat in seats_set
        )
        session.flush()

    @staticmethod
    def _take_claims(
        session: Session,
        game_id: int | None,
        expected_version: int | None,
        keys: Sequence[str],
        now: datetime,
    ) -> None:
        """Look first for a clear AlreadyClaimed; a racing insert still fails on the key (as a Conflict)."""
        if not keys:
            return
        taken = session.exec(select(Claim.key).where(col(Claim.key).in_(list(keys)))).all()
        if taken:
            raise AlreadyClaimed(game_id, expected_version, sorted(taken))
        session.add_all(Claim(key=key, game_id=game_id, claimed_at=now) for key in dict.fromkeys(keys))
        session.flush()

    # --- log and seats ----------------------------------------------------------------------------

    def log(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[LogRecord]:
        query = (
            select(LogEntry)
            .where(LogEntry.game_id == game_id, LogEntry.seq > after_seq)
            .order_by(col(LogEntry.seq))
            .limit(limit)
        )
        with self._read() as session:
            return [_log_record(row) for row in session.exec(query)]

    def seats(self, game_id: int) -> list[SeatRecord]:
        query = select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.actor))
        with self._read() as session:
            return [_seat_record(row) for row in session.exec(query)]

    def seat_of_user(self, game_id: int, user_id: int) -> SeatRecord | None:
        query = select(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id)
        with self._read() as session:
            row = session.exec(query).first()
            return _seat_record(row) if row is not None else None

    # --- guild settings ---------------------------------------------------------------------------

    def guild_settings(self, guild_id: int) -> GuildSettingsRecord:
        with self._read() as session:
            row = session.get(GuildSettings, guild_id)
            return _settings_record(row) if row is not None else GuildSettingsRecord(guild_id)

    def set_guild_settings(self, guild_id: int, **fields: Any) -> GuildSettingsRecord:
        """Change some settings (language, gm_role_id, ping_policy); the others keep their value."""
        unknown = set(fields) - {"language", "gm_role_id", "ping_policy"}
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
            **changes,
        }
        with self._write(None) as session:
            dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
            upsert = dialect.insert(GuildSettings).values(**row)
            session.execute(upsert.on_conflict_do_update(index_elements=["guild_id"], set_=changes))
        return self.guild_settings(guild_id)

    # --- draws and claims -------------------------------------------------------------------------

    def save_draw(
        self, *, source: str, date: date, index: int, data: dict[str, Any]
    ) -> tuple[DrawRecord, bool]:
        """Store a draw once: (the stored record, True) the first time; (the first one stored, False) after."""
        payload = _json_copy(data, "draw data")
        row = {"source": source, "draw_date": date, "draw_index": index, "data": payload, "stored_at": _now()}
        with self._write(None) as session:
            dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
            insert = dialect.insert(DrawRow).values(**row).on_conflict_do_nothing().returning(col(DrawRow.id))
            created = session.execute(insert).first() is not None
        stored = self.get_draw(source, date, index)
        assert stored is not None
        return stored, created

    def get_draw(self, source: str, date: date, index: int) -> DrawRecord | None:
        query = select(DrawRow).where(
            DrawRow.source == source, DrawRow.draw_date == date, DrawRow.draw_index == index
        )
        with self._read() as session:
            row = session.exec(query).first()
            return _draw_record(row) if row is not None else None

    def draws(
        self, *, source: str | None = None, since: date | None = None, until: date | None = None
    ) -> list[DrawRecord]:
        """Stored draws in draw order, optionally of one source and within [since, until]."""
        query = select(DrawRow).order_by(col(DrawRow.draw_date), col(DrawRow.draw_index), col(DrawRow.source))
        if source is not None:
            query = query.where(DrawRow.source == source)
        if since is not None:
            query = query.where(DrawRow.draw_date >= since)
        if until is not None:
            query = query.where(DrawRow.draw_date <= until)
        with self._read() as session:
            return [_draw_record(row) for row in session.exec(query)]

    def claim(self, key: str, *, game_id: int | None = None) -> bool:
        """Take a once-only effect not tied to a game commit (a reminder sent): True for exactly one caller."""
        try:
            with self._write(game_id) as session:
                self._take_claims(session, game_id, None, [key], _now())
        except Conflict:  # AlreadyClaimed, or a racing process inserted the key first
            return False
        return True

    def status_message(self, game_id: int) -> int | None:
        """The id of the game's pinned status message, if one was posted."""
        with self._read() as session:
            row = session.get(StatusMessage, game_id)
            return row.message_id if row is not None else None

    def set_status_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        with self._write(None) as session:
            row = session.get(StatusMessage, game_id)
            if row is None:
                session.add(StatusMessage(game_id=game_id, channel_id=channel_id, message_id=message_id,
                                          updated_at=_now()))
            else:
                row.channel_id, row.message_id, row.updated_at = channel_id, message_id, _now()

    def is_claimed(self, key: str) -> bool:
        with self._read() as session:
            return session.get(Claim, key) is not None
