"""The Arkeon setup document (scenarios.md, AK-10 pinned): a lobby, or a position to play from.

``phase = "setup"`` alone (what ``/ak new`` makes) opens a lobby on the empty board with the two
bases; players join, ``start`` draws the starter from the seed, and the setup placements follow.
With a position besides (``to_move``, ``pieces``, ``reserve``), the lobby is on that position: its
seats are open to ``join`` (and a computer's challenge), and ``start`` plays from it, the side to
move first as the document says (else drawn from the seed). Without ``phase`` (or with ``phase =
"running"``) the document is a position that runs at once: ``to_move`` (drawn from the
seed when absent), ``[[pieces]]`` (``side, kind, at, facing``; absent = the standard opening after
the 3+3 placements) and ``reserve`` (``{blue = {basic = N, advanced = [kinds]}, ...}``; a side left
out holds every basic not on the board and every advanced kind not on it). ``seed`` may be given
(the scenario runner passes it on). Every fault is a SetupError whose `where` is the key path to
fix (``pieces[2].facing``; list indexes from 0). A document's ``seed``, when given, is the game's seed
(who starts, AK-10), whatever seed the bot drew for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.arkeon.endings import stuck
from engine.arkeon.lobby import starter_of
from engine.arkeon.pieces import (
    ADVANCED,
    AGGRESSIVE,
    BASE,
    BASIC,
    BASICS_PER_SIDE,
    BLUE,
    BOARD,
    HOME,
    KINDS,
    RED,
    SIDES,
    Piece,
)
from engine.arkeon.state import LOBBY, RUNNING, ArkeonState, Reserve
from engine.core.documents import INT_MAX, INT_MIN
from engine.core.errors import OrderError, SetupError
from engine.core.hexgrid import Direction, Hex

DOCUMENT_KEYS = frozenset({"phase", "seed", "to_move", "pieces", "reserve"})
PIECE_KEYS = frozenset({"side", "kind", "at", "facing"})
RESERVE_KEYS = frozenset({"basic", "advanced"})
_POSITION_KEYS = ("to_move", "pieces", "reserve")

#: AK-10 pinned: each side's three basics on its base's neighbours towards the centre, pointing away
STANDARD_OPENING: tuple[tuple[str, str, str | None, str], ...] = (
    ("C2", BASE, None, BLUE),
    ("B2", BASIC, "NE", BLUE),
    ("C3", BASIC, "E", BLUE),
    ("D2", BASIC, "SE", BLUE),
    ("C6", BASE, None, RED),
    ("B5", BASIC, "NW", RED),
    ("C5", BASIC, "W", RED),
    ("D5", BASIC, "SW", RED),
)


def standard_opening() -> dict[Hex, Piece]:
    return {
        BOARD.parse(at): Piece(side, kind, None if facing is None else Direction[facing])
        for at, kind, facing, side in STANDARD_OPENING
    }


def lobby_board() -> dict[Hex, Piece]:
    return {cell: Piece(side, BASE) for side, cell in HOME.items()}


def full_reserves(cells: Mapping[Hex, Piece]) -> dict[str, Reserve]:
    on_board = {side: sum(1 for p in cells.values() if p.side == side and p.kind == BASIC) for side in SIDES}
    return {side: Reserve(BASICS_PER_SIDE - on_board[side]) for side in SIDES}


def _check_keys(data: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise SetupError("unknown_key", f"{where}{key}", allowed=sorted(allowed))


def _side(value: Any, where: str) -> str:
    if value not in SIDES:
        raise SetupError("bad_side", where, value=value, allowed=list(SIDES))
    return str(value)


def _facing(kind: str, data: Mapping[str, Any], where: str) -> Direction | None:
    value = data.get("facing")
    if kind not in AGGRESSIVE:
        if value is not None:
            raise SetupError("bad_facing", where, reason="none_expected", kind=kind, value=value)
        return None
    if not isinstance(value, str):
        raise SetupError("bad_facing", where, reason="missing", kind=kind, value=value,
                         allowed=[d.name for d in Direction])
    try:
        return Direction.parse(value)
    except OrderError:
        raise SetupError("bad_facing", where, reason="unknown", value=value,
                         allowed=[d.name for d in Direction]) from None


def _pieces(raw: Any) -> dict[Hex, Piece]:
    if not isinstance(raw, list):
        raise SetupError("bad_piece", "pieces", reason="not_a_list")
    cells: dict[Hex, Piece] = {}
    for index, data in enumerate(raw):
        where = f"pieces[{index}]"
        if not isinstance(data, Mapping):
            raise SetupError("bad_piece", where, reason="not_a_table")
        _check_keys(data, PIECE_KEYS, f"{where}.")
        side = _side(data.get("side"), f"{where}.side")
        kind = data.get("kind")
        if kind not in KINDS:
            raise SetupError("bad_kind", f"{where}.kind", value=kind, allowed=list(KINDS))
        try:
            cell = BOARD.parse(data["at"] if isinstance(data.get("at"), str) else "")
        except OrderError:
            raise SetupError("bad_cell", f"{where}.at", cell=data.get("at")) from None
        if cell in cells:
            raise SetupError("occupied", f"{where}.at", cell=data["at"], by=cells[cell].side)
        if kind != BASIC and any(p.side == side and p.kind == kind for p in cells.values()):
            raise SetupError("duplicate_piece", f"{where}.kind", side=side, kind=kind)
        cells[cell] = Piece(side, str(kind), _facing(str(kind), data, f"{where}.facing"))
    for side in SIDES:
        if not any(p.side == side and p.kind == BASE for p in cells.values()):
            raise SetupError("missing_base", "pieces", side=side)
        basics = sum(1 for p in cells.values() if p.side == side and p.kind == BASIC)
        if basics > BASICS_PER_SIDE:
            raise SetupError("too_many", "pieces", side=side, kind=BASIC, count=basics, maximum=BASICS_PER_SIDE)
    return cells


def _reserve(cells: Mapping[Hex, Piece], side: str, data: Any, where: str) -> Reserve:
    if not isinstance(data, Mapping):
        raise SetupError("bad_reserve", where, reason="not_a_table")
    _check_keys(data, RESERVE_KEYS, f"{where}.")
    on_board = [p.kind for p in cells.values() if p.side == side]
    room = BASICS_PER_SIDE - on_board.count(BASIC)
    basic = data.get("basic", room)
    if isinstance(basic, bool) or not isinstance(basic, int) or not 0 <= basic <= room:
        raise SetupError("bad_reserve", f"{where}.basic", reason="count", value=basic, maximum=room)
    listed = data.get("advanced", [kind for kind in ADVANCED if kind not in on_board])
    if not isinstance(listed, list):
        raise SetupError("bad_reserve", f"{where}.advanced", reason="not_a_list")
    for index, kind in enumerate(listed):
        reason = (
            "unknown" if kind not in ADVANCED
            else "duplicate" if kind in listed[:index]
            else "on_board" if kind in on_board
            else None
        )
        if reason is not None:
            raise SetupError("bad_reserve", f"{where}.advanced[{index}]", reason=reason, value=kind,
                             allowed=list(ADVANCED))
    removed = frozenset(kind for kind in ADVANCED if kind not in on_board and kind not in listed)
    # AK-14: once all five are removed they are all available again
    return Reserve(basic, frozenset() if removed == frozenset(ADVANCED) else removed)


def _reserves(cells: Mapping[Hex, Piece], raw: Any) -> dict[str, Reserve]:
    if not isinstance(raw, Mapping):
        raise SetupError("bad_reserve", "reserve", reason="not_a_table")
    _check_keys(raw, frozenset(SIDES), "reserve.")
    return {side: _reserve(cells, side, raw.get(side, {}), f"reserve.{side}") for side in SIDES}


def _seed(document: Mapping[str, Any]) -> None:
    value = document.get("seed", 0)
    if isinstance(value, bool) or not isinstance(value, int) or not INT_MIN <= value <= INT_MAX:
        raise SetupError("bad_seed", "seed", value=value)


def build_state(document: Mapping[str, Any], seed: int) -> ArkeonState:
    if not isinstance(document, Mapping):
        raise SetupError("bad_document", "")
    _check_keys(document, DOCUMENT_KEYS, "")
    _seed(document)
    seed = document.get("seed", seed)  # a document's own seed wins: a demo or a test replays the same draw
    phase = document.get("phase", RUNNING)
    if phase not in ("setup", RUNNING):
        raise SetupError("bad_phase", "phase", value=phase, allowed=["setup", RUNNING])
    if phase == "setup" and not any(key in document for key in _POSITION_KEYS):
        cells = lobby_board()
        return ArkeonState(cells=cells, reserves=full_reserves(cells), phase=LOBBY, seed=seed)
    cells = _pieces(document["pieces"]) if "pieces" in document else standard_opening()
    reserves = _reserves(cells, document.get("reserve", {}))
    to_move = _side(document["to_move"], "to_move") if "to_move" in document else starter_of(seed)
    if phase == "setup":  # a position whose seats are open: players join, `start` plays from it
        return ArkeonState(cells=cells, reserves=reserves, phase=LOBBY, seed=seed, starter=to_move)
    state = ArkeonState(cells=cells, reserves=reserves, phase=RUNNING, to_move=to_move, seed=seed)
    return stuck(state)[0]
