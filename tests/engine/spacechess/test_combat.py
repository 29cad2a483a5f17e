"""Shots, grenades and damage: SC-20..SC-24, SC-28."""

from __future__ import annotations

import pytest


def test_sc20_worked_example_heavy_bolter_against_medium_armour(sc) -> None:
    state = sc.build(
        sc.soldier("hb", 1, "A1", weapon="heavy_bolter", ap=9), sc.soldier("m", 2, "A5", armour="medium")
    )
    outcome = sc.play(state, "hb", "shoot m")
    assert sc.kinds(outcome) == ["shot", "damaged"]
    assert outcome.events[1].params == {"id": "m", "amount": 3, "hp": 17, "cause": "shot", "by": "hb"}
    assert sc.view_of(outcome.state, "hb")["shots_this_turn"] == 1


def test_sc20_damage_never_negative(sc) -> None:
    state = sc.build(sc.soldier("b", 1, "A1", ap=9), sc.soldier("h", 2, "A3", armour="heavy"))
    outcome = sc.play(state, "b", "shoot h")
    assert outcome.events[1].params["amount"] == 0
    assert sc.view_of(outcome.state, "h")["hp"] == 20


@pytest.mark.parametrize(
    ("items", "ability", "rage", "limit"),
    [
        (["grenades", "scope"], "rage", False, 3),
        (["reserve_magazines", "scope"], "rage", False, 4),
        (["grenades", "scope"], "rage", True, 6),
        (["reserve_magazines", "scope"], "rage", True, 6),
    ],
)
def test_sc20_shot_limit_with_magazines_and_rage(sc, items, ability, rage, limit) -> None:
    state = sc.build(
        sc.soldier("s", 1, "A1", items=items, ability=ability, ap=9),
        sc.soldier("t", 2, "A3", armour="heavy"),
        rules={"loadout_pickups": True},
    )
    if rage:
        state = sc.play(state, "s", "rage").state
    state = sc.play(state, "s", "; ".join(["shoot t"] * limit)).state
    error = sc.refused(state, "order", "s", {"text": "shoot t"})
    assert (error.code, error.params) == ("shot_limit", {"limit": limit})


def test_sc20_scope_adds_six_to_the_range(sc) -> None:
    far = sc.build(sc.soldier("s", 1, "A1", items=["grenades", "vigour"], ap=9), sc.soldier("t", 2, "A9"))
    error = sc.refused(far, "order", "s", {"text": "shoot t"})
    assert error.params == {"target": "t", "distance": 8, "range": 7}
    scoped = sc.build(sc.soldier("s", 1, "A1", ap=9), sc.soldier("t", 2, "A9"))
    assert sc.view_of(sc.play(scoped, "s", "shoot t").state, "t")["hp"] == 18


def test_sc20_not_oneself_allies_allowed(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "A1", ap=9), sc.soldier("a", 1, "A3"))
    assert sc.refused(state, "order", "s", {"text": "shoot s"}).params == {"reason": "self"}
    assert sc.view_of(sc.play(state, "s", "shoot a").state, "a")["hp"] == 18


def test_sc21_corner_touch_does_not_block_but_crossing_does(sc) -> None:
    corners = sc.open_map(obstacles=("A2", "B1"))
    state = sc.build(sc.soldier("s", 1, "A1", ap=9), sc.soldier("t", 2, "C3"), map_text=corners)
    assert sc.play(state, "s", "shoot t").events[0].params["line"] == ["B2"]
    blocked = sc.build(
        sc.soldier("s", 1, "A1", ap=9), sc.soldier("t", 2, "C3"), map_text=sc.open_map(obstacles=("B2",))
    )
    error = sc.refused(blocked, "order", "s", {"text": "shoot t"})
    assert (error.code, error.params["blocked_at"]) == ("no_line_of_fire", "B2")


def test_sc21_line_through_a_four_cell_corner(sc) -> None:
    """A1 -> D2 passes through the corner of B1, C1, B2, C2 and crosses B1 and C2 only."""
    state = sc.build(
        sc.soldier("s", 1, "A1", ap=9), sc.soldier("t", 2, "D2"), map_text=sc.open_map(obstacles=("B2", "C1"))
    )
    assert sc.play(state, "s", "shoot t").events[0].params["line"] == ["B1", "C2"]


def test_sc22_perforating_hits_everyone_in_order(sc) -> None:
    state = sc.build(
        sc.soldier("p", 1, "A1", weapon="heavy_bolter", items=["perforating", "scope"], ap=9),
        sc.soldier("a", 1, "C1"),
        sc.soldier("b", 2, "E1", armour="medium", hp=3),
        sc.soldier("t", 2, "G1", armour="heavy"),
    )
    outcome = sc.play(state, "p", "shoot t")
    assert outcome.events[0].params["hits"] == ["a", "b", "t"]
    assert sc.kinds(outcome) == ["shot", "damaged", "damaged", "died", "damaged"]
    assert [sc.view_of(outcome.state, i)["hp"] for i in "abt"] == [16, 0, 18]


def test_sc22_perforating_stopped_by_obstacles(sc) -> None:
    state = sc.build(
        sc.soldier("p", 1, "A1", items=["perforating", "scope"], ap=9),
        sc.soldier("t", 2, "E1"),
        map_text=sc.open_map(obstacles=("C1",)),
    )
    assert sc.refused(state, "order", "p", {"text": "shoot t"}).code == "no_line_of_fire"


def test_sc23_grenade_square_and_victims(sc) -> None:
    state = sc.build(
        sc.soldier("g", 1, "D4", ap=9),
        sc.soldier("a", 1, "C5", armour="medium"),
        sc.soldier("e", 2, "D5", armour="heavy"),
    )
    outcome = sc.play(state, "g", "grenade C5")
    assert outcome.events[0].params["area"] == ["C5", "D5", "C4", "D4"]
    assert outcome.events[0].params["hits"] == ["a", "e", "g"]
    assert [sc.view_of(outcome.state, i)["hp"] for i in "aeg"] == [15, 16, 14]


@pytest.mark.parametrize(("cell", "code"), [("H4", "out_of_range"), ("J1", "off_board"), ("A1", "off_board")])
def test_sc23_grenade_area_on_board_and_within_three(sc, cell: str, code: str) -> None:
    state = sc.build(sc.soldier("g", 1, "D4", ap=9))
    assert sc.refused(state, "order", "g", {"text": f"grenade {cell}"}).code == code


def test_sc23_sc24_one_grenade_per_turn_one_ap(sc) -> None:
    state = sc.build(
        sc.soldier("g", 1, "D4", ap=1), sc.soldier("n", 1, "A1", items=["jetpack", "scope"], ap=9)
    )
    after = sc.play(state, "g", "grenade F7").state
    assert sc.view_of(after, "g")["ap"] == 0
    assert sc.refused(after, "order", "g", {"text": "grenade F7"}).code == "not_enough_ap"
    rich = sc.build(sc.soldier("g", 1, "D4", ap=9))
    assert (
        sc.refused(sc.play(rich, "g", "grenade F7").state, "order", "g", {"text": "grenade F7"}).code
        == "shot_limit"
    )
    assert sc.refused(state, "order", "n", {"text": "grenade B2"}).code == "missing_item"


def test_sc23_a_second_grenade_is_checked_like_a_shot_range_before_the_limit(sc) -> None:
    """As SC-20 checks a shot (AP, range, then the limit), a grenade out of reach is refused as such
    even when the turn's grenade is spent; within reach, the limit says it is the grenade's."""
    thrown = sc.play(sc.build(sc.soldier("g", 1, "D4", ap=9)), "g", "grenade F7")
    assert thrown.events[0].params["cost"] == 1 and thrown.events[0].params["ap"] == 8
    assert sc.refused(thrown.state, "order", "g", {"text": "grenade H8"}).code == "out_of_range"
    assert sc.refused(thrown.state, "order", "g", {"text": "grenade X1"}).code == "off_board"
    limit = sc.refused(thrown.state, "order", "g", {"text": "grenade F7"})
    assert (limit.code, limit.params) == ("shot_limit", {"reason": "grenade", "item": "grenades", "limit": 1})


def test_sc28_death_frees_the_cell_and_silences_the_dead(sc) -> None:
    state = sc.build(
        sc.soldier("k", 1, "A1", weapon="heavy_bolter", ap=9),
        sc.soldier("v", 2, "A3", hp=4),
        sc.soldier("w", 2, "H8"),
    )
    outcome = sc.play(state, "k", "shoot v")
    assert outcome.events[-1].params == {"id": "v", "at": "A3", "cause": "shot", "by": "k"}
    view = sc.view_of(outcome.state, "v")
    assert (view["alive"], view["at"], view["hp"]) == (False, None, 0)
    assert sc.refused(outcome.state, "order", "v", {"text": "move A4"}).code == "dead"
    assert sc.refused(outcome.state, "order", "k", {"text": "shoot v"}).code == "dead"
    assert sc.view_of(sc.play(outcome.state, "k", "move A3").state, "k")["at"] == "A3"


def test_sc4_diagonals_count_one_for_ranges_and_adjacency(sc) -> None:
    state = sc.build(sc.general("g", 1, "C3", ap=9), sc.soldier("d", 2, "D4"), sc.soldier("far", 2, "H8"))
    assert sc.play(state, "g", "shoot d").events[1].params["amount"] == 6
    sniper = sc.build(
        sc.soldier("s", 1, "A1", weapon="sniper", items=["grenades", "vigour"], ap=9),
        sc.soldier("t", 2, "H8"),
    )
    assert sc.play(sniper, "s", "shoot t").events[0].params["line"] == ["B2", "C3", "D4", "E5", "F6", "G7"]
