"""The Space Chess rules class: the one object the bot talks to (engine protocol).

Inputs and who may send them (the bot checks permissions; the engine checks the game phase):

=================  ========================================  =============================
kind               payload                                   phase
=================  ========================================  =============================
``order``          ``{"text"}`` by the acting character      running
``draw``           ``{"numbers": [...], "bonus": int|None}``  running
``limit_reached``  ``{}`` (SC-31)                            running
``join``           ``{"id", "team", "role"}``                setup
``leave``          ``{"id"}``                                setup
``equip``          ``{"id", "weapon", "armour", "items",     setup
                   "ability", "cards", "grade"}``
``deploy``         ``{"id", "at"}`` (SC-10 rows)             setup
``start``          ``{}``                                    setup
``pickup``         ``{"at", "kind", ...}`` (SC-33)           setup or running
``gm_set``         ``{"id", "hp"?, "ap"?, "at"?, "reason"}``  setup or running
=================  ========================================  =============================

Anything in the wrong phase is refused with ``not_allowed`` (reason ``not_started`` or ``started``,
so a player is told which way round it is); once finished, with ``game_over``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.core.batch import in_batch
from engine.core.errors import OrderError
from engine.core.protocol import JSON, GameRules, Outcome
from engine.core.protocol import Result as GameResult
from engine.core.squaregrid import format_cell
from engine.spacechess import actions, gm, legal, lobby, orders, powers
from engine.spacechess.actions import Result, target_of
from engine.spacechess.awards import apply_draw
from engine.spacechess.endings import check_endings, time_limit
from engine.spacechess.events import event
from engine.spacechess.orders import Order
from engine.spacechess.setupdoc import build_state
from engine.spacechess.state import FINISHED, RUNNING, Character, GameState, dump_state, load_state

_ORDER_HANDLERS: dict[str, Callable[[GameState, Character, Order], Result]] = {
    "move": actions.do_move,
    "shoot": actions.do_shoot,
    "grenade": actions.do_grenade,
    "vehicle": actions.do_ability,
    "rage": actions.do_ability,
    "friendship": actions.do_friendship,
    **{
        power: powers.do_power
        for power in ("airstrike", "encourage", "intimidate", "hack", "heal", "teleport")
    },
}

_SETUP_INPUTS: dict[str, Callable[[GameState, Mapping[str, Any]], Result]] = {
    "join": lobby.join,
    "leave": lobby.leave,
    "equip": lobby.equip,
    "deploy": lobby.deploy,
    "start": lobby.start,
}
_GM_INPUTS: dict[str, Callable[[GameState, Mapping[str, Any]], Result]] = {
    "pickup": gm.place_pickup,
    "gm_set": gm.gm_set,
}


def _draw(state: GameState, payload: Mapping[str, Any]) -> Result:
    numbers = lobby.field(payload, "numbers")
    bonus = payload.get("bonus")
    new_state, breakdown = apply_draw(state, numbers, bonus)
    return new_state, [
        event("draw_award", turn=new_state.turn, numbers=list(numbers), bonus=bonus, breakdown=breakdown)
    ]


def _limit(state: GameState, payload: Mapping[str, Any]) -> Result:
    state, events = time_limit(state)
    return state, events


_RUNNING_INPUTS: dict[str, Callable[[GameState, Mapping[str, Any]], Result]] = {
    "draw": _draw,
    "limit_reached": _limit,
}


def public_character(character: Character) -> JSON:
    return {
        "at": None if character.at is None else format_cell(character.at),
        "hp": character.hp,
        "max_hp": character.max_hp,
        "ap": character.ap,
        "alive": character.alive,
        "team": character.team,
        "role": character.role,
        "weapon": character.weapon,
        "armour": character.armour,
        "items": list(character.items),
        "ability": character.ability,
        "cards": list(character.cards),
        "grade": character.grade,
        "shots_this_turn": character.shots_this_turn,
        "grenades_this_turn": character.grenades_this_turn,
        "ability_active": character.ability_used,
        "skip_next_draw": character.skip_next_draw,
    }


class SpaceChess(GameRules[GameState, Order]):
    name = "spacechess"
    aliases = ("sc", "space-chess")
    format_version = 1
    input_kinds = frozenset({"order", *_RUNNING_INPUTS, *_SETUP_INPUTS, *_GM_INPUTS})
    setup_inputs = frozenset(_SETUP_INPUTS)
    anytime_inputs = frozenset(_GM_INPUTS)  # a GM's corrections, in the lobby as in the game
    unordered_view_keys = frozenset({"items", "cards", "pickups"})

    def setup(self, document: Mapping[str, Any], seed: int = 0) -> GameState:
        """Space Chess has no hidden randomness: the seed is unused."""
        return build_state(document)

    def parse_orders(self, text: str) -> tuple[Order, ...]:
        return orders.parse_orders(text)

    def format_order(self, order: Order) -> str:
        return orders.format_order(order)

    def play(self, state: GameState, actor: str, orders: Sequence[Order]) -> Outcome[GameState]:
        """Apply a batch order by order on new states; endings are looked for after each order, and
        the orders left when the game ends are not run (reported as ``batch_cut``)."""
        self.check_phase(state, "order")  # `play` is also called directly (scenarios, reach)
        events = []
        for index, order in enumerate(orders):
            try:
                state, produced = _ORDER_HANDLERS[order.verb](state, target_of(state, actor), order)
            except OrderError as err:
                if len(orders) == 1:
                    raise
                raise in_batch(err, index + 1, order.typed or self.format_order(order)) from None
            events.extend(produced)
            state, ended = check_endings(state)
            events.extend(ended)
            if state.status == FINISHED:
                rest = [self.format_order(o) for o in orders[index + 1 :]]
                if rest:
                    events.append(event("batch_cut", skipped=rest))
                break
        return Outcome(state, tuple(events))

    def legal_orders(self, state: GameState, actor: str) -> Iterable[Order]:
        """Listed lazily by kind (moves first), so a caller wanting a few stops early."""
        return legal.legal_orders(state, actor)

    def take_input(
        self, state: GameState, kind: str, actor: str | None, payload: Mapping[str, Any]
    ) -> Outcome[GameState]:
        if kind == "order":
            return super().take_input(state, kind, actor, payload)
        handler = _SETUP_INPUTS.get(kind) or _GM_INPUTS.get(kind) or _RUNNING_INPUTS[kind]
        state, events = handler(state, payload)
        if state.status == RUNNING:
            state, ended = check_endings(state)
            events = [*events, *ended]
        return Outcome(state, tuple(events))

    def turn_number(self, state: GameState) -> int:
        return state.turn

    def view(self, state: GameState) -> JSON:
        game_map = state.game_map
        return {
            "status": state.status,
            "turn": state.turn,
            "winner": state.winner,
            "map": game_map.name,
            "width": game_map.width,
            "height": game_map.height,
            "characters": {c.id: public_character(c) for c in state.characters},
            "pickups": [p.to_json() for p in state.pickups],
            "encouraging": sorted(state.encouraging),
            "hacking": sorted(state.hacking),
        }

    def actors(self, state: GameState) -> tuple[str, ...]:
        return tuple(c.id for c in state.characters)

    def winner(self, state: GameState) -> int | str | None:
        return state.winner

    def result(self, state: GameState) -> GameResult:
        if state.status != FINISHED:
            return GameResult(state.status)  # type: ignore[arg-type]  # setup or running
        return GameResult("finished", None if state.winner == "draw" else state.winner)

    def side_of(self, state: GameState, actor: str) -> int | None:
        character = state.find(actor)
        return character.team if character is not None else None

    def dump_state(self, state: GameState) -> JSON:
        return dump_state(state)

    def load_state(self, data: Mapping[str, Any]) -> GameState:
        return load_state(data)


SPACECHESS = SpaceChess()
