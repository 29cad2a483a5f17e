"""HexArena turns the bot reads besides the whole list: the one-action turns (what `/hx move` and
its siblings can play) and, for the computer, a pruned set of Alpha and Omega turns.

`legal_orders` lists every whole turn, depth first: in Omega that is tens of thousands mid-game,
too many to scan for an autocomplete or to search within two seconds. Both sets here are walked
with the functions `legal_orders` itself is built on (engine/hexarena/legal.py: the affordable
actions, each action's handler, the variant's budget), so each turn they give is one of
`legal_orders` (tests/bot/hexarena/test_computer.py holds them to it), and the engine still
checks every turn when it is played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.protocol import GameRules
from engine.hexarena.actions import HANDLERS
from engine.hexarena.legal import affordable_actions
from engine.hexarena.orders import Action, Turn
from engine.hexarena.rules import variant_of
from engine.hexarena.state import RUNNING, ArenaState


def first_actions(rules: GameRules, state: ArenaState, actor: str) -> list[Turn]:
    """Every legal turn of one action for `actor`'s side (none when it is not to move)."""
    side = rules.side_of(state, actor)
    if state.status != RUNNING or side != state.to_move:
        return []
    variant = variant_of(state)
    return [Turn((action,)) for action, _ship, _cells in affordable_actions(state, side, variant, variant.new_budget())]


def pruned_turns(state: ArenaState, side: str, score: Callable[[ArenaState], float], *, width: int,
                 keep: int) -> list[Turn]:
    """The `keep` best turns of a beam search, best first: every single action is a turn, and the
    `width` best partial turns (by `score` of the board each leaves, for `side`) grow by one more
    action, step after step, while the variant's budget allows. Generation order breaks ties, so
    the same position always gives the same turns."""
    variant = variant_of(state)
    frontier: list[tuple[tuple[Action, ...], ArenaState, Any]] = [((), state, variant.new_budget())]
    scored: list[tuple[float, int, tuple[Action, ...]]] = []
    while frontier:
        grown: list[tuple[float, int, tuple[Action, ...], ArenaState, Any]] = []
        for prefix, board, budget in frontier:
            for action, ship, cells in affordable_actions(board, side, variant, budget):
                cost = variant.cost(ship.type, action.verb, cells)
                after = HANDLERS[action.verb](board, ship, action)[0]
                actions = (*prefix, action)
                value = score(after)
                scored.append((value, len(scored), actions))
                if variant.room_after(budget, cost):
                    grown.append((value, len(scored), actions, after, variant.pay(budget, ship.id, cost)))
        grown.sort(key=lambda g: (-g[0], g[1]))
        frontier = [(actions, after, budget) for _, _, actions, after, budget in grown[:width]]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return [Turn(actions) for _, _, actions in scored[:keep]]
