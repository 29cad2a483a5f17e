"""Before the first placement: two players join (blue's seat, then red's), then ``start`` (AK-10).

These inputs come from players through the bot, so their faults are OrderErrors; the seed that
decides who starts is the game's own, stored in the state, so a replay starts the same side.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.arkeon.endings import stuck
from engine.arkeon.events import event
from engine.arkeon.pieces import SIDES
from engine.arkeon.state import PLACING, RUNNING, ArkeonState
from engine.core.errors import OrderError, SetupError
from engine.core.names import check_name, name_key
from engine.core.protocol import Event

#: words a player's name may not be, since orders and inputs name a side by them too
_SIDE_WORDS = frozenset({*SIDES, "bleu", "rouge"})


def _name(payload: Mapping[str, Any]) -> str:
    if "id" not in payload:
        raise OrderError("bad_input", key="id", reason="missing")
    try:
        name = check_name(payload["id"])
    except SetupError as error:
        raise OrderError("bad_id", **error.params) from error
    return name


def join(state: ArkeonState, payload: Mapping[str, Any]) -> tuple[ArkeonState, list[Event]]:
    name = _name(payload)
    if name_key(name) in _SIDE_WORDS:
        raise OrderError("bad_id", reason="side_word", maximum=32)
    if state.side_named(name) is not None:
        raise OrderError("duplicate_name", id=name)
    free = [side for side in SIDES if state.players[side] is None]
    if not free:
        raise OrderError("not_allowed", reason="both_seats_taken", seats=len(SIDES))
    side = free[0]
    state = replace(state, players={**state.players, side: name})
    return state, [event("joined", id=name, side=side)]


def leave(state: ArkeonState, payload: Mapping[str, Any]) -> tuple[ArkeonState, list[Event]]:
    name = _name(payload)
    side = state.side_named(name)
    if side is None or state.players[side] is None:
        raise OrderError("unknown_character", reason="side", name=name)
    seated = state.players[side]
    state = replace(state, players={**state.players, side: None})
    return state, [event("left", id=seated, side=side)]


def starter_of(seed: int) -> str:
    """AK-10: chance, drawn from the game's seed only."""
    return SIDES[random.Random(seed).randrange(len(SIDES))]


def start(state: ArkeonState, payload: Mapping[str, Any]) -> tuple[ArkeonState, list[Event]]:
    missing = [side for side in SIDES if state.players[side] is None]
    if missing:
        raise OrderError("not_ready", reason="players", missing=missing)
    if state.starter is not None:  # a lobby on a position (a setup document's): play from it at once
        begun = replace(state, phase=RUNNING, to_move=state.starter)
        ended, events = stuck(begun)
        return ended, [event("started", starter=state.starter, players=dict(state.players)), *events]
    starter = starter_of(state.seed)
    state = replace(state, phase=PLACING, starter=starter, to_move=starter, placed=0)
    return state, [event("started", starter=starter, players=dict(state.players))]
