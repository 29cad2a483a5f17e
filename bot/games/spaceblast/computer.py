"""Computer ships: a GM seats them (``/sb challenge level:``) so that two friends can fill a
six-ship arena. Each turn a computer ship picks one of its `legal_orders` by simulating the turn:
its candidate orders against likely enemy orders (flying straight on, plus sampled legal orders at
higher levels), judged on what the turn leaves it — staying in the arena and in one piece first,
then points, then a safe distance from the edge. Simulation uses the rules themselves, so the
judgement never drifts from the rules and an illegal order cannot be chosen.

A computer player commanding two ships (SB-15) chooses for one ship with the other flying straight
on, then for the other with the first's choice fixed, and judges the turn on both ships and its
total; its enemies are the other players' ships.

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
    """This turn's orders for each ship `actor` commands, then "ready"."""
    rng = random.Random(seed)
    by_ship: dict[str | None, list[Any]] = {}
    for order in rules.legal_orders(state, actor):
        by_ship.setdefault(order.ship, []).append(order)
    if not by_ship:  # nothing to order now (a time jump's wait): only confirm
        return [("ready", {})]
    # every enemy's order is a guess: what they really submitted stays secret, even from the bot
    view = rules.view(state)
    enemies = [ident for ident, ship in view["ships"].items() if ship["alive"] and _owner(ident, ship) != actor]
    scenarios = [dict.fromkeys(enemies, "none")]
    for _ in range(SAMPLES[level]):
        scenarios.append({ship: _random_text(rules, state, ship, rng) for ship in enemies})
    chosen = {ship: rules.format_order(orders[0]) for ship, orders in by_ship.items()}
    for ship, orders in by_ship.items():
        best, best_value = chosen[ship], float("-inf")
        for order in orders[:CANDIDATES[level]]:
            mine = {**chosen, ship: rules.format_order(order)}
            value = sum(_judge(rules, state, actor, mine, others) for others in scenarios) / len(scenarios)
            if value > best_value:
                best, best_value = mine[ship], value
            if stop():
                break
        chosen[ship] = best
    return [*(("order", {"text": text}) for text in chosen.values()), ("ready", {})]


def _owner(ident: str, ship: Mapping[str, Any]) -> str:
    return str(ship.get("player", ident))


def _random_text(rules: GameRules, state: Any, ship: str, rng: random.Random) -> str:
    options = list(rules.legal_orders(state, ship))
    return rules.format_order(rng.choice(options)) if options else "none"


def _judge(rules: GameRules, state: Any, actor: str, mine: Mapping[Any, str], others: Mapping[str, str]) -> float:
    """How good the turn's outcome is for `actor`'s ships (higher is better): each ship's fate, and
    points against the best other player's."""
    for text in mine.values():
        state = rules.apply_input(state, "order", actor, {"text": text}).state
    for ship, text in others.items():
        state = rules.apply_input(state, "order", ship, {"text": text}).state
    after = rules.view(rules.apply_input(state, "resolve", None, {}).state)
    board = HexBoard.hexagon(after["radius"])
    totals: dict[str, int] = {}
    for ident, ship in after["ships"].items():
        totals[_owner(ident, ship)] = totals.get(_owner(ident, ship), 0) + ship["score"]
    others_best = max((score for player, score in totals.items() if player != actor), default=0)
    value = 0.0
    flying = False
    for ident, me in after["ships"].items():
        if _owner(ident, me) != actor:
            continue
        if me.get("disqualified"):
            value -= 1000.0
        elif not me["alive"]:
            value += -500.0 + 10 * me["score"]
        else:
            flying = True
            cell = board.parse(me["at"])
            from_edge = after["radius"] - max(abs(cell.q), abs(cell.r), abs(cell.s))
            value += 20.0 * me["score"] - 15.0 * me["hits"] + 3.0 * min(from_edge, 2)
            value += 0.1 * (me["missiles"] + me["turns"] + me["brakes"])
    return value - (2.0 * others_best if flying else 0.0)
