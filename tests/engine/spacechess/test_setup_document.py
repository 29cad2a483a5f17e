"""Setup documents: every fault is a SetupError that says where (SC-5..SC-10, SC-27, SC-33, SC-34)."""

from __future__ import annotations

from typing import Any

import pytest

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
        (soldier(id="two words"), "bad_id", "characters[0].id"),
        (soldier(id="x" * 33), "bad_id", "characters[0].id"),
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
