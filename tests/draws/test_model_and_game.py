"""The Draw value (invariants, JSON) and which numbers a game uses (SC-13)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draws import Draw, InvalidDrawValue, counts_for_game, game_numbers, parse_path

balls = st.lists(st.integers(1, 49), min_size=5, max_size=6, unique=True).map(tuple)


@st.composite
def draw_values(draw) -> Draw:
    numbers = draw(balls)
    old = len(numbers) == 6
    complementary = draw(st.one_of(st.none(), st.integers(1, 49).filter(lambda n: n not in numbers)))
    return Draw(
        date=draw(st.dates(dt.date(1976, 5, 19), dt.date(2100, 1, 1))),
        index=draw(st.sampled_from((1, 2))),
        numbers=numbers,
        complementary=complementary,
        chance=None if old else draw(st.one_of(st.none(), st.integers(1, 10))),
        second_numbers=None
        if old
        else draw(
            st.one_of(st.none(), st.lists(st.integers(1, 49), min_size=5, max_size=5, unique=True).map(tuple))
        ),
        source=draw(st.sampled_from(("fdj", "manual"))),
    )


@settings(max_examples=60, deadline=None)
@given(draw_values())
def test_json_round_trip(value):
    data = value.to_json()
    assert set(data) == {"date", "index", "numbers", "complementary", "chance", "second_numbers", "source"}
    assert data["date"] == value.date.isoformat()
    assert Draw.from_json(data) == value


def test_json_round_trip_of_every_slice(slices):
    for path in slices.values():
        for value in parse_path(path):
            assert Draw.from_json(value.to_json()) == value


def test_key_is_date_and_index():
    value = Draw(dt.date(2008, 10, 4), 2, (33, 32, 42, 16, 15, 49), complementary=37)
    assert value.key == (dt.date(2008, 10, 4), 2)


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"date": "01/01/2024"}, "bad_date", "date"),
        ({"index": None}, "bad_index", "index"),
        ({"numbers": [1, 2, 3, 4, 5, 6, 7]}, "bad_count", "numbers"),
        ({"numbers": "1-2-3-4-5"}, "bad_numbers", "numbers"),
        ({"numbers": [1, 2, 3, 4, True]}, "number_out_of_range", "numbers"),
        ({"chance": 11}, "chance_out_of_range", "chance"),
        ({"complementary": 1}, "duplicate_number", "complementary"),
        ({"second_numbers": [1, 2, 3]}, "bad_count", "second_numbers"),
        ({"second_numbers": [1, 1, 2, 3, 4]}, "duplicate_number", "second_numbers"),
        ({"source": ""}, "bad_source", "source"),
    ],
)
def test_damaged_json_is_refused_with_the_field(change, code, field):
    data = Draw(dt.date(2024, 1, 1), 1, (1, 2, 3, 4, 5), chance=3).to_json() | change
    with pytest.raises(InvalidDrawValue) as caught:
        Draw.from_json(data)
    assert (caught.value.code, caught.value.field) == (code, field)


def test_missing_json_field_is_refused():
    data = Draw(dt.date(2024, 1, 1), 1, (1, 2, 3, 4, 5)).to_json()
    del data["numbers"]
    with pytest.raises(InvalidDrawValue):
        Draw.from_json(data)


def test_sc13_old_loto_main_numbers_and_complementary_bonus(slices):
    """SC-13: old Loto (6+1) — the six numbers count and the complementary number is the bonus."""
    evening = {d.index: d for d in parse_path(slices["loto_1976"]) if d.date == dt.date(2008, 10, 4)}
    assert game_numbers(evening[1]) == ((36, 9, 16, 27, 25, 12), 48)


def test_sc13_only_the_first_draw_of_the_evening_counts(slices):
    """SC-13: the old Loto's second draw of an evening is stored but never used by a game."""
    evening = {d.index: d for d in parse_path(slices["loto_1976"]) if d.date == dt.date(2008, 10, 4)}
    assert counts_for_game(evening[1]) and not counts_for_game(evening[2])
    with pytest.raises(ValueError, match="SC-13"):
        game_numbers(evening[2])


def test_sc13_new_loto_chance_number_is_ignored_and_second_draw_unused(slices):
    """SC-13 D: today's Loto has no complementary number: no bonus; chance and second draw stay stored."""
    value = next(d for d in parse_path(slices["loto_2019_numero7"]) if d.date == dt.date(2026, 8, 19))
    assert game_numbers(value) == ((14, 21, 26, 18, 44), None)
    assert value.chance == 7 and value.second_numbers == (1, 4, 19, 22, 48)


@settings(max_examples=60, deadline=None)
@given(draw_values())
def test_sc13_game_numbers_are_main_and_complementary_of_first_draws_only(value):
    if value.index != 1:
        with pytest.raises(ValueError, match="SC-13"):
            game_numbers(value)
    else:
        assert game_numbers(value) == (value.numbers, value.complementary)
