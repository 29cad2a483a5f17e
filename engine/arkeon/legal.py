"""Every legal whole turn of the side to move: the one source of "what can I do" (AK-10..AK-12).

Candidates are the orders the reserve and the board make thinkable (a piece the player holds, on
an empty cell next to one of theirs, or swapped for one of theirs, in each direction when it takes
one); each goes through `placement.check` — the very gate ``play`` uses — and is listed only
if accepted. So a listed order is accepted by construction, and an order not listed is refused,
since every order ``check`` could accept is among the candidates.

Lazy and in a fixed order (placements by kind, cell and direction, then swaps), so "has the player
any move at all" (AK-17) stops at the first.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.arkeon.orders import PLACE, SWAP, Order
from engine.arkeon.pieces import AGGRESSIVE, BASE, BASIC, CELLS
from engine.arkeon.placement import check, touches_own
from engine.arkeon.placements import setup_cells
from engine.arkeon.state import PLACING, RUNNING, ArkeonState
from engine.core.errors import OrderError
from engine.core.hexgrid import Direction


def _facings(kind: str) -> tuple[Direction | None, ...]:
    return tuple(Direction) if kind in AGGRESSIVE else (None,)


def candidates(state: ArkeonState, side: str) -> Iterator[Order]:
    """Orders worth asking `check` about: a superset of the legal ones."""
    kinds = ([BASIC] if state.reserves[side].basic > 0 else []) + list(state.available_advanced(side))
    board = state.board
    empty = [CELLS[i] for i, piece in enumerate(board) if piece is None and touches_own(board, side, i)]
    for kind in kinds:
        for cell in empty:
            for facing in _facings(kind):
                yield Order(PLACE, kind, cell, facing)
    advanced = state.available_advanced(side)
    for cell in sorted(state.cells):
        piece = state.cells[cell]
        if piece.side != side or piece.kind == BASE:
            continue
        swaps_in = advanced if piece.kind == BASIC else ((BASIC,) if state.reserves[side].basic > 0 else ())
        for kind in swaps_in:
            for facing in _facings(kind):
                yield Order(SWAP, kind, cell, facing)


def legal_orders(state: ArkeonState, side: str) -> Iterator[Order]:
    """Nothing unless `side` is to move in a game being played."""
    if state.to_move != side:
        return
    if state.phase == PLACING:
        for cell in setup_cells(state, side):
            for facing in Direction:
                yield Order(PLACE, BASIC, cell, facing)
        return
    if state.phase != RUNNING:
        return
    for order in candidates(state, side):
        try:
            check(state, side, order)
        except OrderError:
            continue
        yield order


def search_candidates(state: ArkeonState, side: str) -> Iterator[Order]:
    """The orders a search tries for `side`, unchecked (it plays each, and the engine refuses the
    illegal ones): `candidates` while running, the setup placements while placing."""
    if state.to_move != side:
        return iter(())
    if state.phase == RUNNING:
        return candidates(state, side)
    return legal_orders(state, side)


def has_a_move(state: ArkeonState, side: str) -> bool:
    """AK-17: whether `side` has any legal order — asked after every turn, so the cheap answer
    first: a pacifier, rotator or repulsor is judged without resolving a turn (it cannot be
    destroyed at once), and any one of them goes wherever the others may."""
    quiet = next((kind for kind in state.available_advanced(side) if kind not in AGGRESSIVE), None)
    if state.to_move == side and state.phase == RUNNING and quiet is not None:
        board = state.board
        for i, piece in enumerate(board):
            if piece is None and touches_own(board, side, i):
                try:
                    check(state, side, Order(PLACE, quiet, CELLS[i]))
                except OrderError:
                    continue
                return True
    return next(legal_orders(state, side), None) is not None
