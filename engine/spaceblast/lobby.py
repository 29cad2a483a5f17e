"""The setup phase of a game created without ships (the bot's ``/sb new``): join, leave, start.

Players take seats in joining order (SB-3 seat order), 2 to 6 of them. ``start`` puts the ships on
their corners, then lets the variants set the arena up from the game's seed (asteroids SB-16,
powers SB-17) and the game runs. These inputs come from people through the bot, so their faults are
OrderErrors (a reply), where the same faults in a setup document are SetupErrors (a file to fix).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.names import check_name, name_key
from engine.core.protocol import Outcome
from engine.spaceblast.events import event
from engine.spaceblast.material import SEATS_MAX, SEATS_MIN
from engine.spaceblast.seats import starting_corners
from engine.spaceblast.state import RUNNING, GameState, Ship
from engine.spaceblast.variants import start_variants


def _named(payload: Mapping[str, Any], actor: str | None) -> str:
    name = payload.get("id", actor)
    if name is None:
        raise OrderError("bad_input", key="id", reason="missing")
    return str(name)


def join(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    try:
        ident = check_name(payload.get("id", actor))
    except SetupError as error:
        raise OrderError("bad_id", **error.params) from error
    if any(name_key(ship.id) == name_key(ident) for ship in state.ships):
        raise OrderError("duplicate_name", id=ident)
    if len(state.ships) >= SEATS_MAX:
        raise OrderError("not_allowed", reason="full", maximum=SEATS_MAX)
    state = replace(state, ships=(*state.ships, Ship(ident)))
    return Outcome(state, (event("joined", id=ident, seat=len(state.ships) - 1),))


def leave(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    name = _named(payload, actor)
    ship = state.find(name)
    if ship is None:
        raise OrderError("unknown_character", name=name)
    state = replace(state, ships=tuple(s for s in state.ships if s.id != ship.id))
    return Outcome(state, (event("left", id=ship.id),))


def start(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    if len(state.ships) < SEATS_MIN:
        raise OrderError("not_ready", reason="ships", missing=[f"ships:{SEATS_MIN - len(state.ships)}"],
                         have=len(state.ships), minimum=SEATS_MIN)
    corners = starting_corners(state.radius, len(state.ships))
    ships = tuple(replace(ship, at=at, facing=facing) for ship, (at, facing) in zip(state.ships, corners, strict=True))
    state, dealt = start_variants(replace(state, ships=ships, status=RUNNING))
    started = event(
        "started",
        ships=[{"id": s.id, "at": state.cell(s.at), "facing": s.facing.name if s.facing else None} for s in state.ships],
        asteroids=[state.board.format(cell) for cell in sorted(state.asteroids)],
    )
    return Outcome(state, (started, *dealt))
