"""A turn's subtleties beyond the scenario files (AK-8, AK-12..AK-15), the events it reports,
and the engine protocol around it: phases, actors, inputs, results."""

from __future__ import annotations

import pytest

from engine import registry
from engine.arkeon import ARKEON
from engine.arkeon.events import EVENT_KINDS, event
from engine.arkeon.placement import ARKEON_CODES
from tests.engine.arkeon.builders import (
    after,
    cells,
    kinds,
    lobby,
    opening,
    piece,
    play,
    position,
    refused,
    refused_order,
)


# -- AK-8 the repulsor ----------------------------------------------------------------------------------
def test_pieces_on_an_axis_pack_against_the_edge_farthest_first_without_jumping() -> None:
    state = position(
        piece("blue", "base", "A1"),
        piece("blue", "basic", "B1", "NW"),
        piece("blue", "basic", "C2", "NE"),
        piece("red", "basic", "C4", "SW"),
        piece("blue", "basic", "C6", "E"),
        piece("red", "base", "E5"),
    )
    outcome = play(state, "blue", "place repulsor C1")
    pushed = [(e.params["from"], e.params["to"]) for e in outcome.events if e.kind == "pushed"]
    # the E axis C2..C7 packs east in order; on the NE axis B1 A1, B1 is stopped by the base at the edge
    assert pushed == [("C6", "C7"), ("C4", "C6"), ("C2", "C5")]
    # B1 did not move, so the repulsor keeps its link to its base and stays
    assert cells(outcome.state)["C1"]["kind"] == "repulsor"


def test_axes_are_resolved_one_after_the_other_in_direction_order() -> None:
    outcome = play(opening(), "blue", "place repulsor C4")
    pushed = [(e.params["from"], e.params["to"]) for e in outcome.events if e.kind == "pushed"]
    assert pushed == [("C6", "C7"), ("C5", "C6"), ("C2", "C1"), ("C3", "C2")]
    board = cells(outcome.state)
    assert board["C1"]["kind"] == board["C7"]["kind"] == "base"
    # its only neighbour of its colour pushed away, the repulsor is cut off (AK-13 step 5)
    assert "C4" not in board


# -- AK-12 destroyed at once, judged on the whole resolved turn --------------------------------------
def test_a_piece_cut_off_in_step_5_counts_as_destroyed_at_once() -> None:
    state = position(
        piece("blue", "basic", "C3", "NW"),
        piece("blue", "basic", "C4", "NW"),
        piece("red", "basic", "C5", "W"),
    )
    # B4 would touch only C4, which red's C5 destroys in step 4: B4 is then cut off in step 5
    assert refused_order(state, "blue", "place basic B4 NW") == "destroyed_at_once"
    # a pacifier there turns C5 away (SE) and C4 with it (SW): nobody is lost
    board = cells(play(state, "blue", "place pacifier B4").state)
    assert (board["B4"]["kind"], board["C4"]["facing"], board["C5"]["facing"]) == ("pacifier", "SW", "SE")
    # a piece that does not attack is never "destroyed at once": C5 turned NW destroys this rotator
    board = cells(play(state, "blue", "place cw B4").state)
    assert "B4" not in board and board["C5"]["facing"] == "NW"


def test_only_pointing_back_saves_a_basic_from_a_triple() -> None:
    state = position(piece("blue", "basic", "C3", "E"), piece("red", "triple", "C5", "W"))
    # facing W from C5 the triple strikes B4, C4 and D4
    assert refused_order(state, "blue", "place basic C4 W") == "destroyed_at_once"
    outcome = play(state, "blue", "place basic C4 E")
    assert [e.kind for e in outcome.events] == ["placed", "status_quo"]
    assert cells(outcome.state)["C5"]["kind"] == "triple"


# -- AK-13 events and their order ------------------------------------------------------------------
def test_a_turn_reports_its_steps_in_order() -> None:
    state = position(
        piece("blue", "basic", "C3", "NW"),
        piece("blue", "basic", "D3", "SW"),
        piece("red", "basic", "C5", "NE"),
        piece("red", "basic", "C4", "W"),
    )
    outcome = play(state, "blue", "place basic D4 NE")
    assert [(e.kind, e.params.get("at"), e.params.get("cause")) for e in outcome.events] == [
        ("placed", "D4", None),
        ("destroyed", "C5", "attack"),
        ("destroyed", "C4", "disconnected"),
    ]
    assert outcome.events[1].params["by"] == ["D4"]


def test_the_status_quo_is_reported_once_per_pair() -> None:
    outcome = play(opening(), "blue", "place basic B3 NW")
    outcome = play(outcome.state, "red", "place basic C4 W")
    assert [e.kind for e in outcome.events] == ["placed", "status_quo"]
    assert outcome.events[1].params == {"attacker": "C4", "target": "C3"}


def test_every_emitted_event_is_documented() -> None:
    state = position(piece("blue", "basic", "C3", "E"), piece("red", "base", "C4"))
    outcome = play(state, "blue", "place basic D2 SE")
    assert kinds(outcome) == ["placed", "game_over"]
    assert outcome.events[-1].params == {
        "winner": "blue", "reason": "base_destroyed", "loser": "red", "base": "C4", "by": ["C3"]
    }
    with pytest.raises(ValueError, match="undocumented"):
        event("exploded")
    assert {"placed", "swapped", "turned", "pushed", "destroyed", "returned", "game_over"} <= set(EVENT_KINDS)


# -- the protocol ----------------------------------------------------------------------------------
def test_registered_with_its_alias() -> None:
    for name in ("arkeon", "AK", "Arkeon"):
        assert registry.get(name) is ARKEON
    assert "arkeon" in registry.names()


def test_phases_results_and_who_is_waited_for() -> None:
    state = lobby(seed=1)
    assert ARKEON.waiting_on(state) == () and ARKEON.result(state).status == "setup"
    assert ARKEON.actors(state) == ("blue", "red")
    for name in ("Ann", "Ben"):
        state = ARKEON.apply_input(state, "join", None, {"id": name}).state
    assert ARKEON.side_of(state, "ben") == "red" and ARKEON.side_of(state, "Blue") == "blue"
    assert ARKEON.side_of(state, "Cid") is None
    state = ARKEON.apply_input(state, "start", None, {}).state
    assert ARKEON.waiting_on(state) == ("blue",) and ARKEON.result(state).status == "running"
    state = ARKEON.apply_input(state, "timeout", None, {"actor": "Ann"}).state
    result = ARKEON.result(state)
    assert (result.status, result.winner, result.reason) == ("finished", "red", "timeout")
    assert ARKEON.waiting_on(state) == ()


def test_a_draw_has_no_winner_in_the_result() -> None:
    state = position(piece("blue", "base", "C3"), piece("blue", "basic", "C2", "NE"))
    state = after(state, "blue", "place repulsor C1")
    result = ARKEON.result(state)
    assert (result.finished, result.is_draw, result.reason, ARKEON.winner(state)) == (True, True, "draw", "draw")


def test_lobby_inputs() -> None:
    state = lobby()
    assert refused(state, "join", None, {"id": "Red"}).code == "bad_id"
    assert refused(state, "join", None, {"id": ""}).code == "bad_id"
    assert refused(state, "join", None, {}).code == "bad_input"
    assert refused(state, "leave", None, {"id": "Ann"}).code == "unknown_character"
    assert refused(state, "resign", "blue", {}).code == "not_allowed"
    assert refused(state, "order", "blue", {"text": "place basic B2 NE"}).code == "not_allowed"
    state = ARKEON.apply_input(state, "join", None, {"id": "Ann"}).state
    state = ARKEON.apply_input(state, "join", None, {"id": "Ben"}).state
    outcome = ARKEON.apply_input(state, "leave", None, {"id": "ann"})
    assert [(e.kind, dict(e.params)) for e in outcome.events] == [("left", {"id": "Ann", "side": "blue"})]
    state = ARKEON.apply_input(outcome.state, "join", None, {"id": "Cid"}).state
    assert dict(state.players) == {"blue": "Cid", "red": "Ben"}
    state = ARKEON.apply_input(state, "start", None, {}).state
    assert refused(state, "join", None, {"id": "Dan"}).code == "not_allowed"
    assert refused(state, "start", None, {}).code == "not_allowed"


def test_refusals_around_the_turn() -> None:
    state = opening()
    assert refused(state, "order", "red", {"text": "place basic C4 W"}).code == "not_your_turn"
    assert refused(state, "order", "Zed", {"text": "place basic C4 W"}).code == "unknown_character"
    assert refused(state, "order", None, {"text": "place basic C4 W"}).code == "unknown_character"
    assert refused(state, "timeout", None, {}).code == "unknown_character"
    assert refused(state, "resign", "nobody", {}).code == "unknown_character"
    assert refused(state, "gm_set", None, {}).code == "not_allowed"
    assert refused(state, "order", "blue", "text").code == "bad_input"  # type: ignore[arg-type]


def test_the_rules_codes_are_listed() -> None:
    assert ARKEON_CODES == {
        "not_your_piece", "bad_swap", "not_in_reserve", "near_base", "must_point_at_base", "destroyed_at_once"
    }
