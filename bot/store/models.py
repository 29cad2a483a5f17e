"""The tables. Only repo.py touches these classes; the rest of the bot sees frozen records.

Discord ids are 64-bit (BigInteger). Times are aware UTC datetimes in Python whatever the backend:
SQLite has no time zone type, so `UTCDateTime` stores naive UTC there and re-attaches UTC on load.
Constraint names are explicit so that later migrations (SQLite batch mode included) can refer to them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

GAME_STATUSES = ("setup", "running", "paused", "finished")
PING_POLICIES = ("players", "none", "all")
#: the languages a member may choose for their private replies (as `bot.i18n.LANGUAGES`)
LANGUAGES = ("fr", "en")
#: where a member's pings go (`/game settings reminders:`): the game's channel, or a direct message
REMINDERS = ("channel", "dm")


class UTCDateTime(TypeDecorator[datetime]):
    """Refuses naive datetimes on the way in, so a local time can never be stored as if it were UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: the store keeps aware UTC times only")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _column(type_: Any, *args: Any, nullable: bool = False, **kwargs: Any) -> Any:
    """sqlmodel.Field(sa_column=...) with NOT NULL as the default, the safe side for a forgotten flag."""
    return Field(sa_column=Column(type_, *args, nullable=nullable, **kwargs))


class GuildSettings(SQLModel, table=True):
    __tablename__ = "guild_settings"
    __table_args__ = (
        CheckConstraint(_in("ping_policy", PING_POLICIES), name="ck_guild_settings_ping_policy"),
    )

    guild_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    language: str = _column(String(8))
    gm_role_id: int | None = _column(BigInteger, nullable=True)
    ping_policy: str = _column(String(16))
    #: where the GMs are told what the bot cannot say in a game's own channel (gone, locked, closed to it)
    log_channel_id: int | None = _column(BigInteger, nullable=True)
    updated_at: datetime = _column(UTCDateTime)


class MemberSettings(SQLModel, table=True):
    """A member's own settings, across every game and every server: pings off (they are pinged in no
    game), the language of what only they read (none: their Discord client's)."""

    __tablename__ = "member_settings"
    __table_args__ = (CheckConstraint("language IS NULL OR " + _in("language", LANGUAGES),
                                      name="ck_member_settings_language"),
                      CheckConstraint(_in("reminders", REMINDERS), name="ck_member_settings_reminders"))

    user_id: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    mute_pings: bool = _column(Boolean, default=False)
    language: str | None = _column(String(8), nullable=True)
    reminders: str = _column(String(8), default="channel", server_default="channel")
    updated_at: datetime = _column(UTCDateTime)


class GameRow(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_guild_channel", "guild_id", "channel_id"),
        CheckConstraint(_in("status", GAME_STATUSES), name="ck_games_status"),
        # Never reuse the id of a deleted game: buttons and logs elsewhere may still name it.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    kind: str = _column(String)
    guild_id: int | None = _column(BigInteger, nullable=True)
    channel_id: int | None = _column(BigInteger, nullable=True)
    name: str = _column(String)
    status: str = _column(String(16))
    setup: dict[str, Any] = _column(JSON)
    state: dict[str, Any] = _column(JSON)
    version: int = _column(Integer)
    seed: int = _column(BigInteger)
    created_by: int | None = _column(BigInteger, nullable=True)
    created_at: datetime = _column(UTCDateTime)
    updated_at: datetime = _column(UTCDateTime)
    #: the bot's own settings of this game (draw source, time limit), apart from the rules' setup
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}"))


class Seat(SQLModel, table=True):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "actor", name="uq_seats_game_actor"),
        UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    game_id: int = _column(Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_seats_game_id"))
    user_id: int = _column(BigInteger)
    actor: str = _column(String)
    mute_pings: bool = _column(Boolean, default=False)


class LogEntry(SQLModel, table=True):
    __tablename__ = "game_log"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_log_game_seq"),
        # the undo and reveal entries a history page or an undo preview reads, without the whole log
        Index("ix_game_log_game_kind_seq", "game_id", "kind", "seq"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    game_id: int = _column(Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_game_log_game_id"))
    seq: int = _column(Integer)
    kind: str = _column(String)
    actor: str | None = _column(String, nullable=True)
    user_id: int | None = _column(BigInteger, nullable=True)
    payload: dict[str, Any] = _column(JSON)
    created_at: datetime = _column(UTCDateTime)


class DrawRow(SQLModel, table=True):
    """A lottery draw as fetched, stored once whatever the number of polls or processes fetching it."""

    __tablename__ = "draws"
    __table_args__ = (
        UniqueConstraint("source", "draw_date", "draw_index", name="uq_draws_source_date_index"),
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    source: str = _column(String)
    draw_date: date = _column(Date)
    draw_index: int = _column(Integer)
    data: dict[str, Any] = _column(JSON)
    stored_at: datetime = _column(UTCDateTime)


class Claim(SQLModel, table=True):
    """An effect that must happen once (a draw applied to a game, a turn resolved, a reminder sent):
    whoever inserts the key first owns it; every other process finds it taken."""

    __tablename__ = "claims"

    key: str = Field(sa_column=Column(String, primary_key=True))
    game_id: int | None = _column(
        Integer,
        ForeignKey("games.id", ondelete="CASCADE", name="fk_claims_game_id"),
        nullable=True,
        index=True,
    )
    claimed_at: datetime = _column(UTCDateTime)


class StatusMessage(SQLModel, table=True):
    """The pinned status message of a game's channel, edited in place after each change."""

    __tablename__ = "status_messages"

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_status_messages_game_id"), primary_key=True
        )
    )
    channel_id: int = _column(BigInteger)
    message_id: int = _column(BigInteger)
    updated_at: datetime = _column(UTCDateTime)
    #: "pending" until Discord accepted the pin (a 5xx: tried again), "pinned", or "refused" (too many
    #: pins, no permission: never asked again, the message is edited all the same)
    pin: str = Field(default="pinned", sa_column=Column(String(16), nullable=False, server_default="pinned"))


class TimerRow(SQLModel, table=True):
    """A moment a game waits for (a turn's deadline, a move clock, a reminder): the truth every process
    rebuilds its in-memory schedule from. One per (game, kind): setting it again moves it, and bumps
    `generation` so that a firing of the old moment can neither delete the new one nor share its claim."""

    __tablename__ = "timers"
    __table_args__ = (
        UniqueConstraint("game_id", "kind", name="uq_timers_game_kind"),
        Index("ix_timers_due_at", "due_at"),
        # Never reuse an id: with the generation it tells a fired timer from a later one of the same kind.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    game_id: int = _column(Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_timers_game_id"))
    kind: str = _column(String(32))
    due_at: datetime = _column(UTCDateTime)
    payload: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}"))
    generation: int = _column(Integer, default=1)
    created_at: datetime = _column(UTCDateTime)


#: a direct message (``dm``) is for one member (its payload's ``recipient``), about a game of its channel
OUTBOX_KINDS = ("turn_post", "gm_alert", "dm")


class OutboxRow(SQLModel, table=True):
    """A channel post the bot owes (a turn post, a reminder, a GM alert), written in the transaction of
    the change that causes it and marked sent with its Discord message ids (`bot.store.outbox`)."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_pending", "sent_at", "channel_id", "id"),
        CheckConstraint(_in("kind", OUTBOX_KINDS), name="ck_outbox_kind"),
        # Never reuse an id: the Discord nonce of a post is derived from it.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True))
    game_id: int | None = _column(
        Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_outbox_game_id"), nullable=True
    )
    guild_id: int | None = _column(BigInteger, nullable=True)
    #: None for a game with no channel (the console's, tests'): only an adapter's own hooks read it
    channel_id: int | None = _column(BigInteger, nullable=True)
    kind: str = _column(String(16))
    payload: dict[str, Any] = _column(JSON)
    created_at: datetime = _column(UTCDateTime)
    attempts: int = _column(Integer, default=0)
    #: not before this time (a back-off after a failure); also the lease of the process sending it
    next_attempt_at: datetime = _column(UTCDateTime)
    #: the Discord ids of the parts already posted (a long post is several messages)
    message_ids: list[int] = Field(default_factory=list, sa_column=Column(JSON, nullable=False, server_default="[]"))
    sent_at: datetime | None = _column(UTCDateTime, nullable=True)
    last_error: str | None = _column(String, nullable=True)
    #: the cause of the refusal the game's GMs were told of (`bot.outbox.REFUSALS`): told once, not at each retry
    refused: str | None = _column(String(32), nullable=True)
    #: the change that owes the post: ``v<N>``, the game's commit to version N (`Store.commit`), or
    #: the claim key of a once-only effect (`Store.claim`); None for a post no change caused
    #: (`outbox.enqueue`). A change writes each post it owes once: this makes "once" checkable
    owed_by: str | None = _column(String, nullable=True)


class StatusDirty(SQLModel, table=True):
    """A game whose pinned status message is older than the game: the mark survives a restart."""

    __tablename__ = "status_dirty"

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_status_dirty_game_id"), primary_key=True
        )
    )
    since: datetime = _column(UTCDateTime)


class CommandSync(SQLModel, table=True):
    """The hash of the application commands last published to one scope (global or one server)."""

    __tablename__ = "command_syncs"

    scope: str = Field(sa_column=Column(String(64), primary_key=True))
    payload_hash: str = _column(String(64))
    synced_at: datetime = _column(UTCDateTime)


class BotKey(SQLModel, table=True):
    """A secret the bot made for itself once (the key that seals an export's secret seed): kept in
    the database, so every process and every restart of this bot uses the same one."""

    __tablename__ = "bot_keys"

    name: str = Field(sa_column=Column(String(32), primary_key=True))
    value: str = _column(String(128))
    created_at: datetime = _column(UTCDateTime)


class WebLink(SQLModel, table=True):
    """The secret link of a game's read-only web page (`bot.web`), one per game: a new one replaces
    it, `/gm web action:off` deletes it. The token is kept to show the game masters the link again;
    it is found by its SHA-256, so the lookup of a token a browser sends compares digests in the
    index, and the token itself only in constant time (`bot.store.web_links`)."""

    __tablename__ = "web_links"
    __table_args__ = (UniqueConstraint("token_hash", name="uq_web_links_token_hash"),)

    game_id: int = Field(
        sa_column=Column(
            Integer, ForeignKey("games.id", ondelete="CASCADE", name="fk_web_links_game_id"), primary_key=True
        )
    )
    token: str = _column(String(64))
    token_hash: str = _column(String(64))
    created_by: int | None = _column(BigInteger, nullable=True)
    created_at: datetime = _column(UTCDateTime)
