"""A change's effects as data: what a turn driver and the computers decide a change causes.

The pipeline (`GameService.apply_input`) asks the game's driver for them before the commit, writes
the timers in the change's own transaction and applies the follow-ups after it, one at a time,
through the same path. Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.store.timer_rows import TimerPlan


@dataclass(frozen=True)
class FollowUp:
    """An input the bot gives next, as data: applied through the pipeline after the change that
    caused it (never inside it), so a reply grows with what happened, not with how calls nested."""

    kind: str
    actor: str | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Effects:
    """What a change causes besides itself, decided before its commit: the timers it sets, moves or
    cancels (written in its transaction), the inputs that follow it, and the actors it hands the
    turn to who are told at once (`turn`: the change's reply pings the members playing them)."""

    timers: tuple[TimerPlan, ...] = ()
    follow_ups: tuple[FollowUp, ...] = ()
    turn: tuple[str, ...] = ()
