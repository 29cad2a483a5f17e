"""Documents kept as JSON (issue 9 point 11): refused, with their key path, when a store would not
keep a value intact."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.core.documents import INT_MAX, INT_MIN, MAX_DEPTH, check_storable
from engine.core.errors import SetupError


def test_plain_documents_pass() -> None:
    check_storable({"map": "standard", "rules": {"ap_cap": INT_MAX, "x": INT_MIN}, "characters": [
        {"id": "Jean Luc", "cards": [1, 2], "hp": 1.5, "grade": None, "alive": True}]})


@pytest.mark.parametrize(
    ("document", "where", "reason"),
    [
        ({"seed": 2**70}, "seed", "int_range"),
        ({"rules": {"ap_cap": INT_MAX + 1}}, "rules.ap_cap", "int_range"),
        ({"characters": [{"id": "a"}, {"hp": INT_MIN - 1}]}, "characters[1].hp", "int_range"),
        ({"hp_soldier": float("nan")}, "hp_soldier", "not_finite"),
        ({"a": [float("inf")]}, "a[0]", "not_finite"),
        ({"end": dt.date(2024, 1, 1)}, "end", "type"),
        ({"a": {1: "x"}}, "a", "key"),
        ({"a": {"b": 1}, "c": [2**64]}, "c[0]", "int_range"),
    ],
)
def test_values_no_store_keeps_are_located(document: dict, where: str, reason: str) -> None:
    with pytest.raises(SetupError) as caught:
        check_storable(document)
    assert (caught.value.code, caught.value.where, caught.value.params["reason"]) == ("not_storable", where, reason)


def test_the_first_fault_in_document_order_is_reported() -> None:
    with pytest.raises(SetupError) as caught:
        check_storable({"a": [1, 2**70], "b": 2**70})
    assert caught.value.where == "a[1]"


def test_nesting_is_bounded_and_never_crashes_the_check() -> None:
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(SetupError) as caught:
        check_storable({"rules": deep})
    assert (caught.value.params["reason"], caught.value.params["maximum"]) == ("depth", MAX_DEPTH)
    assert caught.value.where == "rules" + "[0]" * (MAX_DEPTH - 1)
