"""The order language (SB-5, SB-17): parsing, canonical text, and the round trip of every order."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.material import POWERS
from engine.spaceblast.orders import NO_ORDER, Order, format_order, parse_order


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("left missile", Order(left=1, missile=1)),
        ("missile LEFT", Order(left=1, missile=1)),
        ("gauche frein", Order(left=1, brake=1)),
        ("Droite", Order(right=1)),
        ("none", NO_ORDER),
        ("rien", NO_ORDER),
        ("", NO_ORDER),
        ("   ", NO_ORDER),
        ("power super-turn left left", Order(left=2, powers=("superturn",))),
        ("pouvoir bouclier brake", Order(brake=1, powers=("shield",))),
        ("power Side_Slip right", Order(right=1, powers=("slip",))),
        ("power tir-arrière", Order(powers=("rearshot",))),
        ("power turbo power armour", Order(powers=("armour", "turbo"))),
    ],
)
def test_parse(text: str, order: Order) -> None:
    assert parse_order(text) == order
    assert SPACEBLAST.parse_orders(text) == (order,)


@pytest.mark.parametrize(
    ("text", "got", "position"),
    [("left jump", "jump", 5), ("none left", "none", 0), ("power", "end", 5), ("left power warp", "warp", 11)],
)
def test_bad_syntax_says_what_and_where(text: str, got: str, position: int) -> None:
    with pytest.raises(OrderError) as error:
        parse_order(text)
    assert error.value.code == "bad_syntax"
    assert (error.value.params["got"], error.value.params["position"]) == (got, position)


def test_canonical_text() -> None:
    assert format_order(parse_order("mine missile right power shield")) == "right missile mine power shield"
    assert format_order(NO_ORDER) == "none"
    assert parse_order("left left brake").tokens() == ["left", "left", "brake"]


orders = st.builds(
    Order,
    left=st.integers(0, 4),
    right=st.integers(0, 4),
    brake=st.integers(0, 3),
    missile=st.integers(0, 4),
    mine=st.integers(0, 2),
    powers=st.lists(st.sampled_from(POWERS), max_size=3).map(lambda p: tuple(sorted(p))),
)


@given(orders)
def test_round_trip(order: Order) -> None:
    """Like python-chess's Move.from_uci(move.uci()) == move: every order (legal or not) reads back."""
    assert SPACEBLAST.parse_orders(SPACEBLAST.format_order(order)) == (order,)
