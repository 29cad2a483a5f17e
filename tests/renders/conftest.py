"""Shared pieces of the render tests: sample views and the golden-image comparison.

Golden images are compared with a tolerance rather than byte for byte, because FreeType and zlib
versions shift antialiased pixels and compressed bytes without changing what a person sees.
Run with SPACECHESS_REGEN_GOLDEN=1 to rewrite them after an intended change (then look at them).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.spacechess.maps import GameMap, parse_map

GOLDEN = Path(__file__).parent / "golden"
CHANNEL_TOLERANCE = 48  # a pixel differs when some channel moved more than this
MAX_DIFFERING_RATIO = 0.001  # at most 0.1% of the pixels: a missing move path alone is 0.3%

SMALL_MAP_TEXT = """\
........
........
..#.....
..#..+..
........
.....##.
.+......
........
........
........
"""


def character(team: int, at: str | None, **extra: Any) -> dict[str, Any]:
    data = {
        "at": at,
        "hp": 20,
        "max_hp": 20,
        "ap": 3,
        "alive": at is not None,
        "team": team,
        "role": "soldier",
        "weapon": "bolter",
        "armour": "light",
        "items": ["grenades", "scope"],
        "ability": "vehicle",
        "cards": [2, 6],
        "shots_this_turn": 0,
        "skip_next_draw": False,
    }
    data.update(extra)
    return data


@pytest.fixture
def small_map() -> GameMap:
    return parse_map(SMALL_MAP_TEXT, name="small")


@pytest.fixture
def small_view() -> dict[str, Any]:
    return {
        "status": "running",
        "turn": 4,
        "winner": None,
        "characters": {
            "alice": character(
                1, "B2", role="general", weapon="chainsword", armour="medium", max_hp=30, hp=24
            ),
            "bob": character(1, "E3", hp=5, ap=9),
            "carla": character(2, "D9", role="general", weapon="chainsword", armour="medium", max_hp=30),
            "dmitri": character(2, "G8", hp=12, ap=0),
        },
        "pickups": [{"at": "F4", "kind": "ap", "amount": 2}],
    }


def standard_view_with(count: int) -> dict[str, Any]:
    """`count` living characters spread over the standard map's floor, both teams, as in a full game."""
    characters = {}
    for index in range(count):
        team = 1 + index % 2
        row = 1 + index // 2 if team == 1 else 44 - index // 2
        characters[f"player{index:02d}"] = character(
            team,
            f"{'ABCDEFGHIJKLMNOPQRSTUVWX'[(index * 5) % 24]}{row}",
            role="general" if index < 2 else "soldier",
        )
    return {"status": "running", "turn": 1, "winner": None, "characters": characters, "pickups": []}


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def differing_ratio(a: Image.Image, b: Image.Image) -> float:
    """Share of pixels where some channel differs by more than CHANNEL_TOLERANCE."""
    bands = [
        band.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
        for band in ImageChops.difference(a, b).split()
    ]
    mask = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    return mask.histogram()[255] / (a.width * a.height)


@pytest.fixture(name="decode")
def decode_fixture() -> Callable[[bytes], Image.Image]:
    return decode


@pytest.fixture(name="character")
def character_fixture() -> Callable[..., dict[str, Any]]:
    return character


@pytest.fixture
def standard_view() -> dict[str, Any]:
    return standard_view_with(14)


@pytest.fixture
def golden() -> Callable[[str, bytes], None]:
    def check(name: str, png: bytes) -> None:
        path = GOLDEN / name
        if os.environ.get("SPACECHESS_REGEN_GOLDEN") == "1":
            path.write_bytes(png)
            pytest.skip(f"regenerated {path}")
        assert path.exists(), f"missing golden {path}: run with SPACECHESS_REGEN_GOLDEN=1 and review it"
        expected, actual = decode(path.read_bytes()), decode(png)
        assert actual.size == expected.size
        ratio = differing_ratio(expected, actual)
        assert ratio <= MAX_DIFFERING_RATIO, f"{name}: {ratio:.2%} of pixels differ from the golden image"

    return check
