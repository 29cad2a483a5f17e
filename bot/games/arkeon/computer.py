"""The computer player of Arkeon: the shared alpha-beta search (engine/core/search.py) over the
engine's legal turns, with an evaluation of material on the board and in reserve. Levels search
deeper, within the time the bot gives each move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.protocol import GameRules
from engine.core.search import best_order

LEVELS = ("easy", "normal", "hard")
DEPTHS = {"easy": 1, "normal": 2, "hard": 3}
WEIGHTS = {"basic": 1.0, "triple": 2.5, "pacifier": 1.5, "cw": 1.5, "ccw": 1.5, "repulsor": 1.5, "base": 0.0}


def evaluate(rules: GameRules, state: Any, side: str) -> float:
    """Pieces on the board (advanced ones weigh more) and what is left to place, for `side` less
    the same for the other side."""
    view = rules.view(state)
    score = 0.0
    for piece in view["cells"].values():
        value = WEIGHTS.get(piece["kind"], 1.0)
        score += value if piece["side"] == side else -value
    for owner, reserve in view["reserve"].items():
        value = 0.2 * reserve["basic"] + 0.3 * len(reserve["advanced"])
        score += value if owner == side else -value
    return score


def other_side(side: str) -> str:
    return "red" if side == "blue" else "blue"


def choose(rules: GameRules, state: Any, actor: str, level: str, *, seed: int,
           stop: Callable[[], bool]) -> list[tuple[str, dict[str, Any]]]:
    order, _ = best_order(rules, state, actor, lambda node, side: evaluate(rules, node, side),
                          opponent=lambda node, mover: rules.view(node)["to_move"] or other_side(mover),
                          max_depth=DEPTHS[level], stop=stop, seed=seed)
    return [("order", {"text": rules.format_order(order)})]
