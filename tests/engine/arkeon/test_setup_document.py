"""Setup documents (AK-10 pinned): the lobby, positions, reserves, and every fault located by its
key path; the dumped state reloads to the same game, and a corrupt one is refused."""

from __future__ import annotations

from typing import Any

import pytest

from engine.arkeon import ARKEON
from engine.arkeon.setupdoc import STANDARD_OPENING
from engine.core.errors import SetupError
from tests.engine.arkeon.builders import cells, lobby, opening, piece, position


def refused(document: Any, seed: int = 0) -> SetupError:
    with pytest.raises(SetupError) as error:
        ARKEON.setup(document, seed)
    return error.value


def test_no_pieces_is_the_standard_opening_with_the_rest_in_reserve() -> None:
    view = ARKEON.view(opening())
    assert {name: (c["side"], c["kind"], c["facing"]) for name, c in view["cells"].items()} == {
        at: (side, kind, facing) for at, kind, facing, side in STANDARD_OPENING
    }
    assert view["reserve"] == {
        side: {"basic": 9, "advanced": ["triple", "pacifier", "cw", "ccw", "repulsor"]} for side in ("blue", "red")
    }
    assert view["phase"] == "running" and view["to_move"] == "blue" and view["winner"] is None


def test_without_to_move_the_seed_decides() -> None:
    assert {ARKEON.setup({}, seed).to_move for seed in range(8)} == {"blue", "red"}
    assert ARKEON.setup({}, 1).to_move == "blue" and ARKEON.setup({}, 0).to_move == "red"


def test_the_lobby_document() -> None:
    state = lobby(seed=4)
    view = ARKEON.view(state)
    assert view["phase"] == "lobby" and view["to_move"] is None
    assert set(view["cells"]) == {"C2", "C6"}
    assert view["reserve"]["blue"]["basic"] == 12
    assert ARKEON.result(state).status == "setup"
    assert ARKEON.setup({"phase": "setup", "seed": 4}, 4) == state


def test_a_lobby_on_a_position_opens_its_seats_then_plays_from_it() -> None:
    """Issue 26: a position's game started at once and could not be joined; with ``phase = "setup"``
    its seats are open, and `start` plays from the position, the document's side moving first."""
    document = {"phase": "setup", "to_move": "red", "pieces": [
        {"side": "blue", "kind": "base", "at": "C2"}, {"side": "red", "kind": "base", "at": "C6"},
        {"side": "blue", "kind": "basic", "at": "C3", "facing": "E"}]}
    state = ARKEON.setup(document, 5)
    assert ARKEON.view(state)["phase"] == "lobby" and ARKEON.result(state).status == "setup"
    for name in ("Ann", "Bob"):
        state = ARKEON.apply_input(state, "join", name, {"id": name}).state
    started = ARKEON.apply_input(state, "start", None, {})
    view = ARKEON.view(started.state)
    assert (view["phase"], view["to_move"], view["players"]) == ("running", "red", {"blue": "Ann", "red": "Bob"})
    assert view["cells"]["C3"] == {"side": "blue", "kind": "basic", "facing": "E"}  # no setup placements
    assert [e.kind for e in started.events] == ["started"] and started.events[0].params["starter"] == "red"
    assert ARKEON.waiting_on(started.state) == ("red",)
    assert ARKEON.dump_state(started.state) == ARKEON.dump_state(ARKEON.load_state(ARKEON.dump_state(started.state)))


def test_a_position_with_bases_anywhere_and_a_reserve() -> None:
    state = position(
        piece("blue", "base", "A1"),
        piece("red", "base", "E5"),
        piece("blue", "triple", "B2", "se"),
        piece("red", "pacifier", "D5"),
        reserve={"blue": {"basic": 4, "advanced": ["cw"]}, "red": {"advanced": []}},
    )
    view = ARKEON.view(state)
    assert view["cells"]["B2"] == {"side": "blue", "kind": "triple", "facing": "SE"}
    assert view["reserve"]["blue"] == {"basic": 4, "advanced": ["cw"]}
    # red: the pacifier is on the board and the four others count as removed
    assert view["reserve"]["red"] == {"basic": 12, "advanced": []}


def test_a_reserve_with_all_five_removed_has_them_all_back() -> None:
    state = position(reserve={"blue": {"advanced": []}})
    assert ARKEON.view(state)["reserve"]["blue"]["advanced"] == ["triple", "pacifier", "cw", "ccw", "repulsor"]


def test_a_position_whose_side_to_move_cannot_move_is_already_lost() -> None:
    state = position(piece("red", "pacifier", "B6"), to_move="red", reserve={"red": {"basic": 0, "advanced": []}})
    result = ARKEON.result(state)
    assert (result.status, result.winner, result.reason) == ("finished", "blue", "no_move")


@pytest.mark.parametrize(
    ("document", "code", "where"),
    [
        ([], "bad_document", ""),
        ({"map": "x"}, "unknown_key", "map"),
        ({"phase": "later"}, "bad_phase", "phase"),
        ({"phase": "setup", "to_move": "green"}, "bad_side", "to_move"),  # a lobby on a position: checked alike
        ({"phase": "setup", "pieces": {}}, "bad_piece", "pieces"),
        ({"seed": "x"}, "bad_seed", "seed"),
        ({"seed": 2**70}, "bad_seed", "seed"),
        ({"to_move": "green"}, "bad_side", "to_move"),
        ({"pieces": {}}, "bad_piece", "pieces"),
        ({"pieces": [3]}, "bad_piece", "pieces[0]"),
        ({"pieces": [{"side": "blue", "kind": "base", "at": "C2", "hp": 1}]}, "unknown_key", "pieces[0].hp"),
        ({"pieces": [{"side": "green", "kind": "base", "at": "C2"}]}, "bad_side", "pieces[0].side"),
        ({"pieces": [{"side": "blue", "kind": "king", "at": "C2"}]}, "bad_kind", "pieces[0].kind"),
        ({"pieces": [{"side": "blue", "kind": "base", "at": "C9"}]}, "bad_cell", "pieces[0].at"),
        ({"pieces": [{"side": "blue", "kind": "base"}]}, "bad_cell", "pieces[0].at"),
        ({"pieces": [{"side": "blue", "kind": "base", "at": "C2"}, {"side": "red", "kind": "base", "at": "c2"}]},
         "occupied", "pieces[1].at"),
        ({"pieces": [{"side": "blue", "kind": "base", "at": "C2"}, {"side": "blue", "kind": "base", "at": "C3"}]},
         "duplicate_piece", "pieces[1].kind"),
        ({"pieces": [{"side": "blue", "kind": "cw", "at": "C2"}, {"side": "blue", "kind": "cw", "at": "C3"}]},
         "duplicate_piece", "pieces[1].kind"),
        ({"pieces": [{"side": "blue", "kind": "basic", "at": "C2"}]}, "bad_facing", "pieces[0].facing"),
        ({"pieces": [{"side": "blue", "kind": "basic", "at": "C2", "facing": "N"}]}, "bad_facing", "pieces[0].facing"),
        ({"pieces": [{"side": "blue", "kind": "base", "at": "C2", "facing": "E"}]}, "bad_facing", "pieces[0].facing"),
        ({"pieces": [{"side": "blue", "kind": "base", "at": "C2"}]}, "missing_base", "pieces"),
        ({"reserve": []}, "bad_reserve", "reserve"),
        ({"reserve": {"green": {}}}, "unknown_key", "reserve.green"),
        ({"reserve": {"blue": 3}}, "bad_reserve", "reserve.blue"),
        ({"reserve": {"blue": {"basics": 3}}}, "unknown_key", "reserve.blue.basics"),
        ({"reserve": {"blue": {"basic": 10}}}, "bad_reserve", "reserve.blue.basic"),
        ({"reserve": {"blue": {"basic": -1}}}, "bad_reserve", "reserve.blue.basic"),
        ({"reserve": {"blue": {"basic": True}}}, "bad_reserve", "reserve.blue.basic"),
        ({"reserve": {"red": {"advanced": "cw"}}}, "bad_reserve", "reserve.red.advanced"),
        ({"reserve": {"red": {"advanced": ["cw", "base"]}}}, "bad_reserve", "reserve.red.advanced[1]"),
        ({"reserve": {"red": {"advanced": ["cw", "cw"]}}}, "bad_reserve", "reserve.red.advanced[1]"),
    ],
)
def test_faults_name_their_key_path(document: Any, code: str, where: str) -> None:
    error = refused(document)
    assert (error.code, error.where) == (code, where)


def test_thirteen_basics_are_too_many() -> None:
    board = [f"{row}{n}" for row, count in (("A", 5), ("B", 6), ("E", 5)) for n in range(1, count + 1)][:13]
    pieces = [piece("blue", "basic", at, "E") for at in board]
    error = refused({"pieces": [*pieces, piece("blue", "base", "C2"), piece("red", "base", "C6")]})
    assert (error.code, error.where, error.params["count"]) == ("too_many", "pieces", 13)


def test_an_advanced_kind_on_the_board_cannot_also_be_in_the_reserve() -> None:
    error = refused({"pieces": [piece("blue", "base", "C2"), piece("red", "base", "C6"), piece("red", "cw", "C5")],
                     "reserve": {"red": {"advanced": ["cw"]}}})
    assert (error.code, error.where, error.params["reason"]) == ("bad_reserve", "reserve.red.advanced[0]", "on_board")


def test_dump_and_load_round_trip_and_corrupt_states_are_refused() -> None:
    state = position(piece("blue", "triple", "B3", "NE"), reserve={"red": {"advanced": ["cw", "ccw"]}})
    data = ARKEON.to_json(state)
    assert ARKEON.from_json(data) == state
    assert cells(ARKEON.from_json(data)) == cells(state)
    for broken in (
        {**data["state"], "phase": "nap"},
        {**data["state"], "pieces": [p for p in data["state"]["pieces"] if p["kind"] != "base"]},
        {**data["state"], "pieces": [*data["state"]["pieces"], data["state"]["pieces"][0]]},
        {**data["state"], "pieces": [{**data["state"]["pieces"][0], "facing": "Q"}]},
        {key: value for key, value in data["state"].items() if key != "reserve"},
    ):
        with pytest.raises(SetupError) as error:
            ARKEON.load_state(broken)
        assert error.value.code == "bad_state"
    with pytest.raises(SetupError):
        ARKEON.from_json({**data, "game": "spacechess"})
