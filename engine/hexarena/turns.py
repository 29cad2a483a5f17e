"""A whole turn, applied all or nothing, and how turns hand over (reconstructed rules HA-12..HA-18).

The end of a turn is where the game is decided: HA-13 for the side that just played, then, as the
turn passes, the variant's start-of-turn loss (Blitz, HA-15) and HA-14 for the side to move, and
last the position now standing is counted: its third time with the same side to move draws the
game (HA-18). The same checks run when a game starts, since that too gives a side its turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.core.errors import OrderError
from engine.core.protocol import Event
from engine.core.twosided import DRAW
from engine.hexarena.actions import HANDLERS, acting_ship
from engine.hexarena.events import event
from engine.hexarena.geometry import BASE, other
from engine.hexarena.legal import has_legal_action
from engine.hexarena.orders import Action
from engine.hexarena.repetition import DRAWING_COUNT, REPETITION, counted, irreversible
from engine.hexarena.state import FINISHED, ArenaState
from engine.hexarena.variants import Budget, Variant

Played = tuple[ArenaState, list[Event]]


def play_turn(state: ArenaState, side: str, actions: Sequence[Action], variant: Variant) -> Played:
    """Apply every action on a new state, then end the turn. A refusal names the action it came
    from (``action``: 1-based) when the turn has several."""
    budget = variant.new_budget()
    before = state
    events: list[Event] = []
    for index, action in enumerate(actions, start=1):
        try:
            ship = acting_ship(state, side, action)
            variant.admit(budget, ship.id)
            state, produced, cells = HANDLERS[action.verb](state, ship, action)
            budget = variant.pay(budget, ship.id, variant.cost(ship.type, action.verb, cells))
        except OrderError as error:
            if len(actions) > 1:
                error.params["action"] = index
            raise
        events.extend(produced)
    ended, more = end_turn(state, side, budget, variant, afresh=irreversible(before, state))
    return ended, [*events, *more]


def finish(state: ArenaState, winner: str, reason: str) -> Played:
    finished = replace(state, status=FINISHED, winner=winner, reason=reason)
    return finished, [event("game_over", winner=winner, loser=other(winner), reason=reason)]


def drawn(state: ArenaState, reason: str) -> Played:
    finished = replace(state, status=FINISHED, winner=DRAW, reason=reason)
    return finished, [event("game_over", winner=DRAW, loser=None, reason=reason)]


def end_turn(state: ArenaState, side: str, budget: Budget, variant: Variant, *, afresh: bool = False) -> Played:
    """HA-13 at the end of `side`'s turn, then the turn passes (`afresh`: the turn was irreversible,
    so the positions counted before it can never stand again)."""
    spent = None if budget.ap is None or variant.action_points is None else variant.action_points - budget.ap
    ended = event("turn_ended", side=side, actions=budget.actions, ap=spent, next=other(side))
    state = replace(state, turn=state.turn + 1)
    if state.admiral_cell(side) in BASE[other(side)]:
        state, events = finish(state, side, "base_reached")
        return state, [ended, *events]
    state, events = begin_turn(replace(state, to_move=other(side)), variant, afresh=afresh)
    return state, [ended, *events]


def begin_turn(state: ArenaState, variant: Variant, *, afresh: bool = False) -> Played:
    """The side to move may lose before it plays: Blitz's stuck admiral (HA-15), then no legal
    action at all (HA-14, pinned: checked when the turn passes). Else the position is counted, and
    its third time with this side to move draws the game (HA-18; a position where the side to move
    loses ends the game the first time, so no loss is ever a repetition)."""
    side = state.to_move
    reason = variant.start_of_turn_loss(state, side)
    if reason is None and not has_legal_action(state, side, variant):
        reason = "no_legal_action"
    if reason is not None:
        return finish(state, other(side), reason)
    state, times = counted(state, afresh=afresh)
    if times >= DRAWING_COUNT:
        return drawn(state, REPETITION)
    return state, []
