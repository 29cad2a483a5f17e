"""Builders for Arkeon unit tests: positions written as compactly as the scenario files
(imported by the tests; a plain module rather than a conftest, so imports are explicit)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.arkeon import ARKEON
from engine.arkeon.state import ArkeonState
from engine.core.errors import OrderError
from engine.core.protocol import Outcome


def piece(side: str, kind: str, at: str, facing: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"side": side, "kind": kind, "at": at}
    if facing is not None:
        data["facing"] = facing
    return data


def position(*pieces: dict[str, Any], to_move: str = "blue", **document: Any) -> ArkeonState:
    """A position with the two bases on their home cells unless `pieces` places them."""
    listed = list(pieces)
    for side, home in (("blue", "C2"), ("red", "C6")):
        if not any(p["side"] == side and p["kind"] == "base" for p in listed):
            listed.append(piece(side, "base", home))
    return ARKEON.setup({"to_move": to_move, "pieces": listed, **document})


def opening(to_move: str = "blue") -> ArkeonState:
    return ARKEON.setup({"to_move": to_move})


def lobby(seed: int = 0) -> ArkeonState:
    return ARKEON.setup({"phase": "setup"}, seed)


def dumped(state: ArkeonState) -> str:
    return json.dumps(ARKEON.to_json(state), sort_keys=True)


def play(state: ArkeonState, side: str, text: str) -> Outcome[ArkeonState]:
    return ARKEON.apply_input(state, "order", side, {"text": text})


def after(state: ArkeonState, side: str, text: str) -> ArkeonState:
    return play(state, side, text).state


def refused(state: ArkeonState, kind: str, actor: str | None, payload: dict[str, Any]) -> OrderError:
    """Apply an input that must be refused; check the state is untouched and return the error."""
    before = dumped(state)
    with pytest.raises(OrderError) as error:
        ARKEON.apply_input(state, kind, actor, payload)
    assert dumped(state) == before
    return error.value


def refused_order(state: ArkeonState, side: str, text: str) -> str:
    return refused(state, "order", side, {"text": text}).code


def cells(state: ArkeonState) -> dict[str, Any]:
    return ARKEON.view(state)["cells"]


def kinds(outcome: Outcome[ArkeonState]) -> list[str]:
    return [e.kind for e in outcome.events]
