"""How long the Arkeon and HexArena board images take and how big they are.

Goal: each board well under 50 ms (one is posted after every move) and far below Discord's 10 MB
attachment limit. The grid, coordinates and key of each board are drawn once and cached, so the
first render (that one-off cost) is reported on its own line and left out of the median.

The views are built here as plain JSON (the public view's shape, scenarios.md), as the renders
never see the engines' states.

Run: python benchmarks/bench_hex_boards.py [repetitions]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.games import arkeon, hexarena
from renders.arkeon import board as arkeon_board
from renders.hexarena import board as hexarena_board

ADVANCED = ["triple", "pacifier", "cw", "ccw", "repulsor"]


def arkeon_view() -> dict[str, Any]:
    """Mid-game: both bases, a dozen basics and every advanced kind on the board, finished or not."""
    cells = {
        "C2": ("blue", "base", None), "C6": ("red", "base", None),
        "B2": ("blue", "basic", "NE"), "C3": ("blue", "triple", "E"), "D2": ("blue", "basic", "SE"),
        "B3": ("blue", "basic", "E"), "D3": ("blue", "pacifier", None), "C4": ("blue", "basic", "SE"),
        "A2": ("blue", "cw", None), "E2": ("blue", "basic", "NE"),
        "B5": ("red", "basic", "NW"), "C5": ("red", "basic", "W"), "D5": ("red", "triple", "SW"),
        "B4": ("red", "ccw", None), "D4": ("red", "repulsor", None), "A4": ("red", "basic", "W"),
        "E4": ("red", "basic", "NW"), "C7": ("red", "basic", "W"),
    }  # fmt: skip
    return {
        "phase": "running",
        "to_move": "red",
        "winner": None,
        "turn": 14,
        "players": {"blue": "alice", "red": "bob"},
        "cells": {
            cell: {"side": side, "kind": kind, "facing": facing}
            for cell, (side, kind, facing) in cells.items()
        },
        "reserve": {
            "blue": {"basic": 6, "advanced": ["triple", "repulsor"]},
            "red": {"basic": 7, "advanced": ["pacifier", "cw", "triple"]},
        },
    }


def hexarena_view() -> dict[str, Any]:
    """Mid-game: both fleets spread out, an admiral aboard a cargo, three wrecks, two ships lost."""
    ships: dict[str, dict[str, Any]] = {}

    def add(ship_id: str, side: str, type_: str, at: str | None, facing: str | None, **extra: Any) -> None:
        ships[ship_id] = {
            "side": side,
            "type": type_,
            "at": at,
            "facing": facing,
            "carried_by": None,
            "alive": True,
        }
        ships[ship_id].update(extra)

    add("red_admiral1", "red", "admiral", None, "E", carried_by="red_cargo2")
    add("red_patrol1", "red", "patrol", "F3", None)
    add("red_patrol2", "red", "patrol", None, None, alive=False)
    add("red_fighter1", "red", "fighter", "G8", "NE")
    add("red_fighter2", "red", "fighter", "D4", "E")
    add("red_cargo1", "red", "cargo", "E2", "E")
    add("red_cargo2", "red", "cargo", "F5", "SE")
    add("red_cargo3", "red", "cargo", "H3", "E")
    add("red_cargo4", "red", "cargo", "I2", "NE")
    add("blue_admiral1", "blue", "admiral", "H9", "SW")
    add("blue_patrol1", "blue", "patrol", "E7", None)
    add("blue_patrol2", "blue", "patrol", "H12", None)
    add("blue_fighter1", "blue", "fighter", "G12", "W")
    add("blue_fighter2", "blue", "fighter", None, "W", alive=False)
    add("blue_cargo1", "blue", "cargo", "E10", "W")
    add("blue_cargo2", "blue", "cargo", "F11", "SW")
    add("blue_cargo3", "blue", "cargo", "H11", "W")
    add("blue_cargo4", "blue", "cargo", "I11", "NW")
    return {
        "status": "running",
        "variants": ["alpha"],
        "to_move": "blue",
        "winner": None,
        "turn": 11,
        "players": {"red": "alice", "blue": "bob"},
        "ships": ships,
        "debris": ["D6", "J4", "G6"],
        "debris_reserve": 5,
    }


def median_ms(action: Callable[[], object], repetitions: int) -> float:
    timings = []
    for _ in range(repetitions):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def measure(
    name: str, module: Any, view: dict[str, Any], highlight: list[str], repetitions: int,
    labels: dict[str, str],
) -> list[Any]:
    module._background.cache_clear()
    start = time.perf_counter()
    png = module.render_board(view, title=f"{name} - mid-game", highlight=highlight, labels=labels)
    first_ms = (time.perf_counter() - start) * 1000
    finished = {**view, "winner": view["to_move"], "reason": "resigned"}
    return [
        (f"{name} render_board, first (grid drawn)", first_ms, len(png), ""),
        (
            f"{name} render_board",
            median_ms(
                lambda: module.render_board(view, title=f"{name} - mid-game", highlight=highlight, labels=labels),
                repetitions,
            ),
            len(png),
            "well under 50 ms",
        ),
        (
            f"{name} render_board, finished (banner)",
            median_ms(lambda: module.render_board(finished, labels=labels), repetitions),
            len(module.render_board(finished, labels=labels)),
            "",
        ),
    ]


def main(repetitions: int = 20) -> None:
    rows = measure("Arkeon", arkeon_board, arkeon_view(), ["C4"], repetitions, arkeon.picture_labels("en"))
    rows += measure("HexArena", hexarena_board, hexarena_view(), ["G7", "G8"], repetitions,
                    hexarena.picture_labels("en"))
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'median ms':>10}  {'bytes':>10}  goal")
    for name, ms, size, goal in rows:
        print(f"{name:<{width}}  {ms:>10.1f}  {size:>10,}  {goal}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
