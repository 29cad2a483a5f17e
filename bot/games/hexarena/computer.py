"""The computer player of HexArena (reconstructed rules): the shared alpha-beta search
(engine/core/search.py) with a HexArena evaluation — material, the race of the two admirals to the
enemy base, the admiral's room to move, the debris around the admirals, the ships' advance.

The base game and Blitz have a few dozen turns a position, so the search reads `legal_orders`
whole. Alpha and Omega turns run to thousands (Omega: tens of thousands), so there the search
reads a pruned set (moves.pruned_turns: a beam over the same engine functions; hard keeps at least
as many turns a position as easy, or easy sees a turn hard never looks at).

Levels search deeper on larger node budgets, so they play the same moves on any machine unless the
bot's time per move runs out first; a transposition table keeps what positions met again are worth.
Most of the time goes into the admirals' roads (`path_cost`), so they are searched on cell numbers
and remembered by what they depend on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from bot.games.hexarena.moves import pruned_turns
from engine.core.hexgrid import Hex
from engine.core.protocol import GameRules
from engine.core.search import SearchStats, best_order
from engine.hexarena.geometry import ADMIRAL, BASE, BOARD, CARGO, FIGHTER, NEIGHBOUR, PATROL, SIDES, other
from engine.hexarena.rules import variant_of
from engine.hexarena.state import DEBRIS, RUNNING, ArenaState

LEVELS = ("easy", "normal", "hard")
DEPTHS = {"easy": 1, "normal": 2, "hard": 3}
#: nodes a level may search per move beyond its first depth (which always completes): the same
#: moves on any machine unless the bot's time per move runs out first (the base game searches
#: about 7,000 nodes a second on one core; Alpha and Omega, about 700, reach their depth in a few
#: hundred: benchmarks/bench_hexarena_computer.py)
MAX_NODES = {"easy": 0, "normal": 1_500, "hard": 5_000}
#: Alpha/Omega: partial turns grown per step, and turns searched per position, by level
BEAM = {"easy": (6, 24), "normal": (6, 24), "hard": (8, 24)}
MATERIAL = {FIGHTER: 3.0, PATROL: 2.0, CARGO: 1.5, ADMIRAL: 0.0}
RACE = 2.0  # a step of an admiral towards the enemy base
RACE_EDGE = 4.0  # being ahead in the race of the admirals
ADVANCE = 0.05  # a step of any other ship
ROOM = 0.3  # a free cell around an admiral
STUCK = 4.0  # an admiral with no free cell (Blitz loses on it, HA-15)
DEBRIS_NEAR = 0.3  # a debris next to an admiral: in its way
#: a draw offered to the computer is accepted when it stands worse by more than the edge of having
#: the move (RACE_EDGE): the side offering is nearly always the one to move, and that alone is no
#: reason to give up a game (at the opening, blue would otherwise accept on red's first turn)
DRAW_MARGIN = RACE_EDGE
#: what a cell costs the admiral's road: free, held by its own ship, by an enemy ship, by a debris
OWN_STEP, ENEMY_STEP, DEBRIS_STEP = 2, 3, 3
HELD_BASE = 5
UNREACHABLE = 99
#: side -> cell -> steps to that side's *enemy* base
TO_ENEMY_BASE: dict[str, dict[Hex, int]] = {
    side: {cell: min(cell.distance(b) for b in BASE[other(side)]) for cell in BOARD} for side in SIDES
}


CELLS: tuple[Hex, ...] = tuple(BOARD)
INDEX: dict[Hex, int] = {cell: i for i, cell in enumerate(CELLS)}
#: the search of the admirals' roads works on cell numbers: hashing cells was most of its time
_NEAR: tuple[tuple[int, ...], ...] = tuple(tuple(INDEX[n] for n in NEIGHBOUR[cell].values()) for cell in CELLS)
_AHEAD: dict[str, tuple[int, ...]] = {side: tuple(TO_ENEMY_BASE[side][cell] for cell in CELLS) for side in SIDES}
_GOAL: dict[str, tuple[bool, ...]] = {side: tuple(cell in BASE[other(side)] for cell in CELLS) for side in SIDES}


#: roads already worked out, by what they depend on: most turns a search tries (rotations, a fire
#: that leaves a debris where a ship was) leave the board's cells held as they were
_ROADS: dict[tuple[str, Hex, frozenset[tuple[Hex, str]], frozenset[Hex]], int] = {}
_ROADS_KEPT = 200_000


def path_cost(state: ArenaState, side: str) -> int:
    """What it takes `side`'s admiral to reach the enemy base: a step per cell, more for a cell
    held by a ship that must make way or be destroyed, or by a debris to recycle — so clearing the
    admiral's road counts even when the admiral itself has not moved yet. (A* search: the plain
    distance to the base never overestimates.)"""
    start = state.admiral_cell(side)
    if start is None:
        return UNREACHABLE
    held = frozenset((ship.at, ship.side) for ship in state.ships if ship.alive and ship.at is not None)
    key = (side, start, held, state.debris)
    cost = _ROADS.get(key)
    if cost is None:
        if len(_ROADS) >= _ROADS_KEPT:
            _ROADS.clear()
        cost = _ROADS[key] = _road(state, side, start)
    return cost


def _road(state: ArenaState, side: str, start: Hex) -> int:
    goal, ahead = _GOAL[side], _AHEAD[side]
    steps = [1] * len(CELLS)
    for cell, ident in state.occupancy.items():
        i = INDEX[cell]
        step = DEBRIS_STEP if ident == DEBRIS else OWN_STEP if state.by_id[ident].side == side else ENEMY_STEP
        steps[i] = step + HELD_BASE if goal[i] else step  # a held base cell must be broken open
    origin = INDEX[start]
    best = [UNREACHABLE] * len(CELLS)
    best[origin] = 0
    # the cells to settle by estimate (cost so far + distance left): small whole numbers, so a
    # bucket per estimate instead of a heap; an estimate never drops along a road (a step costs at
    # least the one cell of distance it can save), so the buckets are settled in order
    estimate = ahead[origin]
    buckets: dict[int, list[int]] = {estimate: [origin]}
    while buckets:
        frontier = buckets.pop(estimate, None)
        if frontier is not None:
            for i in frontier:  # grows while read: the cells reached at the same estimate
                cost = estimate - ahead[i]
                if cost > best[i]:
                    continue  # reached more cheaply since: settled from an earlier bucket
                if goal[i]:
                    return cost
                for j in _NEAR[i]:
                    reached = cost + steps[j]
                    if reached < best[j]:
                        best[j] = reached
                        later = reached + ahead[j]
                        (frontier if later == estimate else buckets.setdefault(later, [])).append(j)
        estimate += 1
    return UNREACHABLE


def _admiral_room(state: ArenaState, side: str) -> int:
    cell = state.admiral_cell(side)
    if cell is None:
        return 0
    return sum(1 for near in NEIGHBOUR[cell].values() if near not in state.occupancy)


def evaluate(state: ArenaState, side: str) -> float:
    """How good the board is for `side` (positive: better than for the other side), each term
    counted for both sides with opposite signs."""
    score = _material(state, side)
    roads = {owner: path_cost(state, owner) for owner in SIDES}
    # who wins the race if nobody gets in the way, the side to move being a step ahead: slowing the
    # enemy admiral is worth most when it turns the race around
    lead = roads[other(side)] - roads[side] + (1 if state.to_move == side else -1)
    score += RACE_EDGE * ((lead > 0) - (lead < 0))
    for owner in SIDES:
        sign = 1.0 if owner == side else -1.0
        cell = state.admiral_cell(owner)
        if cell is None:
            continue
        score -= sign * RACE * roads[owner]
        score += sign * _surroundings(state, owner, cell)
    return score


def quick_evaluate(state: ArenaState, side: str) -> float:
    """`evaluate` without the admirals' roads (the plain distance instead): what the beam ranks the
    many partial Alpha and Omega turns by, ten times cheaper."""
    score = _material(state, side)
    for owner in SIDES:
        sign = 1.0 if owner == side else -1.0
        cell = state.admiral_cell(owner)
        if cell is not None:
            score -= sign * RACE * TO_ENEMY_BASE[owner][cell]
            score += sign * _surroundings(state, owner, cell)
    return score


def _surroundings(state: ArenaState, owner: str, cell: Hex) -> float:
    """An admiral's room to move (none: stuck, which Blitz punishes) and the debris next to it."""
    room = _admiral_room(state, owner)
    debris = sum(1 for near in NEIGHBOUR[cell].values() if near in state.debris)
    return ROOM * room - (STUCK if room == 0 else 0.0) - DEBRIS_NEAR * debris


def _material(state: ArenaState, side: str) -> float:
    """The ships afloat, and how far the ships besides the admirals have come."""
    score = 0.0
    for ship in state.ships:
        if not ship.alive:
            continue
        sign = 1.0 if ship.side == side else -1.0
        score += sign * MATERIAL[ship.type]
        if ship.at is not None and ship.type != ADMIRAL:
            score -= sign * ADVANCE * TO_ENEMY_BASE[ship.side][ship.at]
    return score


class _Pruned:
    """The rules as the search sees them in Alpha and Omega: the same rules, but a position's turns
    are the beam's best few (all of them legal turns)."""

    def __init__(self, rules: GameRules, width: int, keep: int) -> None:
        self._rules, self._width, self._keep = rules, width, keep

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)

    def legal_orders(self, state: ArenaState, actor: str) -> Iterable[Any]:
        side = self._rules.side_of(state, actor)
        if state.status != RUNNING or side != state.to_move:
            return ()
        return pruned_turns(state, side, partial(quick_evaluate, side=side), width=self._width, keep=self._keep)


def searched_rules(rules: GameRules, state: ArenaState, level: str) -> Any:
    """The rules the search reads: whole where turns are single actions, pruned where they are not."""
    if variant_of(state).max_actions == 1:
        return rules
    width, keep = BEAM[level]
    return _Pruned(rules, width, keep)


def position_key(state: ArenaState) -> Any:
    """What tells positions apart for the search's transposition table."""
    return (state.ships, state.debris, state.debris_reserve, state.to_move, state.status)


def search(rules: GameRules, state: ArenaState, actor: str, level: str, *, seed: int, stop: Callable[[], bool],
           budget: float = 1.0) -> tuple[Any, SearchStats]:
    """The level's search from `state` for `actor`'s side; `budget` scales its node budget (the
    seeded matches of the test suite play the levels on a fraction of it)."""
    side = rules.side_of(state, actor) or actor
    return best_order(searched_rules(rules, state, level), state, side, evaluate,
                      opponent=lambda node, mover: other(mover), max_depth=DEPTHS[level],
                      max_nodes=round(MAX_NODES[level] * budget), stop=stop, seed=seed, key=position_key)


def choose(rules: GameRules, state: Any, actor: str, level: str, *, seed: int,
           stop: Callable[[], bool], budget: float = 1.0) -> list[tuple[str, dict[str, Any]]]:
    """The turn `actor`'s side plays now, as the bot's ``order`` input."""
    order, _ = search(rules, state, actor, level, seed=seed, stop=stop, budget=budget)
    return [("order", {"text": rules.format_order(order)})]


def accepts_draw(rules: GameRules, state: ArenaState, side: str, level: str) -> bool:
    """A draw offered to the computer (bot/service/computers.py), as Arkeon's computer judges one:
    accepted when it stands worse — its evaluation below the edge of the move — at every level, so
    a player ahead cannot talk it into a draw and one behind can save a half point by asking."""
    return evaluate(state, side) < -DRAW_MARGIN
