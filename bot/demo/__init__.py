"""`spacechess demo [GAME]`: a game played in the console from the script its game entry names
(`GameEntry.demo`). The shipped ones: Space Chess (a short campaign on real past FDJ draws), SpaceBlast (six ships, every variant, to
the end), Arkeon (two players to a base attack, with draw offers) or HexArena (two fleets to an
admiral on the enemy base, reconstructed rules). The game runs on a throwaway
SQLite database and every image lands in the output folder.
"""

from __future__ import annotations

import sys
import tempfile
from importlib import resources
from pathlib import Path
from typing import TextIO

from bot.compose import game_service
from bot.console import Console, console_language
from bot.games import entry_for, games
from bot.i18n import Count, translate
from bot.store.repo import Store


def demo_games() -> list[str]:
    """The games that ship a demo script, as their entries declare (the CLI's choices)."""
    return [entry.kind for entry in games() if entry.demo]


def _script(game: str) -> tuple[str, str]:
    """The package holding `game`'s demo script (and its setup files), and the script's name."""
    package, _, name = entry_for(game).demo.partition(":")
    if not name:
        raise ValueError(f"the game {game!r} ships no demo script")
    return package, name


def script_lines(game: str = "spacechess") -> list[str]:
    package, name = _script(game)
    return resources.files(package).joinpath(name).read_text(encoding="utf-8").splitlines()


def run_demo(out_dir: Path, language: str | None = None, stream: TextIO | None = None,
             game: str = "spacechess") -> int:
    """Play a demo game in `language` (else the console's: the system locale's, else English); the
    number of refused lines (0 when all went as written)."""
    stream = stream or sys.stdout
    package, _ = _script(game)
    language = console_language(language)
    with tempfile.TemporaryDirectory(prefix="spacechess-demo-") as folder, resources.as_file(
        resources.files(package)
    ) as package_dir:
        store = Store(f"sqlite:///{Path(folder) / 'demo.sqlite'}")
        try:
            console = Console(game_service(store), out_dir=out_dir, language=language, base_dir=package_dir,
                              stream=stream)
            refused = console.run_lines(script_lines(game))
        finally:
            store.close()
    images = sorted([*out_dir.glob("*.png"), *out_dir.glob("*.gif")])
    written = translate("console.images_written", language,
                        {"count": Count(len(images), "console.images"), "folder": str(out_dir.resolve())})
    print(f"\n{written}", file=stream)
    return refused
