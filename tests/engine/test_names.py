"""Names (issue 9 point 10): what the guides promise, NFKC, case-insensitive identity, reasons."""

from __future__ import annotations

import pytest

from engine.core.errors import SetupError
from engine.core.names import NAME_MAX, check_name, name_key


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Jean Luc", "Jean Luc"),
        ("  Jean \t  Luc  ", "Jean Luc"),
        ("Ｃｉｄ", "Cid"),
        ("O'Neil-Smith Jr.", "O'Neil-Smith Jr."),
        ("Zoé", "Zoé"),
        ("Zoe\u0301", "Zoé"),  # a decomposed accent is composed, and marks belong to their letter
        ("x" * NAME_MAX, "x" * NAME_MAX),
        ("नमस्ते", "नमस्ते"),
    ],
)
def test_names_the_guides_promise_are_accepted_and_normalised(typed: str, stored: str) -> None:
    assert check_name(typed) == stored


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("", "length"),
        ("   ", "length"),
        ("x" * (NAME_MAX + 1), "length"),
        ("x" * 1_000_000, "length"),
        ("<@&42>", "char"),
        ("@everyone", "char"),
        ("a;b", "char"),
        ("**bold**", "char"),
        ("\u0301a", "char"),
        (42, "not_text"),
        (None, "not_text"),
        (["Cid"], "not_text"),
    ],
)
def test_refusals_carry_a_reason_and_never_the_value(value: object, reason: str) -> None:
    with pytest.raises(SetupError) as caught:
        check_name(value, "characters[3].id")
    error = caught.value
    assert (error.code, error.where, error.params["reason"], error.params["maximum"]) == (
        "bad_id", "characters[3].id", reason, NAME_MAX)
    assert set(error.params) <= {"reason", "maximum", "char"}


def test_one_name_whatever_its_case_width_or_spacing() -> None:
    assert name_key("Cid") == name_key("cid") == name_key("ＣＩＤ") == name_key(" cid ")
    assert name_key("Jean Luc") == name_key("jean   LUC")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Cid") != name_key("Cyd")
