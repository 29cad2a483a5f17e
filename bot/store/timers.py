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
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from bot.store.db import writer
from bot.store.models import Claim, TimerRow
from bot.store.repo import Store, _json_copy

TIMER_CLAIM = "timer"
KIND_MAX = 32


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


def _aware(moment: dt.datetime, what: str) -> dt.datetime:
    """A naive time could be local time taken for UTC: refused before anything is written."""
    if not isinstance(moment, dt.datetime):
        raise TypeError(f"{what} must be a datetime, not {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r} for {what}: timers take aware (UTC) times only")
    return moment.astimezone(dt.UTC)


def _check_kind(kind: str) -> None:
    # ':' separates the parts of the claim key; the length is the column's (SQLite would not check it).
    if not isinstance(kind, str) or not 0 < len(kind) <= KIND_MAX or ":" in kind:
        raise ValueError(f"timer kind {kind!r}: 1 to {KIND_MAX} characters, no ':'")


def _claim_prefix(game_id: int, kind: str) -> str:
    return f"{TIMER_CLAIM}:{game_id}:{kind}:"


def _highest_claimed(session: Session, game_id: int, kind: str) -> int:
    prefix = _claim_prefix(game_id, kind)
    keys = session.exec(select(Claim.key).where(col(Claim.key).startswith(prefix, autoescape=True))).all()
    generations = [int(key[len(prefix):]) for key in keys if key[len(prefix):].isdigit()]
    return max(generations, default=0)


def set_timer(
    store: Store, game_id: int, kind: str, due_at: dt.datetime, payload: dict[str, Any] | None = None
) -> TimerRecord:
    """Plan the game's timer of `kind` at `due_at`, or move it there (new payload, generation + 1).

    One upsert, so two processes setting the same timer at once both succeed (the later one wins)
    instead of one failing on the unique key. Raises LookupError if the game does not exist."""
    _check_kind(kind)
    due = _aware(due_at, "due_at")
    data = _json_copy(payload if payload is not None else {}, f"timer {kind!r} payload")
    with Session(writer(store.engine)) as session, session.begin():
        dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
        insert = dialect.insert(TimerRow).values(
            game_id=game_id,
            kind=kind,
            due_at=due,
            payload=data,
            generation=_highest_claimed(session, game_id, kind) + 1,
            created_at=dt.datetime.now(dt.UTC),
        )
        upsert = insert.on_conflict_do_update(
            index_elements=["game_id", "kind"],
            set_={
                "due_at": insert.excluded.due_at,
                "payload": insert.excluded.payload,
                "generation": TimerRow.generation + 1,  # type: ignore[operator]
            },
        ).returning(*TimerRow.__table__.columns)  # type: ignore[attr-defined]
        try:
            row = session.execute(upsert).one()
        except IntegrityError as exc:  # the only constraint left to fail is the game's foreign key
            raise LookupError(f"no game {game_id} to set a {kind!r} timer on") from exc
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
        .where(col(TimerRow.due_at) <= _aware(now, "now"))
        .order_by(col(TimerRow.due_at), col(TimerRow.id))
    )
    with Session(store.engine) as session:
        return [_record(row) for row in session.exec(query)]


def next_due(store: Store, *, after: dt.datetime | None = None) -> dt.datetime | None:
    """When the soonest timer falls due (None: no timer); with `after`, the soonest strictly later one —
    what a scheduler waits for once the timers already due are known to be stuck."""
    query = select(func.min(TimerRow.due_at))
    if after is not None:
        query = query.where(col(TimerRow.due_at) > _aware(after, "after"))
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
