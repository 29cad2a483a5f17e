"""Computer players: seats the bot plays itself, at a level, in games that have a computer module.

A game's entry names its computer module (`GameEntry.computer`), which exposes ``LEVELS`` and
``choose(rules, state, actor, level, *, seed, stop) -> list[(kind, payload)]``: the inputs that
actor gives now (an alternating game's move; a simultaneous game's orders then "ready"), chosen
over `legal_orders` so they are always legal; a game that takes draw offers also has it judge one
(``accepts_draw``). The seats live in the game's options
(``computers: {actor: level}``); after every accepted input the service lets each computer the
game waits for play, as the bot, until a human is to play or the game ends.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.drivers import plays_as
from bot.games import entry_for
from bot.service.effects import FollowUp
from engine import registry
from engine.core.drawoffer import ACCEPT, DECLINE

if TYPE_CHECKING:
    from bot.service.core import Applied, GameService

log = logging.getLogger("spacechess.computers")

#: the time a computer may think per move (issue: at most 2 s on one core)
THINK_SECONDS = 2.0


def computer_module(kind: str) -> Any | None:
    module = entry_for(kind).computer
    return importlib.import_module(module) if module else None


#: the game option holding its computer seats
COMPUTERS = "computers"


def computers_of(options: dict[str, Any]) -> dict[str, str]:
    return dict(options.get(COMPUTERS, {}))


def with_computer(options: dict[str, Any], actor: str, level: str | None) -> dict[str, Any]:
    """The game's options with a computer playing `actor` at `level` (None: no computer plays it)."""
    seats = {name: held for name, held in computers_of(options).items() if name != actor}
    return {**options, COMPUTERS: seats if level is None else {**seats, actor: level}}


def computer_inputs(svc: GameService, applied: Applied, think: float = THINK_SECONDS) -> list[FollowUp]:
    """The inputs of the first computer seat the game now waits for (none when a human is to play or
    the game is over): follow-ups of `applied`, which the pipeline applies one by one and then asks
    again, so computers playing each other take turns without nesting calls. A computer that fails
    to choose is logged and leaves the game to a GM: the input that made it due is committed
    already, so its author must not read a refusal."""
    seats = computers_of(applied.game.options)
    game, state = applied.game, applied.outcome.state
    if not seats or game.status != "running":
        return []
    module = computer_module(game.kind)
    rules = registry.get(game.kind)
    answer = _draw_answer(rules, state, seats, module)
    if answer is not None:
        return [answer]
    turn = [(actor, seated) for actor in rules.waiting_on(state) for seated in seats
            if plays_as(rules, state, seated, actor)]
    if not turn or module is None:
        return []
    actor, seated = turn[0]
    deadline = time.monotonic() + think
    try:
        inputs: list[tuple[str, dict[str, Any]]] = module.choose(
            rules, state, actor, seats[seated], seed=game.seed + game.version, stop=_past(deadline))
    except Exception:
        log.exception("game=%s: a computer player failed; the game waits for a GM", game.id)
        return []
    return [FollowUp(kind, actor, payload) for kind, payload in inputs]


def _draw_answer(rules: Any, state: Any, seats: dict[str, str], module: Any) -> FollowUp | None:
    """A draw offered to a side a computer plays is answered at once: accepted when the game's
    computer module says so (``accepts_draw(rules, state, side, level)``, which the start check
    requires of every computer module whose game takes draw offers), else declined."""
    offered_by = rules.pending_draw_offer(state) if rules.draw_inputs else None
    if offered_by is None:
        return None
    asked = next((side for side in rules.actors(state) if side != offered_by), None)
    seated = next(((actor, level) for actor, level in seats.items()
                   if asked is not None and plays_as(rules, state, actor, asked)), None)
    if seated is None:
        return None
    actor, level = seated
    accepted = module is not None and module.accepts_draw(rules, state, asked, level)
    return FollowUp(ACCEPT if accepted else DECLINE, actor)


def _past(deadline: float) -> Callable[[], bool]:
    return lambda: time.monotonic() >= deadline
