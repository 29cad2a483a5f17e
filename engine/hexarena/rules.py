"""The HexArena rules class (reconstructed rules): the one object the bot talks to (engine protocol).

The actors are the two sides, ``red`` and ``blue``; an order text is one whole turn of the side
to move (orders.py). Inputs, and when they are accepted:

============  =========================================================  ==============
kind          payload / actor                                            phase
============  =========================================================  ==============
``order``     ``{"text"}`` by the side to move                           running
``resign``    ``{}`` by the side that resigns (at any moment)            running
``timeout``   ``{"actor": side}``: that side, to move, loses on time     running
``join``      ``{"id": name, "side"?: red | blue}``                      setup
``leave``     ``{"id": name}``                                           setup
``start``     ``{"first"?: red | blue | random}``                        setup
``draw_*``    ``draw_offer``, ``draw_accept``, ``draw_decline`` ``{}`` by    running
              a side, at any moment (engine/core/drawoffer.py): a move
              by the side asked declines the offer; accepted, a draw
============  =========================================================  ==============

Anything in the wrong phase is refused with ``not_allowed`` (reason ``not_started`` or
``started``); once finished, with ``game_over``. Error codes beyond the shared ones: ``no_ship``,
``not_your_ship``, ``no_cargo``, ``no_debris``, ``no_target``, ``too_many_actions``,
``game_full``, ``side_taken`` (``already_used`` says a ship already acted this turn), and the draw
offers' (engine/core/drawoffer.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core.drawoffer import after_move
from engine.core.errors import OrderError
from engine.core.names import name_key
from engine.core.protocol import JSON, Event, Outcome, Result
from engine.core.twosided import DRAW, LOBBY, PLAYING, TwoSided
from engine.core.twosided import FINISHED as TWO_SIDED_FINISHED
from engine.hexarena import lobby
from engine.hexarena.geometry import SIDES, cell_name
from engine.hexarena.legal import legal_turns
from engine.hexarena.orders import Turn, format_turn, parse_turn
from engine.hexarena.repetition import counted, times_standing
from engine.hexarena.setupdoc import build_state
from engine.hexarena.state import FINISHED, RUNNING, SETUP, ArenaState, dump_state, load_state, ship_to_json
from engine.hexarena.turns import begin_turn, drawn, finish, play_turn
from engine.hexarena.variants import Variant, variant_for

Done = tuple[ArenaState, list[Event]]
_LOBBY_INPUTS: dict[str, Callable[[ArenaState, Mapping[str, Any]], Done]] = {
    "join": lobby.join, "leave": lobby.leave, "start": lobby.start}


def variant_of(state: ArenaState) -> Variant:
    return variant_for(state.variants)


def _settled(state: ArenaState, events: list[Event]) -> Outcome[ArenaState]:
    """The outcome of an input; a finished game keeps no draw offer."""
    if state.status == FINISHED and state.draw_offer is not None:
        state = replace(state, draw_offer=None)
    return Outcome(state, tuple(events))


class HexArena(TwoSided[ArenaState, Turn]):
    """Its lobby, resign, timeout and draw offers are the two-sided games' own (`TwoSided`); here
    the turns of HA-1..HA-18."""

    name = "hexarena"
    aliases = ("ha", "hex-arena")
    format_version = 1
    sides = SIDES
    unordered_view_keys = frozenset({"debris"})
    first_choices = lobby.FIRST_CHOICES  # HA-12: red unless the GM names a side or draws it

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> ArenaState:
        """A running document gives red (or `to_move`) its turn at once, HA-14/HA-15 included."""
        state = build_state(document, seed)
        if state.status == RUNNING:
            state, _ = begin_turn(state, variant_of(state))
        return state

    # -- orders --------------------------------------------------------------------------------
    def parse_orders(self, text: str) -> tuple[Turn, ...]:
        return (parse_turn(text),)

    def format_order(self, order: Turn) -> str:
        return format_turn(order)

    def play(self, state: ArenaState, actor: str, orders: Sequence[Turn]) -> Outcome[ArenaState]:
        """The turns given are played as one turn (parse_orders gives exactly one)."""
        side = self.mover(state, actor)
        actions = tuple(action for turn in orders for action in turn.actions)
        if not actions:
            raise OrderError("bad_syntax", expected="action", got="end", position=0)
        new_state, events = play_turn(state, side, actions, variant_of(state))
        lapse = after_move(state.draw_offer, side)  # a move by the side asked declines the offer
        return _settled(replace(new_state, draw_offer=lapse.offer), [*events, *lapse.events])

    def legal_orders(self, state: ArenaState, actor: str) -> Iterable[Turn]:
        """Every legal whole turn of the side to move (lazily); nothing for the other side."""
        if state.status != RUNNING or self._named(state, actor) != state.to_move:
            return ()
        return legal_turns(state, state.to_move, variant_of(state))

    # -- what the two-sided dispatch asks ----------------------------------------------------------
    def stage(self, state: ArenaState) -> str:
        return {SETUP: LOBBY, RUNNING: PLAYING}.get(state.status, TWO_SIDED_FINISHED)

    def lobby_input(self, state: ArenaState, kind: str, payload: Mapping[str, Any]) -> Outcome[ArenaState]:
        new_state, events = _LOBBY_INPUTS[kind](state, payload)
        if new_state.status == RUNNING:
            new_state, more = begin_turn(new_state, variant_of(new_state))
            events = [*events, *more]
        return _settled(new_state, events)

    def concluded(self, state: ArenaState, winner: str, reason: str) -> Outcome[ArenaState]:
        if winner == DRAW:
            return _settled(*drawn(state, reason))
        return _settled(*finish(state, winner, reason))

    def players(self, state: ArenaState) -> Mapping[str, str | None]:
        return {side: state.player(side) for side in SIDES}

    def turn_number(self, state: ArenaState) -> int:
        return state.turn

    # -- reading -------------------------------------------------------------------------------
    def view(self, state: ArenaState) -> JSON:
        ships = {}
        for ship in state.ships:
            data = ship_to_json(ship)
            del data["id"]
            ships[ship.id] = data
        return {
            "status": state.status,
            "variants": list(state.variants),
            "to_move": state.to_move,
            "winner": state.winner,
            "reason": state.reason,
            "turn": state.turn,
            "players": dict(self.players(state)),
            "ships": ships,
            "debris": sorted(cell_name(c) for c in state.debris),
            "debris_reserve": state.debris_reserve,
            "graveyard": {side: state.side_graveyard(side) for side in SIDES},
            "draw_offer": state.draw_offer,
            # HA-18: how many times the position now standing has stood (3 draws the game)
            "repetition": times_standing(state),
        }

    def actors(self, state: ArenaState) -> tuple[str, ...]:
        return SIDES

    def side_of(self, state: ArenaState, actor: str) -> str | None:
        side = self._named(state, actor)
        return side if side in SIDES else None

    def _named(self, state: ArenaState, actor: Any) -> Any:
        """A side names itself; a player may be named by the name they joined with (the bot's seats
        are players' names): that player's side, else `actor` unchanged for the checks to refuse."""
        if actor in SIDES or not isinstance(actor, str):
            return actor
        key = name_key(actor)
        return next((side for side, name in state.players if name_key(name) == key), actor)

    def winner(self, state: ArenaState) -> str | None:
        return state.winner

    def result(self, state: ArenaState) -> Result:
        if state.status != FINISHED:
            return Result(state.status)  # type: ignore[arg-type]  # setup or running
        return Result("finished", None if state.winner == DRAW else state.winner, state.reason)

    # -- serialisation -------------------------------------------------------------------------
    def dump_state(self, state: ArenaState) -> JSON:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> ArenaState:
        """A game stored before HA-18 kept no counts: the position standing counts once from then."""
        state = load_state(data)
        if "positions" not in data and state.status == RUNNING:
            state, _ = counted(state)
        return state


HEXARENA = HexArena()
