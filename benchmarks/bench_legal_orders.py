"""How long listing every legal order takes, per position and kind of character.

Prints one table: for each position and actor, how many orders are legal, the median time to list
them all (``SPACECHESS.legal_orders``), and the two bot hints drawn from the listing
(``legal.reach`` for the reach overlay, ``legal.shot_targets`` for the target autocomplete). The
goal is a soldier well under a second (it is milliseconds); a general lists about 7,000 air
strikes, the largest kind. Nothing is asserted: timings depend on the machine.

Run: python benchmarks/bench_legal_orders.py
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from engine.core.squaregrid import Cell, format_cell
from engine.spacechess import SPACECHESS, legal
from engine.spacechess.maps import standard_map
from engine.spacechess.state import GameState

REPEAT = 15
LOADOUTS = [
    ("bolter", "light", ["grenades", "jetpack"], "vehicle"),
    ("heavy_bolter", "medium", ["perforating", "scope"], "rage"),
    ("sniper", "heavy", ["scope", "logistics"], "friendship"),
]
OPEN_MAP = "".join("." * 10 + "\n" for _ in range(10))


def placer() -> Callable[[int, int], str]:
    """Hands out distinct floor cells of the standard map, each the nearest free one to (x, y)."""
    game_map = standard_map()
    floor = [Cell(x, y) for y in range(game_map.height) for x in range(game_map.width) if game_map.is_floor(Cell(x, y))]
    taken: set[Cell] = set()

    def near(x: int, y: int) -> str:
        cell = min((c for c in floor if c not in taken), key=lambda c: (abs(c.y - y), abs(c.x - x)))
        taken.add(cell)
        return format_cell(cell)

    return near


def soldier(ident: str, team: int, at: str, index: int, ap: int = 9) -> dict[str, Any]:
    weapon, armour, items, ability = LOADOUTS[index % len(LOADOUTS)]
    return {"id": ident, "team": team, "role": "soldier", "at": at, "weapon": weapon, "armour": armour,
            "items": items, "ability": ability, "cards": [1, 2], "ap": ap}


def general(ident: str, team: int, at: str, ap: int = 9) -> dict[str, Any]:
    return {"id": ident, "team": team, "role": "general", "at": at, "cards": [1, 2], "ap": ap}


def opening() -> GameState:
    """Just deployed (SC-10 rows), everyone given 9 AP: long moves, nobody in range."""
    near = placer()
    characters = []
    for team, (back, front) in ((1, (0, 1)), (2, (43, 42))):
        characters.append(general(f"g{team}", team, near(11, back)))
        characters += [soldier(f"s{team}{i}", team, near(4 + 3 * i, front), i) for i in range(6)]
    return SPACECHESS.setup({"map": "standard", "characters": characters})


def skirmish() -> GameState:
    """Mid-game: 7 a side in the middle rows, generals at the front beside their soldiers (so every
    power has targets), pickups about."""
    near = placer()
    characters = []
    for team, rows in ((1, (20, 19, 20, 21, 19, 21, 20)), (2, (23, 24, 23, 22, 24, 22, 23))):
        characters.append(general(f"g{team}", team, near(11, rows[0])))
        characters += [soldier(f"s{team}{i}", team, near(9 + i, row), i) for i, row in enumerate(rows[1:])]
    pickups = [
        {"at": near(8, 21), "kind": "item", "item": "reserve_magazines"},
        {"at": near(14, 22), "kind": "weapon", "weapon": "grizzly_bolter"},
        {"at": near(12, 18), "kind": "ap", "amount": 3},
    ]
    return SPACECHESS.setup({"map": "standard", "characters": characters, "pickups": pickups})


def small() -> GameState:
    """A 10 x 10 scenario-sized board."""
    characters = [general("g1", 1, "E1"), soldier("s10", 1, "C3", 0), soldier("s11", 1, "F3", 1),
                  general("g2", 2, "E10"), soldier("s20", 2, "C7", 1), soldier("s21", 2, "G8", 2)]
    return SPACECHESS.setup({"map": OPEN_MAP, "characters": characters})


def median_ms(run: Callable[[], object]) -> float:
    samples = []
    for _ in range(REPEAT):
        started = time.perf_counter_ns()
        run()
        samples.append(time.perf_counter_ns() - started)
    return statistics.median(samples) / 1e6


def main() -> None:
    positions = [
        ("standard, opening", opening(), ("s10", "s11", "s12", "g1")),
        ("standard, mid-game", skirmish(), ("s10", "s11", "s12", "s13", "g1")),
        ("10x10 board", small(), ("s10", "s11", "g1")),
    ]
    print(f"{'position':<20} {'actor':<6} {'role':<8} {'orders':>7} {'legal_orders ms':>16} "
          f"{'reach ms':>9} {'shot_targets ms':>16}")
    for label, state, actors in positions:
        for actor in actors:
            character = state.find(actor)
            assert character is not None
            count = len(list(SPACECHESS.legal_orders(state, actor)))
            listing = median_ms(lambda s=state, a=actor: list(SPACECHESS.legal_orders(s, a)))
            reach = median_ms(lambda s=state, a=actor: legal.reach(s, a))
            shots = median_ms(lambda s=state, a=actor: legal.shot_targets(s, a))
            print(f"{label:<20} {actor:<6} {character.role:<8} {count:>7} {listing:>16.2f} {reach:>9.2f} {shots:>16.2f}")


if __name__ == "__main__":
    main()
