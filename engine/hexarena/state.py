"""The HexArena game state: frozen records that every accepted input replaces, never mutates.

A turn is applied whole (one order text is one turn), so no half-played turn is ever stored: the
budget of an Alpha or Omega turn lives only while the turn is being applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.hexgrid import Direction, Hex
from engine.hexarena.geometry import BASE, BOARD, SIDES, cell_name

SETUP, RUNNING, FINISHED = "setup", "running", "finished"
#: what a cell holds besides ships (HA-11): a debris is not a ship, so it has no id
DEBRIS = "#debris"


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    side: str
    type: str
    #: None when carried (HA-6: the admiral is not on the board on its own) or destroyed
    at: Hex | None
    #: None for a patrol (HA-3); a carried admiral keeps the facing it boarded with
    facing: Direction | None
    carried_by: str | None = None
    alive: bool = True


@dataclass(frozen=True)
class ArenaState:
    variants: tuple[str, ...]
    ships: tuple[Ship, ...]
    debris: frozenset[Hex]
    debris_reserve: int
    to_move: str
    status: str = RUNNING
    winner: str | None = None
    reason: str | None = None
    #: (side, player name) for each side a player took, in join order
    players: tuple[tuple[str, str], ...] = ()
    #: ids of destroyed ships in the order they fell (HA-11); each side's graveyard is its share
    graveyard: tuple[str, ...] = ()
    turn: int = 0
    seed: int = 0
    #: the side whose draw offer stands, waiting for the other side's answer (engine/core/drawoffer.py)
    draw_offer: str | None = None
    #: HA-18: (position key, times it stood) for each position since the last irreversible turn, in
    #: the order they first stood (engine/hexarena/repetition.py)
    positions: tuple[tuple[str, int], ...] = ()

    # -- lookups (cached: a state never changes, and move generation asks them constantly) ------
    @cached_property
    def by_id(self) -> dict[str, Ship]:
        return {ship.id: ship for ship in self.ships}

    @cached_property
    def occupancy(self) -> dict[Hex, str]:
        """Cell -> the id of the ship standing there, or DEBRIS; carried and dead ships hold none."""
        cells: dict[Hex, str] = dict.fromkeys(self.debris, DEBRIS)
        for ship in self.ships:
            if ship.alive and ship.at is not None:
                cells[ship.at] = ship.id
        return cells

    def ship_at(self, cell: Hex) -> Ship | None:
        ident = self.occupancy.get(cell)
        return None if ident is None or ident == DEBRIS else self.by_id[ident]

    def passenger(self, cargo: Ship) -> Ship | None:
        """The admiral a cargo carries (HA-6), if any."""
        for ship in self.ships:
            if ship.carried_by == cargo.id and ship.alive:
                return ship
        return None

    def admiral_cell(self, side: str) -> Hex | None:
        """Where a side's admiral stands, alone or inside its cargo (HA-13)."""
        for ship in self.ships:
            if ship.side == side and ship.type == "admiral" and ship.alive:
                if ship.carried_by is not None:
                    return self.by_id[ship.carried_by].at
                return ship.at
        return None

    def player(self, side: str) -> str | None:
        return next((name for s, name in self.players if s == side), None)

    def side_graveyard(self, side: str) -> list[str]:
        return [ident for ident in self.graveyard if self.by_id[ident].side == side]

    def with_ships(self, *changed: Ship) -> ArenaState:
        """The state with the ships of the same ids replaced."""
        new = {ship.id: ship for ship in changed}
        return replace(self, ships=tuple(new.get(ship.id, ship) for ship in self.ships))


def in_base(cell: Hex | None, side: str) -> bool:
    return cell is not None and cell in BASE[side]


# -- serialisation -----------------------------------------------------------------------------
def _cell(cell: Hex | None) -> str | None:
    return None if cell is None else cell_name(cell)


def ship_to_json(ship: Ship) -> dict[str, Any]:
    return {
        "id": ship.id,
        "side": ship.side,
        "type": ship.type,
        "at": _cell(ship.at),
        "facing": None if ship.facing is None else ship.facing.name,
        "carried_by": ship.carried_by,
        "alive": ship.alive,
    }


def dump_state(state: ArenaState) -> dict[str, Any]:
    return {
        "variants": list(state.variants),
        "ships": [ship_to_json(ship) for ship in state.ships],
        "debris": sorted(cell_name(c) for c in state.debris),
        "debris_reserve": state.debris_reserve,
        "to_move": state.to_move,
        "status": state.status,
        "winner": state.winner,
        "reason": state.reason,
        "players": [[side, name] for side, name in state.players],
        "graveyard": list(state.graveyard),
        "turn": state.turn,
        "seed": state.seed,
        "draw_offer": state.draw_offer,
        "positions": [[key, count] for key, count in state.positions],
    }


def _load_cell(text: str | None) -> Hex | None:
    return None if text is None else BOARD.parse(text)


def load_state(data: Mapping[str, Any]) -> ArenaState:
    """Inverse of dump_state; a corrupt document raises SetupError('bad_state')."""
    try:
        ships = tuple(
            Ship(
                id=s["id"],
                side=s["side"],
                type=s["type"],
                at=_load_cell(s["at"]),
                facing=None if s["facing"] is None else Direction[s["facing"]],
                carried_by=s["carried_by"],
                alive=bool(s["alive"]),
            )
            for s in data["ships"]
        )
        state = ArenaState(
            variants=tuple(data["variants"]),
            ships=ships,
            debris=frozenset(BOARD.parse(c) for c in data["debris"]),
            debris_reserve=int(data["debris_reserve"]),
            to_move=data["to_move"],
            status=data["status"],
            winner=data["winner"],
            reason=data["reason"],
            players=tuple((side, name) for side, name in data["players"]),
            graveyard=tuple(data["graveyard"]),
            turn=int(data["turn"]),
            seed=int(data["seed"]),
            draw_offer=data.get("draw_offer"),  # absent from games stored before draw offers
            # absent from games stored before HA-18: the rules class counts the position standing
            positions=tuple((str(key), int(count)) for key, count in data.get("positions", ())),
        )
    except (KeyError, TypeError, ValueError, OrderError) as error:
        raise SetupError("bad_state", "state", detail=str(error)) from error
    if state.to_move not in SIDES:
        raise SetupError("bad_state", "state.to_move", detail=f"to_move={state.to_move!r}")
    if any(count < 1 for _, count in state.positions) or len(dict(state.positions)) != len(state.positions):
        raise SetupError("bad_state", "state.positions", detail="a count below 1 or a key twice")
    if state.draw_offer not in (None, *SIDES):
        raise SetupError("bad_state", "state.draw_offer", detail=f"draw_offer={state.draw_offer!r}")
    return state
