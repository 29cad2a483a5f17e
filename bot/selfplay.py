"""`spacechess selfplay GAME`: computer against computer (or against a random mover) in a
two-sided game that has a computer module, engine only, and the results as JSON.

It is how the levels are measured: seeded matches, sides alternating between games so the first
move does not decide, each move within its time budget.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import entry_for
from engine import registry
from engine.core.search import random_order

RANDOM = "random"
MAX_PLIES = 400


#: how a match cut at MAX_PLIES ended: a draw for the counts, though the rules never ended it
CAPPED = "max_plies"


@dataclass(frozen=True)
class Match:
    """One game's players by side order, its winner (a player's label, "draw"), its length, and
    how it ended (the rules' reason — a drawn ``repetition`` among them — or `CAPPED`)."""

    players: tuple[str, str]
    winner: str
    plies: int
    reason: str | None = None


def _lobby(rules: Any, seed: int, variant: str | None = None) -> Any:
    """A new two-player game at its start: the game's own lobby (in `variant`, for a game that has
    variants), joined by two, then started."""
    state = rules.setup({"phase": "setup", **({"variant": variant} if variant else {})}, seed)
    for name in ("First", "Second"):
        state = rules.apply_input(state, "join", name, {"id": name}).state
    return rules.apply_input(state, rules.start_input, None, {}).state if rules.start_input else state


def play_match(kind: str, first: str, second: str, seed: int, think: float, budget: float = 1.0,
               variant: str | None = None) -> Match:
    """`first` (a level or "random") takes the first seat; the seed decides the rest. `budget`
    scales the levels' node budgets (each computer module's MAX_NODES)."""
    rules = registry.get(kind)
    computer = importlib.import_module(entry_for(kind).computer)
    rng = random.Random(seed)
    state = _lobby(rules, seed, variant)
    # the seat each plays: its side, in a game of sides; else the player itself
    labels = {rules.side_of(state, "First") or "First": first, rules.side_of(state, "Second") or "Second": second}
    plies = 0
    while not rules.result(state).finished and plies < MAX_PLIES:
        side = rules.waiting_on(state)[0]
        player = labels[side]
        if player == RANDOM:
            inputs = [("order", {"text": rules.format_order(random_order(rules, state, side, rng))})]
        else:
            deadline = time.monotonic() + think
            scaled = {"budget": budget} if budget != 1.0 else {}  # only the games with node budgets
            inputs = computer.choose(rules, state, side, player, seed=seed + plies, **scaled,
                                     stop=lambda deadline=deadline: time.monotonic() >= deadline)
        for kind_, payload in inputs:
            state = rules.apply_input(state, kind_, side, payload).state
        plies += 1
    result = rules.result(state)
    winner = "draw" if not result.finished or result.winner is None else labels[str(result.winner)]
    return Match((first, second), winner, plies, result.reason if result.finished else CAPPED)


def run_matches(kind: str, a: str, b: str, games: int, seed: int, think: float,
                budget: float = 1.0, variant: str | None = None) -> dict[str, Any]:
    """`games` seeded games, `a` and `b` swapping seats each game; wins counted per player."""
    matches = [play_match(kind, *((a, b) if n % 2 == 0 else (b, a)), seed=seed + n, think=think, budget=budget,
                          variant=variant)
               for n in range(games)]
    wins_a = sum(1 for m in matches if m.winner == a)
    wins_b = sum(1 for m in matches if m.winner == b)
    if a == b:  # the same level on both seats: count by seat instead
        wins_a = sum(1 for n, m in enumerate(matches) if m.winner == a and n % 2 == 0)
        wins_b = sum(1 for n, m in enumerate(matches) if m.winner == b and n % 2 == 1)
    return {"game": kind, "a": a, "b": b, "games": games, "seed": seed, "think_s": think, "budget": budget,
            **({"variant": variant} if variant else {}),
            "a_wins": wins_a, "b_wins": wins_b, "draws": games - wins_a - wins_b,
            # of the draws, those the rules did not end (cut at MAX_PLIES): a draw rule working leaves none
            "capped": sum(1 for m in matches if m.reason == CAPPED),
            "a_score": (wins_a + 0.5 * (games - wins_a - wins_b)) / games if games else 0.0,
            "mean_plies": sum(m.plies for m in matches) / games if games else 0.0}


def levels_of(kind: str) -> Sequence[str]:
    return tuple(importlib.import_module(entry_for(kind).computer).LEVELS)
