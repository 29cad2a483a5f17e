"""The order language: every order round-trips through its canonical text; aliases, batches and
syntax errors say what was expected where."""

from __future__ import annotations

import pytest

from engine.arkeon import ARKEON
from engine.arkeon.orders import PLACE, SWAP, Order
from engine.arkeon.pieces import BOARD
from engine.core.errors import OrderError
from engine.core.hexgrid import Direction
from tests.engine.arkeon.oracle import TEXTS


def test_every_expressible_order_round_trips() -> None:
    assert len(TEXTS) == 29 * (2 * 6 + 4) * 2
    for text in TEXTS:
        (order,) = ARKEON.parse_orders(text)
        assert ARKEON.format_order(order) == text
        assert ARKEON.parse_orders(ARKEON.format_order(order)) == (order,)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("place basic C3 E", Order(PLACE, "basic", BOARD.parse("C3"), Direction.E)),
        ("Pose basique c3 e", Order(PLACE, "basic", BOARD.parse("C3"), Direction.E)),
        ("poser triple B2 NO", Order(PLACE, "triple", BOARD.parse("B2"), Direction.NW)),
        ("placer pacificateur C 4", Order(PLACE, "pacifier", BOARD.parse("C4"), None)),
        ("place horaire C4", Order(PLACE, "cw", BOARD.parse("C4"), None)),
        ("place clockwise C4", Order(PLACE, "cw", BOARD.parse("C4"), None)),
        ("place anti-horaire C4", Order(PLACE, "ccw", BOARD.parse("C4"), None)),
        ("place Antihoraire C4", Order(PLACE, "ccw", BOARD.parse("C4"), None)),
        ("place counterclockwise C4", Order(PLACE, "ccw", BOARD.parse("C4"), None)),
        ("pose Répulseur D3", Order(PLACE, "repulsor", BOARD.parse("D3"), None)),
        ("échange C3 triple SO", Order(SWAP, "triple", BOARD.parse("C3"), Direction.SW)),
        ("echanger C3 basique O", Order(SWAP, "basic", BOARD.parse("C3"), Direction.W)),
        ("  swap   c3   pacifier  ", Order(SWAP, "pacifier", BOARD.parse("C3"), None)),
    ],
)
def test_aliases_case_accents_and_spacing(text: str, order: Order) -> None:
    assert ARKEON.parse_orders(text) == (order,)


def test_a_batch_and_its_empty_segments() -> None:
    orders = ARKEON.parse_orders("place basic B2 NE;place basic C3 E")
    assert [ARKEON.format_order(o) for o in orders] == ["place basic B2 NE", "place basic C3 E"]
    with pytest.raises(OrderError) as caught:  # a stray `;` is refused as in every game (engine.core.batch)
        ARKEON.parse_orders("place basic B2 NE; ;place basic C3 E")
    assert (caught.value.params["reason"], caught.value.params["order"]) == ("empty_order", 2)


@pytest.mark.parametrize(
    ("text", "expected", "got", "position"),
    [
        ("", "arkeon_order", "end", 0),
        ("move C3", "arkeon_order", "move", 0),
        ("place base C3", "piece", "base", 6),
        ("place basic", "cell", "end", 11),
        ("place basic 3C E", "cell", "3C", 12),
        ("place basic C3", "hex_direction", "end", 14),
        ("place basic C3 N", "hex_direction", "N", 15),
        ("place pacifier C4 E", "end of order", "E", 18),
        ("swap C3", "piece", "end", 7),
        ("swap C3 triple", "hex_direction", "end", 14),
        ("place basic C3 E; swap", "cell", "end", 22),
    ],
)
def test_syntax_errors_say_what_was_expected_where(text: str, expected: str, got: str, position: int) -> None:
    with pytest.raises(OrderError) as error:
        ARKEON.parse_orders(text)
    assert error.value.code == "bad_syntax"
    assert error.value.params == {"expected": expected, "got": got, "position": position}


@pytest.mark.parametrize("text", ["place basic A6 E", "place basic C0 E", "swap F2 pacifier", "place cw Z1"])
def test_a_cell_off_the_board_is_bad_cell(text: str) -> None:
    with pytest.raises(OrderError) as error:
        ARKEON.parse_orders(text)
    assert error.value.code == "bad_cell"
