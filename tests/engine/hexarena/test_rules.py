"""The rules class through the engine protocol: inputs, events, view, result, registry, JSON."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import registry
from engine.core.errors import OrderError, SetupError
from engine.core.protocol import Result
from engine.hexarena import HEXARENA
from engine.hexarena.events import EVENT_KINDS, event
from engine.hexarena.geometry import BOARD
from tests.engine.hexarena.builders import ADMIRALS, arena, dumped, play, refused, ship

VIEW_SHIP_KEYS = {"side", "type", "at", "facing", "alive", "carried_by"}


def events_of(state, side: str, text: str) -> list[tuple[str, dict]]:
    outcome = HEXARENA.apply_input(state, "order", side, {"text": text})
    return [(e.kind, dict(e.params)) for e in outcome.events]


def test_registry_names_and_aliases() -> None:
    for name in ("hexarena", "HA", "hex-arena"):
        assert registry.get(name) is HEXARENA
    assert "hexarena" in registry.names()


def test_the_view_has_the_documented_shape_and_is_plain_json() -> None:
    view = HEXARENA.view(arena())
    assert {"to_move", "winner", "ships", "debris", "debris_reserve"} <= view.keys()
    assert len(view["ships"]) == 18
    assert all(s.keys() == VIEW_SHIP_KEYS for s in view["ships"].values())
    assert json.loads(json.dumps(view)) == view
    assert HEXARENA.unordered_view_keys == {"debris"}


def test_a_move_reports_its_path_and_a_turn_its_end() -> None:
    assert events_of(arena(), "red", "move G3 G6") == [
        ("moved", {"ship": "red_fighter2", "type": "fighter", "side": "red", "from": "G3", "to": "G6",
                   "path": ["G4", "G5", "G6"], "teleport": False, "passenger": None}),
        ("turn_ended", {"side": "red", "actions": 1, "ap": None, "next": "blue"}),
    ]


def test_a_teleport_path_runs_through_the_wrap() -> None:
    state = arena([ship("rf", "red", "fighter", "G11", "E"), *ADMIRALS])
    [(kind, params), _] = events_of(state, "red", "move G11 G2")
    assert (kind, params["path"], params["teleport"]) == ("moved", ["G12", "G13", "G1", "G2"], True)


def test_a_shot_reports_the_line_and_the_destruction() -> None:
    state = arena([ship("rf", "red", "fighter", "G3", "E"), ship("bp", "blue", "patrol", "G6"), *ADMIRALS])
    assert events_of(state, "red", "fire G3")[:2] == [
        ("fired", {"ship": "rf", "at": "G3", "direction": "E", "line": ["G4", "G5", "G6"], "target": "bp"}),
        ("destroyed", {"ship": "bp", "side": "blue", "type": "patrol", "at": "G6", "by": "rf", "debris": True,
                       "released": None, "reserve": 7}),
    ]


def test_ramming_a_carrier_releases_its_admiral() -> None:
    state = arena([ship("rp", "red", "patrol", "G7"), ship("bc", "blue", "cargo", "G8", "W"),
                   ship("ba", "blue", "admiral", None, "SW", carried_by="bc"), ship("ra", "red", "admiral", "A1")])
    kinds = events_of(state, "red", "ram G7 E")
    assert kinds[1] == ("destroyed", {"ship": "bc", "side": "blue", "type": "cargo", "at": "G8", "by": "rp",
                                      "debris": False, "released": "ba", "reserve": 8})


def test_board_leave_and_recycle_events() -> None:
    state = arena([ship("ra", "red", "admiral", "G7"), ship("rc", "red", "cargo", "G8"), ship("ba", "blue", "admiral", "M7")],
                  debris=["G5"], variant="omega")
    assert events_of(state, "red", "recycle G7 G5")[0] == (
        "recycled", {"ship": "ra", "debris": "G5", "access": "indirect", "from": "G7", "to": "G6", "reserve": 8})
    [boarded, moved, ended] = events_of(state, "red", "board G7 G8; move G8 G9")
    assert boarded == ("boarded", {"ship": "ra", "cargo": "rc", "from": "G7", "at": "G8"})
    assert moved[1]["passenger"] == "ra"
    assert ended == ("turn_ended", {"side": "red", "actions": 2, "ap": 5, "next": "blue"})


def test_a_win_is_reported_after_the_turn() -> None:
    state = arena([ship("ra", "red", "admiral", "G10"), ship("ba", "blue", "admiral", "M7")])
    assert [k for k, _ in events_of(state, "red", "move G10 G11")] == ["moved", "turn_ended", "game_over"]
    assert events_of(state, "red", "move G10 G11")[-1][1] == {"winner": "red", "loser": "blue", "reason": "base_reached"}


def test_every_emitted_event_is_documented() -> None:
    with pytest.raises(ValueError, match="undocumented"):
        event("exploded")
    state = arena(phase="setup")
    for kind, payload in (("join", {"id": "Ann"}), ("join", {"id": "Bob"}), ("start", {})):
        outcome = HEXARENA.apply_input(state, kind, None, payload)
        assert all(e.kind in EVENT_KINDS for e in outcome.events)
        state = outcome.state
    assert HEXARENA.apply_input(state, "resign", "blue", {}).events[0].kind in EVENT_KINDS


def test_a_refusal_in_a_long_turn_names_the_action_it_came_from() -> None:
    error = refused(arena(variant="alpha"), "red", "move G3 G5; move G5 G14", "bad_cell")
    assert error.params == {"cell": "G14"}  # a syntax fault: nothing was played
    error = refused(arena(variant="alpha"), "red", "move G3 G5; move E1 E4", "out_of_range")
    assert error.params["action"] == 2
    error = refused(arena(), "red", "move E1 E4", "out_of_range")
    assert "action" not in error.params


def test_inputs_in_the_wrong_phase_or_of_unknown_kinds() -> None:
    state = arena()
    for kind, code in (("fly", "not_allowed"), ("join", "not_allowed"), ("start", "not_allowed")):
        with pytest.raises(OrderError) as caught:
            HEXARENA.apply_input(state, kind, None, {"id": "Ann"})
        assert caught.value.code == code
    with pytest.raises(OrderError) as caught:
        HEXARENA.apply_input(state, "order", "red", ["move G3 G4"])  # type: ignore[arg-type]
    assert caught.value.code == "bad_input"
    for kind, actor, payload in (("timeout", None, {}), ("resign", None, {}), ("order", None, {"text": "fire G1"})):
        with pytest.raises(OrderError) as caught:
            HEXARENA.apply_input(state, kind, actor, payload)
        assert caught.value.code == "unknown_character"
    lobby = arena(phase="setup")
    with pytest.raises(OrderError) as caught:
        HEXARENA.apply_input(lobby, "resign", "red", {})
    assert (caught.value.code, caught.value.params["reason"]) == ("not_allowed", "not_started")


def test_results_say_who_won_and_why() -> None:
    state = arena()
    assert HEXARENA.result(state) == Result("running")
    assert HEXARENA.result(arena(phase="setup")) == Result("setup")
    assert HEXARENA.result(HEXARENA.apply_input(state, "resign", "red", {}).state) == Result("finished", "blue", "resigned")
    timed = HEXARENA.apply_input(state, "timeout", None, {"actor": "red"}).state
    assert HEXARENA.result(timed) == Result("finished", "blue", "timeout")
    assert HEXARENA.winner(timed) == "blue"


def test_actors_sides_and_who_the_game_waits_on() -> None:
    state = arena()
    assert HEXARENA.actors(state) == ("red", "blue")
    assert (HEXARENA.side_of(state, "blue"), HEXARENA.side_of(state, "Ann")) == ("blue", None)
    assert HEXARENA.waiting_on(state) == ("red",)
    assert HEXARENA.waiting_on(play(state, "red", "move G3 G4")) == ("blue",)
    assert HEXARENA.waiting_on(arena(phase="setup")) == ()
    assert HEXARENA.waiting_on(HEXARENA.apply_input(state, "resign", "red", {}).state) == ()


def test_the_first_side_drawn_at_random_depends_on_the_seed_only() -> None:
    firsts = set()
    for seed in range(8):
        state = arena(phase="setup", seed=seed)
        for name in ("Ann", "Bob"):
            state = HEXARENA.apply_input(state, "join", None, {"id": name}).state
        outcome = HEXARENA.apply_input(state, "start", None, {"first": "random"})
        again = HEXARENA.apply_input(state, "start", None, {"first": "random"})
        assert outcome.state.to_move == again.state.to_move
        assert dict(outcome.events[0].params) == {"first": outcome.state.to_move, "drawn": True}
        firsts.add(outcome.state.to_move)
    assert firsts == {"red", "blue"}


def test_start_checks_its_payload() -> None:
    state = arena(phase="setup", players={"red": "Ann", "blue": "Bob"})
    with pytest.raises(OrderError) as caught:
        HEXARENA.apply_input(state, "start", None, {"first": "green"})
    assert caught.value.code == "bad_input"
    assert HEXARENA.apply_input(state, "start", None, {"first": "blue"}).state.to_move == "blue"


def test_join_checks_names_and_sides() -> None:
    state = arena(phase="setup")
    for payload, code in (({"id": ""}, "bad_id"), ({"id": "Ann", "side": "green"}, "bad_input")):
        with pytest.raises(OrderError) as caught:
            HEXARENA.apply_input(state, "join", None, payload)
        assert caught.value.code == code


def test_a_started_game_with_no_legal_action_for_the_first_side_ends_at_once() -> None:
    state = arena([ship("rp", "red", "patrol", "G7"), ship("ba", "blue", "admiral", "M7")],
                  debris=["G8", "F7", "F6", "G6", "H6", "H7"], phase="setup", players={"red": "Ann", "blue": "Bob"})
    outcome = HEXARENA.apply_input(state, "start", None, {})
    assert [e.kind for e in outcome.events] == ["started", "game_over"]
    assert HEXARENA.result(outcome.state) == Result("finished", "blue", "no_legal_action")


def test_json_round_trip_and_wrong_documents() -> None:
    state = play(arena(debris=["D5"], variant=["blitz", "alpha"], players={"red": "Ann", "blue": "Bob"}),
                 "red", "fire G1; move G3 G5")
    data = json.loads(json.dumps(HEXARENA.to_json(state)))
    assert dumped(HEXARENA.from_json(data)) == dumped(state)
    assert HEXARENA.from_json(data) == state
    with pytest.raises(SetupError):
        HEXARENA.from_json({"game": "spacechess", "format": 1, "state": {}})
    for broken in ({}, {**data["state"], "to_move": "green"}, {**data["state"], "debris": ["Z9"]}):
        with pytest.raises(SetupError) as caught:
            HEXARENA.load_state(broken)
        assert caught.value.code == "bad_state"


# -- HA-18 D: the draw by repetition --------------------------------------------------------------
#: two turns each that leave the board as it was
SHUFFLE = (("red", "rotate G3 NE"), ("blue", "rotate G12 NW"), ("red", "rotate G3 E"), ("blue", "rotate G12 W"))


def shuffled(state, times: int = 1):
    for _ in range(times):
        for side, text in SHUFFLE:
            state = play(state, side, text)
    return state


def test_ha18_the_third_time_a_position_stands_with_the_same_side_to_move_the_game_is_drawn() -> None:
    opening = arena()
    assert HEXARENA.view(opening)["repetition"] == 1  # the opening stands once as the game starts
    twice = shuffled(opening)
    assert (HEXARENA.view(twice)["repetition"], HEXARENA.result(twice)) == (2, Result("running"))
    *_, (last_side, last_text) = SHUFFLE
    before_last = twice
    for side, text in SHUFFLE[:-1]:
        before_last = play(before_last, side, text)
    outcome = HEXARENA.apply_input(before_last, "order", last_side, {"text": last_text})
    assert [e.kind for e in outcome.events] == ["rotated", "turn_ended", "game_over"]
    assert dict(outcome.events[-1].params) == {"winner": "draw", "loser": None, "reason": "repetition"}
    assert HEXARENA.result(outcome.state) == Result("finished", None, "repetition")
    assert HEXARENA.waiting_on(outcome.state) == ()
    refused(outcome.state, "red", "rotate G3 NE", "game_over")


def test_ha18_a_position_is_its_cells_facings_cargos_debris_reserve_and_side_to_move() -> None:
    from engine.hexarena.repetition import position_key

    opening = arena()
    same = arena()
    assert position_key(opening) == position_key(same)
    others = [
        replace(opening, to_move="blue"),  # the same cells, the other side to move
        play(opening, "red", "rotate G3 NE"),
        replace(opening, debris_reserve=7),
        replace(opening, debris=frozenset({BOARD.parse("G7")})),
        arena([*ADMIRALS[:1], ship("ba", "blue", "admiral", None, carried_by="bc"), ship("bc", "blue", "cargo", "M7")]),
        arena([*ADMIRALS, ship("bc", "blue", "cargo", "M6")]),
    ]
    keys = [position_key(state) for state in [opening, *others]]
    assert len(set(keys)) == len(keys)
    # the turn count, the players and a draw offer are no part of the position
    assert position_key(replace(opening, turn=9, players=(("red", "Ann"),), draw_offer="blue")) == keys[0]


def test_ha18_a_destruction_or_a_recycle_starts_the_counts_afresh() -> None:
    """No position standing before a ship is destroyed or a debris recycled can stand again, so
    the counts start over after such a turn (as python-chess looks back only to the last
    irreversible move)."""
    state = arena([*ADMIRALS, ship("rf", "red", "fighter", "G3", "E"), ship("bp", "blue", "patrol", "G8"),
                   ship("bq", "blue", "patrol", "K5")])
    for side, text in (("red", "rotate G3 NE"), ("blue", "move K5 K6"), ("red", "rotate G3 E"), ("blue", "move K6 K5")):
        state = play(state, side, text)
    assert len(state.positions) == 4 and HEXARENA.view(state)["repetition"] == 2
    fired = play(state, "red", "fire G3")
    assert fired.side_graveyard("blue") == ["bp"] and len(fired.positions) == 1
    assert HEXARENA.view(fired)["repetition"] == 1
    recycled = arena([ship("ra", "red", "admiral", "A1"), ship("ba", "blue", "admiral", "M7")], debris=["A2"])
    recycled = play(play(recycled, "red", "rotate A1 SE"), "blue", "rotate M7 NW")
    assert len(recycled.positions) == 3
    assert len(play(recycled, "red", "recycle A1 A2").positions) == 1


def test_ha18_the_counts_are_stored_and_a_game_stored_before_them_loads() -> None:
    twice = shuffled(arena())
    data = json.loads(json.dumps(HEXARENA.to_json(twice)))
    assert HEXARENA.from_json(data) == twice and HEXARENA.view(HEXARENA.from_json(data))["repetition"] == 2
    old = {**data, "state": {k: v for k, v in data["state"].items() if k != "positions"}}
    loaded = HEXARENA.from_json(old)  # stored before HA-18: the position standing counts once
    assert HEXARENA.view(loaded)["repetition"] == 1
    assert HEXARENA.result(shuffled(loaded)) == Result("running")
    assert HEXARENA.result(shuffled(loaded, 2)) == Result("finished", None, "repetition")
    for broken in ([["abc", 0]], [["abc", 1], ["abc", 2]], [["abc"]], "x"):
        with pytest.raises(SetupError) as caught:
            HEXARENA.load_state({**data["state"], "positions": broken})
        assert caught.value.code == "bad_state"
