"""Builders for SpaceBlast unit tests: positions written as compactly as the scenario files."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.core.errors import OrderError
from engine.core.protocol import Outcome
from engine.spaceblast import SPACEBLAST
from engine.spaceblast.state import GameState


def ship(ident: str, at: str, facing: str, **fields: Any) -> dict[str, Any]:
    return {"id": ident, "at": at, "facing": facing, **fields}


def game(*ships: dict[str, Any], **document: Any) -> GameState:
    return SPACEBLAST.setup({"ships": list(ships), **document})


def order(state: GameState, ident: str, text: str) -> Outcome[GameState]:
    return SPACEBLAST.apply_input(state, "order", ident, {"text": text})


def turn(state: GameState, **orders: str) -> Outcome[GameState]:
    """Submit the given orders (ship = text) and resolve the turn, as a scenario `orders` step does."""
    for ident, text in orders.items():
        state = order(state, ident, text).state
    return SPACEBLAST.apply_input(state, "resolve", None, {})


def lobby(*names: str, **document: Any) -> GameState:
    """A started game: players joined in this order, then `start`."""
    state = SPACEBLAST.setup(document)
    for name in names:
        state = SPACEBLAST.apply_input(state, "join", name, {"id": name}).state
    return SPACEBLAST.apply_input(state, "start", None, {}).state


def kinds(outcome: Outcome[GameState]) -> list[str]:
    return [e.kind for e in outcome.events if e.kind != "frames"]


def dumped(state: GameState) -> str:
    return json.dumps(SPACEBLAST.to_json(state), sort_keys=True)


def refused(state: GameState, kind: str, actor: str | None, payload: dict[str, Any]) -> OrderError:
    """Apply an input that must be refused; check the state is untouched and return the error."""
    before = dumped(state)
    with pytest.raises(OrderError) as error:
        SPACEBLAST.apply_input(state, kind, actor, payload)
    assert dumped(state) == before
    return error.value


def view_of(state: GameState, ident: str) -> dict[str, Any]:
    return SPACEBLAST.view(state)["ships"][ident]


@pytest.fixture(scope="session")
def sb() -> Callable[..., Any]:
    """Namespace of the builders above, so test modules need no import of this conftest."""

    class Builders:
        pass

    for helper in (ship, game, order, turn, lobby, kinds, dumped, refused, view_of):
        setattr(Builders, helper.__name__, staticmethod(helper))
    return Builders
