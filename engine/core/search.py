"""Game-tree search for computer players of two-sided alternating games (HexArena, Arkeon).

Negamax with alpha-beta pruning and iterative deepening over what the rules accept: by default
`GameRules.legal_orders`, each played with `GameRules.play`, so a computer player can only play
legal moves. A game may pass its own `children` (the orders worth trying with the position each
leads to): Arkeon checks each candidate only when the search reaches it, since alpha-beta never
looks at most of them — checking legality lazily is most of what makes a search deep enough.

What keeps the tree small: the previous iteration's best root move first, a transposition table
(positions met again through another move order, keyed by the game's `key`) that remembers each
position's best move, and killer moves (a move that cut off a sibling is tried early).

Pure like the rest of engine/: the caller passes a `stop` callable (the bot checks its time budget
in it) and a node budget; the node budget makes a level's moves the same on any machine unless
the time runs out first. Ties between equal moves are broken by a seeded generator, so a game
replays the same from its seed.

An evaluation scores a position from one side's point of view (positive: good for it); finished
games score ±`WIN` (sooner wins score higher) or 0 for a draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import OrderError
from engine.core.protocol import GameRules

WIN = 1_000_000.0
#: scores beyond this are wins or losses found by the search (WIN less the plies to them)
_DECIDED = WIN - 10_000
Evaluate = Callable[[Any, str], float]
#: the orders worth trying in a position, for the side to move: the legal ones, or a superset
Candidates = Callable[[Any, str], Iterable[Any]]
#: the position an order of the side to move leads to, None when the rules refuse it
Advance = Callable[[Any, str, Any], Any]
_EXACT, _LOWER, _UPPER = 0, 1, 2
_KILLERS = 2  # killer moves kept per ply


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


def played(rules: GameRules) -> Advance:
    """`GameRules.play`, a refusal read as None: the default way a search makes a move."""

    def advance(state: Any, side: str, order: Any) -> Any:
        try:
            return rules.play(state, side, [order]).state
        except OrderError:
            return None

    return advance


def _to_table(value: float, ply: int) -> float:
    """A decided score as seen from the stored position (so a transposition at another ply reads
    the same distance to the result)."""
    return value + ply if value > _DECIDED else value - ply if value < -_DECIDED else value


def _from_table(value: float, ply: int) -> float:
    return value - ply if value > _DECIDED else value + ply if value < -_DECIDED else value


class _Search:
    """One call of `best_order`: its counters, transposition table and killer moves."""

    def __init__(self, rules: GameRules, evaluate: Evaluate, opponent: Callable[[Any, str], str],
                 candidates: Candidates, advance: Advance, key: Callable[[Any], Hashable] | None,
                 max_nodes: int, stop: Callable[[], bool]) -> None:
        self.rules, self.evaluate, self.opponent = rules, evaluate, opponent
        self.candidates, self.advance, self.key = candidates, advance, key
        self.max_nodes, self.stop = max_nodes, stop
        self.nodes = 0
        self.cut = False  # the running iteration may be stopped (the first one never is)
        self.table: dict[Hashable, tuple[int, float, int, Any]] = {}
        self.killers: dict[int, list[Any]] = {}

    def children(self, node: Any, mover: str, first: list[Any]) -> Iterator[tuple[Any, Any]]:
        """The moves the rules accept with the positions they lead to: `first` (the table's best
        move, the killers) tried before the candidates, each candidate checked only when reached."""
        for order in first:
            child = self.advance(node, mover, order)
            if child is not None:
                yield order, child
        for order in self.candidates(node, mover):
            if order in first:
                continue
            child = self.advance(node, mover, order)
            if child is not None:
                yield order, child

    def negamax(self, node: Any, mover: str, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        # stop is asked at every node: a node of a game with long turns (HexArena's Omega) may take
        # milliseconds to expand, so asking every few hundred nodes would overrun the time budget
        if self.cut and (self.nodes > self.max_nodes or self.stop()):
            raise _OutOfBudget
        terminal = _terminal_score(self.rules, node, mover, ply)
        if terminal is not None:
            return terminal
        if depth == 0:
            return self.evaluate(node, mover)
        key = self.key(node) if self.key is not None else None
        entry = self.table.get(key) if key is not None else None
        first: list[Any] = []
        if entry is not None:
            stored_depth, stored, bound, move = entry
            value = _from_table(stored, ply)
            # only a search as deep as this one answers for it: a deeper one would be better, but
            # the answer would then depend on the order positions were met (the table is exact)
            if stored_depth == depth and (bound == _EXACT or (bound == _LOWER and value >= beta)
                                          or (bound == _UPPER and value <= alpha)):
                return value
            first.append(move)
        killers = self.killers.setdefault(ply, [])
        first.extend(k for k in killers if k not in first)
        original_alpha = alpha
        best_value, best_move = -WIN * 2, None
        for order, child in self.children(node, mover, first):
            value = -self.negamax(child, self.opponent(child, mover), depth - 1, -beta, -alpha, ply + 1)
            if value > best_value:
                best_value, best_move = value, order
            alpha = max(alpha, value)
            if alpha >= beta:
                if order not in killers:
                    killers.insert(0, order)
                    del killers[_KILLERS:]
                break
        if best_move is None:  # no move: the rules decide what that means when the turn passes
            return self.evaluate(node, mover)
        if key is not None:
            bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
            self.table[key] = (depth, _to_table(best_value, ply), bound, best_move)
        return best_value


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
    candidates: Candidates | None = None,
    advance: Advance | None = None,
    key: Callable[[Any], Hashable] | None = None,
) -> tuple[Any, SearchStats]:
    """The order `side` should play now, and how the search went.

    `opponent(state, mover)` names the side to move after `mover`'s order (whoever the rules say;
    once the game is over, the side that did not move, so the end is judged from its view).
    `candidates` lists the orders to try (default: `legal_orders`; a superset is fine, since each
    is made with `advance`, default `played(rules)`, and a refused one is skipped); `key` names a
    position for the transposition table (none without it). Raises OrderError("no_legal_move")
    when `side` has none (the rules then decide what that means).
    """
    search = _Search(rules, evaluate, opponent, candidates or rules.legal_orders, advance or played(rules),
                     key, max_nodes, stop)
    rng = random.Random(seed)
    moves = list(search.children(state, side, []))
    if not moves:
        raise OrderError("no_legal_move", side=side)
    rng.shuffle(moves)  # equal moves: the seed picks, not the generation order
    stats = SearchStats()
    best = moves[0][0]
    for depth in range(1, max_depth + 1):
        if depth > 1 and stop():  # depth 1 always completes: a move is always chosen by the search
            break
        scores: dict[int, float] = {}
        search.cut = depth > 1
        try:
            alpha = -WIN * 2
            for index, (_order, child) in enumerate(moves):
                scores[index] = -search.negamax(child, opponent(child, side), depth - 1, -WIN * 2, -alpha, 1)
                alpha = max(alpha, scores[index])
        except _OutOfBudget:
            # the moves searched to the end at this depth stand: the first is the last iteration's
            # best, and one scoring above it is better (a move that did not is only bounded)
            if 0 in scores:
                best = moves[max(scores, key=lambda i: (scores[i], -i))][0]
            break
        ranked = sorted(scores, key=lambda i: -scores[i])  # stable: equal scores keep the seeded order
        best = moves[ranked[0]][0]
        stats.depth = depth
        stats.scores = {rules.format_order(moves[i][0]): scores[i] for i in ranked}
        moves = [moves[i] for i in ranked]  # the best first: deeper iterations prune more
        if abs(scores[ranked[0]]) > _DECIDED:
            break  # a forced result is found: deeper will not change it
    stats.nodes = search.nodes
    return best, stats


def random_order(rules: GameRules, state: Any, side: str, rng: random.Random) -> Any:
    """A uniformly random legal order: the baseline a computer level must beat."""
    moves = list(rules.legal_orders(state, side))
    if not moves:
        raise OrderError("no_legal_move", side=side)
    return rng.choice(moves)
