"""Writes the README's demo images (docs/images/demo-<game>.png): each game's demo played in English,
and the last board it drew — the picture a player opening the channel would see, which must say
what the last action was, who did it and what it did (issue 27's done-when).

Run after a change to a game's pictures or demo: python scripts/demo_images.py [game ...]
"""

from __future__ import annotations

import io
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.demo import demo_games, run_demo  # noqa: E402 - the checkout's root comes first

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
#: the file name each game's demo gives its boards (the console names an image by its attachment)
BOARDS = {"spacechess": "board", "spaceblast": "arena", "arkeon": "arkeon", "hexarena": "hexarena"}


def demo_image(game: str) -> Path:
    return IMAGES / f"demo-{game}.png"


def write(game: str) -> Path:
    """Play `game`'s demo and copy its last board to `demo_image(game)`; RuntimeError when a line of
    the demo was refused or it drew no board."""
    with tempfile.TemporaryDirectory(prefix="demo-images-") as folder:
        out = Path(folder)
        if run_demo(out, "en", stream=io.StringIO(), game=game):
            raise RuntimeError(f"the {game} demo had refused lines: run `spacechess demo {game}` to see them")
        boards = sorted(out.glob(f"*-{BOARDS[game]}.png"))
        if not boards:
            raise RuntimeError(f"the {game} demo drew no {BOARDS[game]}.png")
        shutil.copyfile(boards[-1], demo_image(game))
    return demo_image(game)


if __name__ == "__main__":
    for name in sys.argv[1:] or demo_games():
        print(write(name))
