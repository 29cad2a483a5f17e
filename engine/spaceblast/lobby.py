"""The setup phase of a game created without ships (the bot's ``/sb new``): join, leave, start.

Players take seats in joining order (SB-3 seat order), 2 to 6 ships; in SB-15's two-ships game each
player gets two ships (so two or three players) and its ships take opposite corners. ``start`` puts the ships on
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
from engine.spaceblast.fleets import speaker
from engine.spaceblast.material import SEATS_MAX, SEATS_MIN
from engine.spaceblast.seats import CORNERS_FOR, starting_corners
from engine.spaceblast.state import RUNNING, GameState
from engine.spaceblast.variants import corners_for, fleet_for, start_variants

#: a game needs two players, whatever its ships (SB-15: one player's two ships are no game)
PLAYERS_MIN = 2


def _named(payload: Mapping[str, Any], actor: str | None) -> str:
    name = payload.get("id", actor)
    if name is None:
        raise OrderError("bad_input", key="id", reason="missing")
    return str(name)


def join(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    try:
        ident = check_name(payload.get("id", actor))
        fleet = fleet_for(state.variants, ident)
        for ship in fleet:  # "NAME 2" must still be a name: a long NAME is refused here
            check_name(ship.id)
    except SetupError as error:
        raise OrderError("bad_id", **error.params) from error
    taken = {name_key(name) for ship in state.ships for name in (ship.id, ship.owner)}
    if any(name_key(name) in taken for ship in fleet for name in (ship.id, ship.owner)):
        raise OrderError("duplicate_name", id=ident)
    if len(state.ships) + len(fleet) > SEATS_MAX:
        raise OrderError("not_allowed", reason="full", maximum=SEATS_MAX)
    seat = len(state.players())
    state = replace(state, ships=(*state.ships, *fleet))
    ships = {"ships": [ship.id for ship in fleet]} if len(fleet) > 1 else {}
    return Outcome(state, (event("joined", id=ident, seat=seat, **ships),))


def leave(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """A player leaves with all its ships (a ship's own name takes just that ship away)."""
    name = _named(payload, actor)
    fleet = state.fleet(name)
    if not fleet:
        raise OrderError("unknown_character", name=name)
    gone = {ship.id for ship in fleet}
    state = replace(state, ships=tuple(s for s in state.ships if s.id not in gone))
    return Outcome(state, (event("left", id=speaker(fleet)),))


def start(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """Needs two players, and two ships (the fewest SB-3 seats)."""
    if len(state.ships) < SEATS_MIN:
        raise OrderError("not_ready", reason="ships", missing=[f"ships:{SEATS_MIN - len(state.ships)}"],
                         have=len(state.ships), minimum=SEATS_MIN)
    players = len(state.players())
    if players < PLAYERS_MIN:
        raise OrderError("not_ready", reason="two_players", missing=[f"players:{PLAYERS_MIN - players}"],
                         have=players, minimum=PLAYERS_MIN)
    placed = starting_corners(state.radius, corners_for(state, list(CORNERS_FOR[len(state.ships)])))
    ships = tuple(replace(ship, at=at, facing=facing) for ship, (at, facing) in zip(state.ships, placed, strict=True))
    state, dealt = start_variants(replace(state, ships=ships, status=RUNNING))
    started = event(
        "started",
        ships=[{"id": s.id, "at": state.cell(s.at), "facing": s.facing.name if s.facing else None} for s in state.ships],
        asteroids=[state.board.format(cell) for cell in sorted(state.asteroids)],
    )
    return Outcome(state, (started, *dealt))
