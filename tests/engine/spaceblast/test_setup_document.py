"""The setup document (scenarios.md): a running position with ships, a lobby without; faults name their key path."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import SetupError
from engine.spaceblast import SPACEBLAST


def fault(document: dict[str, Any]) -> SetupError:
    with pytest.raises(SetupError) as error:
        SPACEBLAST.setup(document)
    return error.value


SHIPS = [{"id": "a", "at": "G7", "facing": "E"}, {"id": "b", "at": "J4", "facing": "W"}]


def test_a_document_without_ships_opens_a_lobby() -> None:
    state = SPACEBLAST.setup({"radius": 6, "variants": ["powers", "asteroids"]})
    assert SPACEBLAST.result(state).status == "setup"
    assert SPACEBLAST.view(state)["ships"] == {}
    assert SPACEBLAST.setup({}).radius == 6


def test_a_document_with_ships_runs_at_once_with_their_numbers() -> None:
    state = SPACEBLAST.setup({"ships": [{**SHIPS[0], "hits": 2, "turns": 1, "score": 4}, SHIPS[1]]})
    assert SPACEBLAST.result(state).status == "running"
    view = SPACEBLAST.view(state)["ships"]["a"]
    assert (view["hits"], view["turns"], view["brakes"], view["score"]) == (2, 1, 2, 4)


def test_the_documents_seed_wins_over_the_bots() -> None:
    assert SPACEBLAST.setup({"seed": 5}, seed=99).seed == 5
    assert SPACEBLAST.setup({}, seed=99).seed == 99


@pytest.mark.parametrize(
    ("document", "code", "where"),
    [
        ({"radius": 3}, "bad_number", "radius"),
        ({"radius": "6"}, "bad_number", "radius"),
        ({"colour": "red"}, "unknown_key", "colour"),
        ({"variants": ["warp"]}, "bad_variant", "variants[0]"),
        ({"variants": ["powers", "powers"]}, "duplicate_variant", "variants[1]"),
        ({"variants": ["bigbang", "bigbang3"]}, "exclusive_variants", "variants"),
        ({"variants": "powers"}, "not_a_list", "variants"),
        ({"ships": [SHIPS[0]]}, "bad_ship_count", "ships"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "at": "Z9"}]}, "bad_cell", "ships[1].at"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "at": "A8"}]}, "bad_cell", "ships[1].at"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "at": "G7"}]}, "occupied", "ships[1].at"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "facing": "N"}]}, "bad_facing", "ships[1].facing"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "id": "A"}]}, "duplicate_name", "ships[1].id"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "id": "<@1>"}]}, "bad_id", "ships[1].id"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "hits": 4}]}, "bad_number", "ships[1].hits"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "turns": 11}]}, "bad_number", "ships[1].turns"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "mines": -1}]}, "bad_number", "ships[1].mines"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "speed": 2}]}, "unknown_key", "ships[1].speed"),
        ({"ships": [SHIPS[0], {**SHIPS[1], "powers": ["shield"]}]}, "bad_power", "ships[1].powers"),
        ({"variants": ["powers"], "ships": [SHIPS[0], {**SHIPS[1], "powers": ["warp"]}]}, "bad_power",
         "ships[1].powers[0]"),
        ({"ships": SHIPS, "asteroids": ["G7"]}, "occupied", "asteroids[0]"),
        ({"ships": SHIPS, "missiles": [{"owner": "zed", "at": "A1", "facing": "E"}]}, "bad_owner", "missiles[0].owner"),
        ({"ships": SHIPS, "missiles": [{"owner": "a", "at": "A1", "facing": "up"}]}, "bad_facing",
         "missiles[0].facing"),
        ({"ships": SHIPS, "mines": [{"owner": "a", "at": "A1"}, {"owner": "b", "at": "A1"}]}, "occupied", "mines[1].at"),
        ({"ships": SHIPS, "mines": [{"owner": "a", "at": "A1", "active": "yes"}]}, "bad_active", "mines[0].active"),
        ({"powers_per_ship": 4}, "bad_number", "powers_per_ship"),
        ({"seed": 2**70}, "not_storable", "seed"),
    ],
)
def test_faults_name_the_key_to_fix(document: dict[str, Any], code: str, where: str) -> None:
    error = fault(document)
    assert (error.code, error.where) == (code, where)


def test_a_mine_under_its_layer_starts_inactive_unless_said() -> None:
    state = SPACEBLAST.setup({"ships": SHIPS, "mines": [{"owner": "a", "at": "G7"}, {"owner": "a", "at": "A1"}]})
    assert [m["active"] for m in SPACEBLAST.view(state)["mines"]] == [False, True]
