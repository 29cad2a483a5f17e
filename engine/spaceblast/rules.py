"""The SpaceBlast rules class: the one object the bot talks to (engine protocol).

Inputs and who may send them (the bot checks permissions; the engine checks the game phase):

=============  ==========================================  ================================
kind           payload                                     when
=============  ==========================================  ================================
``order``      ``{"text"}`` by a ship or player (secret)   running, orders phase
``ready``      ``{}`` by a ship or player (SB-19)          running
``jump``       ``{}`` (the bot: deadline or all ready)     running, orders with a time jump
``resolve``    ``{}`` (the bot: deadline or all ready)     running
``time_jump``  ``{"text"}`` by a time jump's holder        running, after a ``jump`` (SB-17)
``join``       ``{"id"}``                                  setup
``leave``      ``{"id"}``                                  setup
``start``      ``{}``                                      setup
=============  ==========================================  ================================

The actor is a ship, or in SB-15's two-ships game the player commanding two (`fleets`): its
``order`` text names the ship (``2: brake``, or both: ``1: left; 2: brake``) and its ``ready``
covers both ships.

An ``order`` submits the ship's tokens for this turn, replacing any it gave and withdrawing its
``ready``; nothing moves until ``resolve``. Anything in the wrong phase is refused with
``not_allowed`` (reason ``not_started``, ``started`` or ``revealed``); once finished, ``game_over``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core.errors import OrderError
from engine.core.protocol import JSON, Audience, GameRules, Outcome, Result
from engine.spaceblast import lobby, timejump
from engine.spaceblast.checks import check_moment, check_order
from engine.spaceblast.events import event
from engine.spaceblast.fleets import assign, commanded, speaker
from engine.spaceblast.legal import legal_orders
from engine.spaceblast.orders import Order, format_order, parse_orders
from engine.spaceblast.resolution import resolve_turn
from engine.spaceblast.setupdoc import build_state
from engine.spaceblast.state import FINISHED, JUMP, ORDERS, RUNNING, SETUP, GameState, dump_state, load_state
from engine.spaceblast.tokens import holdings, settle
from engine.spaceblast.views import public_view, view_for

Handler = Callable[[GameState, str | None, Mapping[str, Any]], Outcome[GameState]]

_SETUP_INPUTS: dict[str, Handler] = {"join": lobby.join, "leave": lobby.leave, "start": lobby.start}


def _ready(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """SB-19: the orders of every ship the actor commands are final (a player's two ships at once,
    SB-15). During a time jump only its holders answer (no change)."""
    fleet = commanded(state, actor)
    if state.phase == JUMP:
        ships = [ship for ship in fleet if ship.id in state.jumpers]
        if not ships:
            raise OrderError("not_allowed", reason="revealed", input="ready")
    else:
        ships = [ship for ship in fleet if ship.on_board]
        check_moment(state, (ships or list(fleet))[0])
    ready = state.ready | {ship.id for ship in ships}
    return Outcome(replace(state, ready=ready), (event("ready", ship=speaker(fleet)),))


def _jump(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """A time jump among the orders: the turn waits for its holders, who alone are shown every
    order (SB-17). Not a reveal: everybody else's orders stay sealed until ``resolve``."""
    jumpers = timejump.holders(state) if state.phase == ORDERS else []
    if not jumpers:
        raise OrderError("not_allowed", reason="no_time_jump", input="jump")
    return timejump.open_jump(state, jumpers)


def _resolve(state: GameState, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
    """Reveal and play the turn. Logs written before ``jump`` existed opened a time jump's wait
    with ``resolve``: they replay as they were played."""
    if state.phase == ORDERS and timejump.holders(state):
        return _jump(state, actor, payload)
    return resolve_turn(state)


_RUNNING_INPUTS: dict[str, Handler] = {"ready": _ready, "jump": _jump, "resolve": _resolve,
                                       "time_jump": timejump.time_jump}


class SpaceBlast(GameRules[GameState, Order]):
    name = "spaceblast"
    aliases = ("sb",)
    format_version = 1
    input_kinds = frozenset({"order", *_SETUP_INPUTS, *_RUNNING_INPUTS})
    setup_inputs = frozenset(_SETUP_INPUTS)
    #: SB-5: an order's own checks come first — its tokens, then a ship out of play — and only then
    #: the phase (`play` refuses it once the game is over, or before its start)
    own_phase_inputs = frozenset({"order"})
    unordered_view_keys = frozenset({"missiles", "mines", "asteroids"})
    secret_kinds = frozenset({"order"})
    reveal_kinds = frozenset({"resolve"})
    deadline_kinds = frozenset({"jump"})
    seed_is_secret = True  # the power tiles are dealt from it (SB-17)

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> GameState:
        """The document's own ``seed`` wins over the one the bot draws, so a scenario or an import
        replays the same asteroids and powers."""
        return build_state(document, seed)

    # -- orders ----------------------------------------------------------------------------------
    def parse_orders(self, text: str) -> tuple[Order, ...]:
        """One order per ship: the whole set of tokens it plays this turn (a player with two ships
        may give both, ``1: left; 2: brake``, SB-15)."""
        return parse_orders(text)

    def format_order(self, order: Order) -> str:
        return format_order(order)

    def play(self, state: GameState, actor: str, orders: Sequence[Order]) -> Outcome[GameState]:
        """Submit (not resolve) orders for this turn, each replacing the one its ship gave, all or
        nothing; the actor's ready is withdrawn. What they are is told to the ships' owner only."""
        fleet = commanded(state, actor)
        pairs = assign(state, fleet, orders, lambda ship: ship.on_board)
        events = []
        for ship, order in pairs:
            check_order(state, ship.id, order)
            events += [
                event("submitted", ship=ship.id),
                event("orders_set", Audience.actor(ship.owner), ship=ship.id, tokens=order.tokens(),
                      text=format_order(order), left=holdings(settle(ship, order)[0])),
            ]
        given = {ship.id: order for ship, order in pairs}
        state = replace(state, orders={**state.orders, **given}, ready=state.ready - {ship.id for ship in fleet})
        return Outcome(state, tuple(events))

    def legal_orders(self, state: GameState, actor: str) -> Iterable[Order]:
        return legal_orders(state, actor)

    def take_input(self, state: GameState, kind: str, actor: str | None, payload: Mapping[str, Any]) -> Outcome[GameState]:
        if kind == "order":
            return super().take_input(state, kind, actor, payload)
        handler = _SETUP_INPUTS.get(kind) or _RUNNING_INPUTS[kind]
        return handler(state, actor, payload)

    # -- reading ---------------------------------------------------------------------------------
    def view(self, state: GameState) -> JSON:
        return public_view(state)

    def view_for(self, state: GameState, viewer: Audience) -> JSON:
        return view_for(state, viewer)

    def deadline_input(self, state: GameState) -> str:
        """A turn with a time jump among its orders first waits for its holders (``jump``)."""
        return "jump" if state.phase == ORDERS and timejump.holders(state) else "resolve"

    def interlude(self, state: GameState) -> bool:
        """A time jump's wait (SB-17, **D**): its holders answer before a short GM-set deadline."""
        return state.status == RUNNING and state.phase == JUMP

    def turn_number(self, state: GameState) -> int:
        return state.turn

    def waiting_on(self, state: GameState) -> tuple[str, ...]:
        """SB-19: players with a living ship not ready yet (each once, SB-15); during a time jump,
        the holders who have not answered."""
        if state.status != RUNNING:
            return ()
        if state.phase == JUMP:
            late = [ship for ship in state.ships if ship.id in state.jumpers and ship.id not in state.ready]
        else:
            late = [ship for ship in state.on_board() if ship.id not in state.ready]
        return tuple(dict.fromkeys(ship.owner for ship in late))

    def actors(self, state: GameState) -> tuple[str, ...]:
        """Who gives orders: the ships, or the players of SB-15's two-ships game."""
        return state.players()

    def winner(self, state: GameState) -> str | None:
        return state.winner

    def result(self, state: GameState) -> Result:
        if state.status == FINISHED:
            return Result("finished", None if state.winner == "draw" else state.winner, state.reason)
        return Result("setup" if state.status == SETUP else "running")

    # -- serialisation ---------------------------------------------------------------------------
    def dump_state(self, state: GameState) -> JSON:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> GameState:
        return load_state(data)


SPACEBLAST = SpaceBlast()
