"""The computer player of Arkeon: the shared alpha-beta search (engine/core/search.py) over the
engine's turns, with an evaluation of material on the board and in reserve.

Listing the legal turns judges each candidate by resolving the whole turn on a copy (AK-12's
"destroyed at once"), a few hundred resolutions a position; the search instead plays the
engine's candidates as it reaches them and skips the ones the engine refuses, so the many that
alpha-beta cuts off are never resolved. Positions met again are looked up in a transposition table.
Levels search deeper on larger node budgets, so they play the same moves on any machine unless the
bot's time per move runs out first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.arkeon import legal
from engine.arkeon.pieces import other
from engine.core.protocol import GameRules
from engine.core.search import SearchStats, best_order

LEVELS = ("easy", "normal", "hard")
DEPTHS = {"easy": 1, "normal": 2, "hard": 3}
#: positions a level may search per move beyond its first depth (which always completes): the
#: same moves on any machine, unless the bot's time per move runs out first (about 6,500 nodes a
#: second on one core: hard's slowest move takes under a second, benchmarks/bench_arkeon_computer.py)
MAX_NODES = {"easy": 0, "normal": 2_000, "hard": 6_000}
WEIGHTS = {"basic": 1.0, "triple": 2.5, "pacifier": 1.5, "cw": 1.5, "ccw": 1.5, "repulsor": 1.5, "base": 0.0}


def evaluate(rules: GameRules, state: Any, side: str) -> float:
    """Pieces on the board (advanced ones weigh more) and what is left to place, for `side` less
    the same for the other side."""
    score = 0.0
    for piece in state.cells.values():
        value = WEIGHTS[piece.kind]
        score += value if piece.side == side else -value
    for owner in state.reserves:
        reserve = state.reserves[owner]
        value = 0.2 * reserve.basic + 0.3 * len(state.available_advanced(owner))
        score += value if owner == side else -value
    return score


def _key(state: Any) -> Any:
    """What tells positions apart for the transposition table (the turn count and draw offers
    change no move)."""
    return (frozenset(state.cells.items()), tuple(state.reserves.values()), state.to_move, state.phase, state.placed)


def search(rules: GameRules, state: Any, actor: str, level: str, *, seed: int, stop: Callable[[], bool],
           budget: float = 1.0) -> tuple[Any, SearchStats]:
    """The level's search from `state` for `actor`'s side; `budget` scales its node budget (the
    seeded matches of the test suite play hard on a twentieth of it)."""
    side = rules.side_of(state, actor) or actor
    return best_order(rules, state, side, lambda node, side: evaluate(rules, node, side),
                      opponent=lambda node, mover: node.to_move or other(mover),
                      max_depth=DEPTHS[level], max_nodes=round(MAX_NODES[level] * budget), stop=stop, seed=seed,
                      candidates=legal.search_candidates, key=_key)


def choose(rules: GameRules, state: Any, actor: str, level: str, *, seed: int,
           stop: Callable[[], bool], budget: float = 1.0) -> list[tuple[str, dict[str, Any]]]:
    order, _ = search(rules, state, actor, level, seed=seed, stop=stop, budget=budget)
    return [("order", {"text": rules.format_order(order)})]


def accepts_draw(rules: GameRules, state: Any, side: str, level: str) -> bool:
    """A draw offered to the computer (bot/service/draw_offers.py): accepted when it stands worse
    — its evaluation of the position below 0 — at every level, so a player ahead cannot talk it
    into a draw and one behind can save a half point by asking."""
    return evaluate(rules, state, side) < 0
