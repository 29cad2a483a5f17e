"""State serialisation, the public view (scenarios.md), registry, events table."""

from __future__ import annotations

import json

import pytest

from engine import registry
from engine.core.errors import SetupError
from engine.spacechess import SPACECHESS
from engine.spacechess.events import EVENT_KINDS, event

VIEW_CHARACTER_KEYS = {
    "at",
    "hp",
    "max_hp",
    "ap",
    "alive",
    "team",
    "role",
    "weapon",
    "armour",
    "items",
    "ability",
    "cards",
    "shots_this_turn",
    "skip_next_draw",
}


def busy_state(sc):
    state = sc.build(
        sc.general("g1", 1, "D4", ap=9),
        sc.soldier("s", 1, "D5", ability="vehicle", ap=7, items=["grade", "scope"], grade="lieutenant"),
        sc.soldier("t", 2, "D9", armour="medium"),
        map_text=sc.open_map(obstacles=("F5", "E6")),
        rules={"ap_cap": 12, "weapons": {"bolter": {"range": 9}}},
        pickups=[{"at": "A1", "kind": "weapon", "weapon": "sniper"}, {"at": "B1", "kind": "ap", "amount": 2}],
    )
    state = sc.play(state, "g1", "encourage").state
    return sc.play(state, "s", "vehicle; shoot t").state


def test_json_round_trip_is_identical(sc) -> None:
    state = busy_state(sc)
    data = json.loads(json.dumps(SPACECHESS.to_json(state)))
    reloaded = SPACECHESS.from_json(data)
    assert SPACECHESS.to_json(reloaded) == data
    assert reloaded == state


def test_round_trip_of_the_standard_map_stores_only_its_name(sc) -> None:
    state = SPACECHESS.setup({"phase": "setup"})
    assert SPACECHESS.dump_state(state)["map"] == {"name": "standard"}
    assert SPACECHESS.load_state(SPACECHESS.dump_state(state)) == state


def test_corrupt_state_is_a_setup_error(sc) -> None:
    data = SPACECHESS.dump_state(busy_state(sc))
    del data["characters"][0]["hp"]
    with pytest.raises(SetupError) as error:
        SPACECHESS.load_state(data)
    assert error.value.code == "bad_state"
    with pytest.raises(SetupError):
        SPACECHESS.from_json({"game": "hexarena", "format": 1, "state": {}})


def test_inputs_never_mutate_the_state_they_get(sc) -> None:
    state = busy_state(sc)
    before = sc.dumped(state)
    sc.play(state, "s", "move D6")
    SPACECHESS.apply_input(state, "draw", None, {"numbers": [1, 2, 3, 4, 5]})
    assert sc.dumped(state) == before


def test_public_view_shape(sc) -> None:
    view = SPACECHESS.view(busy_state(sc))
    assert {"status", "turn", "winner", "characters", "pickups"} <= view.keys()
    assert all(VIEW_CHARACTER_KEYS <= c.keys() for c in view["characters"].values())
    assert view["characters"]["s"]["skip_next_draw"] is True
    assert view["characters"]["t"]["hp"] == 19
    assert view["pickups"] == [
        {"at": "A1", "kind": "weapon", "weapon": "sniper"},
        {"at": "B1", "kind": "ap", "amount": 2},
    ]
    json.dumps(view)


def test_registry_names_and_aliases() -> None:
    for name in ("spacechess", "SC", "space-chess"):
        assert registry.get(name) is SPACECHESS
    assert SPACECHESS.actors(SPACECHESS.setup({"phase": "setup"})) == ()


def test_every_emitted_event_is_documented(sc) -> None:
    state = busy_state(sc)
    outcome = SPACECHESS.apply_input(state, "draw", None, {"numbers": [1, 2, 3, 4, 5]})
    assert all(e.kind in EVENT_KINDS for e in outcome.events)
    with pytest.raises(ValueError, match="undocumented"):
        event("teleported")
