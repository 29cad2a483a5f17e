"""Draw queries the pipeline needs on top of the repository: bulk import, what a game already got, when it
started.

The tables are repo.py's (`draws`, `claims`, `game_log`); this module only adds reads and one bulk write,
so the exactly-once guarantee stays in one place: `Store.commit(..., claims=[draw_claim_key(...)])`.
A draw applied to a game is the claim ``draw:<game>:<date>:<index>`` — keyed by the evening, not by the
source, so a game master's manual entry for an evening stands in for FDJ's result of that evening and
the game never gets both.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, col, func, select

from bot.store.db import writer
from bot.store.models import Claim, DrawRow, LogEntry
from bot.store.repo import GameHead, GameRecord, Store
from draws import FDJ_LOTO, Draw, DrawSchedule

DRAW_CLAIM = "draw"
ALERT_CLAIM = "draw-alert"
#: Rows per INSERT: well under SQLite's 32,766 bound parameters (6 columns a row).
_BATCH = 500


def draw_claim_key(game_id: int, date: dt.date, index: int) -> str:
    return f"{DRAW_CLAIM}:{game_id}:{date.isoformat()}:{index}"


def alert_claim_key(game_id: int, date: dt.date) -> str:
    """The "draw of `date` never came, enter it by hand" alert, sent once per game and evening."""
    return f"{ALERT_CLAIM}:{game_id}:{date.isoformat()}"


@dataclass(frozen=True)
class DrawConflict:
    """Another value offered for a draw already stored: the stored one is kept, both are reported."""

    stored: Draw
    offered: Draw


@dataclass(frozen=True)
class SaveReport:
    new: int
    conflicts: tuple[DrawConflict, ...] = ()


def save_draws(
    store: Store, draws: Iterable[Draw], *, now: dt.datetime | None = None, schedule: DrawSchedule = FDJ_LOTO
) -> SaveReport:
    """Store every draw not stored yet, in ONE transaction; how many were new, and the conflicts.

    Idempotent (a draw already stored under its source, date and index is left as it was: a second
    value for it is a conflict, reported, never applied), and all or nothing: a failure stores none of
    them, so an interrupted import is simply run again. A draw whose results are not out yet at `now`
    (`FutureDrawError`) refuses the whole batch: stored, it would make every game skip the real draws
    before its date.
    """
    draws = list(draws)
    schedule.check_published(draws, now or dt.datetime.now(dt.UTC))
    conflicts = _conflicts(store, draws)
    now = dt.datetime.now(dt.UTC)
    rows = [
        {
            "source": draw.source,
            "draw_date": draw.date,
            "draw_index": draw.index,
            "data": draw.to_json(),
            "stored_at": now,
        }
        for draw in draws
    ]
    created = 0
    with Session(writer(store.engine)) as session, session.begin():
        dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
        for start in range(0, len(rows), _BATCH):
            insert = dialect.insert(DrawRow).values(rows[start : start + _BATCH]).on_conflict_do_nothing()
            # RETURNING counts the rows really inserted; rowcount is -1 for this statement on psycopg.
            created += len(session.execute(insert.returning(col(DrawRow.id))).all())
    return SaveReport(created, conflicts)


def _conflicts(store: Store, draws: Sequence[Draw]) -> tuple[DrawConflict, ...]:
    """The offered draws whose (source, date, index) is stored with other results."""
    if not draws:
        return ()
    stored = {
        (record.source, record.date, record.index): record
        for record in store.draws(since=min(d.date for d in draws), until=max(d.date for d in draws))
    }
    found = []
    for draw in draws:
        record = stored.get((draw.source, draw.date, draw.index))
        if record is None:
            continue
        known = Draw.from_json(record.data)
        if (known.numbers, known.complementary, known.chance) != (draw.numbers, draw.complementary, draw.chance):
            found.append(DrawConflict(known, draw))
    return tuple(found)


def stored_draws(
    store: Store, *, source: str | None = None, since: dt.date | None = None, last: int | None = None,
    sources: Sequence[str] | None = None,
) -> list[Draw]:
    """Stored draws in draw order (date, index), of one `source` or any of `sources`; `last` keeps only
    the newest ones."""
    records = store.draws(source=source, since=since, sources=sources)
    if last is not None:
        records = records[-last:] if last > 0 else []
    return [Draw.from_json(record.data) for record in records]


def applied_evenings(store: Store, game_id: int) -> list[tuple[dt.date, int]]:
    """The (date, index) of every draw the game got, oldest first, read from its claims."""
    return applied_evenings_of(store, [game_id])[game_id]


def applied_evenings_of(store: Store, game_ids: Sequence[int]) -> dict[int, list[tuple[dt.date, int]]]:
    """`applied_evenings` of many games in one statement (a draw pass reads a batch of games at once)."""
    query = select(Claim.game_id, Claim.key).where(
        col(Claim.game_id).in_(list(game_ids)), col(Claim.key).startswith(f"{DRAW_CLAIM}:"))
    found: dict[int, list[tuple[dt.date, int]]] = {game_id: [] for game_id in game_ids}
    for row in store._fetch(query):  # on the caller's request connection, if any
        date_text, index_text = row.key.removeprefix(f"{DRAW_CLAIM}:{row.game_id}:").split(":")
        found[row.game_id].append((dt.date.fromisoformat(date_text), int(index_text)))
    return {game_id: sorted(evenings) for game_id, evenings in found.items()}


def started_at(store: Store, game: GameRecord | GameHead) -> dt.datetime:
    """When the game began to run: its `start` input, or its creation for a game created running."""
    return started_at_of(store, [game])[game.id]


def started_at_of(store: Store, games: Sequence[GameRecord | GameHead]) -> dict[int, dt.datetime]:
    """`started_at` of many games in one statement."""
    query = (select(LogEntry.game_id, func.min(LogEntry.created_at).label("started"))
             .where(col(LogEntry.game_id).in_([game.id for game in games]), LogEntry.kind == "start")
             .group_by(LogEntry.game_id))
    found = {row.game_id: row.started for row in store._fetch(query)}
    return {game.id: found.get(game.id) or game.created_at for game in games}
