"""The Space Chess order language: parsing and canonical text.

One order is a keyword followed by its arguments; orders are separated by ``;`` and a batch is
applied all or nothing. Keywords are case-insensitive, accents are ignored, and each has French
aliases so players can write the language of the original forum game:

==============================  =====================================================
``move C12``                    ``deplace``, ``deplacer``, ``bouge``
``move C12 drop scope``         SC-33: take the pickup at C12 and leave ``scope`` there
                                (``drop``/``lache``; also ``drop <weapon>`` to swap
                                for a weapon pickup)
``shoot bob``                   ``tir``, ``tire``, ``tirer``
``grenade C12``                 ``grenades``; C12 is the top-left cell of the 2x2 square
                                as drawn (row 1 at the bottom): C12, D12, C11, D11
``vehicle``                     ``vehicule``
``rage``
``friendship bob``              ``amitie``
``airstrike C12 NE``            ``frappe``; directions N NE E SE S SW W NW (French
                                ``O``, ``NO``, ``SO`` accepted for W, NW, SW)
``encourage``                   ``encouragement``, ``encourager``
``intimidate bob D20``          ``intimidation``, ``intimider``
``hack``                        ``piratage``, ``pirater``
``heal bob``                    ``soin``, ``soigner``
``teleport bob K30``            ``teleportation``, ``teleporter``, ``teleporte``
==============================  =====================================================

Cells are written ``C12``, ``c12`` or ``C 12`` (SC-1). Characters are named by id, spaces included
(``heal Jean Luc``, ``teleport Jean Luc K30``: the name runs up to the final cell). A syntax error
says what was expected, what was found and where (0-based character offset in the text); in a
batch of several orders, which order it is (``batch_order``, ``batch_text``, as `play` does for an
order the rules refuse). An empty part (``move C3;;``, ``;``) is refused, as in every game's batch.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

from engine.core.batch import in_batch, segment_text, segments
from engine.core.errors import OrderError
from engine.core.squaregrid import Cell, format_cell, parse_cell
from engine.spacechess.ruleset import ITEMS, WEAPONS

#: argument kinds per canonical verb, in order; "drop" is the optional SC-33 clause of a move.
GRAMMAR: dict[str, tuple[str, ...]] = {
    "move": ("cell", "drop"),
    "shoot": ("character",),
    "grenade": ("cell",),
    "vehicle": (),
    "rage": (),
    "friendship": ("character",),
    "airstrike": ("cell", "direction"),
    "encourage": (),
    "intimidate": ("character", "cell"),
    "hack": (),
    "heal": ("character",),
    "teleport": ("character", "cell"),
}

_ALIASES = {
    "deplace": "move",
    "deplacer": "move",
    "bouge": "move",
    "tir": "shoot",
    "tire": "shoot",
    "tirer": "shoot",
    "grenades": "grenade",
    "vehicule": "vehicle",
    "amitie": "friendship",
    "frappe": "airstrike",
    "encouragement": "encourage",
    "encourager": "encourage",
    "intimidation": "intimidate",
    "intimider": "intimidate",
    "piratage": "hack",
    "pirater": "hack",
    "soin": "heal",
    "soigner": "heal",
    "teleportation": "teleport",
    "teleporter": "teleport",
    "teleporte": "teleport",
}
VERBS: dict[str, str] = {**{verb: verb for verb in GRAMMAR}, **_ALIASES}

DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
_DIRECTION_ALIASES = {**{d: d for d in DIRECTIONS}, "O": "W", "NO": "NW", "SO": "SW"}
_DROP_WORDS = frozenset({"drop", "lache"})
_DROPPABLE = frozenset(ITEMS) | frozenset(WEAPONS)

_CELL_RE = re.compile(r"[a-z][0-9]+", re.ASCII | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Order:
    verb: str
    target: str | None = None
    cell: Cell | None = None
    direction: str | None = None
    drop: str | None = None
    #: the text it was typed as in its batch (``tir Dee``), for a refusal to name it; not part of
    #: what the order is
    typed: str = field(default="", compare=False, repr=False)


def _fold(word: str) -> str:
    """Case- and accent-insensitive form of a keyword (``Déplace`` -> ``deplace``)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class _Tokens:
    """The tokens of one order with their offsets, read left to right."""

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

    def take_name(self, following: tuple[str, ...]) -> str:
        """A character's name, which may hold spaces (``shoot Jean Luc``): every word left when the
        name ends the order, every word but the final cell when a cell follows
        (``teleport Jean Luc K30``), else one word."""
        words = [self.take("character")[0]]
        if following in ((), ("cell",)):
            end = len(self.tokens) - (self._final_cell_width() if following else 0)
            words.extend(text for text, _ in self.tokens[self.index : end])
            self.index = max(self.index, end)
        return " ".join(words)

    def _final_cell_width(self) -> int:
        """How many of the tokens left the order's final cell takes: ``C12`` one, ``C 12`` two."""
        left = self.tokens[self.index :]
        if len(left) >= 2 and left[-1][0].isdigit() and len(left[-2][0]) == 1 and left[-2][0].isalpha():
            return 2
        return min(len(left), 1)

    def take_cell(self) -> Cell:
        text, position = self.take("cell")
        following = self.peek()
        if len(text) == 1 and text.isalpha() and following is not None and following[0].isdigit():
            self.index += 1
            text = f"{text}{following[0]}"
        if not _CELL_RE.fullmatch(text):
            raise OrderError("bad_syntax", expected="cell", got=text, position=position)
        return parse_cell(text)


def _parse_one(tokens: _Tokens) -> Order:
    word, position = tokens.take("order")
    verb = VERBS.get(_fold(word))
    if verb is None:
        raise OrderError("bad_syntax", expected="order", got=word, position=position)
    args: dict[str, object] = {}
    kinds = GRAMMAR[verb]
    for index, kind in enumerate(kinds):
        if kind == "cell":
            args["cell"] = tokens.take_cell()
        elif kind == "character":
            args["target"] = tokens.take_name(kinds[index + 1 :])
        elif kind == "direction":
            text, at = tokens.take("direction")
            direction = _DIRECTION_ALIASES.get(text.upper())
            if direction is None:
                raise OrderError("bad_syntax", expected="direction", got=text, position=at)
            args["direction"] = direction
        elif kind == "drop":
            following = tokens.peek()
            if following is not None and _fold(following[0]) in _DROP_WORDS:
                tokens.index += 1
                text, at = tokens.take("item")
                if text.lower() not in _DROPPABLE:
                    raise OrderError("bad_syntax", expected="item", got=text, position=at)
                args["drop"] = text.lower()
    extra = tokens.peek()
    if extra is not None:
        raise OrderError("bad_syntax", expected="end of order", got=extra[0], position=extra[1])
    return Order(verb, **args)  # type: ignore[arg-type]


def parse_orders(text: str) -> tuple[Order, ...]:
    """Parse a `;` batch of at least one order (an empty part is refused: `segments`); in a batch of
    several, a syntax error names the order it is in (`in_batch`)."""
    parts = segments(text)
    if not parts:
        raise OrderError("bad_syntax", expected="order", got="end", position=len(text))
    orders = []
    for number, part in enumerate(parts, start=1):
        typed = segment_text(text, part)
        try:
            orders.append(replace(_parse_one(_Tokens(*part)), typed=typed))
        except OrderError as err:
            raise (in_batch(err, number, typed) if len(parts) > 1 else err) from None
    return tuple(orders)


def format_order(order: Order) -> str:
    """Canonical English text; parse_orders(format_order(o)) == (o,)."""
    parts = [order.verb]
    for kind in GRAMMAR[order.verb]:
        if kind == "cell" and order.cell is not None:
            parts.append(format_cell(order.cell))
        elif kind == "character" and order.target is not None:
            parts.append(order.target)
        elif kind == "direction" and order.direction is not None:
            parts.append(order.direction)
        elif kind == "drop" and order.drop is not None:
            parts.extend(("drop", order.drop))
    return " ".join(parts)
