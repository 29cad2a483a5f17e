"""Soldier abilities (SC-25) and general powers (SC-26)."""

from __future__ import annotations

import pytest


def test_sc25_friendship_overflow_is_reported(sc) -> None:
    state = sc.build(sc.soldier("f", 1, "B2", ability="friendship", ap=7), sc.soldier("r", 1, "C2", ap=5))
    outcome = sc.play(state, "f", "friendship r")
    assert sc.kinds(outcome) == ["friendship", "ap_overflow"]
    assert outcome.events[0].params == {"id": "f", "target": "r", "given": 7, "received": 4, "lost": 3}
    assert outcome.events[1].params == {"id": "r", "lost": 3, "source": "friendship"}
    assert (sc.view_of(outcome.state, "f")["ap"], sc.view_of(outcome.state, "r")["ap"]) == (0, 9)


@pytest.mark.parametrize(
    ("target", "code"),
    [
        ("G1", "not_allowed"),
        ("e", "not_allowed"),
        ("far", "not_adjacent"),
        ("f", "not_allowed"),
        ("zed", "unknown_character"),
    ],
)
def test_sc25_friendship_only_to_an_adjacent_soldier_ally(sc, target: str, code: str) -> None:
    state = sc.build(
        sc.soldier("f", 1, "B2", ability="friendship", ap=7),
        sc.general("G1", 1, "B3"),
        sc.soldier("e", 2, "A2"),
        sc.soldier("far", 1, "H8"),
    )
    assert sc.refused(state, "order", "f", {"text": f"friendship {target}"}).code == code


def test_sc25_friendship_with_nothing_to_give(sc) -> None:
    state = sc.build(sc.soldier("f", 1, "B2", ability="friendship"), sc.soldier("r", 1, "C2"))
    assert sc.refused(state, "order", "f", {"text": "friendship r"}).code == "not_enough_ap"


def test_sc25_ability_once_per_turn_and_only_ones_own(sc) -> None:
    state = sc.build(sc.soldier("r", 1, "A1"))
    used = sc.play(state, "r", "rage").state
    assert sc.view_of(used, "r")["skip_next_draw"] is True
    assert sc.refused(used, "order", "r", {"text": "rage"}).code == "already_used"
    assert sc.refused(state, "order", "r", {"text": "vehicle"}).params == {
        "reason": "no_ability",
        "ability": "vehicle",
    }


def test_sc26_powers_are_for_generals(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "A1", ap=9))
    for order in ("encourage", "hack", "airstrike A5 N", "heal s", "teleport s B5", "intimidate s B5"):
        assert sc.refused(state, "order", "s", {"text": order}).params["reason"] == "general_only"


def test_sc26_airstrike_hits_four_cells_and_costs_seven(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "A2", ap=9), sc.soldier("e", 2, "G10", armour="medium"), sc.soldier("a", 1, "J10")
    )
    outcome = sc.play(state, "g", "airstrike G10 E")
    assert outcome.events[0].params["area"] == ["G10", "H10", "I10", "J10"]
    assert outcome.events[0].params["cost"] == 7
    assert [sc.view_of(outcome.state, i)["hp"] for i in "ea"] == [16, 15]
    assert sc.refused(state, "order", "g", {"text": "airstrike H10 E"}).code == "off_board"


def test_sc26_airstrike_may_hit_its_general(sc) -> None:
    state = sc.build(sc.general("g", 1, "B2", ap=9, hp=3))
    outcome = sc.play(state, "g", "airstrike A1 NE")
    assert outcome.state.winner == 2
    assert sc.kinds(outcome)[-1] == "game_over"


def test_sc26_logistics_discount_not_cumulative(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "D4", ap=9),
        sc.soldier("l1", 1, "D5", items=["logistics", "scope"]),
        sc.soldier("l2", 1, "E4", items=["logistics", "scope"]),
        sc.soldier("l3", 2, "C4", items=["logistics", "scope"]),
    )
    outcome = sc.play(state, "g", "hack")
    assert outcome.events[0].params == {"id": "g", "power": "hack", "cost": 5, "ap": 4, "team": 1, "full_cost": 6,
                                        "helper": "l1"}  # told, so the reply can explain the price
    far = sc.build(sc.general("g", 1, "D4", ap=9), sc.soldier("l1", 1, "D6", items=["logistics", "scope"]))
    assert sc.play(far, "g", "hack").events[0].params["cost"] == 6


def test_sc26_intimidation_radius_five_not_six(sc) -> None:
    state = sc.build(sc.general("g", 2, "E8", ap=9), sc.soldier("a", 1, "E3"), sc.soldier("b", 1, "E2"))
    assert sc.refused(state, "order", "g", {"text": "intimidate b E1"}).params == {
        "target": "b",
        "distance": 6,
        "range": 5,
    }
    outcome = sc.play(state, "g", "intimidate a B3")
    assert outcome.events[0].params == {
        "id": "g",
        "power": "intimidate",
        "cost": 2,
        "ap": 7,
        "target": "a",
        "from": "E3",
        "to": "B3",
    }


def test_sc26_intimidation_does_not_reach_psycho_brain(sc) -> None:
    state = sc.build(
        sc.general("g", 2, "E8", ap=9),
        sc.soldier("c", 1, "E4", items=["psycho_brain", "scope"]),
        rules={"loadout_pickups": True},
    )
    assert sc.refused(state, "order", "g", {"text": "intimidate c E5"}).code == "immune"


def test_sc26_heal_caps_at_max_hp(sc) -> None:
    state = sc.build(sc.general("g", 1, "D4", ap=9), sc.soldier("s", 1, "D5", hp=19))
    outcome = sc.play(state, "g", "heal s")
    assert outcome.events[0].params["healed"] == 1
    assert sc.refused(outcome.state, "order", "g", {"text": "heal s"}).code == "full_hp"


def test_sc26_teleport_adjacent_teammate_anywhere_free(sc) -> None:
    state = sc.build(sc.general("g", 1, "D4", ap=9), sc.soldier("s", 1, "D5"), sc.soldier("t", 1, "H5"))
    assert sc.view_of(sc.play(state, "g", "teleport s J7").state, "s")["at"] == "J7"
    assert sc.refused(state, "order", "g", {"text": "teleport t J9"}).code == "not_adjacent"
    assert sc.refused(state, "order", "g", {"text": "teleport s H5"}).code == "occupied"
    assert sc.refused(state, "order", "g", {"text": "teleport g J9"}).params == {"reason": "self"}


def test_sc26_encourage_and_hack_once_pending(sc) -> None:
    state = sc.build(sc.general("g", 1, "D4", ap=9))
    after = sc.play(state, "g", "encourage").state
    assert sc.refused(after, "order", "g", {"text": "encourage"}).code == "already_used"
    assert (
        sc.refused(sc.play(state, "g", "hack").state, "order", "g", {"text": "hack"}).code == "already_used"
    )
