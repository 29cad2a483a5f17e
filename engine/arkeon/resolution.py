"""What happens after a piece is put down: the five steps of AK-13, with AK-6..AK-8's actions.

The functions work on a private copy of the board (a list indexed by cell number, see ``grid``)
and report events in the order things happened; cells are visited in reading order, so a
resolution is a pure function of the position. Attacks within a step are simultaneous: every hit
is decided on the board as it stood at the start of the step, then the hit pieces are removed
together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property

from engine.arkeon.events import event
from engine.arkeon.grid import (
    DIRECTIONS,
    INDEX,
    NAMES,
    NEAR,
    NEIGHBOURS,
    RAYS,
    Board,
    strikes,
    to_board,
    to_cells,
)
from engine.arkeon.pieces import BASE, CCW, CW, PACIFIER, REPULSOR, Piece, other
from engine.core.hexgrid import Direction, Hex
from engine.core.protocol import Event


@dataclass(frozen=True)
class Resolution:
    """The board after the five steps (by cell number), what happened, and every piece removed
    (for AK-14)."""

    board: tuple[Piece | None, ...]
    events: tuple[Event, ...]
    removed: tuple[Piece, ...]

    @cached_property
    def cells(self) -> dict[Hex, Piece]:
        """The board as the state holds it (built only for the turn played, not for every check)."""
        return to_cells(self.board)


# -- step 1: the action of the piece just put down (AK-6..AK-9) ---------------------------------------
def _turn(board: Board, at: int, facing: Direction, by: str, source: int, events: list[Event]) -> None:
    piece = board[at]
    if piece is None or piece.facing is None or piece.facing == facing:
        return
    board[at] = replace(piece, facing=facing)
    events.append(
        event(
            "turned",
            side=piece.side,
            kind=piece.kind,
            at=NAMES[at],
            **{"from": piece.facing.name},
            to=facing.name,
            by=by,
            source=NAMES[source],
        )
    )


def _pacify(board: Board, source: int, events: list[Event]) -> None:
    """AK-6: each adjacent aggressive piece turns its back on the pacifier — its (middle) attack
    direction becomes the step from the pacifier to it."""
    for k, at in NEAR[source]:
        piece = board[at]
        if piece is not None and piece.aggressive:
            _turn(board, at, DIRECTIONS[k], PACIFIER, source, events)


def _rotate(board: Board, source: int, kind: str, events: list[Event]) -> None:
    """AK-7: each adjacent aggressive piece turns 60° the rotator's way."""
    steps = 1 if kind == CW else -1
    for _, at in NEAR[source]:
        piece = board[at]
        if piece is not None and piece.aggressive and piece.facing is not None:
            _turn(board, at, piece.facing.rotated(steps), kind, source, events)


def _repel(board: Board, source: int, events: list[Event]) -> None:
    """AK-8: on each axis, the farthest piece slides to the edge first and each nearer one stops
    against the piece beyond it, so they pack at the far end in their order. The six axes share
    no cell, so the order of the axes does not matter."""
    for ray in RAYS[source]:
        free = len(ray)  # pieces already packed occupy ray[free:]
        for index in reversed(range(len(ray))):
            piece = board[ray[index]]
            if piece is None:
                continue
            free -= 1
            if free != index:
                board[ray[index]] = None
                board[ray[free]] = piece
                events.append(
                    event(
                        "pushed",
                        side=piece.side,
                        kind=piece.kind,
                        **{"from": NAMES[ray[index]]},
                        to=NAMES[ray[free]],
                        source=NAMES[source],
                    )
                )


def act(board: Board, source: int, events: list[Event]) -> None:
    """Step 1: what the piece standing on `source` does when it arrives (nothing for the rest)."""
    piece = board[source]
    kind = None if piece is None else piece.kind
    if kind == PACIFIER:
        _pacify(board, source, events)
    elif kind in (CW, CCW):
        _rotate(board, source, str(kind), events)
    elif kind == REPULSOR:
        _repel(board, source, events)


# -- steps 2 and 4: attacks ------------------------------------------------------------------------
def attack(board: Board, attacker: str, events: list[Event], removed: list[Piece], truces: set[frozenset[int]]) -> None:
    """Every other-colour piece attacked by one of `attacker`'s aggressive pieces is removed, but
    an attack on a piece pointing back at its attacker is cancelled (status quo, pinned AK-13);
    other attacks on that piece still count. Bases are judged at the end of the turn (AK-15)."""
    hits: dict[int, tuple[Piece, list[str]]] = {}
    for at, piece in enumerate(board):
        if piece is None or piece.facing is None or piece.side != attacker:  # a facing: aggressive
            continue
        for target in strikes(piece)[at]:
            victim = board[target]
            if victim is None or victim.side == attacker or victim.kind == BASE:
                continue
            if at in strikes(victim)[target]:
                pair = frozenset((at, target))
                if pair not in truces:
                    truces.add(pair)
                    events.append(event("status_quo", attacker=NAMES[at], target=NAMES[target]))
                continue
            hits.setdefault(target, (victim, []))[1].append(NAMES[at])
    for target in sorted(hits):
        victim, by = hits[target]
        board[target] = None
        removed.append(victim)
        events.append(event("destroyed", side=victim.side, kind=victim.kind, at=NAMES[target], cause="attack", by=by))


# -- steps 3 and 5: connection to the base ---------------------------------------------------------
def connected(board: Board, side: str) -> set[int]:
    """The cells of `side`'s pieces joined to its base through chains of adjacent `side` pieces."""
    start = next(i for i, piece in enumerate(board) if piece is not None and piece.kind == BASE and piece.side == side)
    seen = {start}
    frontier = [start]
    while frontier:
        for near in NEIGHBOURS[frontier.pop()]:
            if near not in seen and (piece := board[near]) is not None and piece.side == side:
                seen.add(near)
                frontier.append(near)
    return seen


def cut_off(board: Board, side: str, events: list[Event], removed: list[Piece]) -> None:
    """Remove `side`'s pieces no longer joined to its base."""
    joined = connected(board, side)
    for at, piece in enumerate(board):
        if piece is not None and piece.side == side and at not in joined:
            board[at] = None
            removed.append(piece)
            events.append(event("destroyed", side=side, kind=piece.kind, at=NAMES[at], cause="disconnected", by=[]))


def resolve(cells: Mapping[Hex, Piece], active: str, arrived: Hex) -> Resolution:
    """AK-13 after `active` put a piece down on `arrived` (placed or swapped in)."""
    return resolve_board(to_board(cells), active, INDEX[arrived])


def resolve_board(board: Board, active: str, arrived: int) -> Resolution:
    """`resolve` on a board by cell number (a private copy: it is changed), so a check of many
    candidate orders need not build a mapping per candidate."""
    events: list[Event] = []
    removed: list[Piece] = []
    truces: set[frozenset[int]] = set()
    passive = other(active)
    act(board, arrived, events)
    attack(board, active, events, removed, truces)
    cut_off(board, passive, events, removed)
    attack(board, passive, events, removed, truces)
    cut_off(board, active, events, removed)
    return Resolution(tuple(board), tuple(events), tuple(removed))
