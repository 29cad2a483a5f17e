"""Setup documents: every fault is a SetupError that says where (SC-5..SC-10, SC-27, SC-33, SC-34)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import SetupError
from engine.spacechess import SPACECHESS

MAP = "......\n" * 6


def soldier(**fields: Any) -> dict[str, Any]:
    base = {
        "id": "s",
        "team": 1,
        "role": "soldier",
        "at": "A1",
        "weapon": "bolter",
        "armour": "light",
        "items": ["grenades", "scope"],
        "ability": "rage",
        "cards": [1, 2],
    }
    return {**base, **fields}


GENERALS = [
    {"id": "g1", "team": 1, "role": "general", "at": "F1", "cards": [1, 2]},
    {"id": "g2", "team": 2, "role": "general", "at": "F6", "cards": [1, 2]},
]


def setup_error(document: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as error:
        SPACECHESS.setup({"map": MAP, **document})
    return error.value


@pytest.mark.parametrize(
    ("character", "code", "where"),
    [
        (soldier(weapon="laser"), "bad_loadout", "characters[0].weapon"),
        (soldier(weapon="chainsword"), "bad_loadout", "characters[0].weapon"),
        (soldier(weapon="grizzly_bolter"), "bad_loadout", "characters[0].weapon"),
        (soldier(armour=None), "bad_loadout", "characters[0].armour"),
        (soldier(items=["scope"]), "bad_loadout", "characters[0].items"),
        (soldier(items=["scope", "scope"]), "bad_loadout", "characters[0].items"),
        (soldier(items=["scope", "psycho_brain"]), "bad_loadout", "characters[0].items[1]"),
        (soldier(items=["scope", "grade"]), "bad_loadout", "characters[0].grade"),
        (soldier(items=["scope", "grade"], grade="general"), "bad_loadout", "characters[0].grade"),
        (soldier(grade="colonel"), "bad_loadout", "characters[0].grade"),
        (soldier(ability="flight"), "bad_loadout", "characters[0].ability"),
        (soldier(cards=[1, 9]), "bad_loadout", "characters[0].cards[1]"),
        (soldier(cards=[1]), "bad_loadout", "characters[0].cards"),
        (soldier(id=""), "bad_id", "characters[0].id"),
        (soldier(id="x" * 33), "bad_id", "characters[0].id"),
        (soldier(id="x" * 1_000_000), "bad_id", "characters[0].id"),
        (soldier(id=7), "bad_id", "characters[0].id"),
        (soldier(id=["s"]), "bad_id", "characters[0].id"),
        (soldier(id="<@&42>"), "bad_id", "characters[0].id"),
        (soldier(id="a;b"), "bad_id", "characters[0].id"),
        (soldier(team=1.0), "bad_team", "characters[0].team"),
        (soldier(items=[{"a": 1}, "scope"]), "bad_loadout", "characters[0].items[0]"),
        (soldier(items=["scope", ["grenades"]]), "bad_loadout", "characters[0].items[1]"),
        (soldier(cards=[[1], [2]]), "bad_loadout", "characters[0].cards[0]"),
        (soldier(team=3), "bad_team", "characters[0].team"),
        (soldier(role="captain"), "bad_role", "characters[0].role"),
        (soldier(at="Z9"), "bad_cell", "characters[0].at"),
        (soldier(at=None), "bad_cell", "characters[0].at"),
        (soldier(hp=21), "bad_hp", "characters[0].hp"),
        (soldier(hp=0), "bad_hp", "characters[0].hp"),
        (soldier(ap=10), "bad_ap", "characters[0].ap"),
        (soldier(speed=3), "unknown_key", "characters[0].speed"),
        ({**GENERALS[0], "id": "g3", "at": "A1", "weapon": "bolter"}, "bad_loadout", "characters[0].weapon"),
    ],
)
def test_sc6_sc7_character_faults_are_located(character, code: str, where: str) -> None:
    error = setup_error({"characters": [character, *GENERALS]})
    assert (error.code, error.where) == (code, where)


def test_sc3_sc34_cells_must_be_free_floor() -> None:
    wall = "#.....\n" + "......\n" * 5
    error = setup_error({"map": wall, "characters": [soldier(at="A6"), *GENERALS]})
    assert (error.code, error.where) == ("not_floor", "characters[0].at")
    error = setup_error({"characters": [soldier(at="F1"), *GENERALS]})
    assert (error.code, error.where, error.params["by"]) == ("occupied", "characters[1].at", "s")


def test_sc5_names_unique_ignoring_case() -> None:
    error = setup_error({"characters": [soldier(id="Bob"), soldier(id="bob", at="B1"), *GENERALS]})
    assert (error.code, error.where) == ("duplicate_name", "characters[1].id")


def test_sc5_names_are_normalised_and_unique_ignoring_width_and_case() -> None:
    """Issue 9 point 10: the names of a document follow the join rule (`check_name`)."""
    state = SPACECHESS.setup({"map": MAP, "characters": [soldier(id=" Jean  Luc "), *GENERALS]})
    assert [c.id for c in state.characters][0] == "Jean Luc"
    error = setup_error({"characters": [soldier(id="Cid"), soldier(id="Ｃｉｄ", at="B1"), *GENERALS]})
    assert (error.code, error.where, error.params) == ("duplicate_name", "characters[1].id", {"id": "Cid"})


def test_sc5_one_general_and_six_soldiers_per_team() -> None:
    error = setup_error({"characters": [*GENERALS, {**GENERALS[0], "id": "g3", "at": "A2"}]})
    assert (error.code, error.where) == ("team_full", "characters[2].role")
    seven = [soldier(id=f"s{i}", at=f"{'ABCDEF'[i % 6]}{2 + i // 6}") for i in range(7)]
    assert setup_error({"characters": [*GENERALS, *seven]}).where == "characters[8].role"


def test_sc5_running_game_needs_both_generals() -> None:
    error = setup_error({"characters": [soldier(), GENERALS[0]]})
    assert (error.code, error.params) == ("no_general", {"team": 2})


def test_sc34_map_errors_carry_line_and_column() -> None:
    error = setup_error({"map": "....\n..x.\n....\n....\n", "characters": []})
    assert (error.code, error.where) == ("map_bad_char", "map, line 2, column 3")


def test_sc2_map_default_is_standard() -> None:
    state = SPACECHESS.setup({"phase": "setup"})
    assert (SPACECHESS.view(state)["map"], SPACECHESS.view(state)["width"]) == ("standard", 24)


@pytest.mark.parametrize(
    ("pickup", "code", "where"),
    [
        ({"at": "A1", "kind": "gold"}, "bad_pickup", "pickups[0].kind"),
        ({"at": "A1", "kind": "item", "item": "grade"}, "bad_pickup", "pickups[0].item"),
        ({"at": "A1", "kind": "weapon", "weapon": "chainsword"}, "bad_pickup", "pickups[0].weapon"),
        ({"at": "A1", "kind": "ap", "amount": 0}, "bad_pickup", "pickups[0].amount"),
        ({"at": "A1", "kind": "hp", "amount": 2, "item": "scope"}, "unknown_key", "pickups[0].item"),
        ({"at": "Q1", "kind": "hp", "amount": 2}, "bad_cell", "pickups[0].at"),
    ],
)
def test_sc33_pickup_faults_are_located(pickup, code: str, where: str) -> None:
    error = setup_error({"characters": GENERALS, "pickups": [pickup]})
    assert (error.code, error.where) == (code, where)


def test_document_level_faults() -> None:
    assert setup_error({"phase": "lobby"}).where == "phase"
    assert setup_error({"colour": "red"}).code == "unknown_key"
    assert setup_error({"rules": {"ap_cap": "x"}}).where == "rules.ap_cap"


@pytest.mark.parametrize(
    ("document", "code", "where"),
    [
        ({"rules": 1}, "bad_rule_value", "rules"),
        ({"rules": ["ap_cap"]}, "bad_rule_value", "rules"),
        ({"characters": {"a": 1}}, "bad_character", "characters"),
        ({"characters": [1]}, "bad_character", "characters[0]"),
        ({"phase": "setup", "pickups": {"a": 1}}, "bad_pickup", "pickups"),
        ({"phase": "setup", "pickups": [[1]]}, "bad_cell", "pickups[0].at"),
        ({"map": 1}, "bad_map", "map"),
        ({"phase": ["setup"]}, "bad_phase", "phase"),
    ],
)
def test_issue9_documents_of_the_wrong_shape_are_located_faults(document, code: str, where: str) -> None:
    """Issue 9 point 11: these escaped as TypeError/KeyError instead of saying what to fix."""
    error = setup_error(document)
    assert (error.code, error.where) == (code, where)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)
CHARACTER_KEYS = ["id", "team", "role", "at", "weapon", "armour", "items", "ability", "cards", "ap", "hp", "grade"]
PLAUSIBLE = {
    "id": st.sampled_from(["s", "Jean Luc", "Ｓ", "<@&42>", ""]),
    "team": st.sampled_from([1, 2, 3, True, 1.0]),
    "role": st.sampled_from(["soldier", "general", "pilot"]),
    "at": st.sampled_from(["A1", "B2", "F6", "Z99", "A 1"]),
    "weapon": st.sampled_from(["bolter", "sniper", "chainsword", "laser"]),
    "armour": st.sampled_from(["light", "heavy", "none"]),
    "items": st.lists(st.sampled_from(["grade", "scope", "vigour", "grenades", "x"]), max_size=3),
    "ability": st.sampled_from(["rage", "vehicle", "fly"]),
    "cards": st.lists(st.integers(0, 8), max_size=3),
    "grade": st.sampled_from(["colonel", "lieutenant", "general"]),
}


@st.composite
def characters(draw: st.DrawFn) -> dict:
    """A character table whose values are mostly plausible and sometimes any JSON at all."""
    keys = draw(st.lists(st.sampled_from(CHARACTER_KEYS), unique=True))
    return {key: draw(PLAUSIBLE.get(key, JSON_VALUES) | JSON_VALUES) for key in keys}


DOCUMENTS = st.fixed_dictionaries(
    {},
    optional={
        "phase": st.sampled_from(["setup", "running"]) | JSON_VALUES,
        "map": st.sampled_from([MAP, "standard"]) | JSON_VALUES,
        "hp_soldier": JSON_VALUES,
        "rules": st.dictionaries(st.sampled_from(["ap_cap", "hp_soldier", "weapons", "x"]), JSON_VALUES) | JSON_VALUES,
        "characters": st.lists(characters() | JSON_VALUES, max_size=4) | JSON_VALUES,
        "pickups": st.lists(st.fixed_dictionaries({"at": st.sampled_from(["A1", "C3"])}, optional={
            "kind": st.sampled_from(["ap", "item", "gold"]) | JSON_VALUES, "amount": JSON_VALUES}), max_size=2)
        | JSON_VALUES,
    },
)


@settings(max_examples=300, deadline=None)
@given(DOCUMENTS)
def test_issue9_any_document_builds_or_is_a_setup_error(document: dict) -> None:
    """Issue 9 point 11: whatever a document holds, the rules answer with a state or a SetupError."""
    try:
        state = SPACECHESS.setup(document)
    except SetupError as error:
        assert isinstance(error.where, str) and error.code
    else:
        assert SPACECHESS.from_json(SPACECHESS.to_json(state)) == state


def test_sc10_setup_documents_place_characters_anywhere() -> None:
    """Deployment rows are only for the deploy input: a scenario may start mid-board."""
    state = SPACECHESS.setup({"map": MAP, "characters": [soldier(at="C4"), *GENERALS]})
    assert SPACECHESS.view(state)["characters"]["s"]["at"] == "C4"


def test_sc27_sc8_running_document_applies_the_start() -> None:
    colonel = soldier(items=["grade", "vigour"], grade="colonel")
    strong = soldier(id="v", at="B1", items=["vigour", "scope"], hp=26)
    view = SPACECHESS.view(SPACECHESS.setup({"map": MAP, "characters": [colonel, strong, *GENERALS]}))
    assert (view["characters"]["s"]["items"], view["characters"]["s"]["max_hp"]) == (["grade"], 20)
    assert (view["characters"]["v"]["hp"], view["characters"]["v"]["max_hp"]) == (26, 26)


def test_setup_phase_accepts_partial_characters() -> None:
    state = SPACECHESS.setup(
        {
            "phase": "setup",
            "map": MAP,
            "characters": [{"id": "s", "team": 1, "role": "soldier", "weapon": "sniper"}],
        }
    )
    view = SPACECHESS.view(state)["characters"]["s"]
    assert (view["weapon"], view["armour"], view["at"], view["items"]) == ("sniper", None, None, [])
