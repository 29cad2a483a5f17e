"""The order language: keywords, French aliases, cells (SC-1), batches, syntax errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.core.squaregrid import Cell
from engine.spacechess.orders import DIRECTIONS, GRAMMAR, Order, format_order, parse_orders


def one(text: str) -> Order:
    (order,) = parse_orders(text)
    return order


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("move C12", Order("move", cell=Cell(2, 11))),
        ("MOVE c 12", Order("move", cell=Cell(2, 11))),
        ("Déplace c12", Order("move", cell=Cell(2, 11))),
        ("move C12 drop scope", Order("move", cell=Cell(2, 11), drop="scope")),
        ("deplace C12 lâche Scope", Order("move", cell=Cell(2, 11), drop="scope")),
        ("tir Bob", Order("shoot", target="Bob")),
        ("grenade b3", Order("grenade", cell=Cell(1, 2))),
        ("Véhicule", Order("vehicle")),
        ("rage", Order("rage")),
        ("amitié bob", Order("friendship", target="bob")),
        ("frappe C12 ne", Order("airstrike", cell=Cell(2, 11), direction="NE")),
        ("airstrike C12 SO", Order("airstrike", cell=Cell(2, 11), direction="SW")),
        ("encouragement", Order("encourage")),
        ("intimidation bob D20", Order("intimidate", target="bob", cell=Cell(3, 19))),
        ("piratage", Order("hack")),
        ("soin bob", Order("heal", target="bob")),
        ("téléportation bob K30", Order("teleport", target="bob", cell=Cell(10, 29))),
        ("shoot Jean Luc", Order("shoot", target="Jean Luc")),
        ("soin  Jean   Luc ", Order("heal", target="Jean Luc")),
        ("teleport Jean Luc K30", Order("teleport", target="Jean Luc", cell=Cell(10, 29))),
        ("intimidate Jean Luc D 20", Order("intimidate", target="Jean Luc", cell=Cell(3, 19))),
        ("teleport Unit B2 K30", Order("teleport", target="Unit B2", cell=Cell(10, 29))),
    ],
)
def test_sc1_keywords_aliases_and_cells(text: str, expected: Order) -> None:
    assert one(text) == expected


def test_batch_keeps_order() -> None:
    assert parse_orders(" vehicle ; move A2 ") == (Order("vehicle"), Order("move", cell=Cell(0, 1)))


@pytest.mark.parametrize(("text", "number", "position"), [
    ("tir Désiré;;", 2, 11), ("tir Désiré;", 2, 10), (";", 1, 0), ("  ;  ", 1, 2), ("move A2; ;rage", 2, 9),
])
def test_an_empty_part_of_a_batch_is_refused_wherever_it_is(text, number, position) -> None:
    """Issue 23.7: an empty part is never skipped in one place and refused in another."""
    with pytest.raises(OrderError) as error:
        parse_orders(text)
    assert error.value.params == {"reason": "empty_order", "expected": "order", "got": ";",
                                  "position": position, "order": number}


@pytest.mark.parametrize(("text", "number", "typed", "code"), [
    ("move C3; shoot", 2, "shoot", "bad_syntax"),
    ("tir Bob ;  fly C3 ", 2, "fly C3", "bad_syntax"),
])
def test_a_syntax_error_in_a_batch_names_its_order(text, number, typed, code) -> None:
    with pytest.raises(OrderError) as error:
        parse_orders(text)
    assert (error.value.code, error.value.params["batch_order"], error.value.params["batch_text"]) == (
        code, number, typed)


@pytest.mark.parametrize(
    ("text", "expected", "got", "position"),
    [
        ("", "order", "end", 0),
        ("fly C3", "order", "fly", 0),
        ("move", "cell", "end", 4),
        ("move bob", "cell", "bob", 5),
        ("airstrike C3 UP", "direction", "UP", 13),
        ("move C3 C4", "end of order", "C4", 8),
        ("move C3 drop laser", "item", "laser", 13),
        ("vehicle now", "end of order", "now", 8),
        ("teleport Jean Luc", "cell", "Luc", 14),
    ],
)
def test_syntax_errors_say_what_was_expected_where(text, expected, got, position) -> None:
    with pytest.raises(OrderError) as error:
        parse_orders(text)
    assert error.value.code == "bad_syntax"
    assert error.value.params == {"expected": expected, "got": got, "position": position}


def test_sc1_cell_outside_the_largest_board_is_bad_cell() -> None:
    with pytest.raises(OrderError) as error:
        parse_orders("move C100")
    assert (error.value.code, error.value.params) == ("bad_cell", {"cell": "C100"})


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=12)
names = st.lists(words, min_size=1, max_size=3).map(" ".join)  # names may hold spaces (issue 9)
cells = st.builds(Cell, st.integers(0, 25), st.integers(0, 98))


@st.composite
def orders(draw: st.DrawFn) -> Order:
    verb = draw(st.sampled_from(sorted(GRAMMAR)))
    args: dict = {}
    for kind in GRAMMAR[verb]:
        if kind == "cell":
            args["cell"] = draw(cells)
        elif kind == "character":
            args["target"] = draw(names)
        elif kind == "direction":
            args["direction"] = draw(st.sampled_from(sorted(DIRECTIONS)))
        else:
            args["drop"] = draw(st.none() | st.sampled_from(["scope", "bolter", "jetpack"]))
    return Order(verb, **args)


@given(st.lists(orders(), min_size=1, max_size=4))
def test_format_then_parse_is_identity(batch: list[Order]) -> None:
    assert parse_orders("; ".join(format_order(o) for o in batch)) == tuple(batch)
