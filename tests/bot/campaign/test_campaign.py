"""A whole campaign played in the console, from `/sc new` to a victory, on real past FDJ draws.

The script (bot/demo/campaign.txt, also what `spacechess demo` plays) is the story a GM and four
players would type on Discord; the final state is read back from `/gm export`, the same JSON a GM
downloads.
"""

from __future__ import annotations

import io
import json
import re
from datetime import date
from pathlib import Path

import pytest

import bot.demo
from bot.cli import main
from bot.console import Console
from bot.demo import script_lines
from bot.service import GameService
from draws.parser import parse_path
from engine import registry
from renders.spacechess.board import render_board

HERE = Path(__file__).parent
DEMO_DIR = Path(bot.demo.__file__).parent
FDJ_2019 = HERE.parents[3] / "shared" / "data" / "fdj" / "loto_201911_v2026-08-19" / "loto_201911.zip"
DRAW_LINE = re.compile(r'/gm draw numbers:"([\d ]+)" date:(\d{4}-\d\d-\d\d)')


@pytest.fixture
def played(sqlite_store, tmp_path):
    console = Console(GameService(sqlite_store), out_dir=tmp_path / "out", stream=io.StringIO(), language="en",
                      base_dir=DEMO_DIR)
    refused = console.run_lines(script_lines())
    return console, refused


def test_every_line_of_the_campaign_is_accepted(played):
    console, refused = played
    assert refused == 0, console.stream.getvalue()


def test_the_final_state_from_the_export(played):
    console, _ = played
    assert console.run_line("as gm /gm export")
    export = sorted((console.out_dir).glob("*.json"))[-1]
    doc = json.loads(export.read_text(encoding="utf-8"))
    view = doc["view"]
    assert (doc["game"]["status"], view["status"], view["winner"], view["turn"]) == ("finished", "finished", 1, 3)
    dee, cid = view["characters"]["Dee"], view["characters"]["Cid"]
    assert (dee["alive"], dee["at"], dee["hp"]) == (False, None, 0)
    assert (cid["at"], cid["ap"], cid["hp"], cid["shots_this_turn"]) == ("K3", 6, 12, 1)
    assert view["characters"]["Ann"]["ap"] == 2 and view["characters"]["Bob"]["at"] == "G16"
    assert view["pickups"] == []
    kinds = [entry["kind"] for entry in doc["log"]]
    assert kinds.count("draw") == 3 and kinds[0] == "create" and "map" in kinds
    assert len(list((console.out_dir).glob("*board.png"))) >= 5


def test_the_draws_are_the_real_ones(played):
    """The numbers typed in the script are FDJ's first draw of each evening (SC-13)."""
    if not FDJ_2019.exists():
        pytest.skip(f"the FDJ files are not next to the repository ({FDJ_2019})")
    real = {d.date: d.numbers for d in parse_path(FDJ_2019) if d.index == 1}
    typed = DRAW_LINE.findall("\n".join(script_lines()))
    assert len(typed) == 3
    for numbers, day in typed:
        assert tuple(int(n) for n in numbers.split()) == real[date.fromisoformat(day)]


def test_spacechess_demo_writes_the_images_and_says_where(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--out", "pictures", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    images = sorted((tmp_path / "pictures").glob("*.png"))
    assert len(images) >= 5 and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    images += sorted((tmp_path / "pictures").glob("*.gif"))  # the replay (issue 15)
    assert f"{len(images)} images written to {(tmp_path / 'pictures').resolve()}" in out
    assert "Game over" in out


def test_every_state_of_the_campaign_renders(played):
    """Replay the exported log input by input and render the board after each one (no crash, real PNGs)."""
    console, _ = played
    assert console.run_line("as gm /gm export")
    doc = json.loads(sorted(console.out_dir.glob("*.json"))[-1].read_text(encoding="utf-8"))
    rules = registry.get("spacechess")
    state = rules.setup(doc["setup"], doc["game"]["seed"])
    rendered = 0
    for entry in doc["log"]:
        if entry["kind"] not in rules.input_kinds:
            continue
        state = rules.apply_input(state, entry["kind"], entry["actor"], entry["payload"]).state
        png = render_board(rules.view(state), state.game_map)
        assert png.startswith(b"\x89PNG") and len(png) < 1_000_000
        rendered += 1
    assert rendered == sum(1 for e in doc["log"] if e["kind"] in rules.input_kinds) > 20
    assert rules.view(state) == doc["view"]
