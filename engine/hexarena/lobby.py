"""The lobby of a game made with ``phase = "setup"`` (the bot's ``/hx new``): two players join
(and may leave), then ``start``. These faults are OrderErrors (a reply to a person), not SetupErrors (a file to fix).

Who moves first is red's (HA-12) unless the document or ``start`` says otherwise; ``start`` with
``first = "random"`` draws it from the game's seed (HA-12 D: the GM may draw it), so a replay of
the log draws the same.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.names import check_name, name_key
from engine.core.protocol import Event
from engine.hexarena.events import event
from engine.hexarena.geometry import SIDES
from engine.hexarena.state import RUNNING, ArenaState

Done = tuple[ArenaState, list[Event]]
#: what ``start``'s ``first`` may name (the rules class offers them to `/gm start first:`)
FIRST_CHOICES = (*SIDES, "random")


def join(state: ArenaState, payload: Mapping[str, Any]) -> Done:
    """A player takes a side: the one asked for (``side``), else the first free one, red then blue."""
    try:
        name = check_name(payload.get("id"))
    except SetupError as error:
        raise OrderError("bad_id", **error.params) from error
    if any(name_key(taken) == name_key(name) for _, taken in state.players):
        raise OrderError("duplicate_name", id=name)
    free = [side for side in SIDES if state.player(side) is None]
    wanted = payload.get("side")
    if wanted is not None and wanted not in SIDES:
        raise OrderError("bad_input", key="side", reason="choice", value=wanted, allowed=list(SIDES))
    if not free:
        raise OrderError("game_full", players=[taken for _, taken in state.players])
    if wanted is not None and wanted not in free:
        raise OrderError("side_taken", side=wanted, by=state.player(wanted))
    side = wanted or free[0]
    players = tuple(sorted((*state.players, (side, name)), key=lambda p: SIDES.index(p[0])))
    return replace(state, players=players), [event("joined", id=name, side=side)]


def leave(state: ArenaState, payload: Mapping[str, Any]) -> Done:
    """A player leaves the lobby; their side is free again."""
    name = payload.get("id")
    seated = next(((side, taken) for side, taken in state.players
                   if isinstance(name, str) and name_key(taken) == name_key(name)), None)
    if seated is None:
        raise OrderError("unknown_character", reason="side", name="" if name is None else str(name))
    side, taken = seated
    players = tuple(player for player in state.players if player[0] != side)
    return replace(state, players=players), [event("player_left", id=taken, side=side)]


def start(state: ArenaState, payload: Mapping[str, Any]) -> Done:
    missing = [side for side in SIDES if state.player(side) is None]
    if missing:
        raise OrderError("not_ready", reason="players", missing=missing)
    first = payload.get("first", state.to_move)
    if first not in FIRST_CHOICES:
        raise OrderError("bad_input", key="first", reason="choice", value=first, allowed=list(FIRST_CHOICES))
    drawn = first == "random"
    if drawn:
        first = random.Random(state.seed).choice(SIDES)
    return replace(state, status=RUNNING, to_move=first), [event("started", first=first, drawn=drawn)]
