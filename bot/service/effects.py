"""A change's effects as data: what a turn driver and the computers decide a change causes.

The pipeline (`GameService.apply_input`) asks the game's driver for them before the commit, applies
the inputs `within` the change to its outcome and logs them in its commit, writes the timers in the
change's own transaction and applies the follow-ups after it, one at a time, through the same path.
Nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.store.timer_rows import TimerPlan

if TYPE_CHECKING:
    from bot.outbox import Drawing
    from bot.service.replies import Reply
    from bot.store.outbox import NewPost


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
    turn to who are told at once (`turn`: the change's reply pings the members playing them).

    `within` are inputs that are part of the change itself, not a later one: applied to its outcome
    right after it, in order, each logged as its own entry in the same commit (one version), so no
    reader ever sees the change without them — the draw that reaches a game's time limit and the
    end it causes (SC-31). The change's status, post and computers' timers follow from the state
    they leave."""

    timers: tuple[TimerPlan, ...] = ()
    follow_ups: tuple[FollowUp, ...] = ()
    turn: tuple[str, ...] = ()
    within: tuple[FollowUp, ...] = ()


@dataclass(frozen=True)
class ChangePost:
    """A change's channel post as its driver words it (`TurnDriver.change_post`: a draw's turn post)
    instead of the pipeline's: its reply, its board as a `Drawing` drawn when the post is sent (None:
    the reply carries its pictures), and the direct messages of the members it tells who take theirs
    so (`bot.service.dms`)."""

    reply: Reply
    drawing: Drawing | None = None
    dms: tuple[NewPost, ...] = ()
