"""`spacechess selfplay`: seeded computer matches, engine only. Every move a computer chooses goes
through the engine (an illegal one would raise), over many games. The levels' order (hard against
easy) needs the real thinking time: `python benchmarks/bench_arkeon_computer.py` prints it."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.selfplay import run_matches


def test_easy_plays_only_legal_moves_and_beats_a_random_mover() -> None:
    results = run_matches("arkeon", "easy", "random", games=30, seed=7, think=0.2)
    assert results["games"] == 30 and results["a_wins"] >= 27  # ≥ 90 %


def test_the_command_prints_json_and_refuses_what_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "arkeon", "--a", "easy", "--b", "random", "--games", "2", "--think", "0.1",
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["games"] == 2 and printed["a_wins"] + printed["b_wins"] + printed["draws"] == 2
    assert main(["selfplay", "arkeon", "--a", "godlike"]) == 1
    assert main(["selfplay", "spacechess"]) == 1
    assert "no computer players" in capsys.readouterr().err
