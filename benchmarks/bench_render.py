"""How long a Space Chess board render takes, against Pillow's own PNG encoding of the same image.

Goals: the standard board with 14 characters and an overlay renders in <= 20 ms (median) and
costs <= 3x what Pillow alone needs to encode the final image. The map background is cached per
map, so the first render is excluded (it is the one-off cost of drawing the map).

Run: python benchmarks/bench_render.py [repetitions]
"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable

from PIL import Image

from engine.spacechess.maps import standard_map
from renders.common import PNG_COMPRESS_LEVEL
from renders.spacechess.board import Overlay, render_board

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWX"


def sample_view(count: int = 14) -> dict:
    """A full game: 7 characters a side near their camps, one general each, two pickups."""
    characters = {}
    for index in range(count):
        team = 1 + index % 2
        row = 1 + index // 2 if team == 1 else 44 - index // 2
        characters[f"player{index:02d}"] = {
            "at": f"{COLUMNS[(index * 5) % 24]}{row}",
            "hp": 20 - index,
            "max_hp": 30 if index < 2 else 20,
            "ap": index % 10,
            "alive": True,
            "team": team,
            "role": "general" if index < 2 else "soldier",
            "weapon": "bolter",
            "armour": "light",
            "items": ["grenades", "scope"],
            "ability": "vehicle",
            "cards": [2, 6],
        }
    pickups = [{"at": "L20", "kind": "ap", "amount": 3}, {"at": "M25", "kind": "item"}]
    return {"status": "running", "turn": 9, "winner": None, "characters": characters, "pickups": pickups}


def median_ms(action: Callable[[], object], repetitions: int) -> float:
    timings = []
    for _ in range(repetitions):
        start = time.perf_counter()
        action()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings) * 1000


def main(repetitions: int = 60) -> None:
    game_map = standard_map()
    view = sample_view()
    overlay = Overlay("shot", line=("A1", "J40"))

    def render() -> bytes:
        return render_board(view, game_map, overlay=overlay, title="Space Chess - turn 9")

    final = Image.open(io.BytesIO(render()))
    final.load()

    def encode() -> bytes:
        out = io.BytesIO()
        final.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
        return out.getvalue()

    render_ms = median_ms(render, repetitions)
    encode_ms = median_ms(encode, repetitions)
    rows = [
        ("render_board, standard map, 14 characters, shot overlay", f"{render_ms:.2f} ms", "<= 20 ms"),
        (
            f"Pillow PNG encode of the same final image ({final.mode}, level {PNG_COMPRESS_LEVEL})",
            f"{encode_ms:.2f} ms",
            "",
        ),
        ("ratio render / encode", f"{render_ms / encode_ms:.2f}x", "<= 3x"),
        ("PNG size", f"{len(render()) / 1024:.0f} KiB", "< 1024 KiB"),
        ("image size", f"{final.width} x {final.height} px", ""),
    ]
    width = max(len(row[0]) for row in rows)
    print(f"{'measure':<{width}}  {'median':>12}  goal")
    for name, value, goal in rows:
        print(f"{name:<{width}}  {value:>12}  {goal}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
