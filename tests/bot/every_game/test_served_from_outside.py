"""A game that lives only under tests/ is served by its own files and one entry (issue 22): named to
the bot by ``SPACECHESS_GAMES``, it plays through the real start paths — the console, the scenario
runner and selfplay — in processes of their own, where no test registered anything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.games import EXTRA_GAMES_ENV
from tests.support.tally_bot import TEST_GAMES_SPEC

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = """
game = "tally"
title = "A tally served from outside the bot's package"

[setup]
goal = 5

[[step]]
by = "nobody"
order = "add 1"
error = "unknown_character"

[[step]]
expect = { "goal" = 5, "winner" = "none" }
"""


def spacechess(tmp_path: Path, *args: str, served: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPACECHESS_DATABASE_URL": f"sqlite:///{tmp_path / 'bot.sqlite'}"}
    env.pop(EXTRA_GAMES_ENV, None)
    if served:
        env[EXTRA_GAMES_ENV] = TEST_GAMES_SPEC
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


def test_its_scenario_runs_and_without_its_entry_the_game_is_unknown(tmp_path: Path) -> None:
    scenario = tmp_path / "tally.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    assert spacechess(tmp_path, "scenario", str(scenario)).returncode == 0
    unknown = spacechess(tmp_path, "scenario", str(scenario), served=False)
    assert unknown.returncode != 0 and "unknown game 'tally'" in unknown.stdout


def test_its_computer_plays_selfplay(tmp_path: Path) -> None:
    played = spacechess(tmp_path, "selfplay", "duel", "--a", "easy", "--b", "random", "--games", "2", "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["games"] == 2


def test_it_plays_in_the_console(tmp_path: Path) -> None:
    script = tmp_path / "tally.txt"
    script.write_text('in #t as gm /tl new name:Tally\nas ann /tl join name:Ann\nas ann /tl order text:"add 2"\n',
                      encoding="utf-8")
    played = spacechess(tmp_path, "console", "--script", str(script), "--lang", "en", "--out", str(tmp_path / "out"))
    assert played.returncode == 0, played.stdout + played.stderr
    assert "Ann +2 = 2" in played.stdout


def test_its_demo_is_listed_and_plays_from_its_entry(tmp_path: Path) -> None:
    played = spacechess(tmp_path, "demo", "tally", "--lang", "en", "--out", str(tmp_path / "out"))
    assert played.returncode == 0, played.stdout + played.stderr
    assert "Ann +3 = 3" in played.stdout
    unknown = spacechess(tmp_path, "demo", "tally", served=False)
    assert unknown.returncode != 0 and "invalid choice: 'tally'" in unknown.stderr
