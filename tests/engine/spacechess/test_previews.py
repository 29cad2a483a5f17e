"""Previews agree with the orders they announce (SC-17..SC-26)."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderError
from engine.core.squaregrid import parse_cell
from engine.spacechess import previews


def board(sc):
    return sc.build(
        sc.soldier("s", 1, "B2", weapon="heavy_bolter", ap=5),
        sc.soldier("near", 2, "B6"),
        sc.soldier("hidden", 2, "E2"),
        sc.soldier("ally", 1, "B4"),
        map_text=sc.open_map(obstacles=("D2", "C6")),
    )


def test_preview_move_matches_the_move(sc) -> None:
    state = board(sc)
    preview = previews.preview_move(state, "s", parse_cell("E3"))
    (moved, *_) = sc.play(state, "s", "move E3").events
    assert (preview["path"], preview["cost"], preview["affordable"]) == (
        moved.params["path"],
        moved.params["cost"],
        True,
    )
    too_far = previews.preview_move(state, "s", parse_cell("J8"))
    assert too_far["affordable"] is False
    with pytest.raises(OrderError):
        previews.preview_move(state, "s", parse_cell("D2"))


def test_reachable_costs_within_the_ap(sc) -> None:
    state = board(sc)
    cells = previews.reachable(state, "s")
    assert cells["B3"] == 2 and cells["C3"] == 2 and cells["A5"] == 4
    assert "B4" not in cells and "D2" not in cells and "B2" not in cells
    assert max(cells.values()) <= 5
    for name, cost in list(cells.items())[:10]:
        assert previews.preview_move(state, "s", parse_cell(name))["cost"] == cost


def test_shootable_lists_only_accepted_targets(sc) -> None:
    state = board(sc)
    found = previews.shootable(state, "s")
    assert [entry["id"] for entry in found] == ["ally", "G2"]
    assert previews.line_of_fire_between(state, "s", "near")["blocked_at"] == "B4"
    assert previews.shot_reach(state, "s") == 16


def test_area_previews(sc) -> None:
    state = board(sc)
    assert previews.preview_grenade(state, "s", parse_cell("A3"))["hits"] == ["s"]
    strike = previews.preview_airstrike(state, parse_cell("B3"), "N")
    assert (strike["area"], strike["hits"]) == (["B3", "B4", "B5", "B6"], ["ally", "near"])
    with pytest.raises(OrderError):
        previews.preview_airstrike(state, parse_cell("J10"), "NE")
