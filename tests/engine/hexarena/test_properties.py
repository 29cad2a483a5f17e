"""Property tests over seeded random games: every generated turn is accepted, every refused input
leaves the state byte-identical, the JSON round trip is exact, and the same inputs give the same
game. Invariants (HA-4, HA-6, HA-10, HA-11): one thing per cell, a carried admiral rides a living
friendly cargo, admirals are never destroyed, the dead are in the graveyard once, and the 8 debris
are always either on the board or in the reserve."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.core.hexgrid import Direction
from engine.hexarena import HEXARENA
from engine.hexarena.actions import HANDLERS
from engine.hexarena.geometry import BOARD, SIDES, cell_name
from engine.hexarena.legal import affordable_actions
from engine.hexarena.orders import Turn
from engine.hexarena.rules import variant_of
from engine.hexarena.state import ArenaState
from tests.engine.hexarena.builders import arena, dumped

VARIANTS = ["base", "blitz", "alpha", "omega", ["blitz", "alpha"], ["blitz", "omega"]]
VERBS = ["move", "move", "rotate", "fire", "ram", "board", "leave", "recycle"]


def random_turn(state: ArenaState, rng: random.Random) -> Turn:
    """A legal turn drawn by walking legal.py's tree: one legal action, then maybe another legal
    after it (Alpha, Omega). Cheaper than listing all 8,000 Omega turns at every ply."""
    variant, side = variant_of(state), state.to_move
    budget, actions = variant.new_budget(), []
    while True:
        candidates = list(affordable_actions(state, side, variant, budget))
        if not candidates or (actions and rng.random() < 0.4):
            return Turn(tuple(actions))
        action, ship, cells = rng.choice(candidates)
        actions.append(action)
        cost = variant.cost(ship.type, action.verb, cells)
        if not variant.room_after(budget, cost):
            return Turn(tuple(actions))
        state = HANDLERS[action.verb](state, ship, action)[0]
        budget = variant.pay(budget, ship.id, cost)


def random_text(rng: random.Random, state: ArenaState) -> str:
    """An action text near the side's ships: sometimes legal, mostly not."""
    own = [s.at for s in state.ships if s.at is not None and s.alive] or [BOARD.parse("G7")]
    cells = list(BOARD)

    def one() -> str:
        at = rng.choice(own) if rng.random() < 0.8 else rng.choice(cells)
        verb = rng.choice(VERBS)
        if verb in ("rotate", "ram"):
            return f"{verb} {cell_name(at)} {rng.choice(list(Direction)).name}"
        if verb == "fire":
            return f"fire {cell_name(at)}"
        near = [c for c in cells if c.distance(at) <= 3] if rng.random() < 0.8 else cells
        return f"{verb} {cell_name(at)} {cell_name(rng.choice(near))}"

    return "; ".join(one() for _ in range(rng.choice([1, 1, 2, 3])))


def check_invariants(state: ArenaState) -> None:
    taken = set(state.debris)
    for ship in state.ships:
        if not ship.alive:
            assert ship.at is None and ship.carried_by is None and state.graveyard.count(ship.id) == 1
            assert ship.type != "admiral"  # HA-4
            continue
        assert ship.id not in state.graveyard
        if ship.carried_by is not None:  # HA-6
            cargo = state.by_id[ship.carried_by]
            assert ship.at is None and ship.type == "admiral"
            assert cargo.alive and cargo.type == "cargo" and cargo.side == ship.side and cargo.at is not None
        else:
            assert ship.at is not None and ship.at not in taken
            taken.add(ship.at)
        assert (ship.facing is None) == (ship.type == "patrol")  # HA-3
    assert len(state.debris) + state.debris_reserve == 8  # HA-11, from the standard opening
    assert (state.winner is None) == (state.status != "finished")
    assert state.winner in (None, *SIDES)
    data = json.loads(dumped(state))
    assert dumped(HEXARENA.from_json(data)) == dumped(state)
    json.dumps(HEXARENA.view(state))


def replay(variant, inputs) -> ArenaState:
    state = arena(variant=variant)
    for kind, actor, payload in inputs:
        state = HEXARENA.apply_input(state, kind, actor, payload).state
    return state


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), length=st.integers(1, 40))
def test_random_inputs_keep_the_invariants(variant, seed: int, length: int) -> None:
    rng = random.Random(seed)
    state = arena(variant=variant)
    accepted = []
    for _ in range(length):
        if HEXARENA.result(state).finished:
            break
        if rng.random() < 0.6:
            side = state.to_move
            text = HEXARENA.format_order(random_turn(state, rng))
            mover, turn = state.to_move, state.turn
            state = HEXARENA.apply_input(state, "order", side, {"text": text}).state  # never raises
            assert state.turn == turn + 1
            assert state.to_move != mover or HEXARENA.result(state).finished
        else:
            side = rng.choice(SIDES)
            text = random_text(rng, state)
            before = dumped(state)
            try:
                state = HEXARENA.apply_input(state, "order", side, {"text": text}).state
            except OrderError:
                assert dumped(state) == before
                continue
        accepted.append(("order", side, {"text": text}))
        check_invariants(state)
    assert dumped(replay(variant, accepted)) == dumped(state)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_seeded_random_games_play_out_the_same_twice(variant) -> None:
    """Whole games of random legal turns: each one accepted; replaying the log rebuilds the game."""
    for seed in range(4):
        rng = random.Random(seed)
        state, log = arena(variant=variant), []
        for _ in range(120):
            if HEXARENA.result(state).finished:
                break
            log.append(("order", state.to_move, {"text": HEXARENA.format_order(random_turn(state, rng))}))
            state = HEXARENA.apply_input(state, *log[-1]).state
            check_invariants(state)
        assert dumped(replay(variant, log)) == dumped(state)
