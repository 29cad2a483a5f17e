"""The SpaceBlast setup document (scenarios.md): arena, variants, ships, missiles, mines, asteroids, seed.

A document with ships describes a game already running (a position to play from: scenarios,
imports); one without ships (the bot's ``/sb new``: ``{"radius": 6, "variants": [...]}``) opens a
lobby where players join. A position is taken as written: the variants' random set-up (asteroids
dropped, powers dealt) runs only when a lobby starts. Every fault is a SetupError whose `where` is the key path to fix
(``ships[2].facing``; list indexes count from 0).

Beyond scenarios.md, two lobby settings: ``asteroid_count`` (SB-16, default 2) and
``powers_per_ship`` (SB-17, default 1; 2 or 3 only where the nine tiles suffice, checked at start),
and with the ``twoships`` variant (SB-15) a ship's ``player``: who commands it, two ships at most
each; no player may bear the name of another player's ship.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.documents import check_storable
from engine.core.errors import OrderError, SetupError
from engine.core.hexgrid import Direction, Hex, HexBoard
from engine.core.names import check_name, name_key
from engine.spaceblast.material import (
    ASTEROIDS_DEFAULT,
    BRAKES,
    HULL,
    MINES,
    MISSILES,
    POWERS,
    RADIUS_DEFAULT,
    RADIUS_MAX,
    RADIUS_MIN,
    SEATS_MAX,
    SEATS_MIN,
    TURNS,
)
from engine.spaceblast.state import RUNNING, SETUP, GameState, Mine, Missile, Ship, arena
from engine.spaceblast.variants import EXCLUSIVE, VARIANTS

DOCUMENT_KEYS = frozenset(
    {"radius", "variants", "ships", "missiles", "mines", "asteroids", "seed", "asteroid_count", "powers_per_ship"}
)
SHIP_KEYS = frozenset({"id", "at", "facing", "hits", "turns", "brakes", "missiles", "mines", "score", "powers",
                       "player"})
#: SB-15: the ships one player commands at most
FLEET_MAX = 2
#: a ship's numbers: (most it may hold, default); scores have no cap worth checking beyond storage
SHIP_NUMBERS: dict[str, tuple[int, int]] = {
    "hits": (HULL - 1, 0),
    "turns": (TURNS, TURNS),
    "brakes": (BRAKES, BRAKES),
    "missiles": (MISSILES, MISSILES),
    "mines": (MINES, MINES),
    "score": (10**6, 0),
}


def _keys(data: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise SetupError("unknown_key", f"{where}{key}", allowed=sorted(allowed))


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError("bad_number", where, value=value, minimum=low, maximum=high)
    return value


def _list(document: Mapping[str, Any], key: str) -> list[Any]:
    value = document.get(key, [])
    if not isinstance(value, list):
        raise SetupError("not_a_list", key)
    return value


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SetupError("not_a_table", where)
    return value


def _cell(board: HexBoard, value: Any, where: str) -> Hex:
    try:
        return board.parse(value if isinstance(value, str) else "")
    except OrderError as error:
        raise SetupError("bad_cell", where, cell=value) from error


def _facing(value: Any, where: str) -> Direction:
    try:
        return Direction.parse(value if isinstance(value, str) else "")
    except OrderError as error:
        raise SetupError("bad_facing", where, value=value, allowed=[d.name for d in Direction]) from error


def _variants(document: Mapping[str, Any]) -> tuple[str, ...]:
    names = _list(document, "variants")
    for index, name in enumerate(names):
        if name not in VARIANTS:
            raise SetupError("bad_variant", f"variants[{index}]", value=name, allowed=sorted(VARIANTS))
        if name in names[:index]:
            raise SetupError("duplicate_variant", f"variants[{index}]", value=name)
    for pair in EXCLUSIVE:
        if pair <= set(names):
            raise SetupError("exclusive_variants", "variants", variants=sorted(pair))
    return tuple(names)


def _powers(value: Any, where: str, variants: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise SetupError("not_a_list", where)
    if value and "powers" not in variants:
        raise SetupError("bad_power", where, reason="variant_off")
    for index, name in enumerate(value):
        if name not in POWERS:
            raise SetupError("bad_power", f"{where}[{index}]", value=name, allowed=list(POWERS))
        if name in value[:index]:
            raise SetupError("bad_power", f"{where}[{index}]", value=name, reason="twice")
    return tuple(sorted(value))


def _ship(board: HexBoard, data: Any, where: str, taken: list[Ship], variants: tuple[str, ...]) -> Ship:
    data = _table(data, where)
    _keys(data, SHIP_KEYS, f"{where}.")
    ident = check_name(data.get("id"), f"{where}.id")
    if any(name_key(ship.id) == name_key(ident) for ship in taken):
        raise SetupError("duplicate_name", f"{where}.id", id=ident)
    at = _cell(board, data.get("at"), f"{where}.at")
    other = next((ship for ship in taken if ship.at == at), None)
    if other is not None:
        raise SetupError("occupied", f"{where}.at", cell=data["at"], by=other.id)
    numbers = {key: _int(data.get(key, default), f"{where}.{key}", 0, high) for key, (high, default) in SHIP_NUMBERS.items()}
    return Ship(ident, at, _facing(data.get("facing"), f"{where}.facing"), **numbers,
                powers=_powers(data.get("powers", []), f"{where}.powers", variants),
                player=_player(data, f"{where}.player", taken, ident, variants))


def _player(data: Mapping[str, Any], where: str, taken: list[Ship], ident: str, variants: tuple[str, ...]) -> str | None:
    """SB-15: the ship's player (itself without one): one spelling per player, never another
    player's ship's name, two ships at most."""
    player = None
    if "player" in data:
        if "twoships" not in variants:
            raise SetupError("bad_player", where, reason="variant_off")
        player = check_name(data["player"], where)
    owner = player or ident
    for ship in taken:
        same_player = name_key(ship.owner) == name_key(owner)
        if (same_player and ship.owner != owner) or (not same_player and name_key(ship.id) == name_key(owner)):
            raise SetupError("duplicate_name", where, id=owner)
        if not same_player and name_key(ship.owner) == name_key(ident):
            raise SetupError("duplicate_name", where.rsplit(".", 1)[0] + ".id", id=ident)
    if sum(ship.owner == owner for ship in taken) >= FLEET_MAX:
        raise SetupError("bad_player", where, reason="too_many", player=owner, maximum=FLEET_MAX)
    return player


def _owner(data: Mapping[str, Any], where: str, ships: list[Ship]) -> str:
    owner = data.get("owner")
    if not any(ship.id == owner for ship in ships):
        raise SetupError("bad_owner", f"{where}.owner", value=owner, ships=[ship.id for ship in ships])
    return str(owner)


def build_state(document: Mapping[str, Any], seed: int = 0) -> GameState:
    if not isinstance(document, Mapping):
        raise SetupError("not_a_table", "")
    check_storable(document)
    _keys(document, DOCUMENT_KEYS, "")
    radius = _int(document.get("radius", RADIUS_DEFAULT), "radius", RADIUS_MIN, RADIUS_MAX)
    board = arena(radius)
    variants = _variants(document)
    seed = _int(document.get("seed", seed), "seed", -(2**63), 2**63 - 1)
    raw_ships = _list(document, "ships")
    if len(raw_ships) > SEATS_MAX or len(raw_ships) == 1:
        raise SetupError("bad_ship_count", "ships", count=len(raw_ships), minimum=SEATS_MIN, maximum=SEATS_MAX)
    ships: list[Ship] = []
    for index, data in enumerate(raw_ships):
        ships.append(_ship(board, data, f"ships[{index}]", ships, variants))
    occupied = {ship.at: ship.id for ship in ships}

    asteroids: set[Hex] = set()
    for index, value in enumerate(_list(document, "asteroids")):
        cell = _cell(board, value, f"asteroids[{index}]")
        if cell in occupied:
            raise SetupError("occupied", f"asteroids[{index}]", cell=value, by=occupied[cell])
        asteroids.add(cell)

    missiles = []
    for index, data in enumerate(_list(document, "missiles")):
        where = f"missiles[{index}]"
        data = _table(data, where)
        _keys(data, frozenset({"owner", "at", "facing"}), f"{where}.")
        owner = _owner(data, where, ships)
        cell = _cell(board, data.get("at"), f"{where}.at")
        if cell in asteroids:
            raise SetupError("occupied", f"{where}.at", cell=data["at"], by="asteroid")
        missiles.append(Missile(owner, cell, _facing(data.get("facing"), f"{where}.facing")))

    mines: list[Mine] = []
    for index, data in enumerate(_list(document, "mines")):
        where = f"mines[{index}]"
        data = _table(data, where)
        _keys(data, frozenset({"owner", "at", "active"}), f"{where}.")
        owner = _owner(data, where, ships)
        cell = _cell(board, data.get("at"), f"{where}.at")
        if cell in asteroids or any(mine.at == cell for mine in mines):
            raise SetupError("occupied", f"{where}.at", cell=data["at"], by="asteroid" if cell in asteroids else "mine")
        active = data.get("active", occupied.get(cell) != owner)  # under its layer: not yet (SB-8)
        if not isinstance(active, bool):
            raise SetupError("bad_active", f"{where}.active", value=active)
        mines.append(Mine(owner, cell, active))

    return GameState(
        radius=radius,
        variants=variants,
        ships=tuple(ships),
        seed=seed,
        missiles=tuple(missiles),
        mines=tuple(mines),
        asteroids=frozenset(asteroids),
        status=RUNNING if ships else SETUP,
        asteroid_count=_int(document.get("asteroid_count", ASTEROIDS_DEFAULT), "asteroid_count", 0, 12),
        powers_per_ship=_int(document.get("powers_per_ship", 1), "powers_per_ship", 1, 3),
    )
