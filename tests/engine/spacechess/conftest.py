"""Builders for Space Chess unit tests: positions written as compactly as the scenario files."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.core.errors import OrderError
from engine.core.protocol import Outcome
from engine.spacechess import SPACECHESS
from engine.spacechess.state import GameState

SOLDIER = {
    "role": "soldier",
    "weapon": "bolter",
    "armour": "light",
    "items": ["grenades", "scope"],
    "ability": "rage",
    "cards": [1, 2],
}
GENERAL = {"role": "general", "cards": [6, 7]}


def open_map(width: int = 10, height: int = 10, obstacles: tuple[str, ...] = ()) -> str:
    """An all-floor map with '#' at the given cells (SC-34 text: highest row first)."""
    rows = [["."] * width for _ in range(height)]
    for name in obstacles:
        x, y = ord(name[0]) - ord("A"), int(name[1:]) - 1
        rows[y][x] = "#"
    return "".join("".join(row) + "\n" for row in reversed(rows))


def soldier(ident: str, team: int, at: str, **fields: Any) -> dict[str, Any]:
    return {**SOLDIER, "id": ident, "team": team, "at": at, **fields}


def general(ident: str, team: int, at: str, **fields: Any) -> dict[str, Any]:
    return {**GENERAL, "id": ident, "team": team, "at": at, **fields}


def build(*characters: dict[str, Any], map_text: str | None = None, **document: Any) -> GameState:
    """A running game; generals far away on rows that end nothing are added when missing."""
    chars = list(characters)
    teams_with_general = {c["team"] for c in chars if c["role"] == "general"}
    map_text = map_text or open_map()
    height = len(map_text.strip().splitlines())
    if 1 not in teams_with_general:
        chars.append(general("G1", 1, f"J{2 if height > 2 else 1}"))
    if 2 not in teams_with_general:
        chars.append(general("G2", 2, f"J{height - 1}"))
    return SPACECHESS.setup({"map": map_text, "characters": chars, **document})


def play(state: GameState, actor: str, text: str) -> Outcome[GameState]:
    return SPACECHESS.apply_input(state, "order", actor, {"text": text})


def dumped(state: GameState) -> str:
    return json.dumps(SPACECHESS.to_json(state), sort_keys=True)


def refused(state: GameState, kind: str, actor: str | None, payload: dict[str, Any]) -> OrderError:
    """Apply an input that must be refused; check the state is untouched and return the error."""
    before = dumped(state)
    with pytest.raises(OrderError) as error:
        SPACECHESS.apply_input(state, kind, actor, payload)
    assert dumped(state) == before
    return error.value


def view_of(state: GameState, ident: str) -> dict[str, Any]:
    return SPACECHESS.view(state)["characters"][ident]


def kinds(outcome: Outcome[GameState]) -> list[str]:
    return [event.kind for event in outcome.events]


@pytest.fixture(scope="session")
def sc() -> Callable[..., Any]:
    """Namespace of the builders above, so test modules need no import of this conftest."""

    class Builders:
        pass

    for helper in (open_map, soldier, general, build, play, dumped, refused, view_of, kinds):
        setattr(Builders, helper.__name__, staticmethod(helper))
    return Builders
