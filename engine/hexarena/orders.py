"""The HexArena order language (reconstructed rules): one order text is one whole turn.

A turn lists its actions separated by ``;`` — exactly one in the base game, up to two in Alpha,
as many as 5 action points pay for in Omega (HA-12, HA-16, HA-17). There is no pass. A ship is
named by the cell it stands on *when its action comes*, so the second action of a turn sees the
board the first one left.

==========================  ==========================================================  =========
``move F3 G4``              a ship at F3 goes to G4: admiral/patrol 1 step, fighter     deplace
                            along its facing (teleport: name the cell after the wrap),
                            cargo 1 or 2 ahead, patrol teleport: the re-entry cell
``rotate F3 NE``            admiral, fighter or cargo turns to a new facing (HA-8)      tourne
``fire F3``                 admiral or fighter fires along its facing (HA-9)            tir
``ram F3 SE``               patrol rams the adjacent cargo that way (HA-7)              eperonne
``board F3 F4``             admiral at F3 boards the friendly cargo at F4 (HA-4)        monte
``leave F4 G5``             the admiral inside the cargo at F4 steps out to G5          descend
``recycle F3 H5``           admiral at F3 recycles the debris at H5 (HA-4): adjacent,   recycle
                            or two cells away in a line (the admiral then stands
                            between)
==========================  ==========================================================  =========

Keywords are case- and accent-insensitive, with the French words above as aliases; directions are
E NE NW W SW SE (French O NO SO accepted). Cells are row-letter notation (``G7``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from engine.core.batch import segments
from engine.core.errors import OrderError
from engine.core.hexgrid import Direction, Hex
from engine.hexarena.geometry import BOARD, cell_name

#: argument kinds per verb, in order
GRAMMAR: dict[str, tuple[str, ...]] = {
    "move": ("cell", "cell"),
    "rotate": ("cell", "direction"),
    "fire": ("cell",),
    "ram": ("cell", "direction"),
    "board": ("cell", "cell"),
    "leave": ("cell", "cell"),
    "recycle": ("cell", "cell"),
}
_ALIASES = {
    "deplace": "move",
    "deplacer": "move",
    "bouge": "move",
    "tourne": "rotate",
    "tourner": "rotate",
    "rotation": "rotate",
    "tir": "fire",
    "tire": "fire",
    "tirer": "fire",
    "eperonne": "ram",
    "eperonner": "ram",
    "monte": "board",
    "monter": "board",
    "embarque": "board",
    "descend": "leave",
    "descendre": "leave",
    "debarque": "leave",
    "recycler": "recycle",
}
VERBS: dict[str, str] = {**{verb: verb for verb in GRAMMAR}, **_ALIASES}
_DIRECTION_ALIASES = {**{d.name: d for d in Direction}, "O": Direction.W, "NO": Direction.NW, "SO": Direction.SW}
_EXPECTED = {"cell": "cell", "direction": "hex_direction"}
_CELL_RE = re.compile(r"[a-z][0-9]{1,3}", re.ASCII | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a turn: `at` names the acting ship's cell (the cargo's, for ``leave``);
    `to` is the second cell of move/board/leave/recycle, `direction` that of rotate/ram."""

    verb: str
    at: Hex
    to: Hex | None = None
    direction: Direction | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """A whole turn: the protocol's order. parse_orders gives exactly one per text."""

    actions: tuple[Action, ...]


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _parse_action(tokens: list[tuple[str, int]], end: int) -> Action:
    word, position = tokens[0]
    verb = VERBS.get(_fold(word))
    if verb is None:
        raise OrderError("bad_syntax", expected="action", got=word, position=position)
    cells: list[Hex] = []
    direction: Direction | None = None
    for index, kind in enumerate(GRAMMAR[verb], start=1):
        if index >= len(tokens):
            raise OrderError("bad_syntax", expected=_EXPECTED[kind], got="end", position=end)
        text, at = tokens[index]
        if kind == "cell":
            if not _CELL_RE.fullmatch(text):
                raise OrderError("bad_syntax", expected="cell", got=text, position=at)
            cells.append(BOARD.parse(text))
        else:
            direction = _DIRECTION_ALIASES.get(text.upper())
            if direction is None:
                raise OrderError("bad_syntax", expected="hex_direction", got=text, position=at)
    if len(tokens) > len(GRAMMAR[verb]) + 1:
        text, at = tokens[len(GRAMMAR[verb]) + 1]
        raise OrderError("bad_syntax", expected="end of order", got=text, position=at)
    return Action(verb, cells[0], cells[1] if len(cells) > 1 else None, direction)


def parse_turn(text: str) -> Turn:
    """One turn; empty segments between `;` are ignored, but a turn holds at least one action."""
    actions = tuple(_parse_action(tokens, end) for tokens, end in segments(text))
    if not actions:
        raise OrderError("bad_syntax", expected="action", got="end", position=len(text))
    return Turn(actions)


def format_action(action: Action) -> str:
    parts = [action.verb, cell_name(action.at)]
    if action.to is not None:
        parts.append(cell_name(action.to))
    if action.direction is not None:
        parts.append(action.direction.name)
    return " ".join(parts)


def format_turn(turn: Turn) -> str:
    """Canonical English text; parse_turn(format_turn(t)) == t."""
    return "; ".join(format_action(action) for action in turn.actions)
