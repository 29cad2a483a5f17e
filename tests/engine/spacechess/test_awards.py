"""Draw awards: SC-11..SC-16, and the breakdown players read."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderError
from engine.spacechess import SPACECHESS, apply_draw
from engine.spacechess.awards import card_range


def test_sc12_card_ranges() -> None:
    assert [(card_range(k)[0], card_range(k)[-1]) for k in range(1, 8)] == [
        (1, 7),
        (8, 14),
        (15, 21),
        (22, 28),
        (29, 35),
        (36, 42),
        (43, 49),
    ]


def test_sc13_breakdown_per_card_with_bonus(sc) -> None:
    state = sc.build(sc.soldier("a", 1, "A1", cards=[1, 7]))
    new_state, breakdown = apply_draw(state, [1, 7, 8, 43, 44, 45], bonus=49)
    line = next(entry for entry in breakdown if entry["id"] == "a")
    assert line["cards"] == [
        {"card": 1, "numbers": [1, 7], "bonus": False, "ap": 2},
        {"card": 7, "numbers": [43, 44, 45], "bonus": True, "ap": 5},
    ]
    assert (line["base"], line["award"], line["ap_after"], line["lost_to_cap"]) == (7, 7, 7, 0)
    assert sc.view_of(new_state, "a")["ap"] == 7


def test_sc11_sc14_cap_after_grade_and_encouragement(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "J1", ap=9),
        sc.soldier("c", 1, "A1", items=["grade", "scope"], grade="colonel", ap=8),
    )
    state = sc.play(state, "g", "encourage").state
    _, breakdown = apply_draw(state, [1, 2, 30, 31, 32])
    line = next(entry for entry in breakdown if entry["id"] == "c")
    assert (line["base"], line["grade"], line["encouragement"], line["award"]) == (2, 2, 1, 5)
    assert (line["ap_after"], line["lost_to_cap"]) == (9, 4)


def test_sc14_hacking_floored_at_zero_and_psycho_brain_immune(sc) -> None:
    state = sc.build(
        sc.general("g", 1, "J1", ap=9),
        sc.soldier("x", 2, "A1", cards=[6, 7], ap=3),
        sc.soldier("p", 2, "C1", cards=[1, 2], items=["psycho_brain", "scope"]),
        rules={"loadout_pickups": True},
    )
    state = sc.play(state, "g", "hack").state
    new_state, breakdown = apply_draw(state, [1, 2, 3, 4, 5])
    lines = {entry["id"]: entry for entry in breakdown}
    assert (lines["x"]["hacking"], lines["x"]["award"], lines["x"]["ap_after"]) == (1, 0, 3)
    assert (lines["p"]["hacking"], lines["p"]["hack_immune"], lines["p"]["award"]) == (0, True, 5)
    assert lines["G2"]["hacking"] == 0
    assert new_state.hacking == frozenset()


def test_sc15_vehicle_skips_and_empties_friendship_skips_and_keeps(sc) -> None:
    state = sc.build(
        sc.soldier("v", 1, "A1", ability="vehicle", ap=5),
        sc.soldier("f", 1, "C1", ability="friendship", ap=4),
        sc.soldier("h", 1, "D1", ability="friendship", ap=0),
    )
    state = sc.play(state, "v", "vehicle").state
    state = sc.play(state, "f", "friendship h").state
    state = sc.play(state, "h", "friendship f").state
    new_state, breakdown = apply_draw(state, [1, 2, 3, 4, 5])
    lines = {entry["id"]: entry for entry in breakdown}
    assert (lines["v"]["skipped"], lines["v"]["zeroed"], lines["v"]["ap_after"]) == (True, True, 0)
    assert (lines["f"]["skipped"], lines["f"]["zeroed"], lines["f"]["ap_after"]) == (True, False, 4)
    assert not any(sc.view_of(new_state, i)["skip_next_draw"] for i in "vfh")


def test_sc16_dead_get_nothing_and_counters_reset(sc) -> None:
    state = sc.build(
        sc.soldier("k", 1, "A1", weapon="heavy_bolter", ap=9),
        sc.soldier("v", 2, "A3", hp=4, ap=2),
        sc.soldier("w", 2, "H8"),
    )
    state = sc.play(state, "k", "shoot v").state
    new_state, breakdown = apply_draw(state, [1, 2, 3, 4, 5])
    line = next(entry for entry in breakdown if entry["id"] == "v")
    assert (line["dead"], line["award"], line["ap_after"]) == (True, 0, 2)
    assert sc.view_of(new_state, "k")["shots_this_turn"] == 0
    assert SPACECHESS.view(new_state)["turn"] == 1


def test_draw_input_event_carries_the_breakdown(sc) -> None:
    state = sc.build(sc.soldier("a", 1, "A1"))
    outcome = SPACECHESS.apply_input(state, "draw", None, {"numbers": [1, 2, 3, 4, 5], "bonus": None})
    (award,) = outcome.events
    assert award.kind == "draw_award"
    assert (award.params["turn"], award.params["numbers"], award.params["bonus"]) == (
        1,
        [1, 2, 3, 4, 5],
        None,
    )
    assert [line["id"] for line in award.params["breakdown"]] == ["a", "G1", "G2"]


@pytest.mark.parametrize(
    ("numbers", "bonus", "reason"),
    [
        ([1, 2, 3, 4], None, "count"),
        ([1, 2, 3, 4, 5, 6, 7], None, "count"),
        ([0, 2, 3, 4, 5], None, "number"),
        ([1, 2, 3, 4, True], None, "number"),
        ([1, 2, 3, 4, 4], None, "repeated"),
        ([1, 2, 3, 4, 5], 5, "bonus"),
        ([1, 2, 3, 4, 5], 50, "bonus"),
    ],
)
def test_bad_draws_are_refused(sc, numbers, bonus, reason) -> None:
    state = sc.build(sc.soldier("a", 1, "A1"))
    with pytest.raises(OrderError) as error:
        apply_draw(state, numbers, bonus)
    assert (error.value.code, error.value.params["reason"]) == ("bad_draw", reason)
    assert sc.refused(state, "draw", None, {"numbers": numbers, "bonus": bonus}).code == "bad_draw"
