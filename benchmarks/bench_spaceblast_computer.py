"""Computer ships against random ones: seeded SpaceBlast games, engine only (no bot, no database).

Each game seats one computer ship (the given level) and three random ones on a radius-5 arena and
plays until the end or 40 turns; a computer "wins" a game it wins outright or ends with the best
score. Prints the win rate and the time per computer decision.

    python benchmarks/bench_spaceblast_computer.py [--games 200] [--level normal] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bot.games.spaceblast.computer import choose
from engine import registry

SB = registry.get("spaceblast")
MAX_TURNS = 40


def random_inputs(state, ship: str, rng: random.Random) -> list:
    options = list(SB.legal_orders(state, ship))
    return [("order", {"text": SB.format_order(rng.choice(options))})] if options else [("ready", {})]


def play(seed: int, level: str, decisions: list[float]) -> bool:
    rng = random.Random(seed)
    state = SB.setup({"radius": 5, "variants": []}, seed)
    for n in range(4):
        state = SB.apply_input(state, "join", f"S{n}", {"id": f"S{n}"}).state
    state = SB.apply_input(state, "start", None, {}).state
    computer = f"S{seed % 4}"  # every seat in turn, so the corner does not decide
    for _ in range(MAX_TURNS):
        if SB.result(state).finished:
            break
        for ship in SB.waiting_on(state):
            if ship == computer:
                started = time.perf_counter()
                inputs = choose(SB, state, ship, level, seed=seed, stop=lambda: False)
                decisions.append(time.perf_counter() - started)
            else:
                inputs = random_inputs(state, ship, rng)
            for kind, payload in inputs:
                state = SB.apply_input(state, kind, ship, payload).state
        state = SB.apply_input(state, "resolve", None, {}).state
    result = SB.result(state)
    if result.finished:
        return result.winner == computer
    scores = {ident: ship["score"] for ident, ship in SB.view(state)["ships"].items()}
    return scores[computer] == max(scores.values()) and list(scores.values()).count(scores[computer]) == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    decisions: list[float] = []
    wins = sum(play(seed, args.level, decisions) for seed in range(args.games))
    figures = {"games": args.games, "level": args.level, "win_rate": wins / args.games,
               "decision_ms_median": 1000 * statistics.median(decisions),
               "decision_ms_max": 1000 * max(decisions)}
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{'games':>6} {'level':>7} {'win rate':>9} {'decision ms (median)':>21} {'max':>8}")
    print(f"{figures['games']:>6} {figures['level']:>7} {figures['win_rate']:>9.0%} "
          f"{figures['decision_ms_median']:>21.1f} {figures['decision_ms_max']:>8.1f}")


if __name__ == "__main__":
    main()
