"""The bot's hints (legal.reach, legal.shot_targets) and the line report agree with the orders (SC-17..SC-26)."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderError
from engine.core.squaregrid import parse_cell
from engine.spacechess import legal, previews
from engine.spacechess.orders import Order


def board(sc):
    return sc.build(
        sc.soldier("s", 1, "B2", weapon="heavy_bolter", ap=5),
        sc.soldier("near", 2, "B6"),
        sc.soldier("hidden", 2, "E2"),
        sc.soldier("ally", 1, "B4"),
        map_text=sc.open_map(obstacles=("D2", "C6")),
    )


def test_reach_costs_within_the_ap_as_the_move_charges(sc) -> None:
    state = board(sc)
    cells = legal.reach(state, "s")
    assert cells["B3"] == 2 and cells["C3"] == 2 and cells["A5"] == 4
    assert "B4" not in cells and "D2" not in cells and "B2" not in cells and "J8" not in cells
    assert max(cells.values()) <= 5
    for name, cost in cells.items():
        (moved, *_) = sc.play(state, "s", f"move {name}").events
        assert moved.params["cost"] == cost


def test_reach_is_empty_for_who_cannot_move(sc) -> None:
    state = board(sc)
    assert legal.reach(state, "nobody") == {} and legal.reach(state, "near") == {}  # unknown; 0 AP


def test_shot_targets_lists_only_accepted_targets(sc) -> None:
    state = board(sc)
    assert legal.shot_targets(state, "s") == ["ally", "G2"]
    for target in ("near", "hidden", "s", "G1"):  # blocked, blocked, oneself, out of range
        sc.refused(state, "order", "s", {"text": f"shoot {target}"})
    assert previews.line_of_fire_between(state, "s", "near")["blocked_at"] == "B4"


def test_line_of_fire_between_ignores_range_and_ap(sc) -> None:
    state = board(sc)
    line = previews.line_of_fire_between(state, "near", "hidden")  # near has 0 AP
    assert line == {"line": ["B5", "C5", "C4", "D4", "D3", "E3"], "passed": [], "blocked_at": None}
    with pytest.raises(OrderError):
        previews.line_of_fire_between(state, "s", "nobody")


def test_area_orders_are_listed_with_their_cells(sc) -> None:
    state = board(sc)
    grenades = {o.cell for o in legal.legal_orders(state, "s", ("grenade",))}
    assert parse_cell("A3") in grenades and parse_cell("J10") not in grenades
    hit = sc.play(state, "s", "grenade A3").events[0]
    assert hit.params["hits"] == ["s"]
    general = sc.build(sc.general("g", 1, "E5", ap=9))
    strikes = set(legal.legal_orders(general, "g", ("airstrike",)))
    assert Order("airstrike", cell=parse_cell("B3"), direction="N") in strikes
    assert Order("airstrike", cell=parse_cell("J10"), direction="NE") not in strikes
