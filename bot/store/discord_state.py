"""What the Discord adapter keeps between runs besides games: which status messages are stale, how
far a status message's pin got, and the hash of the commands last synced to each scope.

Each is a fact a restarted process must find: a status refresh that a crash interrupted (after the
change's commit, before its reply or within the debounce) is still owed; a pin Discord refused is not asked for again at every change; commands whose
payload did not change are not published again (Discord limits command creation per day).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Container
from typing import TYPE_CHECKING

from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from bot.store.db import writer
from bot.store.models import CommandSync, GameRow, StatusDirty, StatusMessage

if TYPE_CHECKING:
    from bot.store.repo import Store

_DIRTY = StatusDirty.__table__  # type: ignore[attr-defined]
_GAMES = GameRow.__table__  # type: ignore[attr-defined]
_STATUS = StatusMessage.__table__  # type: ignore[attr-defined]
_SYNCS = CommandSync.__table__  # type: ignore[attr-defined]
PIN_STATES = ("pending", "pinned", "refused")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _insert(store: Store, table: object) -> object:
    return (postgresql if store.engine.dialect.name == "postgresql" else sqlite).insert(table)  # type: ignore[arg-type]


def mark_status_dirty(store: Store, game_id: int) -> dt.datetime:
    """The game changed: its status message is owed a refresh (kept if the process dies first). Each
    mark gets a later time, so a refresh that started before it does not clear it."""
    now = _now()
    statement = _insert(store, _DIRTY).values(game_id=game_id, since=now)  # type: ignore[attr-defined]
    with writer(store.engine).begin() as connection:
        connection.execute(statement.on_conflict_do_update(index_elements=["game_id"], set_={"since": now}))
    return now


#: Games changed since their status message last showed them. `Store.commit` stamps the game's
#: `updated_at` in the change's own transaction, so this mark costs an order no statement of its own
#: and no crash after the commit can lose it; `status_messages.updated_at` is how far the message shows.
_STALE = (
    select(_GAMES.c.id.label("game_id"), _GAMES.c.updated_at.label("since"), _GAMES.c.guild_id)
    .join(_STATUS, _STATUS.c.game_id == _GAMES.c.id)
    .where(_GAMES.c.updated_at > _STATUS.c.updated_at)
)


def dirty_games(store: Store, held: Container[int] | None = None) -> dict[int, dt.datetime]:
    """Every game whose status message is owed a refresh — marked (`mark_status_dirty`), or changed
    since its message last showed it — with the time of its latest mark or change. With `held`, only
    the games of those servers (a process's shards: another process refreshes the others — it must
    not read their games at every sweep to find that out) and games of no server."""
    marked = select(_DIRTY.c.game_id, _DIRTY.c.since, _GAMES.c.guild_id).join(_GAMES, _GAMES.c.id == _DIRTY.c.game_id)
    with store.engine.connect() as connection:
        found: dict[int, dt.datetime] = {}
        for row in [*connection.execute(marked), *connection.execute(_STALE)]:
            if held is not None and row.guild_id is not None and row.guild_id not in held:
                continue
            found[row.game_id] = max(found.get(row.game_id, row.since), row.since)
        return dict(sorted(found.items()))


def clear_status_dirty(store: Store, game_id: int, seen: dt.datetime) -> bool:
    """The refresh that read the game at `seen` is done: its marks up to then go, and the message shows
    the game as of `seen`. False when a later change is still owed a refresh (it marked or changed the
    game after `seen`)."""
    with writer(store.engine).begin() as connection:
        connection.execute(delete(_DIRTY).where(_DIRTY.c.game_id == game_id, _DIRTY.c.since <= seen))
        connection.execute(update(_STATUS).where(_STATUS.c.game_id == game_id, _STATUS.c.updated_at < seen)
                           .values(updated_at=seen))
        later = connection.execute(select(_DIRTY.c.game_id).where(_DIRTY.c.game_id == game_id)).first()
        return later is None and connection.execute(_STALE.where(_GAMES.c.id == game_id)).first() is None


def status_pin(store: Store, game_id: int) -> str | None:
    """How far the pin of the game's status message got (None: no status message)."""
    with store.engine.connect() as connection:
        return connection.execute(select(_STATUS.c.pin).where(_STATUS.c.game_id == game_id)).scalar()


def set_status_pin(store: Store, game_id: int, pin: str) -> None:
    if pin not in PIN_STATES:
        raise ValueError(f"unknown pin state {pin!r} (one of {', '.join(PIN_STATES)})")
    with writer(store.engine).begin() as connection:
        connection.execute(update(_STATUS).where(_STATUS.c.game_id == game_id).values(pin=pin))


def synced_hash(store: Store, scope: str) -> str | None:
    """The hash of the commands last published to `scope` (None: never, as far as this database knows)."""
    with store.engine.connect() as connection:
        return connection.execute(select(_SYNCS.c.payload_hash).where(_SYNCS.c.scope == scope)).scalar()


def set_synced_hash(store: Store, scope: str, payload_hash: str) -> None:
    now = _now()
    statement = _insert(store, _SYNCS).values(scope=scope, payload_hash=payload_hash, synced_at=now)  # type: ignore[attr-defined]
    with writer(store.engine).begin() as connection:
        connection.execute(statement.on_conflict_do_update(
            index_elements=["scope"], set_={"payload_hash": payload_hash, "synced_at": now}))


def keep_status_message(store: Store, game_id: int, channel_id: int, message_id: int, shown: dt.datetime) -> None:
    """The game's status message, stored as soon as Discord made it and before it is pinned: whatever
    the pin's fate, every later change edits this message instead of posting another. `shown`: when
    its text was read (a change after that is still owed a refresh)."""
    values = {"channel_id": channel_id, "message_id": message_id, "updated_at": shown, "pin": "pending"}
    statement = _insert(store, _STATUS).values(game_id=game_id, **values)  # type: ignore[attr-defined]
    with writer(store.engine).begin() as connection:
        connection.execute(statement.on_conflict_do_update(index_elements=["game_id"], set_=values))


def synced_scopes(store: Store, prefix: str) -> dict[str, str]:
    """Every scope starting with `prefix` (one application's) with the hash last synced to it."""
    query = select(_SYNCS.c.scope, _SYNCS.c.payload_hash).where(_SYNCS.c.scope.startswith(prefix, autoescape=True))
    with store.engine.connect() as connection:
        return {row.scope: row.payload_hash for row in connection.execute(query)}
