"""What a picture needs to know beyond the game's state: whose game, read in which language, what
comes next, and (when asked) the game's whole history.

A board posted in a channel must make sense to someone opening it days later, so the presenter
draws the game's name, the next draw or deadline and the last action on it; a recap or a replay
needs every step of the game. The presenter receives that as a `Scene`; it is built here, from the
service, so presenters stay free of the store and of the turn drivers.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from bot.games import driver_of
from bot.i18n import PARIS, format_moment, translate
from bot.service.replaying import Step, effective_inputs, public_events
from bot.service.replies import Message
from bot.store.repo import GameRecord
from engine import registry

if TYPE_CHECKING:
    from bot.service.core import GameService


@dataclass(frozen=True)
class Scene:
    """The context of a picture: the game's name, the reader's language, what comes next (plain
    text, already translated; empty when nothing is scheduled) and a loader of the game's history
    (None where no history is at hand)."""

    name: str
    language: str = "en"
    next: str = ""
    history: Callable[[], Sequence[Step]] | None = None
    status: str = ""  # the game's record status ("paused", "finished" by a GM too); "" where unknown


_DISCORD_TIME = re.compile(r"<t:(-?\d+)(?::[tTdDfFR])?>")
_RELATIVE = re.compile(r"\s*\(<t:-?\d+:R>\)")


def plain_times(text: str, language: str) -> str:
    """Discord timestamps (``<t:…:F> (<t:…:R>)``) as times written in `language` in Paris, the draws'
    zone: an image cannot show each reader their own time zone, so it says which one it uses."""
    text = _RELATIVE.sub("", text)
    return _DISCORD_TIME.sub(lambda m: translate("date.paris_time", language, {
        "time": format_moment(dt.datetime.fromtimestamp(int(m.group(1)), dt.UTC), language, PARIS)}), text)


def history_of(game: GameRecord, svc: GameService) -> list[Step]:
    """The game replayed from its setup, input by input (undone ones left out), keeping each
    input's public events and the state after it."""
    rules = registry.get(game.kind)
    state = rules.setup(game.setup, game.seed)
    steps = []
    for entry in effective_inputs(rules, svc.store.log(game.id)):
        outcome = rules.apply_input(state, entry.kind, entry.actor, entry.payload)
        state = outcome.state
        steps.append(Step(entry.seq, entry.kind, entry.actor, tuple(public_events(outcome.events)), state))
    return steps


def scene_of(svc: GameService, game: GameRecord, language: str | None = None, pending: Sequence[Step] = (),
             upcoming: Message | None = None) -> Scene:
    """The scene of `game` for a reader of `language` (the server's language by default): the next
    moment its turn driver plans (else `upcoming`, what comes after the `pending` steps), and its
    history loaded once, on first use. `pending` are steps not committed yet (a turn post is made
    before its draw is committed) that end the history."""
    language = language or svc.server_language(game.guild_id)
    if upcoming is None and game.status == "running":
        upcoming = driver_of(game.kind).next_moment(svc, game, svc.clock())
    next_text = plain_times(translate(upcoming.key, language, upcoming.params), language) if upcoming is not None else ""

    @cache
    def history() -> tuple[Step, ...]:
        return (*history_of(game, svc), *pending)

    return Scene(game.name, language, next_text, history, game.status)
