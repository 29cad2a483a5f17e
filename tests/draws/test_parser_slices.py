"""Parsing the committed slices of every real FDJ generation (the format traps of the README)."""

from __future__ import annotations

import datetime as dt

import pytest

from draws import Draw, iter_path, parse_bytes, parse_path
from draws.generations import GENERATIONS, LOTO_1976, LOTO_2008, LOTO_2017, LOTO_2019, detect


def _by_key(draws: list[Draw]) -> dict[tuple[dt.date, int], Draw]:
    return {d.key: d for d in draws}


@pytest.mark.parametrize(
    "name", ["loto_1976", "loto_2008", "loto_2017", "loto_201902", "loto_2019_numero7", "loto_2019_jokerplus"]
)
def test_every_slice_parses_completely_sorted_and_unique(name, slices, data_rows):
    draws = parse_path(slices[name])
    assert len(draws) == data_rows(slices[name])
    keys = [d.key for d in draws]
    assert keys == sorted(set(keys))
    assert all(d.source == "fdj" for d in draws)


@pytest.mark.parametrize(
    ("name", "generation"),
    [
        ("loto_1976", LOTO_1976),
        ("loto_2008", LOTO_2008),
        ("loto_2017", LOTO_2017),
        ("loto_201902", LOTO_2017),
        ("loto_2019_numero7", LOTO_2019),
        ("loto_2019_jokerplus", LOTO_2019),
    ],
)
def test_generation_is_detected_from_the_header(name, generation, slices):
    header = slices[name].read_text().splitlines()[0].split(";")[:-1]
    assert detect(header, name) is generation
    assert tuple(header) in generation.headers


def test_known_headers_are_distinct_between_generations():
    headers = [h for g in GENERATIONS for h in g.headers]
    assert len(set(headers)) == len(headers)


def test_old_loto_six_numbers_complementary_and_two_draws_per_evening_from_1990_09_12(slices):
    draws = _by_key(parse_path(slices["loto_1976"]))
    last_evening = dt.date(2008, 10, 4)
    assert draws[(last_evening, 1)].numbers == (36, 9, 16, 27, 25, 12)
    assert draws[(last_evening, 1)].complementary == 48
    assert draws[(last_evening, 2)].numbers == (33, 32, 42, 16, 15, 49)
    assert draws[(last_evening, 2)].complementary == 37
    assert all(d.chance is None and d.second_numbers is None for d in draws.values())
    evenings_with_two = {day for day, index in draws if index == 2}
    assert min(evenings_with_two) == dt.date(1990, 9, 12)
    assert (dt.date(1990, 9, 8), 2) not in draws and (dt.date(1990, 9, 8), 1) in draws
    # The first Loto draw, YYYYMMDD dates, and the rare Thursday / Friday draws.
    assert draws[(dt.date(1976, 5, 19), 1)].numbers == (31, 15, 33, 27, 36, 48)
    assert (dt.date(1983, 5, 26), 1) in draws  # "JE"
    assert (dt.date(1979, 12, 28), 1) in draws  # "VE"


def test_new_loto_five_numbers_and_chance_with_padded_day_names(slices):
    draws = _by_key(parse_path(slices["loto_2008"]))
    first = draws[(dt.date(2008, 10, 6), 1)]
    assert first == Draw(dt.date(2008, 10, 6), 1, (19, 33, 41, 24, 27), chance=9)


def test_2017_generation_with_codes_columns(slices):
    draws = _by_key(parse_path(slices["loto_2017"]))
    assert draws[(dt.date(2019, 2, 25), 1)] == Draw(dt.date(2019, 2, 25), 1, (7, 44, 37, 48, 38), chance=7)


def test_2019_second_draw_and_the_id_and_day_name_quirks(slices):
    """5-digit, 4-digit and 8-digit ids, 'LUNDI' and 'LUNDI   ' all parse; ids are not kept."""
    draws = _by_key(parse_path(slices["loto_2019_numero7"]))
    assert draws[(dt.date(2026, 8, 19), 1)] == Draw(
        dt.date(2026, 8, 19), 1, (14, 21, 26, 18, 44), chance=7, second_numbers=(1, 4, 19, 22, 48)
    )
    assert (dt.date(2023, 5, 15), 1) in draws  # id "3058"
    assert (dt.date(2022, 7, 4), 1) in draws  # id "22080", "LUNDI" unpadded
    assert (dt.date(2022, 7, 2), 1) in draws  # id "20222079", "SAMEDI  " padded
    assert all(d.second_numbers is not None for d in draws.values())


def test_older_2019_edition_contains_4_november_2019(slices):
    draws = _by_key(parse_path(slices["loto_2019_jokerplus"]))
    assert draws[(dt.date(2019, 11, 4), 1)].second_numbers == (6, 18, 25, 41, 43)


@pytest.mark.parametrize("member", ["loto_201911.csv", "anything.txt", "deep/folder/x"])
def test_zip_is_read_whatever_the_member_name(member, slices, make_zip):
    raw = slices["loto_2017"].read_bytes()
    assert parse_bytes(make_zip({member: raw}), "download.bin") == parse_bytes(raw, "plain.csv")


def test_file_name_does_not_decide_the_generation(tmp_path, slices):
    misleading = tmp_path / "loto_197605.csv"
    misleading.write_bytes(slices["loto_2008"].read_bytes())
    assert parse_path(misleading) == parse_path(slices["loto_2008"])


def test_crlf_bom_and_missing_trailing_separator_are_tolerated(slices):
    text = slices["loto_2008"].read_text()
    reference = parse_bytes(text.encode(), "a.csv")
    variant = "\ufeff" + "\r\n".join(line.removesuffix(";") for line in text.splitlines()) + "\r\n"
    assert parse_bytes(variant.encode("utf-8"), "b.csv") == reference


def test_latin1_bytes_in_an_unused_column_do_not_stop_the_import(slices):
    text = slices["loto_2008"].read_text()
    latin1 = text.replace(";eur;", ";\xe9ur;").encode("latin-1")
    assert parse_bytes(latin1, "latin1.csv") == parse_bytes(text.encode(), "ascii.csv")


def test_iter_path_validates_first_then_reports_progress_per_consumed_draw(slices, data_rows):
    calls: list[tuple[int, int]] = []
    total = data_rows(slices["loto_2017"])
    draws = iter_path(slices["loto_2017"], progress=lambda done, tot: calls.append((done, tot)))
    first = next(draws)
    assert calls == [(0, total)]
    rest = list(draws)
    assert [first, *rest] == parse_path(slices["loto_2017"])
    assert calls == [(i, total) for i in range(total + 1)]


def test_iter_path_raises_before_yielding_anything_on_a_bad_file(tmp_path, slices):
    lines = slices["loto_2008"].read_text().splitlines()
    lines[-1] = lines[-1].replace(";19;33;41;24;27;", ";19;33;41;24;99;")
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n")
    calls: list[tuple[int, int]] = []
    draws = iter_path(bad, progress=lambda done, tot: calls.append((done, tot)))
    with pytest.raises(Exception, match="number_out_of_range"):
        next(draws)
    assert calls == []
