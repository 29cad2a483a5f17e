"""The Arkeon game state: frozen records, replaced (never mutated) by every input, and its JSON.

The board is a mapping from cell to piece; the reserves hold what is not on it: a count of basics
and the advanced kinds *removed* by the opponent (AK-14). An advanced kind that is neither on the
board nor removed is in the reserve and may be placed, so the state never stores that list and it
can never disagree with the board.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from engine.arkeon.pieces import (
    ADVANCED,
    AGGRESSIVE,
    BASE,
    BASIC,
    BOARD,
    CELLS,
    KINDS,
    SIDES,
    Piece,
    cell_name,
)
from engine.core.errors import OrderError, SetupError
from engine.core.hexgrid import Direction, Hex
from engine.core.names import name_key

LOBBY, PLACING, RUNNING, FINISHED = "lobby", "placing", "running", "finished"
PHASES = (LOBBY, PLACING, RUNNING, FINISHED)
SETUP_PLACEMENTS = 3  # AK-10: basics each player places around their base before the first turn
DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Reserve:
    basic: int
    #: advanced kinds the opponent removed, out of play until all five are (AK-14)
    removed: frozenset[str] = frozenset()


def _no_players() -> Mapping[str, str | None]:
    return {side: None for side in SIDES}


@dataclass(frozen=True)
class ArkeonState:
    cells: Mapping[Hex, Piece]
    reserves: Mapping[str, Reserve]
    phase: str = RUNNING
    #: the side whose move it is while placing or running; None in the lobby and once finished
    to_move: str | None = None
    seed: int = 0
    starter: str | None = None
    #: setup placements the side to move has made so far (AK-10)
    placed: int = 0
    #: turns played since the setup placements
    turn: int = 0
    players: Mapping[str, str | None] = field(default_factory=_no_players)
    winner: str | None = None
    reason: str | None = None
    #: the side whose draw offer stands, waiting for the other side's answer (engine/core/drawoffer.py)
    draw_offer: str | None = None

    # -- lookups (cached: a state never changes, and move generation asks them constantly) ------
    @cached_property
    def board(self) -> tuple[Piece | None, ...]:
        """The pieces by cell number (engine/arkeon/grid.py): what the resolution works on."""
        return tuple(map(self.cells.get, CELLS))

    @cached_property
    def _bases(self) -> dict[str, Hex]:
        return {piece.side: cell for cell, piece in self.cells.items() if piece.kind == BASE}

    def base_of(self, side: str) -> Hex:
        """Every state holds one base per side (setup documents and loads check it)."""
        base = self._bases.get(side)
        if base is None:
            raise ValueError(f"no {side} base on the board")
        return base

    def pieces_of(self, side: str) -> Iterator[tuple[Hex, Piece]]:
        return ((cell, piece) for cell, piece in self.cells.items() if piece.side == side)

    def available_advanced(self, side: str) -> tuple[str, ...]:
        """AK-14: the advanced kinds `side` may place now, in ADVANCED order."""
        on_board = {piece.kind for _, piece in self.pieces_of(side)}
        removed = self.reserves[side].removed
        return tuple(kind for kind in ADVANCED if kind not in on_board and kind not in removed)

    def in_reserve(self, side: str, kind: str) -> bool:
        if kind == BASIC:
            return self.reserves[side].basic > 0
        return kind in self.available_advanced(side)

    def side_named(self, actor: str) -> str | None:
        """The side an actor plays: a side's own name, or the name its player joined with."""
        key = name_key(actor)
        if key in SIDES:
            return key
        for side, name in self.players.items():
            if name is not None and name_key(name) == key:
                return side
        return None


# -- serialisation ---------------------------------------------------------------------------------
def piece_to_json(cell: Hex, piece: Piece) -> dict[str, Any]:
    return {
        "at": cell_name(cell),
        "side": piece.side,
        "kind": piece.kind,
        "facing": None if piece.facing is None else piece.facing.name,
    }


def dump_state(state: ArkeonState) -> dict[str, Any]:
    return {
        "phase": state.phase,
        "to_move": state.to_move,
        "seed": state.seed,
        "starter": state.starter,
        "placed": state.placed,
        "turn": state.turn,
        "players": dict(state.players),
        "winner": state.winner,
        "reason": state.reason,
        "draw_offer": state.draw_offer,
        "pieces": [piece_to_json(cell, state.cells[cell]) for cell in sorted(state.cells)],
        "reserve": {
            side: {"basic": state.reserves[side].basic, "removed": sorted(state.reserves[side].removed)}
            for side in SIDES
        },
    }


def _load_piece(data: Mapping[str, Any]) -> tuple[Hex, Piece]:
    side, kind, facing = data["side"], data["kind"], data["facing"]
    if side not in SIDES or kind not in KINDS or (facing is None) != (kind not in AGGRESSIVE):
        raise ValueError(f"bad piece {dict(data)!r}")
    return BOARD.parse(data["at"]), Piece(side, kind, None if facing is None else Direction[facing])


def load_state(data: Mapping[str, Any]) -> ArkeonState:
    """Inverse of dump_state; a corrupt document raises SetupError('bad_state')."""
    try:
        cells = dict(_load_piece(p) for p in data["pieces"])
        if len(cells) != len(data["pieces"]):
            raise ValueError("two pieces on one cell")
        reserves = {
            side: Reserve(int(data["reserve"][side]["basic"]), frozenset(data["reserve"][side]["removed"]))
            for side in SIDES
        }
        state = ArkeonState(
            cells=cells,
            reserves=reserves,
            phase=data["phase"],
            to_move=data["to_move"],
            seed=data["seed"],
            starter=data["starter"],
            placed=data["placed"],
            turn=data["turn"],
            players={side: data["players"][side] for side in SIDES},
            winner=data["winner"],
            reason=data["reason"],
            draw_offer=data.get("draw_offer"),  # absent from games stored before draw offers
        )
        if state.phase not in PHASES:
            raise ValueError(f"unknown phase {state.phase!r}")
        if state.draw_offer not in (None, *SIDES):
            raise ValueError(f"bad draw offer {state.draw_offer!r}")
        for side in SIDES:
            state.base_of(side)
    except (KeyError, TypeError, ValueError, OrderError) as error:
        raise SetupError("bad_state", "state", detail=str(error)) from error
    return state
