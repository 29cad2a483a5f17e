"""Computer players: seats the bot plays itself, at a level, in games that have a computer module.

A game's entry names its computer module (`GameEntry.computer`), which exposes ``LEVELS`` and
``choose(rules, state, actor, level, *, seed, stop) -> list[(kind, payload)]``: the inputs that
actor gives now (an alternating game's move; a simultaneous game's orders then "ready"), chosen
over `legal_orders` so they are always legal. The seats live in the game's options
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
from bot.service.replies import Reply
from engine import registry

if TYPE_CHECKING:
    from bot.service.core import Applied, GameService

log = logging.getLogger("spacechess.computers")

#: the time a computer may think per move (issue: at most 2 s on one core)
THINK_SECONDS = 2.0
#: a safety net: computers playing each other stop after this many inputs in one go
MAX_CHAIN = 500


def computer_module(kind: str) -> Any | None:
    module = entry_for(kind).computer
    return importlib.import_module(module) if module else None


def computers_of(options: dict[str, Any]) -> dict[str, str]:
    return dict(options.get("computers", {}))


def play_computers(svc: GameService, applied: Applied, think: float = THINK_SECONDS) -> list[Reply]:
    """Let the computers the game now waits for play, one after the other, each as the bot; their
    moves come back as channel posts. A computer's failure is logged and leaves the game to a GM:
    the input that made it due is committed already, so its author must not read a refusal."""
    posts: list[Reply] = []
    try:
        _play(svc, applied, think, posts)
    except Exception:
        log.exception("game=%s: a computer player failed; the game waits for a GM", applied.game.id)
    return posts


def _play(svc: GameService, applied: Applied, think: float, posts: list[Reply]) -> None:
    seats = computers_of(applied.game.options)
    if not seats:
        return
    module = computer_module(applied.game.kind)
    rules = registry.get(applied.game.kind)
    current = applied
    for _ in range(MAX_CHAIN):
        game, state = current.game, current.outcome.state
        if game.status != "running":
            break
        turn = [(actor, seated) for actor in rules.waiting_on(state) for seated in seats
                 if plays_as(rules, state, seated, actor)]
        if not turn or module is None:
            break
        actor, seated = turn[0]
        deadline = time.monotonic() + think
        inputs: list[tuple[str, dict[str, Any]]] = module.choose(
            rules, state, actor, seats[seated], seed=game.seed + game.version, stop=_past(deadline))
        for kind, payload in inputs:
            current = svc.apply_input(None, game, kind, actor, payload, computers=False)
            game = current.game
            posts.append(svc.describe(current))
            posts.extend(current.posts)
    else:
        log.warning("game=%s: computers stopped after %d inputs in a row", applied.game.id, MAX_CHAIN)


def _past(deadline: float) -> Callable[[], bool]:
    return lambda: time.monotonic() >= deadline
