"""End of the game: SC-28..SC-32."""

from __future__ import annotations

from engine.spacechess import SPACECHESS


def test_sc29_general_death_loses_and_batch_is_cut(sc) -> None:
    state = sc.build(
        sc.general("g1", 1, "C3", ap=9), sc.general("g2", 2, "D4", hp=5), sc.soldier("s", 2, "H8")
    )
    outcome = sc.play(state, "g1", "shoot g2; move C2")
    assert sc.kinds(outcome) == ["shot", "damaged", "died", "game_over", "batch_cut"]
    assert outcome.events[3].params == {"winner": 1, "reasons": [{"team": 1, "reason": "general_dead"}]}
    assert outcome.events[4].params == {"skipped": ["move C2"]}
    assert SPACECHESS.view(outcome.state)["status"] == "finished"
    assert sc.refused(outcome.state, "order", "g1", {"text": "move C2"}).code == "game_over"


def test_batch_cut_drops_orders_that_would_be_refused(sc) -> None:
    """The orders after the end are neither run nor checked, and the reply lists them."""
    state = sc.build(
        sc.general("g1", 1, "C3", ap=9), sc.general("g2", 2, "D4", hp=5), sc.soldier("s", 2, "H8")
    )
    outcome = sc.play(state, "g1", "move C2; move C3; shoot g2; move Z9; shoot nobody")
    assert sc.kinds(outcome)[-2:] == ["game_over", "batch_cut"]
    assert outcome.events[-1].params == {"skipped": ["move Z9", "shoot nobody"]}
    assert sc.view_of(outcome.state, "g1")["at"] == "C3"


def test_sc29_all_soldiers_dead_loses(sc) -> None:
    state = sc.build(sc.soldier("k", 1, "A1", weapon="heavy_bolter", ap=9), sc.soldier("v", 2, "A3", hp=4))
    assert sc.play(state, "k", "shoot v").state.winner == 1


def test_sc29_team_without_soldiers_only_loses_by_its_general(sc) -> None:
    state = sc.build(sc.general("g1", 1, "A1", ap=9), sc.soldier("s", 2, "H8"))
    assert sc.play(state, "g1", "move A2").state.winner is None


def test_sc30_sudden_death_for_both_teams(sc) -> None:
    north = sc.build(sc.general("g1", 1, "C9", ap=9))
    assert sc.play(north, "g1", "move C10").events[-1].params["reasons"] == [
        {"team": 1, "reason": "sudden_death"}
    ]
    south = sc.build(sc.general("g2", 2, "C2", ap=9))
    assert sc.play(south, "g2", "move C1").state.winner == 2


def test_sc30_soldier_on_the_back_row_is_nothing(sc) -> None:
    state = sc.build(sc.soldier("s", 1, "C9", ap=9))
    assert sc.play(state, "s", "move C10").state.winner is None


def test_sc31_time_limit_counts_living_hp(sc) -> None:
    state = sc.build(sc.soldier("a", 1, "A1", hp=11), sc.soldier("b", 2, "A5", hp=10))
    outcome = SPACECHESS.apply_input(state, "limit_reached", None, {})
    (over,) = outcome.events
    assert over.params == {
        "winner": 1,
        "reasons": [{"team": 1, "reason": "hp_total"}],
        "totals": {"1": 41, "2": 40},
    }


def test_sc31_equal_totals_draw(sc) -> None:
    state = sc.build(sc.soldier("a", 1, "A1", hp=10), sc.soldier("b", 2, "A5", hp=10))
    assert SPACECHESS.apply_input(state, "limit_reached", None, {}).state.winner == "draw"


def test_sc31_only_while_running(sc) -> None:
    lobby = SPACECHESS.setup({"phase": "setup", "map": sc.open_map()})
    assert sc.refused(lobby, "limit_reached", None, {}).code == "not_allowed"


def test_sc32_both_generals_in_one_grenade_is_a_draw(sc) -> None:
    state = sc.build(
        sc.soldier("gr", 1, "D4", ap=9), sc.general("g1", 1, "C5", hp=5), sc.general("g2", 2, "D5", hp=5)
    )
    outcome = sc.play(state, "gr", "grenade C5")
    assert outcome.state.winner == "draw"
    assert {r["reason"] for r in outcome.events[-1].params["reasons"]} == {"general_dead"}


def test_sc32_general_and_last_soldiers_of_the_other_side_draw(sc) -> None:
    """One air strike kills team 1's general and team 2's only soldier."""
    state = sc.build(
        sc.general("g1", 1, "A5", ap=9, hp=4), sc.soldier("s", 2, "B5", hp=5), sc.general("g2", 2, "J9")
    )
    outcome = sc.play(state, "g1", "airstrike A5 E")
    assert outcome.state.winner == "draw"
