"""Issue 24, point 5: dates and times as each language writes them (Paris time for the draws),
"none" agreed with its noun, French elision before a value, and plurals."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.i18n import (
    Count,
    Day,
    Moment,
    elide,
    format_day,
    format_moment,
    format_relative,
    format_time,
    translate,
)

DRAW = dt.datetime(2026, 12, 2, 19, 35, tzinfo=dt.UTC)  # a Wednesday draw, 20:35 in Paris (winter)


@pytest.mark.parametrize(("language", "text"), [
    ("fr", "mercredi 2 décembre 2026 à 20 h 35"),
    ("en", "Wednesday 2 December 2026, 8:35 pm"),
])
def test_a_moment_reads_as_its_readers_write_it_in_paris_time(language: str, text: str) -> None:
    assert format_moment(DRAW, language) == text
    assert translate("date.moment", language, {"day": Day(DRAW.date()), "time": "x"}).startswith(text[:8])
    assert f"{format_moment(DRAW, language)}" == translate("gm.exported", language, {"name": Moment(DRAW)}).split(
        "**")[1]


@pytest.mark.parametrize(("language", "day", "hour", "summer"), [
    ("fr", "samedi 1er mars 2025", "20 h", "21 h 05"),
    ("en", "Saturday 1 March 2025", "8 pm", "9:05 pm"),
])
def test_first_of_the_month_hours_and_summer_time(language: str, day: str, hour: str, summer: str) -> None:
    assert format_day(dt.date(2025, 3, 1), language) == day
    assert format_time(dt.datetime(2025, 3, 1, 19, 0, tzinfo=dt.UTC), language) == hour
    assert format_time(dt.datetime(2025, 7, 1, 19, 5, tzinfo=dt.UTC), language) == summer  # UTC+2 in July
    assert format_time(dt.datetime(2025, 7, 1, 19, 5), language) == summer  # naive: a stored UTC time


@pytest.mark.parametrize(("language", "later", "earlier"), [
    ("fr", "dans 3 heures", "il y a 1 minute"), ("en", "in 3 hours", "1 minute ago"),
])
def test_relative_times(language: str, later: str, earlier: str) -> None:
    assert format_relative(DRAW, DRAW - dt.timedelta(hours=3, minutes=5), language) == later
    assert format_relative(DRAW, DRAW + dt.timedelta(seconds=70), language) == earlier
    assert format_relative(DRAW, DRAW, language) == translate("date.now", language)


def test_none_agrees_with_a_feminine_noun() -> None:
    assert translate("game.info.options", "fr", {"draws": "x", "limit": None, "end": None}) == (
        "Tirages : x · limite : aucune · date de fin : aucune")
    assert translate("game.info.options", "en", {"draws": "x", "limit": None, "end": None}).endswith("end date: none")
    assert translate("game.info.options", "fr", {"draws": "x", "limit": 12, "end": "2026"}).endswith(
        "limite : 12 · date de fin : 2026")  # a value is shown as it is
    sheet = translate("game.sheet", "fr", {"id": "Dee", "at": None, "items": [], "ability": None, "cards": []})
    assert "case aucune" in sheet and "objets : aucun ·" in sheet and "capacité : aucune" in sheet
    assert sheet.endswith("cartes : aucune")


@pytest.mark.parametrize(("before", "value", "elided"), [
    ("Export de **", "Orion**", "Export d’**"),
    ("de la partie de ", "Arkeon", "de la partie d’"),
    ("De ", "Ann", "D’"),
    ("le ", "Élan", "l’"),
    ("pendant que ", "Ann joue", "pendant qu’"),
    ("de ", "Bob", "de "),  # a consonant
    ("de ", "Hélène", "de "),  # an h is left alone
    ("monde ", "Orion", "monde "),  # not a particle
    ("de ", "12", "de "),
    ("en G2 de ", "E vers NE", "en G2 de "),  # a direction, a cell: codes, not words
    ("de ", "A1", "de "),
    ("de ", "un", "d’"),
])
def test_french_elides_before_a_vowel(before: str, value: str, elided: str) -> None:
    assert elide(before, value, "fr") == elided
    assert elide(before, value, "en") == before


def test_templates_elide_their_values() -> None:
    assert translate("gm.exported", "fr", {"name": "Orion"}).startswith("Export d’**Orion**")
    assert translate("gm.exported", "fr", {"name": "Bob"}).startswith("Export de **Bob**")
    assert translate("gm.exported", "en", {"name": "Orion"}).startswith("Export of **Orion**")


@pytest.mark.parametrize(("language", "n", "text"), [("fr", 0, "0 tirage"), ("fr", 2, "2 tirages"),
                                                     ("en", 0, "0 draws"), ("en", 1, "1 draw")])
def test_plurals(language: str, n: int, text: str) -> None:
    assert translate("date.future", language, {"span": Count(n, "word.draw_count")}).endswith(text)


def test_history_shows_the_logs_dates_as_the_reader_writes_them() -> None:
    from bot.service.history import payload_words

    words = payload_words({"date": "2025-03-01", "draw": {"date": "2025-03-03", "index": 1}, "name": "2025"})
    assert translate("history.detail", "fr", {"sep": "", "key": "tirage", "value": words["date"]}) == (
        "tirage samedi 1er mars 2025")
    assert translate("history.detail", "en", {"sep": "", "key": "draw", "value": words["draw_date"]}) == (
        "draw Monday 3 March 2025")
    assert words["name"] == "2025" and words["draw_index"] == 1
    assert payload_words({"date": "soon"}) == {"date": "soon"}  # not a date: as it is


def test_dates_and_counts_survive_the_outbox() -> None:
    """A post waits in the outbox as JSON: its dates are still read in the reader's language when sent."""
    import json

    from bot.outbox import decode_reply, encode_reply
    from bot.service import Message, Reply

    reply = Reply((Message("date.moment", {"day": Day(DRAW.date()), "time": Moment(DRAW),
                                           "n": Count(2, "word.draw_count")}),))
    assert decode_reply(json.loads(json.dumps(encode_reply(reply)))) == reply
