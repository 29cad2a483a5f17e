"""The order language: one text is one whole turn; parse and format round-trip; syntax faults say
what was expected and where."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderError
from engine.core.hexgrid import Direction
from engine.hexarena import HEXARENA
from engine.hexarena.geometry import BOARD
from engine.hexarena.orders import Action, Turn, format_turn, parse_turn
from tests.engine.hexarena.builders import arena

G3, G5, F4 = BOARD.parse("G3"), BOARD.parse("G5"), BOARD.parse("F4")


def test_every_verb_parses_to_its_action() -> None:
    turn = parse_turn("move G3 G5; rotate G3 NE; fire G3; ram G3 SW; board G3 F4; leave F4 G3; recycle G3 G5")
    assert turn.actions == (
        Action("move", G3, G5),
        Action("rotate", G3, direction=Direction.NE),
        Action("fire", G3),
        Action("ram", G3, direction=Direction.SW),
        Action("board", G3, F4),
        Action("leave", F4, G3),
        Action("recycle", G3, G5),
    )


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("MOVE g3 g5", "move G3 G5"),
        ("Déplace G3 G5", "move G3 G5"),
        ("tourne G3 no", "rotate G3 NW"),
        ("tir G3", "fire G3"),
        ("éperonne G3 so", "ram G3 SW"),
        ("monte G3 F4", "board G3 F4"),
        ("descend F4 G3", "leave F4 G3"),
        ("recycler G3 G5", "recycle G3 G5"),
        ("  move G3 G5 ; rotate G5 O  ", "move G3 G5; rotate G5 W"),
    ],
)
def test_aliases_case_and_spacing_read_as_the_canonical_text(text: str, canonical: str) -> None:
    assert format_turn(parse_turn(text)) == canonical


@pytest.mark.parametrize(
    ("text", "expected", "got", "position"),
    [
        ("", "action", "end", 0),
        ("pass", "action", "pass", 0),
        ("move G3", "cell", "end", 7),
        ("move G3 5", "cell", "5", 8),
        ("rotate G3 N", "hex_direction", "N", 10),
        ("fire G3 G4", "end of order", "G4", 8),
        ("fire G3; ram G2", "hex_direction", "end", 15),
    ],
)
def test_syntax_faults_say_what_was_expected_and_where(text: str, expected: str, got: str, position: int) -> None:
    with pytest.raises(OrderError) as caught:
        parse_turn(text)
    assert caught.value.code == "bad_syntax"
    assert caught.value.params == {"expected": expected, "got": got, "position": position}


@pytest.mark.parametrize("text", ["move G3 N1", "move A8 A1", "fire M8"])
def test_cells_off_the_board_are_bad_cells(text: str) -> None:
    with pytest.raises(OrderError) as caught:
        parse_turn(text)
    assert caught.value.code == "bad_cell"


@pytest.mark.parametrize("variant", ["base", "alpha", "omega"])
def test_every_legal_turn_round_trips_through_its_text(variant: str) -> None:
    state = arena(variant=variant)
    for turn in HEXARENA.legal_orders(state, "red"):
        assert HEXARENA.parse_orders(HEXARENA.format_order(turn)) == (turn,)


def test_parse_orders_gives_exactly_one_turn() -> None:
    assert HEXARENA.parse_orders("move G3 G5; move E1 E2") == (
        Turn((Action("move", G3, G5), Action("move", BOARD.parse("E1"), BOARD.parse("E2")))),
    )
