"""The HexArena setup document (scenarios.md): variants, side to move, ships, debris, lobby phase.

``ships`` left out means the standard opening (HA-2); a setup document may otherwise leave out any
ship, admirals included. ``phase = "setup"`` makes a lobby waiting for two players (``join`` then
``start``); without it the game runs at once. Every fault is a SetupError whose `where` is the key
path to fix (``ships[2].at``; list indexes count from 0).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError, SetupError
from engine.core.hexgrid import Direction, Hex
from engine.core.names import check_name, name_key
from engine.hexarena.geometry import (
    ADMIRAL,
    BOARD,
    CARGO,
    DEBRIS_PIECES,
    FLEET,
    FORWARD,
    OPENING_CELLS,
    PATROL,
    SIDES,
    TYPES,
)
from engine.hexarena.state import RUNNING, SETUP, ArenaState, Ship
from engine.hexarena.variants import canonical

DOCUMENT_KEYS = frozenset({"variant", "to_move", "ships", "debris", "debris_reserve", "phase", "seed", "players"})
SHIP_KEYS = frozenset({"id", "side", "type", "at", "facing", "carried_by"})
_SHIP_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def standard_opening() -> tuple[Ship, ...]:
    """HA-2: each fleet on its base facing the enemy, ids ``<side>_<type><n>`` in the rule's order."""
    ships = []
    for side in SIDES:
        for ship_type, cells in OPENING_CELLS[side].items():
            for number, cell in enumerate(cells, start=1):
                facing = None if ship_type == PATROL else FORWARD[side]
                ships.append(Ship(f"{side}_{ship_type}{number}", side, ship_type, BOARD.parse(cell), facing))
    return tuple(ships)


def _ship_id(value: Any, where: str) -> str:
    """Ship ids are keys of the public view (``ships.red_cargo1.at``): no dots, no spaces."""
    if not isinstance(value, str) or not _SHIP_ID.fullmatch(value):
        raise SetupError("bad_id", where, reason="ship_id", pattern=_SHIP_ID.pattern)
    return value


def _check_keys(data: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise SetupError("unknown_key", f"{where}{key}", allowed=sorted(allowed))


def _cell(value: Any, where: str) -> Hex:
    try:
        return BOARD.parse(value if isinstance(value, str) else "")
    except OrderError as error:
        raise SetupError("bad_cell", where, cell=value) from error


def _side(value: Any, where: str) -> str:
    if value not in SIDES:
        raise SetupError("bad_side", where, value=value, allowed=list(SIDES))
    return str(value)


def _facing(data: Mapping[str, Any], ship_type: str, side: str, where: str) -> Direction | None:
    value = data.get("facing")
    if ship_type == PATROL:  # HA-3: the patrol has no facing
        if value is not None:
            raise SetupError("bad_facing", f"{where}facing", value=value, reason="patrol_has_none")
        return None
    if value is None:
        return FORWARD[side]
    try:
        return Direction[str(value).upper()]
    except KeyError:
        raise SetupError("bad_facing", f"{where}facing", value=value, allowed=[d.name for d in Direction]) from None


def _ships(raw: Any, taken: dict[Hex, str]) -> tuple[Ship, ...]:
    if not isinstance(raw, list):
        raise SetupError("bad_ships", "ships", reason="not_a_list")
    ships: list[Ship] = []
    carriers: dict[str, tuple[str, str]] = {}  # admiral id -> (cargo id, where)
    for index, data in enumerate(raw):
        where = f"ships[{index}]."
        if not isinstance(data, Mapping):
            raise SetupError("bad_ship", where.rstrip("."), reason="not_a_table")
        _check_keys(data, SHIP_KEYS, where)
        ident = _ship_id(data.get("id"), f"{where}id")
        if any(s.id.casefold() == ident.casefold() for s in ships):
            raise SetupError("duplicate_id", f"{where}id", id=ident)
        side = _side(data.get("side"), f"{where}side")
        ship_type = data.get("type")
        if ship_type not in TYPES:
            raise SetupError("bad_type", f"{where}type", value=ship_type, allowed=list(TYPES))
        if sum(1 for s in ships if s.side == side and s.type == ship_type) >= FLEET[ship_type]:
            raise SetupError("fleet_full", f"{where}type", side=side, type=ship_type, maximum=FLEET[ship_type])
        facing = _facing(data, ship_type, side, where)
        at: Hex | None = None
        if data.get("carried_by") is not None:
            if ship_type != ADMIRAL:
                raise SetupError("bad_carried_by", f"{where}carried_by", reason="only_the_admiral_is_carried")
            if data.get("at") is not None:
                raise SetupError("bad_cell", f"{where}at", reason="carried_ship_has_no_cell")
            carriers[ident] = (str(data["carried_by"]), f"{where}carried_by")
        else:
            if data.get("at") is None:
                raise SetupError("bad_cell", f"{where}at", cell=None, reason="missing")
            at = _cell(data["at"], f"{where}at")
            if at in taken:
                raise SetupError("occupied", f"{where}at", cell=data["at"], by=taken[at])
            taken[at] = ident
        ships.append(Ship(ident, side, ship_type, at, facing))
    by_id = {s.id: s for s in ships}
    loaded: set[str] = set()
    for admiral_id, (cargo_id, where) in carriers.items():
        cargo = by_id.get(cargo_id)
        admiral = by_id[admiral_id]
        if cargo is None or cargo.type != CARGO or cargo.side != admiral.side:
            raise SetupError("bad_carried_by", where, value=cargo_id, reason="not_a_friendly_cargo")
        if cargo_id in loaded:
            raise SetupError("bad_carried_by", where, value=cargo_id, reason="cargo_full")
        loaded.add(cargo_id)
        by_id[admiral_id] = replace(admiral, carried_by=cargo_id)
    return tuple(by_id[s.id] for s in ships)


def _debris(raw: Any, taken: dict[Hex, str]) -> frozenset[Hex]:
    if not isinstance(raw, list):
        raise SetupError("bad_debris", "debris", reason="not_a_list")
    if len(raw) > DEBRIS_PIECES:
        raise SetupError("bad_debris", "debris", reason="too_many", maximum=DEBRIS_PIECES)
    cells = set()
    for index, value in enumerate(raw):
        cell = _cell(value, f"debris[{index}]")
        if cell in taken:
            raise SetupError("occupied", f"debris[{index}]", cell=value, by=taken[cell])
        taken[cell] = "debris"
        cells.add(cell)
    return frozenset(cells)


def _reserve(document: Mapping[str, Any], placed: int) -> int:
    """HA-11: 8 debris in all; by default every one not on the board is in the reserve."""
    value = document.get("debris_reserve", max(0, DEBRIS_PIECES - placed))
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= DEBRIS_PIECES - placed:
        raise SetupError(
            "bad_debris_reserve", "debris_reserve", value=value, minimum=0, maximum=max(0, DEBRIS_PIECES - placed)
        )
    return value


def _variants(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return canonical([value])
    if isinstance(value, list) and value:
        return canonical(value)
    raise SetupError("bad_variant", "variant", value=value, reason="name_or_list")


def _players(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, Mapping):
        raise SetupError("bad_players", "players", reason="not_a_table")
    _check_keys(value, frozenset(SIDES), "players.")
    players = tuple((side, check_name(value[side], f"players.{side}")) for side in SIDES if side in value)
    if len(players) == 2 and name_key(players[0][1]) == name_key(players[1][1]):
        raise SetupError("duplicate_name", "players.blue", id=players[1][1])
    return players


def build_state(document: Mapping[str, Any], seed: int) -> ArenaState:
    """The state a document describes, before any start-of-turn check (the rules class runs it)."""
    if not isinstance(document, Mapping):
        raise SetupError("bad_document", "")
    _check_keys(document, DOCUMENT_KEYS, "")
    phase = document.get("phase", RUNNING)
    if phase not in (SETUP, RUNNING):
        raise SetupError("bad_phase", "phase", value=phase, allowed=[SETUP, RUNNING])
    variants = _variants(document.get("variant", "base"))
    to_move = _side(document.get("to_move", SIDES[0]), "to_move")
    seed = document.get("seed", seed)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError("bad_seed", "seed", value=seed)
    taken: dict[Hex, str] = {}
    ships = _ships(document["ships"], taken) if "ships" in document else standard_opening()
    if "ships" not in document:
        taken.update({s.at: s.id for s in ships if s.at is not None})
    debris = _debris(document.get("debris", []), taken)
    return ArenaState(
        variants=variants,
        ships=ships,
        debris=debris,
        debris_reserve=_reserve(document, len(debris)),
        to_move=to_move,
        status=phase,
        players=_players(document["players"]) if "players" in document else (),
        seed=seed,
    )
