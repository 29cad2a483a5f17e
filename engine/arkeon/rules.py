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
from engine.arkeon.endings import end_turn, finish
from engine.arkeon.orders import Order
from engine.arkeon.pieces import SIDES, cell_name
from engine.arkeon.placement import judge
from engine.arkeon.placements import place_batch
from engine.arkeon.setupdoc import build_state
from engine.arkeon.state import DRAW, FINISHED, LOBBY, PLACING, ArkeonState, dump_state, load_state
from engine.core.drawoffer import after_move
from engine.core.errors import OrderError
from engine.core.protocol import JSON, Event, Outcome
from engine.core.protocol import Result as GameResult
from engine.core.twosided import FINISHED as TWO_SIDED_FINISHED
from engine.core.twosided import LOBBY as TWO_SIDED_LOBBY
from engine.core.twosided import PLAYING, TwoSided

Handled = tuple[ArkeonState, list[Event]]

_LOBBY_INPUTS: dict[str, Callable[[ArkeonState, Mapping[str, Any]], Handled]] = {
    "join": lobby.join,
    "leave": lobby.leave,
    "start": lobby.start,
}


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


class Arkeon(TwoSided[ArkeonState, Order]):
    """Its lobby, resign, timeout and draw offers are the two-sided games' own (`TwoSided`); here
    the placement and turns of AK-1..AK-17."""

    name = "arkeon"
    aliases = ("ak",)
    format_version = 1
    sides = SIDES
    unordered_view_keys = frozenset({"advanced"})

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> ArkeonState:
        return build_state(document, seed)

    def parse_orders(self, text: str) -> tuple[Order, ...]:
        return orders.parse_orders(text)

    def format_order(self, order: Order) -> str:
        return orders.format_order(order)

    # -- what the two-sided dispatch asks ------------------------------------------------------------
    def stage(self, state: ArkeonState) -> str:
        return {LOBBY: TWO_SIDED_LOBBY, FINISHED: TWO_SIDED_FINISHED}.get(state.phase, PLAYING)

    def lobby_input(self, state: ArkeonState, kind: str, payload: Mapping[str, Any]) -> Outcome[ArkeonState]:
        new_state, events = _LOBBY_INPUTS[kind](state, payload)
        return Outcome(new_state, tuple(events))

    def concluded(self, state: ArkeonState, winner: str, reason: str) -> Outcome[ArkeonState]:
        new_state, events = finish(state, winner, reason)
        return Outcome(new_state, tuple(events))

    def players(self, state: ArkeonState) -> Mapping[str, str | None]:
        return dict(state.players)

    def turn_number(self, state: ArkeonState) -> int:
        return state.turn

    # -- playing ------------------------------------------------------------------------------------
    def play(self, state: ArkeonState, actor: str, orders: Sequence[Order]) -> Outcome[ArkeonState]:
        side = self.mover(state, actor)
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

    # -- reading ------------------------------------------------------------------------------------
    def view(self, state: ArkeonState) -> JSON:
        return public_view(state)

    def actors(self, state: ArkeonState) -> tuple[str, ...]:
        return SIDES

    def side_of(self, state: ArkeonState, actor: str) -> str | None:
        return state.side_named(actor)

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
