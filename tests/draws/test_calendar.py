"""The FDJ Loto calendar: Monday, Wednesday, Saturday at 20:35 Paris time, in UTC, across DST."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draws import DrawSchedule, expected_draws_between, next_expected_draw

UTC = dt.UTC
PARIS = ZoneInfo("Europe/Paris")


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


def test_next_draw_from_a_tuesday_is_wednesday_evening():
    assert next_expected_draw(utc(2026, 1, 13, 12, 0)) == utc(2026, 1, 14, 19, 35)


def test_next_draw_is_strictly_after():
    assert next_expected_draw(utc(2026, 1, 14, 19, 34, 59)) == utc(2026, 1, 14, 19, 35)
    assert next_expected_draw(utc(2026, 1, 14, 19, 35)) == utc(2026, 1, 17, 19, 35)


def test_saturday_late_evening_waits_for_monday():
    assert next_expected_draw(utc(2026, 1, 17, 22, 0)) == utc(2026, 1, 19, 19, 35)


def test_march_dst_change_moves_the_utc_time_one_hour_earlier():
    """Summer time starts Sunday 2025-03-30: Saturday 19:35 UTC, then Monday 18:35 UTC."""
    assert next_expected_draw(utc(2025, 3, 29, 12, 0)) == utc(2025, 3, 29, 19, 35)
    assert next_expected_draw(utc(2025, 3, 29, 19, 35)) == utc(2025, 3, 31, 18, 35)
    assert expected_draws_between(utc(2025, 3, 27), utc(2025, 4, 1)) == [
        utc(2025, 3, 29, 19, 35),
        utc(2025, 3, 31, 18, 35),
    ]


def test_october_dst_change_moves_the_utc_time_one_hour_later():
    """Winter time starts Sunday 2025-10-26: Saturday 18:35 UTC, then Monday 19:35 UTC."""
    assert next_expected_draw(utc(2025, 10, 25, 18, 34)) == utc(2025, 10, 25, 18, 35)
    assert next_expected_draw(utc(2025, 10, 25, 18, 35)) == utc(2025, 10, 27, 19, 35)
    assert expected_draws_between(utc(2025, 10, 23), utc(2025, 10, 28)) == [
        utc(2025, 10, 25, 18, 35),
        utc(2025, 10, 27, 19, 35),
    ]


def test_a_whole_year_is_mon_wed_sat_at_2035_paris():
    draws = expected_draws_between(utc(2025, 12, 31, 23, 0), utc(2026, 12, 31, 23, 0))
    local = [d.astimezone(PARIS) for d in draws]
    assert all(d.tzinfo is UTC for d in draws)
    assert {d.weekday() for d in local} == {0, 2, 5}
    assert {d.time() for d in local} == {dt.time(20, 35)}
    days = [dt.date(2026, 1, 1) + dt.timedelta(days=n) for n in range(365)]
    assert [d.date() for d in local] == [d for d in days if d.weekday() in (0, 2, 5)]


def test_between_is_half_open_start_excluded_end_included():
    evening = utc(2026, 1, 14, 19, 35)
    assert expected_draws_between(evening, evening + dt.timedelta(hours=1)) == []
    assert expected_draws_between(evening - dt.timedelta(hours=1), evening) == [evening]
    assert expected_draws_between(evening, evening - dt.timedelta(days=3)) == []


def test_aware_non_utc_input_gives_utc_output():
    paris_noon = dt.datetime(2026, 1, 14, 12, 0, tzinfo=PARIS)
    result = next_expected_draw(paris_noon)
    assert result == utc(2026, 1, 14, 19, 35) and result.tzinfo is UTC


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="aware"):
        next_expected_draw(dt.datetime(2026, 1, 14, 12, 0))
    with pytest.raises(ValueError, match="aware"):
        expected_draws_between(utc(2026, 1, 1), dt.datetime(2026, 2, 1))


def test_days_and_time_are_overridable():
    old_loto = DrawSchedule(weekdays=(2, 5), time=dt.time(20, 15))
    assert next_expected_draw(utc(2026, 1, 14, 20, 0), old_loto) == utc(2026, 1, 17, 19, 15)
    assert len(expected_draws_between(utc(2026, 1, 4), utc(2026, 1, 18), old_loto)) == 4


def test_a_time_inside_the_spring_gap_is_read_with_the_winter_offset():
    sunday_0230 = DrawSchedule(weekdays=(6,), time=dt.time(2, 30))
    assert next_expected_draw(utc(2025, 3, 29), sunday_0230) == utc(2025, 3, 30, 1, 30)


@pytest.mark.parametrize(
    "options", [{"weekdays": ()}, {"weekdays": (7,)}, {"time": dt.time(20, 35, tzinfo=UTC)}]
)
def test_bad_schedules_are_refused(options):
    with pytest.raises(ValueError):
        DrawSchedule(**options)


@settings(max_examples=100, deadline=None)
@given(st.datetimes(dt.datetime(2000, 1, 1), dt.datetime(2100, 1, 1), timezones=st.just(UTC)))
def test_next_draw_is_the_first_expected_draw_after(moment):
    following = next_expected_draw(moment)
    assert moment < following <= moment + dt.timedelta(days=3, hours=1)
    assert expected_draws_between(moment, following) == [following]
