"""One turn of play (AK-11..AK-14): the checks an order must pass, then its resolution.

:func:`check` is the single gate: ``play`` applies what :func:`judge` (check, then resolve)
returns and ``legal_orders`` lists exactly the orders `check` accepts, so the two cannot
disagree. Checks run in a fixed order, so a refusal names the first rule broken:

=========================  ==========================================================  ==========
code                       when                                                        order kind
=========================  ==========================================================  ==========
``not_your_piece``         the swapped cell holds no piece of the player's (reason      swap
                           ``empty``, ``enemy`` or ``base``)
``bad_swap``               a swap that does not change basic ↔ advanced                 swap
``not_in_reserve``         the reserve lacks the piece (no basic left; that advanced    both
                           kind on the board or removed, AK-14)
``occupied``               the cell is not empty                                        place
``not_adjacent``           no piece or base of the player's next to the cell (reason    both
                           ``own_piece``; ``setup_base`` for the AK-10 placements)
``near_base``              an advanced piece placed next to a base, either one          place
``must_point_at_base``     next to the enemy base without pointing at it                both
``destroyed_at_once``      an aggressive piece that would not survive the turn          both
                           (the whole turn resolved on a copy)
=========================  ==========================================================  ==========
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from engine.arkeon.events import event
from engine.arkeon.grid import INDEX, NEIGHBOURS
from engine.arkeon.orders import PLACE, Order
from engine.arkeon.pieces import ADVANCED, BASE, BASIC, Piece, cell_name, other, points_at
from engine.arkeon.resolution import Resolution, resolve_board
from engine.arkeon.state import ArkeonState, Reserve
from engine.core.errors import OrderError
from engine.core.hexgrid import Hex
from engine.core.protocol import Event

#: the refusal codes Arkeon adds to the common ones (engine/core/errors.py), for the catalogs
ARKEON_CODES = frozenset(
    {"not_your_piece", "bad_swap", "not_in_reserve", "near_base", "must_point_at_base", "destroyed_at_once"}
)


@dataclass(frozen=True)
class Turn:
    """An accepted order's effect: the board and reserves after AK-13 and AK-14, and its events."""

    cells: Mapping[Hex, Piece]
    reserves: Mapping[str, Reserve]
    events: tuple[Event, ...]


def touches_own(board: tuple[Piece | None, ...], side: str, cell: int) -> bool:
    """AK-12: a piece goes next to one of its player's pieces or base (the cell itself aside);
    `board` and `cell` by cell number (engine/arkeon/grid.py)."""
    return any((near := board[n]) is not None and near.side == side for n in NEIGHBOURS[cell])


def _check_place(state: ArkeonState, side: str, order: Order) -> None:
    if not state.in_reserve(side, order.kind):
        raise OrderError("not_in_reserve", side=side, kind=order.kind)
    occupant = state.cells.get(order.cell)
    if occupant is not None:
        raise OrderError("occupied", cell=cell_name(order.cell), by=occupant.side, kind=occupant.kind)
    if not touches_own(state.board, side, INDEX[order.cell]):
        raise OrderError("not_adjacent", reason="own_piece", cell=cell_name(order.cell), side=side)
    if order.kind in ADVANCED:
        for base_side in (side, other(side)):
            base = state.base_of(base_side)
            if base.distance(order.cell) == 1:
                raise OrderError("near_base", cell=cell_name(order.cell), base=cell_name(base), side=base_side)


def _check_swap(state: ArkeonState, side: str, order: Order) -> None:
    where = cell_name(order.cell)
    current = state.cells.get(order.cell)
    if current is None or current.side != side or current.kind == BASE:
        reason = "empty" if current is None else "enemy" if current.side != side else "base"
        raise OrderError("not_your_piece", cell=where, reason=reason)
    if (current.kind == BASIC) == (order.kind == BASIC):
        raise OrderError("bad_swap", cell=where, **{"from": current.kind}, to=order.kind)
    if not state.in_reserve(side, order.kind):
        raise OrderError("not_in_reserve", side=side, kind=order.kind)
    if not touches_own(state.board, side, INDEX[order.cell]):
        raise OrderError("not_adjacent", reason="own_piece", cell=where, side=side)


def _pay(reserves: Mapping[str, Reserve], side: str, taken: str, given_back: Piece | None) -> dict[str, Reserve]:
    """The reserves once `taken` left `side`'s reserve and `given_back` (a swapped-out piece)
    returned to it; AK-11 pinned: a swapped-out advanced piece does not count as removed."""
    basics = reserves[side].basic - (taken == BASIC) + (given_back is not None and given_back.kind == BASIC)
    return {**reserves, side: replace(reserves[side], basic=basics)}


def refund(reserves: dict[str, Reserve], removed: tuple[Piece, ...]) -> list[Event]:
    """AK-14: removed basics return to play, removed advanced pieces wait until all five of their
    player's are gone, then all come back at once (updates `reserves` in place)."""
    events = []
    for piece in removed:
        kept = reserves[piece.side]
        if piece.kind == BASIC:
            reserves[piece.side] = replace(kept, basic=kept.basic + 1)
        else:
            reserves[piece.side] = replace(kept, removed=kept.removed | {piece.kind})
    for side, kept in reserves.items():
        if kept.removed == frozenset(ADVANCED):
            reserves[side] = replace(kept, removed=frozenset())
            events.append(event("returned", side=side, kinds=list(ADVANCED)))
    return events


def _resolved(state: ArkeonState, side: str, cell: Hex, piece: Piece) -> Resolution:
    """AK-13 once `side` has put `piece` down on `cell`."""
    at = INDEX[cell]
    board = list(state.board)
    board[at] = piece
    return resolve_board(board, side, at)


def check(state: ArkeonState, side: str, order: Order) -> Resolution | None:
    """Every AK-11/AK-12 check of one order of `side`'s turn; OrderError names the first rule broken.

    Returns the turn's resolution when the last check needed it (an aggressive piece: "destroyed at
    once" is judged on the resolved turn), so :func:`judge` does not resolve twice.
    """
    if order.verb == PLACE:
        _check_place(state, side, order)
    else:
        _check_swap(state, side, order)
    piece = Piece(side, order.kind, order.facing)
    enemy_base = state.base_of(other(side))
    if enemy_base.distance(order.cell) == 1 and not points_at(piece, order.cell, enemy_base):
        raise OrderError("must_point_at_base", cell=cell_name(order.cell), base=cell_name(enemy_base))
    if not piece.aggressive:
        return None
    resolution = _resolved(state, side, order.cell, piece)
    if resolution.board[INDEX[order.cell]] != piece:
        raise OrderError("destroyed_at_once", cell=cell_name(order.cell), kind=order.kind)
    return resolution


def judge(state: ArkeonState, side: str, order: Order) -> Turn:
    """Check one order and resolve it: the turn ``play`` applies."""
    piece = Piece(side, order.kind, order.facing)
    resolution = check(state, side, order) or _resolved(state, side, order.cell, piece)
    where = cell_name(order.cell)
    if order.verb == PLACE:
        given_back = None
        put_down = event("placed", side=side, kind=order.kind, at=where, facing=_facing(piece), setup=False)
    else:
        given_back = state.cells[order.cell]
        put_down = event(
            "swapped", side=side, at=where, **{"from": given_back.kind}, to=order.kind, facing=_facing(piece)
        )
    reserves = _pay(state.reserves, side, order.kind, given_back)
    returned = refund(reserves, resolution.removed)
    return Turn(resolution.cells, reserves, (put_down, *resolution.events, *returned))


def _facing(piece: Piece) -> str | None:
    return None if piece.facing is None else piece.facing.name
