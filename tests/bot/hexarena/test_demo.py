"""`spacechess demo hexarena`: Ann against Bob from the shipped script (reconstructed rules), every
line accepted, to Ann's admiral on Blue's base, with a board image after every turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from bot.demo import script_lines


def test_the_hexarena_demo_plays_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "hexarena", "--out", str(tmp_path), "--lang", "en"]) == 0  # no line refused
    text = capsys.readouterr().out
    assert "🏁 Game over — **Red** wins (its admiral reached the enemy base)." in text
    for shown in ("(teleport)", "🔫 Red admiral on G1 fires E at Blue fighter 2.", "♻️ Red admiral recycles",
                  "Red admiral boards Red cargo 2 on F2.", "Red admiral is left standing on F10"):
        assert shown in text, shown
    turns = sum(1 for line in script_lines("hexarena") if " /hx " in line and " /hx join" not in line
                and " /hx new" not in line)
    assert len(list(tmp_path.glob("*hexarena.png"))) >= turns + 1  # the start, then each turn
