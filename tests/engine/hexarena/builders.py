"""Builders for HexArena unit tests: positions written as compactly as the scenario files
(imported by the tests; a plain module rather than a conftest, so imports are explicit)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core.errors import OrderError
from engine.hexarena import HEXARENA
from engine.hexarena.state import ArenaState


def ship(ident: str, side: str, kind: str, at: str | None, facing: str | None = None, **more: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"id": ident, "side": side, "type": kind, **more}
    if at is not None:
        data["at"] = at
    if facing is not None:
        data["facing"] = facing
    return data


#: the two admirals out of the way (corners that are no base cell), for positions about other ships
ADMIRALS = [ship("ra", "red", "admiral", "A1"), ship("ba", "blue", "admiral", "M7")]


def arena(ships: list[dict[str, Any]] | None = None, **document: Any) -> ArenaState:
    if ships is not None:
        document["ships"] = ships
    return HEXARENA.setup(document)


def dumped(state: ArenaState) -> str:
    return json.dumps(HEXARENA.to_json(state), sort_keys=True)


def play(state: ArenaState, side: str, text: str) -> ArenaState:
    return HEXARENA.apply_input(state, "order", side, {"text": text}).state


def refused(state: ArenaState, side: str, text: str, code: str) -> OrderError:
    """The order is refused with `code` and the state is left exactly as it was."""
    before = dumped(state)
    with pytest.raises(OrderError) as caught:
        play(state, side, text)
    assert caught.value.code == code, caught.value
    assert dumped(state) == before
    return caught.value
