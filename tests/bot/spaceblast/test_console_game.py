"""A whole six-ship SpaceBlast game with every variant, played from the demo's console script
(`spacechess demo spaceblast`): every line accepted, the game played to its end, a board and an
animation per turn — and, turn after turn, no ship's orders shown to the channel before the reveal."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image

from bot.demo import run_demo, script_lines

ORDER_LINE = re.compile(r'^as (\w+) /sb order text:"([^"]+)"$')


def test_the_six_ship_demo_plays_to_the_end_without_an_early_reveal(tmp_path: Path) -> None:
    out = io.StringIO()
    refused = run_demo(tmp_path, "en", stream=out, game="spaceblast")
    text = out.getvalue()
    assert refused == 0, text
    assert "Game over — Bob wins" in text
    gifs = sorted(tmp_path.glob("*.gif"))
    turns = sum(1 for line in script_lines("spaceblast") if line.startswith("# turn"))
    assert len(gifs) == turns and all(Image.open(gif).n_frames >= 4 for gif in gifs)
    assert len(sorted(tmp_path.glob("*arena.png"))) == turns + 1  # the start, then each turn
    # before each turn's reveal, the channel (every line not marked "only you") shows no order text
    given = [ORDER_LINE.match(line).group(2) for line in script_lines("spaceblast") if ORDER_LINE.match(line)]
    for turn_text in text.split("📜 Turn")[:-1]:
        public = "\n".join(line for line in turn_text.splitlines() if not line.startswith("(only you)"))
        leaked = [order for order in given if f"`{order}`" in public]
        assert leaked == [], leaked
    private = [line for line in text.splitlines() if line.startswith("(only you) Your orders")]
    assert len(private) == len(given)  # each player read their own orders back, privately
