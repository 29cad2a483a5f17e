"""Storage: SQLModel tables, Alembic migrations and the repository the service layer uses."""

from bot.store.db import current_revision, head_revision, make_engine, normalise_url, upgrade
from bot.store.repo import (
    AlreadyClaimed,
    Conflict,
    DrawRecord,
    GameRecord,
    GuildSettingsRecord,
    LogRecord,
    MemberSettingsRecord,
    NewEntry,
    SeatRecord,
    StaleWrite,
    Store,
)

__all__ = [
    "AlreadyClaimed",
    "Conflict",
    "DrawRecord",
    "GameRecord",
    "GuildSettingsRecord",
    "LogRecord",
    "MemberSettingsRecord",
    "NewEntry",
    "SeatRecord",
    "StaleWrite",
    "Store",
    "current_revision",
    "head_revision",
    "make_engine",
    "normalise_url",
    "upgrade",
]
