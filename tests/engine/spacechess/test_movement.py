"""Movement: SC-3, SC-17 (cost, shortest path, no squeeze), SC-18 (jet pack), SC-19 (vehicle)."""

from __future__ import annotations

import pytest

from engine.spacechess import SPACECHESS
from engine.spacechess.movement import path_cost


@pytest.mark.parametrize(
    ("speed", "cells", "cost"),
    [
        (-1, 1, 2),
        (-1, 2, 3),
        (-1, 3, 4),
        (1, 2, 1),
        (1, 3, 2),
        (1, 4, 3),
        (1, 1, 1),
        (0, 5, 5),
        (-3, 1, 4),
        (2, 2, 1),
    ],
)
def test_sc17_cost_matches_the_source_examples(speed: int, cells: int, cost: int) -> None:
    """SC-17: 'reduces by -1: 2 AP for one cell, 3 for two... +1: two cells for 1 AP, three for 2'."""
    assert path_cost(cells, speed, vehicle=False) == cost


@pytest.mark.parametrize(
    ("speed", "cells", "cost"),
    [(0, 1, 1), (0, 2, 1), (0, 3, 2), (0, 4, 2), (-1, 4, 3), (1, 6, 2), (-3, 3, 5)],
)
def test_sc19_vehicle_halves_the_cells_rounding_up(speed: int, cells: int, cost: int) -> None:
    assert path_cost(cells, speed, vehicle=True) == cost


def test_sc17_cost_speed_minus_one_in_a_game(sc) -> None:
    state = sc.build(sc.soldier("m", 1, "A1", weapon="heavy_bolter", ap=9))
    outcome = sc.play(state, "m", "move A3")
    (moved,) = [e for e in outcome.events if e.kind == "moved"]
    assert moved.params["path"] == ["A2", "A3"]
    assert (moved.params["cost"], moved.params["ap"]) == (3, 6)


def test_sc17_not_enough_ap_names_the_price(sc) -> None:
    state = sc.build(sc.soldier("m", 1, "A1", weapon="heavy_bolter", ap=2))
    error = sc.refused(state, "order", "m", {"text": "move A3"})
    assert (error.code, error.params) == ("not_enough_ap", {"need": 3, "have": 2, "cells": 2})


def test_sc17_path_is_the_shortest_around_a_wall(sc) -> None:
    wall = sc.open_map(obstacles=("B1", "B2", "B3"))
    state = sc.build(sc.soldier("m", 1, "A1", ap=9), map_text=wall)
    (moved, *_) = sc.play(state, "m", "move C1").events
    assert moved.params["path"] == ["A2", "A3", "B4", "C3", "C2", "C1"]


def test_sc17_no_diagonal_squeeze_between_obstacles(sc) -> None:
    state = sc.build(sc.soldier("m", 1, "B3", ap=9), map_text=sc.open_map(obstacles=("B2", "C3")))
    (moved, *_) = sc.play(state, "m", "move C2").events
    assert moved.params["cells"] == 3


def test_sc17_sealed_cell_is_path_blocked(sc) -> None:
    state = sc.build(
        sc.soldier("m", 1, "A1", ap=9), map_text=sc.open_map(obstacles=("A3", "B3", "B4", "B5", "A5"))
    )
    error = sc.refused(state, "order", "m", {"text": "move A4"})
    assert (error.code, error.params["reason"]) == ("path_blocked", "no_path")


def test_sc3_destination_held_or_obstacle_or_same_cell(sc) -> None:
    state = sc.build(
        sc.soldier("m", 1, "A1", ap=9), sc.soldier("o", 2, "A2"), map_text=sc.open_map(obstacles=("C3",))
    )
    assert sc.refused(state, "order", "m", {"text": "move A2"}).params == {"cell": "A2", "by": "o"}
    assert sc.refused(state, "order", "m", {"text": "move C3"}).code == "path_blocked"
    assert sc.refused(state, "order", "m", {"text": "move A1"}).code == "same_cell"


def test_sc18_jetpack_flies_over_obstacles_not_characters(sc) -> None:
    wall = sc.open_map(obstacles=tuple(f"{c}3" for c in "ABCDEFGHIJ"))
    state = sc.build(
        sc.soldier("j", 1, "B2", items=["jetpack", "scope"], ap=9),
        sc.soldier("x", 2, "A1"),
        map_text=wall,
    )
    (moved, *_) = sc.play(state, "j", "move B4").events
    assert (moved.params["path"], moved.params["cost"]) == (["B3", "B4"], 1)
    assert sc.refused(state, "order", "j", {"text": "move B3"}).params["reason"] == "obstacle"


def test_sc18_jetpack_speed_needs_light_enough_gear(sc) -> None:
    """SC-18: with heavy armour the jet pack gives neither the crossing nor the +1."""
    state = sc.build(sc.soldier("h", 1, "A1", armour="heavy", items=["jetpack", "scope"], ap=9))
    (moved, *_) = sc.play(state, "h", "move A2").events
    assert moved.params["cost"] == 3


def test_sc19_vehicle_until_next_draw(sc) -> None:
    state = sc.build(sc.soldier("v", 1, "A1", ability="vehicle", ap=9))
    state = sc.play(state, "v", "vehicle").state
    (moved, *_) = sc.play(state, "v", "move A5").events
    assert moved.params["cost"] == 2
    state = SPACECHESS.apply_input(state, "draw", None, {"numbers": [1, 2, 3, 4, 5]}).state
    state = SPACECHESS.apply_input(state, "draw", None, {"numbers": [1, 2, 3, 4, 5]}).state
    (moved, *_) = sc.play(state, "v", "move A5").events
    assert moved.params["cost"] == 4
