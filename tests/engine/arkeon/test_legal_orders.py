"""legal_orders: every legal whole turn and nothing else, each accepted by `play` (python-chess's
``legal_moves`` for Arkeon), checked against the brute-force oracle (oracle.py); and the perft
counts from the standard opening that pin move generation."""

from __future__ import annotations

import os
import random

import pytest

from engine.arkeon import ARKEON
from engine.arkeon.state import ArkeonState
from tests.engine.arkeon.builders import after, lobby, opening, piece, position
from tests.engine.arkeon.oracle import oracle_perft, oracle_turns


def listed(state: ArkeonState, side: str) -> list[str]:
    return [ARKEON.format_order(o) for o in ARKEON.legal_orders(state, side)]


def perft(state: ArkeonState, depth: int) -> int:
    """Leaf count `depth` turns deep; the last level is counted, not played (as perft does)."""
    if state.to_move is None:
        return 1
    orders = list(ARKEON.legal_orders(state, state.to_move))
    if depth == 1:
        return len(orders)
    return sum(perft(ARKEON.play(state, state.to_move, [o]).state, depth - 1) for o in orders)


# -- perft -------------------------------------------------------------------------------------------
#: From the standard opening (either side to move: the position is symmetric).
#:
#: Depth 1 was counted by hand from AK-10..AK-12, blue to move. The empty cells next to a blue
#: piece are A1 A2 B1 B3 C1 C4 D1 D3 E1 E2; B1, C1 and D1 touch blue's base.
#:   basics: 10 cells x 6 directions = 60, minus C4 facing anything but E: red's C5 points W at
#:           it, and only a status quo (pointing back) saves it from being destroyed at once = 55;
#:   triples: not next to a base, 7 cells x 6 = 42, minus C4 facing NW, W or SW (none of its three
#:           cells is C5) = 39;
#:   pacifier, cw, ccw, repulsor: 7 cells x 4 = 28 (a piece that does not attack is never
#:           "destroyed at once");
#:   swaps: 3 basics x (triple x 6 + 4) = 30.
#:   55 + 39 + 28 + 30 = 152.
#: Depth 2 (23,024) is checked by `oracle.oracle_perft(opening(), 2)` (about 30 s: each of the 928
#: order texts tried through `play` at every node), which agrees: run it with ARKEON_PERFT=1; by
#: default a test re-checks the oracle on a sample of the depth-1 positions so that it stays fast.
PERFT = {1: 152, 2: 23024}


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_standard_opening(depth: int) -> None:
    assert perft(opening("blue"), depth) == PERFT[depth]
    if depth == 1:
        assert perft(opening("red"), depth) == PERFT[depth]


@pytest.mark.skipif(os.environ.get("ARKEON_PERFT") != "1", reason="ARKEON_PERFT=1 runs the oracle's perft(2) (30 s)")
def test_perft_2_by_the_oracle() -> None:
    assert oracle_perft(opening(), 2) == PERFT[2]


def test_the_listing_is_the_oracle_on_the_opening_and_a_sample_of_its_children() -> None:
    start = opening()
    assert set(listed(start, "blue")) == oracle_turns(start, "blue")
    children = list(ARKEON.legal_orders(start, "blue"))
    for order in children[::12]:
        child = ARKEON.play(start, "blue", [order]).state
        assert set(listed(child, "red")) == oracle_turns(child, "red"), ARKEON.format_order(order)


def test_the_listing_has_no_duplicates_and_a_fixed_order() -> None:
    start = opening()
    first = listed(start, "blue")
    assert len(first) == len(set(first)) == 152
    assert listed(start, "blue") == first
    assert first[0] == "place basic A1 E" and first[-1] == "swap D2 repulsor"


# -- positions holding every kind of turn ----------------------------------------------------------
BUSY = [
    piece("blue", "basic", "C3", "E"),
    piece("blue", "triple", "B3", "SE"),
    piece("blue", "pacifier", "D3"),
    piece("blue", "basic", "D4", "NE"),
    piece("red", "basic", "C5", "W"),
    piece("red", "cw", "B5"),
    piece("red", "basic", "B4", "SW"),
    piece("red", "basic", "D5", "SW"),
    piece("red", "basic", "E5", "W"),
]


@pytest.mark.parametrize("side", ["blue", "red"])
def test_the_listing_is_the_oracle_on_a_busy_position(side: str) -> None:
    state = position(*BUSY, to_move=side, reserve={"blue": {"basic": 2}, "red": {"advanced": ["triple"]}})
    assert set(listed(state, side)) == oracle_turns(state, side)


def test_the_listing_is_the_oracle_next_to_the_enemy_base() -> None:
    state = position(
        piece("blue", "basic", "C3", "E"),
        piece("blue", "basic", "C4", "E"),
        piece("red", "basic", "D5", "NW"),
        piece("red", "basic", "B5", "SW"),
    )
    turns = oracle_turns(state, "blue")
    assert set(listed(state, "blue")) == turns
    # C5 touches red's base: only a basic pointing at it, and D5 destroys that one at once
    assert not any(" C5" in text for text in turns)


def test_nothing_for_the_side_not_to_move_the_lobby_or_a_finished_game() -> None:
    start = opening()
    assert listed(start, "red") == []
    assert listed(start, "nobody") == []
    assert listed(lobby(), "blue") == [] and listed(lobby(), "red") == []
    finished = ARKEON.apply_input(start, "resign", "red", {}).state
    assert listed(finished, "blue") == []


def test_the_setup_placements_list_every_free_neighbour_of_the_own_base() -> None:
    state = lobby(seed=1)
    for name in ("Ann", "Ben"):
        state = ARKEON.apply_input(state, "join", None, {"id": name}).state
    state = ARKEON.apply_input(state, "start", None, {}).state
    assert state.to_move == "blue"
    assert len(listed(state, "blue")) == 6 * 6
    state = after(state, "Ann", "place basic B2 NE")
    assert len(listed(state, "blue")) == 5 * 6 and {t.split()[2] for t in listed(state, "blue")} == {
        "B1", "C1", "C3", "D1", "D2"
    }
    for text in listed(state, "blue"):
        ARKEON.play(state, "blue", ARKEON.parse_orders(text))


def test_a_seeded_walk_agrees_with_the_oracle_at_every_step() -> None:
    rng = random.Random(7)
    state = opening()
    for _ in range(24):
        if state.to_move is None:
            break
        side = state.to_move
        turns = listed(state, side)
        assert set(turns) == oracle_turns(state, side)
        state = after(state, side, rng.choice(turns))
