"""scripts/ap_per_week.py: the SC-13 weekly AP table of docs/draws.md."""

from __future__ import annotations

import datetime as dt
import importlib.util
import sys
from pathlib import Path

import pytest

from draws import Draw, parse_path

SCRIPT = Path(__file__).parents[2] / "scripts" / "ap_per_week.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("ap_per_week_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the script loads
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_sc13_card_award(script):
    """SC-12/SC-13: card 2 covers 8..14; +1 per main number in it, +2 for the bonus."""
    assert script.card_award(2, (8, 14, 15, 1, 30), None) == 2
    assert script.card_award(2, (8, 14, 15, 1, 30), 9) == 4
    assert script.card_award(3, (8, 14, 15, 1, 30), 9) == 1


def test_sc13_mean_over_card_pairs_is_two_sevenths_of_the_draw(script, slices):
    """Each number is on exactly one card and each card in 6 of the 21 pairs: mean = 2/7 x award."""
    for name, per_draw in (("loto_1976", 6 + 2), ("loto_2008", 5)):
        row = script.summarise(name, parse_path(slices[name]))
        assert sum(row.pair_totals) / len(row.pair_totals) == pytest.approx(row.draws * per_draw * 2 / 7)


def test_second_draw_of_the_evening_is_not_counted(script):
    day = dt.date(2000, 1, 1)
    first = Draw(day, 1, (1, 2, 3, 4, 5, 6), complementary=7)
    second = Draw(day, 2, (43, 44, 45, 46, 47, 48), complementary=49)
    row = script.summarise("x", [first, second])
    assert row.draws == 1
    assert max(row.pair_totals) == 6 + 2  # card 1 holds the six numbers and the bonus 7
    assert row.pair_totals[script.PAIRS.index((6, 7))] == 0  # the second draw's 43..49 are ignored


def test_prints_one_row_per_file_and_the_era_summaries(script, slices, tmp_path, capsys):
    for name in ("loto_1976", "loto_2017"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "file.csv").write_bytes(slices[name].read_bytes())
    script.main([str(tmp_path)])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + 2 + 3
    assert lines[2].startswith("| loto_1976/file.csv | 1976-05-19 .. 2008-10-04 |")
