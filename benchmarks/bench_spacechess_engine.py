"""Space Chess engine throughput on the standard map with 14 characters.

Prints one table: the median time to validate and apply one order (by kind, each applied to the
same position so every sample does the same work; goal < 1 ms), a refused order, line-of-fire
tests per second between characters, one draw award for the 14 characters, and the JSON round
trip of the state the bot stores after every input.

Run: python benchmarks/bench_spacechess_engine.py
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.core.errors import OrderError
from engine.core.squaregrid import Cell, format_cell, parse_cell
from engine.spacechess import SPACECHESS, apply_draw, legal
from engine.spacechess.actions import plan_move
from engine.spacechess.combat import line_of_fire
from engine.spacechess.maps import standard_map
from engine.spacechess.state import GameState

REPEAT = 300
LOADOUTS = [
    ("bolter", "light", ["grenades", "jetpack"], "vehicle"),
    ("heavy_bolter", "medium", ["perforating", "scope"], "rage"),
    ("sniper", "heavy", ["scope", "logistics"], "friendship"),
]


def floor_near(x: int, y: int, taken: set[Cell]) -> Cell:
    """The first free floor cell scanning right from (x, y): keeps the layout readable and legal."""
    game_map = standard_map()
    for dx in range(game_map.width):
        cell = Cell((x + dx) % game_map.width, y)
        if game_map.is_floor(cell) and cell not in taken:
            taken.add(cell)
            return cell
    raise ValueError(f"no floor on row {y + 1}")


def position() -> GameState:
    """7 characters a side, skirmishing in the middle rows so shots and grenades are in reach."""
    taken: set[Cell] = set()
    characters: list[dict[str, Any]] = []
    for team, rows in ((1, (1, 16, 18, 19, 20, 21, 17)), (2, (42, 27, 25, 24, 23, 22, 26))):
        general_cell = floor_near(11, rows[0], taken)
        characters.append(
            {
                "id": f"g{team}",
                "team": team,
                "role": "general",
                "at": format_cell(general_cell),
                "ap": 9,
                "cards": [1, 2],
            }
        )
        for index, row in enumerate(rows[1:]):
            weapon, armour, items, ability = LOADOUTS[index % len(LOADOUTS)]
            cell = floor_near(3 * index + 2, row, taken)
            characters.append(
                {
                    "id": f"s{team}{index}",
                    "team": team,
                    "role": "soldier",
                    "at": format_cell(cell),
                    "weapon": weapon,
                    "armour": armour,
                    "items": items,
                    "ability": ability,
                    "cards": [index % 7 + 1, (index + 3) % 7 + 1],
                    "ap": 9,
                }
            )
    return SPACECHESS.setup({"map": "standard", "characters": characters})


def median_us(run: Callable[[], object]) -> float:
    samples = []
    for _ in range(REPEAT):
        started = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - started)
    return statistics.median(samples) / 1000


def accepted(state: GameState, actor: str, text: str) -> Callable[[], object]:
    SPACECHESS.apply_input(state, "order", actor, {"text": text})  # fails loudly if the order is illegal
    return lambda: SPACECHESS.apply_input(state, "order", actor, {"text": text})


def refused(state: GameState, actor: str, text: str) -> Callable[[], object]:
    def run() -> None:
        try:
            SPACECHESS.apply_input(state, "order", actor, {"text": text})
        except OrderError:
            return
        raise AssertionError(f"{text!r} was accepted")

    return run


def order_rows(state: GameState) -> list[tuple[str, Callable[[], object]]]:
    s10 = state.find("s10")
    assert s10 is not None and s10.at is not None
    target = format_cell(Cell(s10.at.x, s10.at.y + 2))
    shooters = [(c.id, e.id) for c in state.characters for e in state.characters if c.team != e.team]
    shot = next((a, b) for a, b in shooters if _try(state, a, f"shoot {b}"))
    grenade_at = format_cell(Cell(s10.at.x, s10.at.y + 3))
    return [
        ("order: move 2 cells", accepted(state, "s10", f"move {target}")),
        ("order: move 8 cells (long search)", accepted(state, "s10", "move " + _far_cell(state, "s10"))),
        (f"order: shoot ({shot[0]} -> {shot[1]})", accepted(state, shot[0], f"shoot {shot[1]}")),
        ("order: grenade", accepted(state, "s10", f"grenade {grenade_at}")),
        ("order: airstrike", accepted(state, "g1", "airstrike C20 E")),
        ("order: batch vehicle; move", accepted(state, "s10", f"vehicle; move {target}")),
        ("order: refused (out of range)", refused(state, "s10", "shoot g2")),
    ]


def _try(state: GameState, actor: str, text: str) -> bool:
    try:
        SPACECHESS.apply_input(state, "order", actor, {"text": text})
    except OrderError:
        return False
    return True


def _far_cell(state: GameState, actor: str) -> str:
    """A cell the actor reaches with exactly 8 cells of path, found once before timing."""
    mover = state.find(actor)
    assert mover is not None
    for name in legal.reach(state, actor):
        if len(plan_move(state, mover, parse_cell(name))[0]) == 8:
            return name
    raise ValueError("no cell 8 steps away")


def main() -> None:
    state = position()
    living = list(state.living())
    print(f"standard map, {len(living)} characters")
    print(f"{'measure':<44} {'median us':>10} {'per second':>12}")
    for label, run in order_rows(state):
        micro = median_us(run)
        print(f"{label:<44} {micro:>10.1f} {1e6 / micro:>12,.0f}")
    pairs = [(a, b) for a in living for b in living if a.id != b.id]
    started = time.perf_counter()
    rounds = 50
    for _ in range(rounds):
        for a, b in pairs:
            line_of_fire(state, a, b)
    elapsed = time.perf_counter() - started
    count = rounds * len(pairs)
    print(f"{'line of fire between characters':<44} {1e6 * elapsed / count:>10.1f} {count / elapsed:>12,.0f}")
    micro = median_us(lambda: apply_draw(state, [3, 12, 19, 33, 45], 7))
    print(f"{'apply_draw, 14 characters':<44} {micro:>10.1f} {1e6 / micro:>12,.0f}")
    micro = median_us(lambda: SPACECHESS.from_json(json.loads(json.dumps(SPACECHESS.to_json(state)))))
    print(f"{'state JSON dump + load':<44} {micro:>10.1f} {1e6 / micro:>12,.0f}")


if __name__ == "__main__":
    main()
