"""The README's images: every one it shows exists, and each game with a demo shows that demo's last
board, written by scripts/demo_images.py (which knows how each demo names its boards). What each of
those boards tells is checked with the demos' language checks (tests/bot/every_game/
test_language_leaks.py, which plays every demo once per language) and recorded in docs/pictures.md."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from bot.demo import demo_games
from bot.games import entry_for

ROOT = Path(__file__).resolve().parents[2]


@cache
def _script():
    spec = importlib.util.spec_from_file_location("demo_images", ROOT / "scripts" / "demo_images.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def last_board(game: str, files: Iterable[str]) -> str:
    """The name of the last board among a `game` demo's image `files`: the one the script copies
    (tests/bot/every_game/test_language_leaks.py reads its words)."""
    return sorted(name for name in files if name.endswith(f"-{_script().BOARDS[game]}.png"))[-1]


def test_the_readme_shows_each_demos_last_board_and_only_images_that_exist() -> None:
    shown = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert shown and all((ROOT / path).is_file() for path in shown), shown
    script = _script()
    for game in [name for name in demo_games() if entry_for(name).demo.startswith("bot.")]:  # not the tests' games
        assert game in script.BOARDS, f"scripts/demo_images.py does not know how the {game} demo names its boards"
        image = script.demo_image(game)
        assert str(image.relative_to(ROOT)) in shown, f"the README does not show the {game} demo's last board"
