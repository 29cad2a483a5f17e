"""Setup documents (scenarios.md): every fault is a SetupError naming the key path to fix."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import SetupError
from engine.hexarena import HEXARENA
from engine.hexarena.setupdoc import standard_opening
from tests.engine.hexarena.builders import ADMIRALS, arena, ship


def fault(document: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as caught:
        HEXARENA.setup(document)
    return caught.value


@pytest.mark.parametrize(
    ("document", "code", "where"),
    [
        ({"colour": "red"}, "unknown_key", "colour"),
        ({"phase": "lobby"}, "bad_phase", "phase"),
        ({"variant": "gamma"}, "bad_variant", "variant"),
        ({"variant": ["blitz", "gamma"]}, "bad_variant", "variant[1]"),
        ({"variant": ["alpha", "omega"]}, "bad_variant", "variant"),
        ({"variant": []}, "bad_variant", "variant"),
        ({"to_move": "green"}, "bad_side", "to_move"),
        ({"seed": "x"}, "bad_seed", "seed"),
        ({"ships": "all"}, "bad_ships", "ships"),
        ({"ships": ["ra"]}, "bad_ship", "ships[0]"),
        ({"ships": [{**ADMIRALS[0], "hp": 3}]}, "unknown_key", "ships[0].hp"),
        ({"ships": [ship("r a", "red", "admiral", "A1")]}, "bad_id", "ships[0].id"),
        ({"ships": [ship("x.y", "red", "admiral", "A1")]}, "bad_id", "ships[0].id"),
        ({"ships": [*ADMIRALS, ship("RA", "red", "cargo", "B1")]}, "duplicate_id", "ships[2].id"),
        ({"ships": [ship("a", "green", "admiral", "A1")]}, "bad_side", "ships[0].side"),
        ({"ships": [ship("a", "red", "cruiser", "A1")]}, "bad_type", "ships[0].type"),
        ({"ships": [*ADMIRALS, ship("a2", "red", "admiral", "B1")]}, "fleet_full", "ships[2].type"),
        ({"ships": [ship("p", "red", "patrol", "A1", "E")]}, "bad_facing", "ships[0].facing"),
        ({"ships": [ship("a", "red", "admiral", "A1", "N")]}, "bad_facing", "ships[0].facing"),
        ({"ships": [ship("a", "red", "admiral", None)]}, "bad_cell", "ships[0].at"),
        ({"ships": [ship("a", "red", "admiral", "N1")]}, "bad_cell", "ships[0].at"),
        ({"ships": [ship("a", "red", "admiral", "A1"), ship("c", "red", "cargo", "A1")]}, "occupied", "ships[1].at"),
        ({"ships": [ship("c", "red", "cargo", None, carried_by="c")]}, "bad_carried_by", "ships[0].carried_by"),
        ({"ships": [ship("a", "red", "admiral", "A1", carried_by="c")]}, "bad_cell", "ships[0].at"),
        ({"ships": [ship("a", "red", "admiral", None, carried_by="nobody")]}, "bad_carried_by", "ships[0].carried_by"),
        (
            {"ships": [ship("a", "red", "admiral", None, carried_by="c"), ship("c", "blue", "cargo", "B1")]},
            "bad_carried_by",
            "ships[0].carried_by",
        ),
        ({"debris": "A1"}, "bad_debris", "debris"),
        ({"debris": ["A1", "A9"]}, "bad_cell", "debris[1]"),
        ({"debris": ["G1"]}, "occupied", "debris[0]"),
        ({"debris": ["A1", "A1"]}, "occupied", "debris[1]"),
        ({"debris": [f"A{n}" for n in range(1, 8)] + ["B1", "B2"]}, "bad_debris", "debris"),
        ({"debris_reserve": 9}, "bad_debris_reserve", "debris_reserve"),
        ({"debris": ["A1", "A2"], "debris_reserve": 7}, "bad_debris_reserve", "debris_reserve"),
        ({"debris_reserve": True}, "bad_debris_reserve", "debris_reserve"),
        ({"players": ["ann"]}, "bad_players", "players"),
        ({"players": {"green": "ann"}}, "unknown_key", "players.green"),
        ({"players": {"red": "Ann", "blue": "ann"}}, "duplicate_name", "players.blue"),
    ],
)
def test_each_fault_names_its_key_path(document: dict[str, Any], code: str, where: str) -> None:
    error = fault(document)
    assert (error.code, error.where) == (code, where), error


def test_not_a_table() -> None:
    assert fault(["ships"]).code == "bad_document"  # type: ignore[arg-type]


def test_defaults_are_the_standard_opening_red_to_move_and_a_full_reserve() -> None:
    state = arena()
    assert state.ships == standard_opening()
    assert (state.to_move, state.status, state.variants, state.debris_reserve) == ("red", "running", (), 8)


def test_variants_are_read_by_name_or_alias_in_one_canonical_order() -> None:
    assert arena(variant="Stratege-Omega").variants == ("omega",)
    assert arena(variant=["omega", "neutralisation"]).variants == ("blitz", "omega")
    assert arena(variant=["base"]).variants == ()
    assert arena(variant="classic").variants == ()


def test_the_reserve_defaults_to_the_debris_not_on_the_board() -> None:
    assert arena(debris=["D4", "D5"]).debris_reserve == 6
    assert arena(debris=["D4", "D5"], debris_reserve=0).debris_reserve == 0


def test_players_and_seed_are_kept() -> None:
    state = arena(players={"red": "Ann", "blue": "Bob"}, seed=42)
    assert HEXARENA.view(state)["players"] == {"red": "Ann", "blue": "Bob"}
    assert state.seed == 42


def test_the_seed_argument_is_used_when_the_document_has_none() -> None:
    assert HEXARENA.setup({}, seed=7).seed == 7
