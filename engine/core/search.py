"""Game-tree search for computer players of two-sided alternating games (HexArena, Arkeon).

Negamax with alpha-beta pruning and iterative deepening over `GameRules.legal_orders`: the rules
stay the one source of what may be played, so a computer player can only play legal moves. Pure
like the rest of engine/: the caller passes a `stop` callable (the bot checks its time budget in
it) and a node budget; ties between equal moves are broken by a seeded generator, so a game
replays the same from its seed.

An evaluation scores a position from one side's point of view (positive: good for it); finished
games score ±`WIN` (sooner wins score higher) or 0 for a draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import OrderError
from engine.core.protocol import GameRules

WIN = 1_000_000.0
Evaluate = Callable[[Any, str], float]


class _OutOfBudget(Exception):
    """The node budget or the caller's stop ended the search: the last finished depth stands."""


@dataclass
class SearchStats:
    nodes: int = 0
    depth: int = 0  # the deepest iteration that finished
    scores: dict[str, float] = field(default_factory=dict)  # root moves (formatted) at that depth


def _terminal_score(rules: GameRules, state: Any, side: str, ply: int) -> float | None:
    result = rules.result(state)
    if not result.finished:
        return None
    if result.winner is None:
        return 0.0
    return WIN - ply if str(result.winner) == side else -WIN + ply


def best_order(
    rules: GameRules,
    state: Any,
    side: str,
    evaluate: Evaluate,
    *,
    opponent: Callable[[Any, str], str],
    max_depth: int = 3,
    max_nodes: int = 50_000,
    stop: Callable[[], bool] = lambda: False,
    seed: int = 0,
) -> tuple[Any, SearchStats]:
    """The order `side` should play now, and how the search went.

    `opponent(state, mover)` names the side to move after `mover`'s order (whoever the rules say;
    once the game is over, the side that did not move, so the end is judged from its view). Raises
    OrderError("no_legal_move") when `side` has none (the rules then decide what that means).
    """
    rng = random.Random(seed)
    moves = list(rules.legal_orders(state, side))
    if not moves:
        raise OrderError("no_legal_move", side=side)
    rng.shuffle(moves)  # equal moves: the seed picks, not the generation order
    stats = SearchStats()
    best = moves[0]
    counter = [0]
    depth_limit = [1]  # the iteration running: the first one is never cut

    def negamax(node: Any, mover: str, depth: int, alpha: float, beta: float, ply: int) -> float:
        counter[0] += 1
        if depth_limit[0] > 1 and (counter[0] > max_nodes or (counter[0] % 256 == 0 and stop())):
            raise _OutOfBudget
        terminal = _terminal_score(rules, node, mover, ply)
        if terminal is not None:
            return terminal
        if depth == 0:
            return evaluate(node, mover)
        children = list(rules.legal_orders(node, mover))
        if not children:
            return evaluate(node, mover)
        value = -WIN * 2
        for order in children:
            child = rules.play(node, mover, [order]).state
            value = max(value, -negamax(child, opponent(child, mover), depth - 1, -beta, -alpha, ply + 1))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value

    ordered = moves
    for depth in range(1, max_depth + 1):
        if depth > 1 and stop():  # depth 1 always completes: a move is always chosen by the search
            break
        scores: dict[int, float] = {}
        depth_limit[0] = depth
        try:
            alpha = -WIN * 2
            for index, order in enumerate(ordered):
                child = rules.play(state, side, [order]).state
                scores[index] = -negamax(child, opponent(child, side), depth - 1, -WIN * 2, -alpha, 1)
                alpha = max(alpha, scores[index])
        except _OutOfBudget:
            break
        ranked = sorted(scores, key=lambda i: -scores[i])
        best = ordered[ranked[0]]
        stats.depth = depth
        stats.scores = {rules.format_order(ordered[i]): scores[i] for i in ranked}
        ordered = [ordered[i] for i in ranked]  # the best first: deeper iterations prune more
        if abs(scores[ranked[0]]) >= WIN - max_depth - 1:
            break  # a forced result is found: deeper will not change it
    stats.nodes = counter[0]
    return best, stats


def random_order(rules: GameRules, state: Any, side: str, rng: random.Random) -> Any:
    """A uniformly random legal order: the baseline a computer level must beat."""
    moves = list(rules.legal_orders(state, side))
    if not moves:
        raise OrderError("no_legal_move", side=side)
    return rng.choice(moves)
