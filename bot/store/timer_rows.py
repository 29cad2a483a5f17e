"""Timer plans as data, written inside the transaction of the change that makes them.

A turn driver decides a game's timers from the outcome of a change (the clock now runs for Blue,
the next deadline is in 24 h) *before* it is committed; `Store.commit(timers=...)` writes those
plans with the change's snapshot, log entry, claims and outbox posts, so a crash can never keep
the move and lose its clock, or move the clock of a move that was rolled back.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bot.store.models import Claim, TimerRow

TIMER_CLAIM = "timer"
KIND_MAX = 32

_TIMERS = TimerRow.__table__  # type: ignore[attr-defined]
_CLAIMS = Claim.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class TimerPlan:
    """Set the game's timer of `kind` at `due_at` (moving it: a new generation), or cancel it
    (`due_at` None)."""

    kind: str
    due_at: dt.datetime | None
    payload: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def cancel(cls, kind: str) -> TimerPlan:
        return cls(kind, None)

    def checked(self) -> TimerPlan:
        """The plan as it will be read back, refused before anything is written if it cannot be."""
        check_kind(self.kind)
        due = aware(self.due_at, "due_at") if self.due_at is not None else None
        try:
            payload = json.loads(json.dumps(self.payload, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"timer {self.kind!r} payload is not JSON-serialisable: {exc}") from exc
        return TimerPlan(self.kind, due, payload)


def aware(moment: dt.datetime, what: str) -> dt.datetime:
    """A naive time could be local time taken for UTC: refused before anything is written."""
    if not isinstance(moment, dt.datetime):
        raise TypeError(f"{what} must be a datetime, not {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r} for {what}: timers take aware (UTC) times only")
    return moment.astimezone(dt.UTC)


def check_kind(kind: str) -> None:
    # ':' separates the parts of the claim key; the length is the column's (SQLite would not check it).
    if not isinstance(kind, str) or not 0 < len(kind) <= KIND_MAX or ":" in kind:
        raise ValueError(f"timer kind {kind!r}: 1 to {KIND_MAX} characters, no ':'")


def claim_prefix(game_id: int, kind: str) -> str:
    return f"{TIMER_CLAIM}:{game_id}:{kind}:"


def highest_claimed(connection: Connection, game_id: int, kind: str) -> int:
    prefix = claim_prefix(game_id, kind)
    keys = connection.execute(select(_CLAIMS.c.key).where(_CLAIMS.c.key.startswith(prefix, autoescape=True)))
    generations = [int(key[len(prefix):]) for key in keys.scalars() if key[len(prefix):].isdigit()]
    return max(generations, default=0)


def write_plans(connection: Connection, game_id: int, plans: Sequence[TimerPlan]) -> list[Any]:
    """Apply `plans` in the caller's transaction; the rows set, in order (cancels give none).

    A set is one upsert, so two processes setting the same timer at once both succeed (the later
    one wins) instead of one failing on the unique key. A timer deleted and set again later starts
    above the highest generation its (game, kind) ever claimed, so its firing is never taken for
    one already done. Raises LookupError if the game does not exist."""
    rows = []
    for plan in (plan.checked() for plan in plans):
        if plan.due_at is None:
            connection.execute(delete(_TIMERS).where(_TIMERS.c.game_id == game_id, _TIMERS.c.kind == plan.kind))
            continue
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(_TIMERS).values(
            game_id=game_id, kind=plan.kind, due_at=plan.due_at, payload=plan.payload,
            generation=highest_claimed(connection, game_id, plan.kind) + 1, created_at=dt.datetime.now(dt.UTC),
        )
        upsert = insert.on_conflict_do_update(
            index_elements=["game_id", "kind"],
            set_={"due_at": insert.excluded.due_at, "payload": insert.excluded.payload,
                  "generation": _TIMERS.c.generation + 1},
        ).returning(*_TIMERS.columns)
        try:
            rows.append(connection.execute(upsert).one())
        except IntegrityError as exc:  # the only constraint left to fail is the game's foreign key
            raise LookupError(f"no game {game_id} to set a {plan.kind!r} timer on") from exc
    return rows

