"""Computer ships: a GM seats them (``/sb challenge level:``) so that two friends can fill a
six-ship arena. Each turn a computer ship picks one of its `legal_orders` by simulating the turn:
its candidate orders against likely enemy orders (flying straight on, plus sampled legal orders at
higher levels), judged on what the turn leaves it — staying in the arena and in one piece first,
then points, then a safe distance from the edge. Simulation uses the rules themselves, so the
judgement never drifts from the rules and an illegal order cannot be chosen.

Deterministic: enemy samples come from the game's seed and turn, and ties keep the first order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.hexgrid import HexBoard
from engine.core.protocol import GameRules

LEVELS = ("easy", "normal", "hard")
#: enemy order sets each candidate is tried against, beyond "everybody flies straight on"
SAMPLES = {"easy": 0, "normal": 2, "hard": 6}
#: candidate orders judged at most (the cheapest first: legal_orders lists fewest tokens first)
CANDIDATES = {"easy": 12, "normal": 60, "hard": 400}


def choose(rules: GameRules, state: Any, actor: str, level: str, *, seed: int,
           stop: Callable[[], bool]) -> list[tuple[str, dict[str, Any]]]:
    """This turn's orders for `actor`, then "ready"."""
    rng = random.Random(seed)
    mine = list(rules.legal_orders(state, actor))[:CANDIDATES[level]]
    if not mine:  # nothing to order now (a time jump's wait): only confirm
        return [("ready", {})]
    # every enemy's order is a guess: what they really submitted stays secret, even from the bot
    enemies = [ship for ship in _ships_on_board(rules, state) if ship != actor]
    scenarios = [dict.fromkeys(enemies, "none")]
    for _ in range(SAMPLES[level]):
        scenarios.append({ship: _random_text(rules, state, ship, rng) for ship in enemies})
    best, best_value = mine[0], float("-inf")
    for order in mine:
        text = rules.format_order(order)
        value = sum(_judge(rules, state, actor, {**others, actor: text}) for others in scenarios) / len(scenarios)
        if value > best_value:
            best, best_value = order, value
        if stop():
            break
    return [("order", {"text": rules.format_order(best)}), ("ready", {})]


def _ships_on_board(rules: GameRules, state: Any) -> list[str]:
    return [ident for ident, ship in rules.view(state)["ships"].items() if ship["alive"]]


def _random_text(rules: GameRules, state: Any, ship: str, rng: random.Random) -> str:
    options = list(rules.legal_orders(state, ship))
    return rules.format_order(rng.choice(options)) if options else "none"


def _judge(rules: GameRules, state: Any, actor: str, orders: Mapping[str, str]) -> float:
    """How good the turn's outcome is for `actor` (higher is better)."""
    for ship, text in orders.items():
        state = rules.apply_input(state, "order", ship, {"text": text}).state
    after = rules.view(rules.apply_input(state, "resolve", None, {}).state)
    me = after["ships"][actor]
    if me.get("disqualified"):
        return -1000.0
    if not me["alive"]:
        return -500.0 + 10 * me["score"]
    others = [ship["score"] for ident, ship in after["ships"].items() if ident != actor]
    value = 20.0 * me["score"] - 15.0 * me["hits"] - 2.0 * (max(others) if others else 0)
    cell = HexBoard.hexagon(after["radius"]).parse(me["at"])
    from_edge = after["radius"] - max(abs(cell.q), abs(cell.r), abs(cell.s))
    return value + 3.0 * min(from_edge, 2) + 0.1 * (me["missiles"] + me["turns"] + me["brakes"])
