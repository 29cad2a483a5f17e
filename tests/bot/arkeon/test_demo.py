"""`spacechess demo arkeon`: Ann against Bob from the shipped script, every line accepted, to Ann's
win, with a draw offer declined and one lapsed, and a board image per move."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.demo import script_lines


def test_the_arkeon_demo_plays_to_the_end_with_its_draw_offers(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "arkeon", "--out", str(tmp_path), "--lang", "en"]) == 0  # no line refused
    text = capsys.readouterr().out
    assert "\n!" not in text
    assert "🏁 Game over — Blue wins (Red's base on B6 destroyed, attacked from B5)." in text
    assert "Blue declines the draw." in text and "Blue's draw offer lapses." in text
    moves = sum(1 for line in script_lines("arkeon") if " /ak place " in line or " /ak order " in line)
    assert len(list(tmp_path.glob("*arkeon.png"))) >= moves
