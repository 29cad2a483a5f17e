"""End of a turn and of the game: AK-15..AK-17, resignation and the move clock.

After each turn, in this order: a base pointed at by an aggressive piece of the other colour is
destroyed (the active player's attack first when both are, AK-15); else bases that touch make a
draw (AK-16); else the turn passes, and a player to move without a legal move loses at once
(AK-17 pinned).
"""

from __future__ import annotations

from dataclasses import replace

from engine.arkeon.events import event
from engine.arkeon.legal import has_a_move
from engine.arkeon.pieces import NEIGHBOURS, attacked_cells, cell_name, other
from engine.arkeon.state import DRAW, FINISHED, ArkeonState
from engine.core.drawoffer import AGREED
from engine.core.protocol import Event

BASE_DESTROYED, DRAWN, NO_MOVE, RESIGNED, TIMEOUT = "base_destroyed", "draw", "no_move", "resigned", "timeout"
REASONS = (BASE_DESTROYED, DRAWN, NO_MOVE, RESIGNED, TIMEOUT, AGREED)


def attackers_of_base(state: ArkeonState, side: str) -> list[str]:
    """The cells of the other colour's aggressive pieces pointing at `side`'s base (AK-15)."""
    base = state.base_of(side)
    return [  # an attack reaches an adjacent cell only, so only the base's neighbours can
        cell_name(cell)
        for cell in sorted(NEIGHBOURS[base])
        if (piece := state.cells.get(cell)) is not None and piece.side != side and piece.aggressive
        and base in attacked_cells(piece, cell)
    ]


def finish(state: ArkeonState, winner: str, reason: str, **params: object) -> tuple[ArkeonState, list[Event]]:
    loser = None if winner == DRAW else other(winner)
    state = replace(state, phase=FINISHED, to_move=None, winner=winner, reason=reason, placed=0, draw_offer=None)
    return state, [event("game_over", winner=winner, reason=reason, loser=loser, **params)]


def end_turn(state: ArkeonState, active: str) -> tuple[ArkeonState, list[Event]]:
    """`state` holds the board after `active`'s resolved turn, `active` still to move."""
    for loser in (other(active), active):
        attackers = attackers_of_base(state, loser)
        if attackers:
            return finish(state, other(loser), BASE_DESTROYED, base=cell_name(state.base_of(loser)), by=attackers)
    if state.base_of(active).distance(state.base_of(other(active))) == 1:
        return finish(state, DRAW, DRAWN)
    passed = replace(state, to_move=other(active), turn=state.turn + 1)
    if not has_a_move(passed, other(active)):
        return finish(passed, active, NO_MOVE)
    return passed, []


def stuck(state: ArkeonState) -> tuple[ArkeonState, list[Event]]:
    """AK-17 for a position given whole (a setup document): its side to move may have no move."""
    if state.to_move is not None and not has_a_move(state, state.to_move):
        return finish(state, other(state.to_move), NO_MOVE)
    return state, []
