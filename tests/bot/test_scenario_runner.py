"""The scenario runner itself, on the test-only tally game: verdicts, reasons, malformed files."""

from __future__ import annotations

from pathlib import Path

from bot.cli import main
from bot.scenarios import run_file, run_paths


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
game = "tally"
title = "adding up"
rules = ["T-1"]
[setup]
goal = 5
"""


def test_passing_scenario_with_orders_errors_and_expectations(tmp_path, tally_game):
    # the tally game has no join in scenario steps: set up through a join-capable document is not
    # possible, so we check refusals and the view of an empty game
    path = write(tmp_path, "ok.toml", GOOD + """
[[step]]
by = "nobody"
order = "add 1"
error = "unknown_character"
[[step]]
by = "nobody"
order = "add"
error = true
[[step]]
expect = { "goal" = 5, "winner" = "none", "missing.path" = "none", "tallies" = {} }
""")
    result = run_file(path)
    assert result.passed, result.reason
    assert result.line() == f"PASS {path} — adding up"
    assert result.rules == ("T-1",)


def test_wrong_expectation_names_step_path_and_values(tmp_path):
    path = write(tmp_path, "bad.toml", GOOD + '[[step]]\nexpect = { "goal" = 6 }\n')
    result = run_file(path)
    assert not result.passed
    assert result.line() == f"FAIL {path} — step 1: goal expected 6 got 5"


def test_wrong_error_code_and_unexpected_acceptance(tmp_path):
    path = write(tmp_path, "code.toml", GOOD + '[[step]]\nby = "x"\norder = "add 1"\nerror = "bad_cell"\n')
    assert run_file(path).reason == "step 1: error expected bad_cell got unknown_character"
    path = write(tmp_path, "acc.toml", GOOD + '[[step]]\nby = "x"\norder = "add 1"\n')
    assert run_file(path).reason.startswith("step 1: accepted expected, got error unknown_character")


def test_booleans_are_not_numbers(tmp_path):
    path = write(tmp_path, "bool.toml", GOOD + '[[step]]\nexpect = { "goal" = true }\n')
    assert not run_file(path).passed


def test_malformed_files_fail_with_a_reason(tmp_path):
    cases = {
        "syntax.toml": ("game = ", "not valid TOML"),
        "game.toml": ('game = "chess"\n', "unknown game 'chess'"),
        "setup.toml": ('game = "tally"\n[setup]\ngoal = -1\n', "setup: goal: bad_goal"),
        "steps.toml": (GOOD + '[[step]]\nby = "a"\n', "step 1: expected exactly one of"),
        "two.toml": (GOOD + '[[step]]\nexpect = {}\ndraw = { numbers = [1] }\n', "step 1: expected exactly one of"),
        "noby.toml": (GOOD + '[[step]]\norder = "add 1"\n', "step 1: an order step needs `by`"),
        "draw.toml": (GOOD + '[[step]]\ndraw = { numbers = [1, 2] }\n', "step 1: accepted expected, got error not_allowed"),
    }
    for name, (text, reason) in cases.items():
        result = run_file(write(tmp_path, name, text))
        assert not result.passed, name
        assert reason in result.reason, (name, result.reason)


def test_folders_are_searched_recursively_and_cli_exit_status(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "a.toml", GOOD)
    write(tmp_path, "b.toml", GOOD)
    assert [r.passed for r in run_paths([tmp_path])] == [True, True]
    assert main(["scenario", str(tmp_path)]) == 0
    write(tmp_path, "c.toml", "game = ")
    assert main(["scenario", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "2 passed, 1 failed" in out
    assert f"FAIL {tmp_path / 'c.toml'} — not valid TOML" in out


def test_input_steps_apply_any_other_logged_input(tmp_path):
    path = write(tmp_path, "input.toml", GOOD + """
[[step]]
input = "join"
payload = { id = "ann" }
[[step]]
by = "ann"
order = "add 5"
[[step]]
expect = { "winner" = "ann", "tallies.ann" = 5 }
[[step]]
input = "join"
payload = { id = "ann" }
error = "game_over"
[[step]]
input = "join"
payload = "oops"
""")
    result = run_file(path)
    assert result.reason == "step 5: payload must be a table"
