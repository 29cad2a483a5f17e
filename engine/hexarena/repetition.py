"""HA-18 D: the draw by repetition, as python-chess keeps it.

python-chess compares a position's transposition key with the positions since the last
irreversible move (`Board.is_repetition`, `Board.is_irreversible`). A HexArena state is never
rebuilt from a move stack, so it keeps the counts itself: how often each position has stood since
the last irreversible turn, by a key of what HA-18 names — every ship afloat with its cell, facing
and carrying cargo, the debris, the reserve — and the side to move. The counts are part of the
state, so a stored game and a replay of its log count alike.

A turn that destroys a ship or recycles a debris is irreversible: a destroyed ship never comes back,
and a recycled debris comes back only with a destruction, so no position standing before such a
turn can stand again. The counts then start afresh, which keeps them short (a few dozen keys at
most in a long manoeuvre).
"""

from __future__ import annotations

from dataclasses import replace
from hashlib import blake2b

from engine.core.hexgrid import Direction, Hex
from engine.hexarena.geometry import BOARD, cell_name
from engine.hexarena.state import ArenaState

#: HA-18: the third time a position stands, with the same side to move, the game is drawn
DRAWING_COUNT = 3
#: the reason a game drawn by repetition gives (its ``game_over`` event, its result)
REPETITION = "repetition"


#: one byte per cell, per facing, per ship: the board is 127 cells, a fleet 18 ships at most
_CELL: dict[Hex, int] = {cell: index for index, cell in enumerate(sorted(BOARD, key=cell_name))}
_FACING: dict[Direction, int] = {direction: index for index, direction in enumerate(Direction)}
_NONE = 255


def position_bytes(state: ArenaState) -> bytes:
    """What HA-18 compares, in bytes: the side to move; each ship afloat — its place in the game's
    fleet list (which never changes order), its cell, its facing, the place of the cargo carrying
    it; the debris cells, sorted; the reserve. (Cells are numbered in name order, so the encoding
    holds for stored games: the keys made from it are stored.)"""
    values = [0 if state.to_move == "red" else 1]
    places: dict[str, int] | None = None
    for index, ship in enumerate(state.ships):
        if ship.alive:
            carrier = _NONE
            if ship.carried_by is not None:
                places = places or {other.id: place for place, other in enumerate(state.ships)}
                carrier = places[ship.carried_by]
            cell = _NONE if ship.at is None else _CELL[ship.at]
            facing = _NONE if ship.facing is None else _FACING[ship.facing]
            values += (index, cell, facing, carrier)
    values.append(_NONE)
    values += sorted(_CELL[cell] for cell in state.debris)
    values += (_NONE, state.debris_reserve)
    return bytes(values)


def position_key(state: ArenaState) -> str:
    """A short stable digest of `position_bytes` (16 hex digits): what the state stores for each
    position. Deterministic across processes and versions (Python's own `hash` of a string is not)."""
    return blake2b(position_bytes(state), digest_size=8).hexdigest()


def irreversible(before: ArenaState, after: ArenaState) -> bool:
    """Whether a turn leaves every earlier position out of reach: a ship destroyed, a debris
    recycled (the debris on the board changed)."""
    return after.graveyard != before.graveyard or after.debris != before.debris


def counted(state: ArenaState, *, afresh: bool = False) -> tuple[ArenaState, int]:
    """The state with the position now standing counted once more (`afresh`: the earlier counts
    dropped first, after an irreversible turn), and how many times it has stood now."""
    key = position_key(state)
    counts = {} if afresh else dict(state.positions)
    times = counts[key] = counts.get(key, 0) + 1
    return replace(state, positions=tuple(counts.items())), times


def times_standing(state: ArenaState) -> int:
    """How many times the position now standing has stood, this time included (0: not counted)."""
    return dict(state.positions).get(position_key(state), 0)

