"""A SpaceBlast ship's card (SB-4 material, SB-9 disqualification, SB-17 powers shown only when passed)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.games.spaceblast.words import picture_labels
from engine.core.errors import OrderError
from renders.spaceblast import sheet
from renders.spaceblast.style import SHIP_COLOURS

#: the English catalog's words, as the bot gives them
ENGLISH = picture_labels("en")


def render_sheet(view: dict[str, Any], ship: str, **options: Any) -> bytes:
    return sheet.render_sheet(view, ship, **{"labels": ENGLISH, **options})

VIEW = {
    "turn": 4,
    "winner": None,
    "ships": {
        "red": {
            "at": "C3",
            "facing": "SE",
            "hits": 1,
            "alive": True,
            "turns": 8,
            "brakes": 2,
            "missiles": 6,
            "mines": 3,
            "score": 2,
            "disqualified": False,
        },
        "blue": {
            "at": "B6",
            "facing": "SW",
            "hits": 2,
            "alive": True,
            "turns": 10,
            "brakes": 1,
            "missiles": 8,
            "mines": 2,
            "score": 0,
            "disqualified": False,
        },
    },  # fmt: skip
    "missiles": [],
    "mines": [],
    "asteroids": [],
}


def with_ship(ship: str, **changes: object) -> dict:
    view = {**VIEW, "ships": {k: dict(v) for k, v in VIEW["ships"].items()}}
    view["ships"][ship].update(changes)
    return view


def test_sheet_is_a_deterministic_png_in_the_seat_colour() -> None:
    png = render_sheet(VIEW, "blue")
    assert png.startswith(b"\x89PNG") and png == render_sheet(VIEW, "blue")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.getpixel((image.width - 5, 5)) == SHIP_COLOURS[1]


@pytest.mark.parametrize(
    "changes",
    [{"turns": 7}, {"brakes": 0}, {"missiles": 5}, {"mines": 1}, {"hits": 3}, {"score": 5}, {"facing": "W"}],
)
def test_every_counter_shows(changes: dict) -> None:
    assert render_sheet(with_ship("red", **changes), "red") != render_sheet(VIEW, "red")


def test_states_gone_disqualified_winner_differ() -> None:
    flying = render_sheet(VIEW, "red")
    gone = render_sheet(with_ship("red", at=None, alive=False, hits=4), "red")
    disqualified = render_sheet(
        with_ship("red", at=None, alive=False, hits=4, disqualified=True, score=0), "red"
    )
    winner = render_sheet({**VIEW, "winner": "red"}, "red")
    assert len({flying, gone, disqualified, winner}) == 4
    image = Image.open(io.BytesIO(gone)).convert("RGB")
    assert image.getpixel((image.width - 5, 5)) != SHIP_COLOURS[0]  # greyed out once gone


def test_powers_appear_only_when_passed() -> None:
    plain = render_sheet(VIEW, "red")
    assert render_sheet(VIEW, "red", powers=()) == plain
    shown = render_sheet(VIEW, "red", powers=["shield", "rear_shot"])
    assert shown != plain
    assert Image.open(io.BytesIO(shown)).height > Image.open(io.BytesIO(plain)).height


def test_labels_translate_the_card() -> None:
    assert render_sheet(VIEW, "red", labels=picture_labels("fr")) != render_sheet(VIEW, "red")
    with pytest.raises(ValueError, match="turns"):
        render_sheet(VIEW, "red", labels={key: text for key, text in ENGLISH.items() if key != "turns"})


def test_unknown_ship() -> None:
    with pytest.raises(OrderError) as caught:
        render_sheet(VIEW, "green")
    assert caught.value.code == "unknown_character"
    assert caught.value.params == {"name": "green"}
