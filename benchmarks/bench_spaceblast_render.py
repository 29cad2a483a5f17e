"""How long the SpaceBlast images take and how big they are: the board PNG and turn GIFs.

Goals: a 6-ship, 12-frame turn GIF renders well under a second and stays far below Discord's 10 MB
attachment limit. The grid of each radius is drawn once and cached, so the first render of a radius
is excluded (the one-off cost of drawing the grid) and reported on its own line.

Run: python benchmarks/bench_spaceblast_render.py [repetitions]
"""

from __future__ import annotations

import copy
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.games.spaceblast.words import picture_labels
from renders.spaceblast import animation
from renders.spaceblast import board as board_module

#: the words drawn, as the bot gives them (the English catalog's)
LABELS = picture_labels("en")


def render_board(view: dict[str, Any], radius: int, **options: Any) -> bytes:
    return board_module.render_board(view, radius, labels=LABELS, **options)


def render_turn_gif(frames: Any, radius: int, **options: Any) -> bytes:
    return animation.render_turn_gif(frames, radius, labels=LABELS, **options)

RADIUS = 6
#: SB-3 corners of the radius-6 arena in seat order, with their starting facings.
CORNERS = (("A1", "SE"), ("A7", "SW"), ("G13", "W"), ("M7", "NW"), ("M1", "NE"), ("G1", "E"))
#: Where each ship stands mid-game (same seat order), so ships, missiles and mines spread out.
MID_GAME = ("C3", "B6", "F10", "K6", "J2", "G4")


def sample_view(turn: int = 5) -> dict[str, Any]:
    """Six ships mid-game, one missile in flight and one mine each, two asteroids."""
    ships = {}
    missiles = []
    mines = []
    for seat, ((corner, facing), at) in enumerate(zip(CORNERS, MID_GAME, strict=True)):
        ship_id = f"player{seat + 1}"
        ships[ship_id] = {
            "at": at, "facing": facing, "hits": seat % 4, "alive": True, "turns": 10 - seat, "brakes": 2,
            "missiles": 7, "mines": 2, "score": seat, "disqualified": False,
        }  # fmt: skip
        missiles.append({"owner": ship_id, "at": f"G{3 + 2 * seat}", "facing": facing})
        mines.append({"owner": ship_id, "at": corner, "active": seat % 2 == 0})
    return {"turn": turn, "winner": None, "ships": ships, "missiles": missiles, "mines": mines,
            "asteroids": ["E8", "I8"]}  # fmt: skip


def turn_frames(count: int) -> list[dict[str, Any]]:
    """`count` phase steps of one turn: each step moves every missile along its row and adds a hit."""
    base = sample_view()
    frames = []
    for step in range(count):
        frame = copy.deepcopy(base)
        for index, missile in enumerate(frame["missiles"]):
            missile["at"] = f"G{1 + (2 * index + step) % 13}"
        for index, ship in enumerate(frame["ships"].values()):
            ship["hits"] = min(4, (index + step) // 3)
            ship["score"] = index + step // 2
        frame["caption"] = f"step {step + 1} of {count}"
        frames.append(frame)
    return frames


def median_ms(action: Callable[[], object], repetitions: int) -> float:
    timings = []
    for _ in range(repetitions):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main(repetitions: int = 20) -> None:
    view = sample_view()
    board_module._background.cache_clear()
    start = time.perf_counter()
    png = render_board(view, RADIUS, title="SpaceBlast - turn 5")
    first_ms = (time.perf_counter() - start) * 1000
    rows = [
        (f"render_board, radius {RADIUS}, 6 ships, first (grid drawn)", first_ms, len(png), ""),
        (
            f"render_board, radius {RADIUS}, 6 ships",
            median_ms(lambda: render_board(view, RADIUS), repetitions),
            len(png),
            "",
        ),
    ]
    for radius in (4, 9):
        render_board(view if radius == 9 else {"turn": 1, "ships": {}}, radius)  # warm the grid cache
    big = render_board(view, 9)
    rows.append(
        (
            "render_board, radius 9, 6 ships",
            median_ms(lambda: render_board(view, 9), repetitions),
            len(big),
            "",
        )
    )
    for count in (6, 12):
        frames = turn_frames(count)
        gif = render_turn_gif(frames, RADIUS, title="SpaceBlast - turn 5")
        ms = median_ms(lambda frames=frames: render_turn_gif(frames, RADIUS), max(3, repetitions // 4))
        rows.append(
            (
                f"render_turn_gif, radius {RADIUS}, 6 ships, {count} frames",
                ms,
                len(gif),
                "well under 1 s, far below 10 MB",
            )
        )
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'median ms':>10}  {'bytes':>10}  goal")
    for name, ms, size, goal in rows:
        print(f"{name:<{width}}  {ms:>10.1f}  {size:>10,}  {goal}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
