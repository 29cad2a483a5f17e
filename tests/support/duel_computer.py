"""Computer players of the duel test game: the search of engine/core/search.py with a simple
evaluation (its lead), deeper at higher levels. The model of a real game's computer module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.protocol import GameRules
from engine.core.search import best_order
from tests.support.variants import DuelState

LEVELS = ("easy", "normal", "hard")
DEPTHS = {"easy": 1, "normal": 2, "hard": 4}


def lead(state: DuelState, side: str) -> float:
    return sum(total if actor == side else -total for actor, total in state.tallies.items())


def choose(rules: GameRules, state: DuelState, actor: str, level: str, *, seed: int,
           stop: Callable[[], bool]) -> list[tuple[str, dict[str, Any]]]:
    order, _ = best_order(rules, state, actor, lead, opponent=lambda s, _mover: list(s.tallies)[s.to_move],
                          max_depth=DEPTHS[level], stop=stop, seed=seed)
    return [("order", {"text": rules.format_order(order)})]
