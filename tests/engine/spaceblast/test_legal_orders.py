"""legal_orders (SB-5, SB-17, SB-18): every token set a ship may give now, each accepted as submitted.

Counts pin the generation like perft counts pin a chess move generator: a full standard ship has
3 turn choices x brake x missile x mine = 24 sets, less the 2 that hold four tokens.
"""

from __future__ import annotations

from itertools import product

import pytest

from engine.core.errors import OrderError
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.orders import Order
from engine.spaceblast.state import GameState


def legal(state: GameState, ident: str) -> list[Order]:
    return list(SPACEBLAST.legal_orders(state, ident))


def accepted(state: GameState, ident: str, order: Order) -> bool:
    try:
        SPACEBLAST.apply_input(state, "order", ident, {"text": SPACEBLAST.format_order(order)})
    except OrderError:
        return False
    return True


def candidates(powers: tuple[str, ...]) -> list[Order]:
    """A superset of every order a ship could give: up to 3 of each token, any subset of `powers`."""
    subsets = [tuple(p for p, keep in zip(powers, mask, strict=True) if keep)
               for mask in product((False, True), repeat=len(powers))]
    return [Order(left, right, brake, missile, mine, tuple(sorted(subset)))
            for left, right, brake, missile, mine in product(range(4), range(4), range(3), range(4), range(3))
            for subset in subsets]


@pytest.mark.parametrize(
    ("fields", "document", "count"),
    [
        ({}, {}, 22),
        ({"missiles": 0}, {}, 12),
        ({"turns": 0, "brakes": 0, "missiles": 0, "mines": 0}, {}, 1),
        ({"powers": ["shield"]}, {"variants": ["powers"]}, 44),
        ({"powers": ["superturn"]}, {"variants": ["powers"]}, 22 + 50),
        ({"powers": ["slip"]}, {"variants": ["powers"]}, 22 + 2 * 7),
        ({"powers": ["rearshot"], "missiles": 1}, {"variants": ["powers"]}, 22 + 12),
        ({}, {"variants": ["bigbang"]}, 66 * 3 * 2 * 2),
        ({}, {"variants": ["bigbang3"]}, 66 * 3 * 4 * 2),
        ({}, {"mines": [{"owner": "b", "at": "G7", "active": True}]}, 12),
    ],
)
def test_counts(sb, fields, document, count) -> None:
    state = sb.game(sb.ship("a", "G7", "E", **fields), sb.ship("b", "J4", "W"), **document)
    assert len(legal(state, "a")) == count


@pytest.mark.parametrize(
    ("fields", "document"),
    [
        ({}, {}),
        ({"turns": 2, "missiles": 1, "powers": ["superturn", "rearshot", "slip"]}, {"variants": ["powers"]}),
        ({"turns": 3, "brakes": 1, "powers": ["superturn", "energy"]}, {"variants": ["powers", "bigbang3"]}),
    ],
)
def test_legal_is_exactly_what_is_accepted(sb, fields, document) -> None:
    """Both ways: every listed order is accepted, every other candidate refused."""
    state = sb.game(sb.ship("a", "G7", "E", **fields), sb.ship("b", "J4", "W"), **document)
    listed = set(legal(state, "a"))
    assert len(listed) == len(legal(state, "a"))
    for order in candidates(state.ship("a").powers):
        assert accepted(state, "a", order) == (order in listed), order


def test_nothing_to_give_outside_the_orders_phase(sb) -> None:
    state = sb.game(sb.ship("a", "G7", "E", powers=["timejump"]), sb.ship("b", "A7", "E"), variants=["powers"])
    assert legal(state, "nobody") == []
    jumping = sb.turn(state, a="power timejump").state
    assert jumping.phase == "jump" and legal(jumping, "a") == []
    over = sb.turn(jumping).state
    assert over.status == "finished" and legal(over, "a") == [] and legal(over, "b") == []
    assert legal(SPACEBLAST.setup({}), "a") == []
