"""How fast HexArena lists and applies turns, per variant and position.

Prints one table: for each position and variant, how many whole turns the side to move has, the
median time to list them all (``HEXARENA.legal_orders``), to count them without building them
(``legal.count_turns``, perft's leaf count), to find the single actions of the side
(``legal.candidate_actions``), and to apply one turn through ``HEXARENA.play`` (the median over up
to 300 of the listed turns, the end-of-turn checks included). Then the perft(2) of the base game
and of Alpha. Nothing is asserted: timings depend on the machine.

Run: python benchmarks/bench_hexarena_moves.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

from engine.hexarena import HEXARENA
from engine.hexarena.legal import candidate_actions, count_turns, legal_turns
from engine.hexarena.rules import variant_of
from engine.hexarena.state import ArenaState
from engine.hexarena.turns import play_turn

REPEAT = 7
VARIANTS = ("base", "alpha", "omega")


def midgame(variant: str) -> ArenaState:
    """Forty plies of seeded random base-game turns, then the variant's rules: ships spread out,
    some destroyed, debris about."""
    rng = random.Random(3)
    state = HEXARENA.setup({})
    for _ in range(40):
        turn = rng.choice(list(HEXARENA.legal_orders(state, state.to_move)))
        state = HEXARENA.play(state, state.to_move, [turn]).state
    data = HEXARENA.dump_state(state)
    data["variants"] = [] if variant == "base" else [variant]
    return HEXARENA.load_state(data)


def median_ms(run: Callable[[], object], repeat: int = REPEAT) -> float:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - started)
    return statistics.median(samples) / 1e6


def apply_ms(state: ArenaState) -> float:
    turns = list(HEXARENA.legal_orders(state, state.to_move))
    sample = random.Random(1).sample(turns, min(300, len(turns)))
    samples = []
    for turn in sample:
        started = time.perf_counter_ns()
        HEXARENA.play(state, state.to_move, [turn])
        samples.append(time.perf_counter_ns() - started)
    return statistics.median(samples) / 1e6


def perft2(variant: str) -> tuple[int, int, float]:
    """Leaves at depth 2 from the opening; positions reached twice at depth 1 are counted once."""
    started = time.perf_counter()
    state = HEXARENA.setup({"variant": variant})
    rules = variant_of(state)
    positions: Counter[ArenaState] = Counter()
    for turn in legal_turns(state, "red", rules):
        positions[play_turn(state, "red", turn.actions, rules)[0]] += 1
    leaves = sum(n * count_turns(p, "blue", rules) for p, n in positions.items() if p.status == "running")
    return sum(positions.values()), leaves, time.perf_counter() - started


def main() -> None:
    print(f"{'position':<10} {'variant':<7} {'turns':>6} {'list ms':>9} {'count ms':>9} {'actions ms':>11} "
          f"{'play ms':>8}")
    for label, build in (("opening", lambda v: HEXARENA.setup({"variant": v})), ("mid-game", midgame)):
        for variant in VARIANTS:
            state = build(variant)
            side, rules = state.to_move, variant_of(state)
            turns = count_turns(state, side, rules)
            repeat = 3 if variant == "omega" else REPEAT
            listing = median_ms(lambda s=state: list(HEXARENA.legal_orders(s, s.to_move)), repeat)
            counting = median_ms(lambda s=state, r=rules: count_turns(s, s.to_move, r), repeat)
            actions = median_ms(lambda s=state: candidate_actions(s, s.to_move), 101)
            print(f"{label:<10} {variant:<7} {turns:>6} {listing:>9.2f} {counting:>9.2f} {actions:>11.3f} "
                  f"{apply_ms(state):>8.3f}")
    for variant in ("base", "alpha"):
        depth1, leaves, seconds = perft2(variant)
        print(f"perft(2) {variant}: {depth1} turns, {leaves} leaves, {seconds:.1f} s")


if __name__ == "__main__":
    main()
