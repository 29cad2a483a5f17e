"""The rules conformance suite: every scenario file passes, and every rule id has a scenario.

The files are run by the same runner as `spacechess scenario` (bot/scenarios.py), so the CLI and
the test suite can never disagree about a verdict.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.scenarios import run_file, scenario_files

SCENARIOS = Path(__file__).parents[1] / "scenarios"
#: games whose rules are implemented, and their rule ids
GAMES = {"spacechess": [f"SC-{n}" for n in range(1, 35)], "hexarena": [f"HA-{n}" for n in range(1, 19)],
         "spaceblast": [f"SB-{n}" for n in range(1, 21)],
         "arkeon": [f"AK-{n}" for n in range(1, 18)]}
FILES = sorted(scenario_files([SCENARIOS]))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(SCENARIOS)) for p in FILES])
def test_scenario_passes(path):
    result = run_file(path)
    assert result.passed, result.line()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_id_has_a_scenario(game):
    covered = {rule for path in scenario_files([SCENARIOS / game]) for rule in run_file(path).rules}
    assert [rule for rule in GAMES[game] if rule not in covered] == []
