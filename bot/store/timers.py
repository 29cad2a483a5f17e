"""Durable timers: the moments games wait for (a turn's deadline, a move clock, a reminder), kept in the
database so that every process rebuilds its schedule from them and none is lost by a restart.

A game has at most one timer of each kind. Setting it again moves it and bumps its `generation`, which
is part of its claim key (`TimerRecord.claim_key`): a firing of the old moment and a firing of the new
one are different effects, each done once whatever the number of processes (PRODUCT.md, Scheduling).
The claim is taken by the handler, with the effect: `Store.commit(..., claims=[timer.claim_key])` for a
game change, `store.claim(timer.claim_key)` before a message. `finish_timer` then removes the timer,
unless it was moved meanwhile.

A timer deleted (finished or cancelled) and set again later must not get a generation already claimed,
or its firing would be taken for done: a new row starts above the highest generation its (game, kind)
ever claimed.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from bot.store.db import writer
from bot.store.models import TimerRow
from bot.store.repo import Store
from bot.store.timer_rows import TIMER_CLAIM, TimerPlan, aware, write_plans


@dataclass(frozen=True)
class TimerRecord:
    id: int
    game_id: int
    kind: str
    due_at: dt.datetime
    payload: dict[str, Any]
    generation: int

    @property
    def claim_key(self) -> str:
        """Names this firing (this generation) of the timer: taken once, by whoever does its effect."""
        return f"{TIMER_CLAIM}:{self.game_id}:{self.kind}:{self.generation}"


def _record(row: Any) -> TimerRecord:
    return TimerRecord(
        id=row.id,
        game_id=row.game_id,
        kind=row.kind,
        due_at=row.due_at,
        payload=dict(row.payload or {}),
        generation=row.generation,
    )


def set_timer(
    store: Store, game_id: int, kind: str, due_at: dt.datetime, payload: dict[str, Any] | None = None
) -> TimerRecord:
    """Plan the game's timer of `kind` at `due_at`, or move it there (new payload, generation + 1), in a
    transaction of its own (a change to the game writes its plans with its commit instead:
    `Store.commit(timers=...)`). Raises LookupError if the game does not exist."""
    with writer(store.engine).begin() as connection:
        (row,) = write_plans(connection, game_id, [TimerPlan(kind, due_at, payload or {})])
    return _record(row)


def cancel_timer(store: Store, game_id: int, kind: str) -> bool:
    """Remove the game's timer of `kind`; False if there was none."""
    with Session(writer(store.engine)) as session, session.begin():
        result = session.execute(
            delete(TimerRow).where(col(TimerRow.game_id) == game_id, col(TimerRow.kind) == kind)
        )
        return bool(result.rowcount)  # type: ignore[attr-defined]


def get_timer(store: Store, game_id: int, kind: str) -> TimerRecord | None:
    query = select(TimerRow).where(TimerRow.game_id == game_id, TimerRow.kind == kind)
    with Session(store.engine) as session:
        row = session.exec(query).first()
        return _record(row) if row is not None else None


def game_timers(store: Store, game_id: int) -> list[TimerRecord]:
    """The game's timers, soonest first (kind breaks ties, so the order is the same in every process)."""
    query = (
        select(TimerRow)
        .where(TimerRow.game_id == game_id)
        .order_by(col(TimerRow.due_at), col(TimerRow.kind))
    )
    with Session(store.engine) as session:
        return [_record(row) for row in session.exec(query)]


def due_timers(store: Store, now: dt.datetime) -> list[TimerRecord]:
    """Every timer due at `now`, the most overdue first, so that a restart fires them in their order."""
    query = (
        select(TimerRow)
        .where(col(TimerRow.due_at) <= aware(now, "now"))
        .order_by(col(TimerRow.due_at), col(TimerRow.id))
    )
    with Session(store.engine) as session:
        return [_record(row) for row in session.exec(query)]


def next_due(store: Store, *, after: dt.datetime | None = None) -> dt.datetime | None:
    """When the soonest timer falls due (None: no timer); with `after`, the soonest strictly later one —
    what a scheduler waits for once the timers already due are known to be stuck."""
    query = select(func.min(TimerRow.due_at))
    if after is not None:
        query = query.where(col(TimerRow.due_at) > aware(after, "after"))
    with Session(store.engine) as session:
        return session.exec(query).first()


def finish_timer(store: Store, timer: TimerRecord) -> None:
    """Remove the timer that fired, unless it was set again since it was read (a game master moved the
    deadline): the moved one is a new moment, still to come."""
    with Session(writer(store.engine)) as session, session.begin():
        session.execute(
            delete(TimerRow).where(
                col(TimerRow.id) == timer.id, col(TimerRow.generation) == timer.generation
            )
        )
