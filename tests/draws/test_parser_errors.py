"""One test per way an FDJ file can be refused: a located DrawFileError, never a crash or a partial list."""

from __future__ import annotations

import pytest

from draws import DrawFileError, parse_bytes, parse_csv_text
from draws import parser as parser_module


def _edit(text: str, line: int, column: str, value: str) -> str:
    """Set one cell (by header name) of a 1-based physical line."""
    lines = text.splitlines()
    position = lines[0].split(";").index(column)
    cells = lines[line - 1].split(";")
    cells[position] = value
    lines[line - 1] = ";".join(cells)
    return "\n".join(lines) + "\n"


def _refused(text: str, file: str = "t.csv") -> DrawFileError:
    with pytest.raises(DrawFileError) as caught:
        parse_csv_text(text, file)
    return caught.value


@pytest.fixture
def new_loto(slices) -> str:
    return slices["loto_2008"].read_text()


@pytest.fixture
def old_loto(slices) -> str:
    return slices["loto_1976"].read_text()


@pytest.fixture
def second_draw(slices) -> str:
    return slices["loto_2019_numero7"].read_text()


def _assert_located(error: DrawFileError, code: str, line: int | None, column: str | None) -> None:
    assert (error.code, error.file, error.line, error.column) == (code, "t.csv", line, column)
    assert "t.csv" in str(error) and code in str(error)
    if line is not None:
        assert f"line {line}" in str(error)
    if column is not None:
        assert f"column {column}" in str(error)


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
def test_empty_file(content):
    with pytest.raises(DrawFileError) as caught:
        parse_bytes(content, "t.csv")
    _assert_located(caught.value, "empty_file", None, None)


def test_header_without_rows(new_loto):
    _assert_located(_refused(new_loto.splitlines()[0] + "\n"), "no_rows", None, None)


def test_unknown_header():
    error = _refused("date;n1;n2;n3;n4;n5\n2024-01-01;1;2;3;4;5\n")
    _assert_located(error, "unknown_header", 1, None)


def test_html_page_is_an_unknown_header():
    error = _refused("<!DOCTYPE html><html><body>Maintenance</body></html>\n")
    _assert_located(error, "unknown_header", 1, None)


@pytest.mark.parametrize("column", ["numero_chance", "boule_3", "date_de_tirage", "jour_de_tirage"])
def test_missing_column_is_named(new_loto, column):
    lines = [line.split(";") for line in new_loto.splitlines()]
    position = lines[0].index(column)
    text = "\n".join(";".join(c[:position] + c[position + 1 :]) for c in lines) + "\n"
    _assert_located(_refused(text), "missing_column", 1, column)


def test_missing_second_draw_column_in_2019_file(second_draw):
    text = second_draw.replace("boule_4_second_tirage;", "", 1)
    _assert_located(_refused(text), "missing_column", 1, "boule_4_second_tirage")


def test_missing_old_loto_index_column(old_loto):
    text = old_loto.replace("1er_ou_2eme_tirage", "tirage", 1)
    _assert_located(_refused(text), "missing_column", 1, "1er_ou_2eme_tirage")


def test_duplicate_column(new_loto):
    text = new_loto.replace("date_de_forclusion", "date_de_tirage", 1)
    _assert_located(_refused(text), "duplicate_column", 1, "date_de_tirage")


def test_row_with_a_missing_cell(new_loto):
    lines = new_loto.splitlines()
    lines[6] = lines[6].replace(";", "", 1)
    error = _refused("\n".join(lines) + "\n")
    _assert_located(error, "bad_row_length", 7, None)
    assert error.params == {"expected": 25, "found": 24}


def test_empty_ball(new_loto):
    _assert_located(_refused(_edit(new_loto, 4, "boule_2", "")), "missing_value", 4, "boule_2")


@pytest.mark.parametrize("value", ["x", "1.5", "-3", "+7", "\u0667"])
def test_ball_not_a_number(new_loto, value):
    _assert_located(_refused(_edit(new_loto, 5, "boule_5", value)), "not_a_number", 5, "boule_5")


@pytest.mark.parametrize("value", ["31/02/2017", "2017-03-01", "1/3/2017", ""])
def test_bad_date(new_loto, value):
    code = "missing_value" if value == "" else "bad_date"
    _assert_located(_refused(_edit(new_loto, 3, "date_de_tirage", value)), code, 3, "date_de_tirage")


def test_old_loto_date_must_be_yyyymmdd(old_loto):
    _assert_located(
        _refused(_edit(old_loto, 2, "date_de_tirage", "04/10/2008")), "bad_date", 2, "date_de_tirage"
    )


def test_unknown_day_name(new_loto):
    _assert_located(_refused(_edit(new_loto, 2, "jour_de_tirage", "FOO")), "bad_weekday", 2, "jour_de_tirage")


def test_day_name_disagrees_with_date(new_loto):
    error = _refused(_edit(new_loto, 2, "jour_de_tirage", "MARDI"))
    _assert_located(error, "weekday_mismatch", 2, "jour_de_tirage")


@pytest.mark.parametrize("value", ["0", "50", "99"])
def test_ball_out_of_range(new_loto, value):
    error = _refused(_edit(new_loto, 9, "boule_4", value))
    _assert_located(error, "number_out_of_range", 9, "boule_4")
    assert error.params == {"value": int(value)}


def test_repeated_ball(new_loto):
    lines = new_loto.splitlines()
    first = lines[7].split(";")[lines[0].split(";").index("boule_1")]
    _assert_located(_refused(_edit(new_loto, 8, "boule_3", first)), "duplicate_number", 8, "boule_3")


def test_complementary_equal_to_a_ball(old_loto):
    ball = old_loto.splitlines()[1].split(";")[5]
    error = _refused(_edit(old_loto, 2, "boule_complementaire", ball))
    _assert_located(error, "duplicate_number", 2, "boule_complementaire")


def test_complementary_out_of_range(old_loto):
    error = _refused(_edit(old_loto, 3, "boule_complementaire", "50"))
    _assert_located(error, "number_out_of_range", 3, "boule_complementaire")


@pytest.mark.parametrize("value", ["0", "11"])
def test_chance_out_of_range(new_loto, value):
    _assert_located(
        _refused(_edit(new_loto, 2, "numero_chance", value)), "chance_out_of_range", 2, "numero_chance"
    )


def test_old_loto_index_other_than_1_or_2(old_loto):
    error = _refused(_edit(old_loto, 2, "1er_ou_2eme_tirage", "3"))
    _assert_located(error, "bad_index", 2, "1er_ou_2eme_tirage")


def test_second_draw_ball_out_of_range(second_draw):
    error = _refused(_edit(second_draw, 2, "boule_3_second_tirage", "60"))
    _assert_located(error, "number_out_of_range", 2, "boule_3_second_tirage")


def test_second_draw_partially_empty(second_draw):
    error = _refused(_edit(second_draw, 2, "boule_5_second_tirage", ""))
    _assert_located(error, "missing_value", 2, "boule_5_second_tirage")


def test_balls_disagree_with_sorted_combination(new_loto):
    """A changed ball still in range is caught by the redundant combination column."""
    lines = new_loto.splitlines()
    header = lines[0].split(";")
    cells = lines[1].split(";")
    balls = {int(cells[header.index(f"boule_{n}")]) for n in range(1, 6)}
    replacement = next(n for n in range(1, 50) if n not in balls)
    error = _refused(_edit(new_loto, 2, "boule_1", str(replacement)))
    _assert_located(error, "combination_mismatch", 2, "combinaison_gagnante_en_ordre_croissant")


def test_chance_disagrees_with_combination(new_loto):
    cells = new_loto.splitlines()[1].split(";")
    header = new_loto.splitlines()[0].split(";")
    chance = int(cells[header.index("numero_chance")])
    error = _refused(_edit(new_loto, 2, "numero_chance", str(chance % 10 + 1)))
    _assert_located(error, "combination_mismatch", 2, "combinaison_gagnante_en_ordre_croissant")


def test_second_draw_disagrees_with_its_combination(second_draw):
    error = _refused(
        _edit(second_draw, 2, "combinaison_gagnant_second_tirage_en_ordre_croissant", "1-2-3-4-5")
    )
    _assert_located(error, "combination_mismatch", 2, "combinaison_gagnant_second_tirage_en_ordre_croissant")


def test_duplicate_draw(new_loto):
    lines = new_loto.splitlines()
    error = _refused("\n".join([*lines, lines[3]]) + "\n")
    _assert_located(error, "duplicate_draw", len(lines) + 1, "date_de_tirage")
    assert error.params["first_line"] == 4


def test_a_bad_last_row_refuses_the_whole_file(new_loto):
    """All or nothing: the rows before the fault are not returned either."""
    last = len(new_loto.splitlines())
    error = _refused(_edit(new_loto, last, "boule_1", "77"))
    assert error.line == last


def test_truncated_zip(slices, make_zip):
    archive = make_zip({"loto.csv": slices["loto_2008"].read_bytes()})
    with pytest.raises(DrawFileError) as caught:
        parse_bytes(archive[: len(archive) // 2], "t.zip")
    assert (caught.value.code, caught.value.file) == ("bad_zip", "t.zip")


@pytest.mark.parametrize("members", [{}, {"a.csv": b"x", "b.csv": b"y"}])
def test_zip_must_hold_exactly_one_file(members, make_zip):
    with pytest.raises(DrawFileError) as caught:
        parse_bytes(make_zip(members), "t.zip")
    assert caught.value.code == "zip_members"
    assert caught.value.params["names"] == sorted(members)


def test_zip_member_too_large_is_refused_before_decompression(slices, make_zip, monkeypatch):
    monkeypatch.setattr(parser_module, "MAX_MEMBER_BYTES", 1000)
    with pytest.raises(DrawFileError) as caught:
        parse_bytes(make_zip({"loto.csv": slices["loto_2008"].read_bytes()}), "t.zip")
    assert caught.value.code == "too_large"


def test_errors_inside_a_zip_name_the_member(slices, make_zip):
    text = _edit(slices["loto_2008"].read_text(), 3, "boule_2", "0")
    with pytest.raises(DrawFileError) as caught:
        parse_bytes(make_zip({"inner.csv": text.encode()}), "outer.zip")
    assert (caught.value.file, caught.value.line, caught.value.column) == (
        "outer.zip[inner.csv]",
        3,
        "boule_2",
    )


def test_field_over_the_csv_size_limit(new_loto):
    """The csv module's own refusal is a located DrawFileError, not a crash."""
    lines = new_loto.splitlines()
    error = _refused("\n".join([*lines[:3], "x" * 200_000 + ";", *lines[3:]]) + "\n")
    _assert_located(error, "bad_csv", 4, None)
