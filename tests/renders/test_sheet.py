"""The character sheet card (SC-6 loadout, SC-11 AP, SC-12 card ranges)."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderError
from renders.spacechess.sheet import card_range, render_sheet

FRENCH = {
    "team": "Équipe",
    "weapon": "Arme",
    "armour": "Armure",
    "items": "Objets",
    "ability": "Capacité",
    "cards": "Cartes",
    "cell": "Case",
    "hp": "PV",
    "ap": "PA",
    "dead": "MORT",
    "soldier": "soldat",
    "general": "général",
    "chainsword": "épée tronçonneuse",
    "medium": "moyenne",
}


def test_sheet_golden_english(small_view, golden) -> None:
    golden("sheet_bob.png", render_sheet(small_view, "bob"))


def test_sheet_golden_localised_general(small_view, golden) -> None:
    golden("sheet_alice_fr.png", render_sheet(small_view, "alice", labels=FRENCH))


def test_sheet_golden_dead(small_view, golden) -> None:
    small_view["characters"]["dmitri"].update(alive=False, at=None, hp=0)
    golden("sheet_dmitri_dead.png", render_sheet(small_view, "dmitri"))


def test_sheet_labels_change_the_picture(small_view) -> None:
    assert render_sheet(small_view, "alice", labels=FRENCH) != render_sheet(small_view, "alice")
    assert render_sheet(small_view, "alice", labels={}) == render_sheet(small_view, "alice")


def test_sheet_is_deterministic(small_view) -> None:
    assert render_sheet(small_view, "bob") == render_sheet(small_view, "bob")


def test_sheet_unknown_character(small_view) -> None:
    with pytest.raises(OrderError) as caught:
        render_sheet(small_view, "zoe")
    assert caught.value.code == "unknown_character"
    assert caught.value.params == {"name": "zoe"}


@pytest.mark.parametrize(("card", "numbers"), [(1, (1, 7)), (2, (8, 14)), (4, (22, 28)), (7, (43, 49))])
def test_sc12_card_ranges(card: int, numbers: tuple[int, int]) -> None:
    assert card_range(card) == numbers
