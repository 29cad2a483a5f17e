"""The computer players' search (engine/core/search.py) on the duel test game: two sides alternate
`add N` (1..5), first to the goal wins — so adding 5 every turn is the only winning line."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import OrderError
from engine.core.search import WIN, best_order, random_order
from tests.support.variants import DUEL, DuelState


def duel(goal: int = 10, ann: int = 0, bob: int = 0, to_move: int = 0) -> DuelState:
    return DuelState(tallies={"Ann": ann, "Bob": bob}, goal=goal, to_move=to_move)


def lead(state: DuelState, side: str) -> float:
    other = next(a for a in state.tallies if a != side)
    return state.tallies[side] - state.tallies[other]


def other(state: DuelState, mover: str = "") -> str:
    """The side to move after an order (also after the last one: the loser is "to move")."""
    return list(state.tallies)[state.to_move]


def test_the_search_finds_the_forced_win() -> None:
    order, stats = best_order(DUEL, duel(), "Ann", lead, opponent=other, max_depth=4)
    assert order == 5 and stats.depth >= 3
    assert stats.scores["add 5"] >= WIN - 4  # a forced win, found as such


def test_a_win_in_one_is_taken_whatever_the_evaluation_says() -> None:
    order, _ = best_order(DUEL, duel(ann=7, bob=9), "Ann", lambda s, side: 0.0, opponent=other, max_depth=2)
    assert order >= 3  # 7 + 3 reaches the goal; anything less lets Bob win next


def test_the_budget_stops_the_search_with_the_last_finished_depth() -> None:
    _, deep = best_order(DUEL, duel(goal=40), "Ann", lead, opponent=other, max_depth=6, max_nodes=10**6)
    _, cut = best_order(DUEL, duel(goal=40), "Ann", lead, opponent=other, max_depth=6, max_nodes=200)
    assert 1 <= cut.depth < deep.depth
    _, stopped = best_order(DUEL, duel(goal=40), "Ann", lead, opponent=other, max_depth=6, stop=lambda: True)
    assert stopped.depth == 1  # the first depth always completes


def test_the_same_seed_plays_the_same_and_every_order_is_legal() -> None:
    rng = random.Random(3)
    for _ in range(50):
        state = duel(goal=12)
        while not DUEL.result(state).finished:
            side = DUEL.waiting_on(state)[0]
            if side == "Ann":
                order, _ = best_order(DUEL, state, side, lead, opponent=other, max_depth=2, seed=7)
                again, _ = best_order(DUEL, state, side, lead, opponent=other, max_depth=2, seed=7)
                assert order == again
            else:
                order = random_order(DUEL, state, side, rng)
            assert order in tuple(DUEL.legal_orders(state, side))
            state = DUEL.play(state, side, [order]).state
        assert DUEL.result(state).winner == "Ann"  # the searcher moves first and never loses the race


def test_no_legal_move_is_said() -> None:
    finished = DUEL.play(duel(ann=9), "Ann", [1]).state
    with pytest.raises(OrderError, match="no_legal_move"):
        best_order(DUEL, finished, "Ann", lead, opponent=other)


def key(state: DuelState) -> tuple:
    return tuple(state.tallies.items()), state.to_move


def test_candidates_the_rules_refuse_are_skipped_and_never_played() -> None:
    """Lazy legality: the search may be handed a superset of the legal orders; `play` refuses the
    rest when the search reaches them."""
    superset = lambda state, side: range(-3, 12)  # noqa: E731 - 1..5 are the legal ones
    order, stats = best_order(DUEL, duel(), "Ann", lead, opponent=other, max_depth=4, candidates=superset)
    assert order == 5 and set(stats.scores) == {f"add {n}" for n in range(1, 6)}
    with pytest.raises(OrderError, match="no_legal_move"):
        best_order(DUEL, duel(), "Ann", lead, opponent=other, candidates=lambda state, side: (0, 6, 99))


def test_the_transposition_table_changes_the_work_not_the_answer() -> None:
    for goal, ann, bob in ((12, 0, 0), (20, 3, 6), (25, 9, 2)):
        for depth in (2, 3, 4, 5):
            state = duel(goal=goal, ann=ann, bob=bob)
            plain, plain_stats = best_order(DUEL, state, "Ann", lead, opponent=other, max_depth=depth,
                                            max_nodes=10**6)
            tabled, table_stats = best_order(DUEL, state, "Ann", lead, opponent=other, max_depth=depth,
                                             max_nodes=10**6, key=key)
            assert max(table_stats.scores.values()) == max(plain_stats.scores.values())
            assert tabled == plain
    _, plain_stats = best_order(DUEL, duel(goal=60), "Ann", lead, opponent=other, max_depth=6, max_nodes=10**6)
    _, table_stats = best_order(DUEL, duel(goal=60), "Ann", lead, opponent=other, max_depth=6, max_nodes=10**6,
                                key=key)
    assert table_stats.nodes < plain_stats.nodes / 2  # the sums met again by another order of adds


def test_a_node_budget_gives_the_same_move_whatever_the_time() -> None:
    """The levels' budgets are counted in nodes, so a slow machine plays the same moves."""
    slow = iter(range(10**9))
    first = best_order(DUEL, duel(goal=40), "Ann", lead, opponent=other, max_depth=8, max_nodes=700, key=key)
    again = best_order(DUEL, duel(goal=40), "Ann", lead, opponent=other, max_depth=8, max_nodes=700, key=key,
                       stop=lambda: next(slow) < 0)
    assert first[0] == again[0] and first[1].nodes == again[1].nodes and first[1].depth == again[1].depth
