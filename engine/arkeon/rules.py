"""The Arkeon rules class: the one object the bot talks to (engine protocol).

Actors are the two sides, ``blue`` and ``red`` (a player may also be named by the name they joined
with). Inputs and when they are accepted (the bot checks permissions; the engine the phase):

=============  ==============================  ===========================================
kind           payload                         phase
=============  ==============================  ===========================================
``join``       ``{"id": name}``                lobby: blue's seat, then red's
``leave``      ``{"id": name}``                lobby
``start``      ``{}``                          lobby, both seats taken: the seed draws the
                                               starter (AK-10)
``order``      ``{"text"}`` by the side        placing (the AK-10 placements, a ``;`` batch
                                               of up to the three left) or running (one order)
``resign``     ``{}`` by the side              placing or running: that side loses
``timeout``    ``{"actor": side}``             placing or running, that side to move: it
                                               loses on time (the bot's move clock)
``draw_offer`` ``{}`` by the side              placing or running, at any moment: the offer
``draw_accept``                                stands until the other side accepts (a draw,
``draw_decline``                               reason ``agreed``), declines, or moves
                                               (engine/core/drawoffer.py)
=============  ==============================  ===========================================

Phases: ``lobby`` → ``placing`` → ``running`` → ``finished``; :meth:`Arkeon.result` reports the lobby
as ``setup`` and the placements as ``running`` (the players are playing and the clock runs).
Refusals: an input in the wrong phase is ``not_allowed`` (reason ``not_started``, ``started``), any
input once finished ``game_over``, an order or clock out of turn ``not_your_turn``, several orders
in one running turn ``not_allowed`` (reason ``one_action``); the rules' own codes are in
``placement``, the draw offers' in ``engine.core.drawoffer``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.arkeon import legal, lobby, orders
from engine.arkeon.endings import RESIGNED, TIMEOUT, end_turn, finish
from engine.arkeon.orders import Order
from engine.arkeon.pieces import SIDES, cell_name, other
from engine.arkeon.placement import judge
from engine.arkeon.placements import place_batch
from engine.arkeon.setupdoc import build_state
from engine.arkeon.state import DRAW, FINISHED, LOBBY, PLACING, RUNNING, ArkeonState, dump_state, load_state
from engine.core.drawoffer import AGREED, DRAW_INPUTS, after_move, decide
from engine.core.errors import OrderError
from engine.core.protocol import JSON, Event, GameRules, Outcome
from engine.core.protocol import Result as GameResult

Handled = tuple[ArkeonState, list[Event]]

_LOBBY_INPUTS: dict[str, Callable[[ArkeonState, Mapping[str, Any]], Handled]] = {
    "join": lobby.join,
    "leave": lobby.leave,
    "start": lobby.start,
}
_PLAYING = (PLACING, RUNNING)


def public_view(state: ArkeonState) -> JSON:
    return {
        "phase": state.phase,
        "to_move": state.to_move,
        "winner": state.winner,
        "reason": state.reason,
        "turn": state.turn,
        "starter": state.starter,
        "players": dict(state.players),
        "draw_offer": state.draw_offer,
        "cells": {
            cell_name(cell): {
                "side": piece.side,
                "kind": piece.kind,
                "facing": None if piece.facing is None else piece.facing.name,
            }
            for cell, piece in sorted(state.cells.items())
        },
        "reserve": {
            side: {"basic": state.reserves[side].basic, "advanced": list(state.available_advanced(side))}
            for side in SIDES
        },
    }


def _offer_after_move(state: ArkeonState, mover: str, events: list[Event]) -> Outcome[ArkeonState]:
    """A move by the side a draw was offered to declines it (engine/core/drawoffer.py); an ended
    game has no offer left (`finish` cleared it)."""
    decision = after_move(state.draw_offer, mover)
    if decision.offer != state.draw_offer:
        state = replace(state, draw_offer=decision.offer)
    return Outcome(state, (*events, *decision.events))


class Arkeon(GameRules[ArkeonState, Order]):
    name = "arkeon"
    aliases = ("ak",)
    format_version = 1
    input_kinds = frozenset({"order", "resign", "timeout", *DRAW_INPUTS, *_LOBBY_INPUTS})
    unordered_view_keys = frozenset({"advanced"})

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> ArkeonState:
        return build_state(document, seed)

    def parse_orders(self, text: str) -> tuple[Order, ...]:
        return orders.parse_orders(text)

    def format_order(self, order: Order) -> str:
        return orders.format_order(order)

    # -- playing ------------------------------------------------------------------------------------
    def _mover(self, state: ArkeonState, actor: str | None) -> str:
        """The side `actor` plays, once the game is being played and it is that side's move."""
        side = self._playing_side(state, actor, "order")
        if side != state.to_move:
            raise OrderError("not_your_turn", side=side, to_move=state.to_move)
        return side

    def _playing_side(self, state: ArkeonState, actor: str | None, kind: str) -> str:
        if state.phase == FINISHED:
            raise OrderError("game_over", winner=state.winner, reason=state.reason)
        if state.phase not in _PLAYING:
            raise OrderError("not_allowed", reason="not_started", input=kind, status="setup")
        side = None if actor is None else state.side_named(actor)
        if side is None:
            raise OrderError("unknown_character", reason="side", name=actor or "")
        return side

    def play(self, state: ArkeonState, actor: str, orders: Sequence[Order]) -> Outcome[ArkeonState]:
        side = self._mover(state, actor)
        if state.phase == PLACING:
            placed, events = place_batch(state, side, orders)
            return _offer_after_move(placed, side, events)
        if len(orders) != 1:
            raise OrderError("not_allowed", reason="one_action", given=len(orders))
        turn = judge(state, side, orders[0])
        played = replace(state, cells=turn.cells, reserves=turn.reserves)
        ended, closing = end_turn(played, side)
        return _offer_after_move(ended, side, [*turn.events, *closing])

    def legal_orders(self, state: ArkeonState, actor: str) -> Iterator[Order]:
        """Every whole turn the side to move may play (each accepted by :meth:`play` alone);
        nothing for the other side, in the lobby, or once finished."""
        side = state.side_named(actor)
        return legal.legal_orders(state, side) if side is not None else iter(())

    def apply_input(
        self, state: ArkeonState, kind: str, actor: str | None, payload: Mapping[str, Any]
    ) -> Outcome[ArkeonState]:
        if kind not in self.input_kinds:
            raise OrderError("not_allowed", input=kind)
        if not isinstance(payload, Mapping):
            raise OrderError("bad_input", key="payload", reason="not_a_table")
        if kind == "order":
            return super().apply_input(state, kind, actor, payload)
        if kind in _LOBBY_INPUTS:
            if state.phase == FINISHED:
                raise OrderError("game_over", winner=state.winner, reason=state.reason)
            if state.phase != LOBBY:
                raise OrderError("not_allowed", reason="started", input=kind, status="running")
            new_state, events = _LOBBY_INPUTS[kind](state, payload)
            return Outcome(new_state, tuple(events))
        # a side resigns (or offers a draw) for itself (the payload names it when a GM acts for a
        # player); the move clock names in the payload the side whose time ran out, and is no actor
        if kind == "resign" or kind in DRAW_INPUTS:
            claimed = actor if actor is not None else payload.get("actor")
        else:
            claimed = payload.get("actor", actor)
        side = self._playing_side(state, None if claimed is None else str(claimed), kind)
        if kind == "resign":
            new_state, events = finish(state, other(side), RESIGNED)
            return Outcome(new_state, tuple(events))
        if kind in DRAW_INPUTS:
            decision = decide(kind, side, other(side), state.draw_offer)
            if decision.agreed:
                new_state, events = finish(state, DRAW, AGREED)
                return Outcome(new_state, tuple(events))
            return Outcome(replace(state, draw_offer=decision.offer), decision.events)
        if side != state.to_move:
            raise OrderError("not_your_turn", side=side, to_move=state.to_move)
        new_state, events = finish(state, other(side), TIMEOUT)
        return Outcome(new_state, tuple(events))

    # -- reading ------------------------------------------------------------------------------------
    def view(self, state: ArkeonState) -> JSON:
        return public_view(state)

    def actors(self, state: ArkeonState) -> tuple[str, ...]:
        return SIDES

    def side_of(self, state: ArkeonState, actor: str) -> str | None:
        return state.side_named(actor)

    def waiting_on(self, state: ArkeonState) -> tuple[str, ...]:
        return (state.to_move,) if state.phase in _PLAYING and state.to_move is not None else ()

    def winner(self, state: ArkeonState) -> str | None:
        return state.winner

    def result(self, state: ArkeonState) -> GameResult:
        if state.phase == LOBBY:
            return GameResult("setup")
        if state.phase != FINISHED:
            return GameResult("running")
        return GameResult("finished", None if state.winner == DRAW else state.winner, state.reason)

    # -- serialisation ------------------------------------------------------------------------------
    def dump_state(self, state: ArkeonState) -> JSON:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> ArkeonState:
        return load_state(data)


ARKEON = Arkeon()
