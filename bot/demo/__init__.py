"""`spacechess demo`: a short Space Chess campaign played in the console on real past FDJ draws.

The script and its map ship with the package; the game runs on a throwaway SQLite database and
every board image lands in the output folder.
"""

from __future__ import annotations

import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import TextIO

from bot.console import Console
from bot.service import GameService
from bot.store.repo import Store

SCRIPT = "campaign.txt"


def script_lines() -> list[str]:
    return resources.files(__package__).joinpath(SCRIPT).read_text(encoding="utf-8").splitlines()


def run_demo(out_dir: Path, language: str | None = None, stream: TextIO | None = None) -> int:
    """Play the demo campaign; the number of refused lines (0 when all went as written)."""
    stream = stream or sys.stdout
    with tempfile.TemporaryDirectory(prefix="spacechess-demo-") as folder, resources.as_file(
        resources.files(__package__)
    ) as package_dir:
        store = Store(f"sqlite:///{Path(folder) / 'demo.sqlite'}")
        try:
            console = Console(GameService(store), out_dir=out_dir, language=language, base_dir=package_dir,
                              stream=stream)
            refused = console.run_lines(script_lines())
        finally:
            store.close()
    images = sorted(out_dir.glob("*.png"))
    print(f"\n{len(images)} images written to {out_dir.resolve()}", file=stream)
    return refused
