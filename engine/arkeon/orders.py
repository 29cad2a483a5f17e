"""The Arkeon order language: parsing and canonical text (AK-11).

A turn is one order; a player writes it as a keyword, then its arguments, separated by spaces:

=================================  ===================================================================
``place basic C3 E``               place a piece from the reserve on C3 facing E (basic and triple
``place triple B2 NE``             take a direction, the other pieces none)
``place pacifier C4``
``place cw C4`` / ``place ccw C4``
``place repulsor D3``
``swap C3 triple SE``              replace one's piece on C3 by another from the reserve (basic ↔
``swap C3 pacifier``               advanced), with the new piece's direction when it takes one
``swap C3 basic NE``
=================================  ===================================================================

Only during the setup placements (AK-10) may a message hold several orders, separated by ``;``
(``place basic B2 NE; place basic C3 E; place basic D2 SE``).

Keywords are case- and accent-insensitive and have French aliases, so players may write the
source's words: ``pose``/``poser``/``placer`` for place, ``echange``/``echanger`` for swap;
``basique``, ``pacificateur``, ``horaire`` (cw), ``antihoraire`` or ``anti-horaire`` (ccw),
``repulseur``; English ``clockwise``/``counterclockwise`` work too. Directions are ``E NE NW W SW
SE`` (French ``O NO SO`` for W NW SW). Cells are row-letter names, ``C3``, ``c3`` or ``C 3`` (AK-1).

A syntax error is ``bad_syntax`` with what was `expected` (``arkeon_order``, ``piece``, ``cell``,
``hex_direction`` or ``end of order``: the catalogs word each as ``syntax.<expected>``), what was
found (`got`, ``"end"`` when the text ran out) and where (`position`, a 0-based character offset).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.arkeon.pieces import (
    ADVANCED,
    AGGRESSIVE,
    BASIC,
    BOARD,
    CCW,
    CW,
    PACIFIER,
    REPULSOR,
    TRIPLE,
    cell_name,
)
from engine.core.batch import segments
from engine.core.errors import OrderError
from engine.core.hexgrid import Direction, Hex

PLACE, SWAP = "place", "swap"

_VERBS = {
    "place": PLACE,
    "placer": PLACE,
    "pose": PLACE,
    "poser": PLACE,
    "swap": SWAP,
    "echange": SWAP,
    "echanger": SWAP,
}
_KINDS = {
    "basic": BASIC,
    "basique": BASIC,
    "triple": TRIPLE,
    "pacifier": PACIFIER,
    "pacificateur": PACIFIER,
    "cw": CW,
    "clockwise": CW,
    "horaire": CW,
    "ccw": CCW,
    "counterclockwise": CCW,
    "anticlockwise": CCW,
    "antihoraire": CCW,
    "anti-horaire": CCW,
    "repulsor": REPULSOR,
    "repulseur": REPULSOR,
}
_DIRECTIONS = {**{d.name: d for d in Direction}, "O": Direction.W, "NO": Direction.NW, "SO": Direction.SW}
#: the kinds an order may name: never the base, which is never placed nor swapped
ORDER_KINDS: tuple[str, ...] = (BASIC, *ADVANCED)



@dataclass(frozen=True, slots=True)
class Order:
    verb: str  # PLACE | SWAP
    kind: str  # the piece placed or swapped in
    cell: Hex
    facing: Direction | None = None


def _fold(word: str) -> str:
    """Case- and accent-insensitive form of a keyword (``Répulseur`` -> ``repulseur``)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class _Tokens:
    """The words of one order with their offsets, read left to right."""

    def __init__(self, tokens: list[tuple[str, int]], end: int) -> None:
        self.tokens = tokens
        self.index = 0
        self.end = end

    def peek(self) -> tuple[str, int] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, expected: str) -> tuple[str, int]:
        token = self.peek()
        if token is None:
            raise OrderError("bad_syntax", expected=expected, got="end", position=self.end)
        self.index += 1
        return token

    def word(self, expected: str, table: dict[str, str]) -> str:
        text, position = self.take(expected)
        found = table.get(_fold(text))
        if found is None:
            raise OrderError("bad_syntax", expected=expected, got=text, position=position)
        return found

    def cell(self) -> Hex:
        """``C3``, or ``C 3`` written as two words; a well-formed name off the board is ``bad_cell``."""
        text, position = self.take("cell")
        following = self.peek()
        if len(text) == 1 and text.isalpha() and following is not None and following[0].isdigit():
            self.index += 1
            text += following[0]
        if not re.fullmatch(r"[A-Za-z][0-9]{1,3}", text):
            raise OrderError("bad_syntax", expected="cell", got=text, position=position)
        return BOARD.parse(text)

    def direction(self) -> Direction:
        text, position = self.take("hex_direction")
        found = _DIRECTIONS.get(text.upper())
        if found is None:
            raise OrderError("bad_syntax", expected="hex_direction", got=text, position=position)
        return found

    def finish(self) -> None:
        extra = self.peek()
        if extra is not None:
            raise OrderError("bad_syntax", expected="end of order", got=extra[0], position=extra[1])


def _parse_one(tokens: _Tokens) -> Order:
    verb = tokens.word("arkeon_order", _VERBS)
    if verb == PLACE:
        kind = tokens.word("piece", _KINDS)
        cell = tokens.cell()
    else:
        cell = tokens.cell()
        kind = tokens.word("piece", _KINDS)
    facing = tokens.direction() if kind in AGGRESSIVE else None
    tokens.finish()
    return Order(verb, kind, cell, facing)


def parse_orders(text: str) -> tuple[Order, ...]:
    """Parse a `;` batch (empty segments ignored); it must hold at least one order."""
    orders = tuple(_parse_one(_Tokens(words, end)) for words, end in segments(text))
    if not orders:
        raise OrderError("bad_syntax", expected="arkeon_order", got="end", position=len(text))
    return orders


def format_order(order: Order) -> str:
    """Canonical English text; parse_orders(format_order(o)) == (o,)."""
    if order.verb == PLACE:
        parts = [PLACE, order.kind, cell_name(order.cell)]
    else:
        parts = [SWAP, cell_name(order.cell), order.kind]
    if order.facing is not None:
        parts.append(order.facing.name)
    return " ".join(parts)
