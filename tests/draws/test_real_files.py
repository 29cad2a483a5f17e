"""The complete real FDJ files (read in place, never copied): counts and facts from their README."""

from __future__ import annotations

import datetime as dt
from itertools import pairwise

import pytest

from draws import FileSource, parse_path
from draws.generations import LOTO_1976, LOTO_2008, LOTO_2017, LOTO_2019, detect

# (path under the fdj folder, rows in the README, generation, first date, last date)
REAL_FILES = [
    ("loto_197605/loto.csv", 4858, LOTO_1976, dt.date(1976, 5, 19), dt.date(2008, 10, 4)),
    ("loto_197605/loto_197605.zip", 4858, LOTO_1976, dt.date(1976, 5, 19), dt.date(2008, 10, 4)),
    ("loto_200810/nouveau_loto.csv", 1317, LOTO_2008, dt.date(2008, 10, 6), dt.date(2017, 3, 4)),
    ("loto_201703/loto2017.csv", 310, LOTO_2017, dt.date(2017, 3, 6), dt.date(2019, 2, 25)),
    ("loto_201902/loto_201902.csv", 107, LOTO_2017, dt.date(2019, 2, 27), dt.date(2019, 11, 2)),
    ("loto_201911_v2026-08-19/loto_201911.csv", 1063, LOTO_2019, dt.date(2019, 11, 6), dt.date(2026, 8, 19)),
    ("loto_201911_v2026-08-19/loto_201911.zip", 1063, LOTO_2019, dt.date(2019, 11, 6), dt.date(2026, 8, 19)),
    ("loto_201911_v2022-09-28/loto_201911.csv", 455, LOTO_2019, dt.date(2019, 11, 4), dt.date(2022, 9, 28)),
]


@pytest.mark.parametrize(
    ("path", "rows", "generation", "first", "last"), REAL_FILES, ids=[f[0] for f in REAL_FILES]
)
def test_real_file_parses_with_readme_row_count(real_fdj, path, rows, generation, first, last):
    draws = parse_path(real_fdj / path)
    assert len(draws) == rows
    assert (draws[0].date, draws[-1].date) == (first, last)
    if not path.endswith(".zip"):
        header = (real_fdj / path).read_text().splitlines()[0].split(";")[:-1]
        assert detect(header, path) is generation


def test_old_loto_two_draws_per_evening_from_1990_09_12(real_fdj):
    draws = parse_path(real_fdj / "loto_197605/loto.csv")
    seconds = [d for d in draws if d.index == 2]
    assert min(d.date for d in seconds) == dt.date(1990, 9, 12)
    firsts = {d.date for d in draws if d.index == 1}
    assert {d.date for d in draws if d.date >= dt.date(1990, 9, 12)} == {d.date for d in seconds}
    assert {d.date for d in seconds} <= firsts
    assert all(d.complementary is not None and d.chance is None for d in draws)


def test_two_editions_of_the_2019_archive_agree_on_shared_draws(real_fdj):
    """README: same numbers on the 454 shared draws; 04/11/2019 only in the older edition."""
    old = {d.key: d for d in parse_path(real_fdj / "loto_201911_v2022-09-28/loto_201911.csv")}
    new = {d.key: d for d in parse_path(real_fdj / "loto_201911_v2026-08-19/loto_201911.csv")}
    shared = old.keys() & new.keys()
    assert len(shared) == 454
    assert all(old[k] == new[k] for k in shared)
    assert set(old) - set(new) == {(dt.date(2019, 11, 4), 1)}


def test_generations_follow_each_other_without_overlap(real_fdj):
    files = [
        "loto_197605/loto.csv",
        "loto_200810/nouveau_loto.csv",
        "loto_201703/loto2017.csv",
        "loto_201902/loto_201902.csv",
        "loto_201911_v2022-09-28/loto_201911.csv",
    ]
    spans = [(d[0].date, d[-1].date) for d in (parse_path(real_fdj / f) for f in files)]
    assert all(a[1] < b[0] for a, b in pairwise(spans))


def test_file_source_memo_is_the_sha256_from_the_readme(real_fdj):
    result = FileSource(real_fdj / "loto_200810/nouveau_loto.csv").fetch()
    expected = "0823a148e8d177daf2b0c4f0a586bb14ccc4b2b2dba112a7b958ec76b09d8d66"
    assert result.memo.sha256 == expected
    assert len(result.draws) == 1317
