"""legal_orders: every legal whole turn and nothing else, each accepted by `play` (python-chess's
``legal_moves`` for HexArena). Checked against a brute-force oracle (oracle.py) on positions that
hold every kind of action: teleports, rams, boarding and leaving, both recyclings, fire."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.hexarena import HEXARENA
from engine.hexarena.legal import count_turns
from engine.hexarena.rules import variant_of
from tests.engine.hexarena.builders import arena, dumped, play, ship
from tests.engine.hexarena.oracle import oracle_turns

#: one of each action nearby: a patrol on the edge next to cargos, a fighter that can wrap, another
#: with a patrol to shoot, an admiral beside a cargo and debris, a carried admiral
BUSY = [
    ship("ra", "red", "admiral", "E5", "SE"),
    ship("rc", "red", "cargo", "E6", "E"),
    ship("rc2", "red", "cargo", "B2", "SW"),
    ship("rp", "red", "patrol", "A1"),
    ship("rf", "red", "fighter", "G11", "E"),
    ship("rf2", "red", "fighter", "H2", "NE"),
    ship("bp", "blue", "patrol", "G4"),
    ship("bp2", "blue", "patrol", "E3"),
    ship("ba", "blue", "admiral", None, carried_by="bc"),
    ship("bc", "blue", "cargo", "A2", "SW"),
    ship("bf", "blue", "fighter", "K5", "NE"),
]
BUSY_DEBRIS = ["D5", "F4", "G6", "C3"]  # D5 adjacent to the admiral, C3 beyond the empty D4
#: smaller ones for the turns of several actions (the oracle tries everything at every step)
SMALL = [
    ship("ra", "red", "admiral", "G7", "E"),
    ship("rc", "red", "cargo", "G8", "E"),
    ship("rp", "red", "patrol", "A4"),
    ship("ba", "blue", "admiral", "M7"),
    ship("bc", "blue", "cargo", "B4", "SE"),
]
ADMIRAL_AND_CARGO = [ship("ra", "red", "admiral", "G7", "E"), ship("rc", "red", "cargo", "G8", "E"), *SMALL[3:]]
FIGHTER_AND_PATROL = [ship("rf", "red", "fighter", "G11", "E"), ship("rp", "red", "patrol", "A4"), *SMALL[3:]]


def turns_of(state, side: str) -> list[tuple]:
    return [turn.actions for turn in HEXARENA.legal_orders(state, side)]


def test_the_busy_position_holds_every_kind_of_action() -> None:
    state = arena(BUSY, debris=BUSY_DEBRIS)
    verbs = {action.verb for turn in turns_of(state, "red") for action in turn}
    assert verbs == {"move", "rotate", "fire", "ram", "board", "recycle"}
    recycled = {HEXARENA.format_order(t) for t in HEXARENA.legal_orders(state, "red") if t.actions[0].verb == "recycle"}
    assert recycled == {"recycle E5 D5", "recycle E5 C3"}
    assert "leave" in {action.verb for turn in turns_of(arena(BUSY, debris=BUSY_DEBRIS, to_move="blue"), "blue")
                       for action in turn}


@pytest.mark.parametrize(
    ("variant", "ships", "debris"),
    [
        ("base", BUSY, BUSY_DEBRIS),
        ("alpha", SMALL, ["G5", "C4"]),
        ("omega", ADMIRAL_AND_CARGO, ["G5", "C4"]),
        ("omega", FIGHTER_AND_PATROL, ["G5", "C4"]),
    ],
)
@pytest.mark.parametrize("side", ["red", "blue"])
def test_legal_turns_are_exactly_the_oracles(variant: str, ships, debris, side: str) -> None:
    state = arena(ships, debris=debris, variant=variant, to_move=side)
    assert not HEXARENA.result(state).finished
    listed = turns_of(state, side)
    assert len(listed) == len(set(listed))  # each turn once
    assert set(listed) == oracle_turns(state, side)


def test_legal_turns_of_the_opening_are_the_oracles() -> None:
    state = arena()
    assert set(turns_of(state, "red")) == oracle_turns(state, "red")


@pytest.mark.parametrize("variant", ["base", "alpha", "omega"])
def test_every_listed_turn_is_accepted_by_play(variant: str) -> None:
    state = arena(BUSY if variant != "omega" else SMALL, debris=BUSY_DEBRIS, variant=variant)
    before = dumped(state)
    for turn in HEXARENA.legal_orders(state, "red"):
        outcome = HEXARENA.play(state, "red", [turn])
        assert outcome.state.turn == 1
    assert dumped(state) == before


@pytest.mark.parametrize("variant", ["base", "alpha", "omega"])
def test_count_turns_counts_what_legal_turns_lists(variant: str) -> None:
    state = arena(variant=variant)
    assert count_turns(state, "red", variant_of(state)) == len(turns_of(state, "red"))


def test_a_side_that_loses_as_its_turn_comes_has_nothing_listed() -> None:
    """Blitz: the blue admiral's cargo, outside the blue base, faces a red cargo and has no free
    cell around it to leave to (HA-15)."""
    state = arena(BUSY, debris=[*BUSY_DEBRIS, "A3", "B3"], variant="blitz", to_move="blue")
    assert HEXARENA.result(state).reason == "admiral_stuck"
    assert list(HEXARENA.legal_orders(state, "blue")) == []


def test_nothing_for_the_side_not_to_move_nor_in_a_finished_or_unstarted_game() -> None:
    state = arena()
    assert list(HEXARENA.legal_orders(state, "blue")) == []
    assert list(HEXARENA.legal_orders(state, "green")) == []
    assert list(HEXARENA.legal_orders(arena(phase="setup"), "red")) == []
    resigned = HEXARENA.apply_input(state, "resign", "red", {}).state
    assert list(HEXARENA.legal_orders(resigned, "blue")) == []


def test_alpha_turns_are_single_actions_and_pairs_of_different_ships() -> None:
    state = arena(variant="alpha")
    sizes = Counter(len(turn) for turn in turns_of(state, "red"))
    assert sizes[1] == 57 and set(sizes) == {1, 2}
    for turn in turns_of(state, "red"):
        if len(turn) == 2:
            assert turn[0].at != turn[1].at or turn[0].verb == "board"


def test_omega_turns_never_spend_more_than_five_points() -> None:
    state = arena(variant="omega")
    for turn in random.Random(5).sample(list(HEXARENA.legal_orders(state, "red")), 300):
        HEXARENA.play(state, "red", [turn])  # would raise not_enough_ap
    # the longest: fighter G3-G4, fighter G2-G3, admiral G1-G2 (1 point each), then a 2-point action
    assert max(len(turn) for turn in turns_of(state, "red")) == 4


def test_the_search_plays_legal_turns() -> None:
    """engine/core/search.py reads legal_orders only: a random game by it never meets a refusal."""
    from engine.core.search import random_order

    rng = random.Random(11)
    state = arena(variant="alpha")
    for _ in range(20):
        if HEXARENA.result(state).finished:
            break
        side = HEXARENA.waiting_on(state)[0]
        state = play(state, side, HEXARENA.format_order(random_order(HEXARENA, state, side, rng)))
