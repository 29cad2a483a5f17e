"""The replay's GIF stays within the attachment limit: fewer frames, then smaller ones."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renders import common
from renders.gif import bounded_gif, spread


def frames(count: int) -> list[Image.Image]:
    """Frames that each differ everywhere (noise-like stripes), so every frame costs bytes."""
    out = []
    for index in range(count):
        image = Image.new("RGB", (200, 150), common.PAPER)
        for x in range(0, 200, 2):
            colour = (common.BLUE, common.ORANGE, common.GREEN)[(x // 2 + index) % 3]
            image.paste(colour, (x, 0, x + 1, 150))
        out.append(common.to_palette(image))
    return out


def test_spread_keeps_the_first_and_the_last() -> None:
    assert spread(10, 3) == [0, 4, 9] and spread(3, 10) == [0, 1, 2] and spread(5, 1) == [4]


def test_a_gif_under_the_limit_keeps_every_frame_at_full_size() -> None:
    data, kept, scale = bounded_gif(frames(6), 10**7)
    gif = Image.open(io.BytesIO(data))
    assert (gif.n_frames, gif.size, kept, scale) == (6, (200, 150), 6, 1.0)


def test_too_large_a_gif_loses_size_then_frames_until_it_fits() -> None:
    full, _, _ = bounded_gif(frames(16), 10**7)
    heard: list[tuple[str, int]] = []
    data, kept, scale = bounded_gif(frames(16), len(full) // 5, progress=lambda what, n: heard.append((what, n)))
    gif = Image.open(io.BytesIO(data))
    assert len(data) <= len(full) // 5 and (kept < 16 or scale < 1)
    assert gif.n_frames <= kept and gif.size[0] == round(200 * scale)  # Pillow merges identical frames
    assert ("scale", 75) in heard  # smaller first, then fewer


def test_frames_of_different_sizes_are_padded_and_an_impossible_limit_refused() -> None:
    tall = common.to_palette(Image.new("RGB", (200, 180), common.PAPER))
    data, _, _ = bounded_gif([*frames(2), tall], 10**7)
    assert Image.open(io.BytesIO(data)).size == (200, 180)
    with pytest.raises(ValueError, match="does not fit"):
        bounded_gif(frames(3), 10)
    with pytest.raises(ValueError, match="at least one frame"):
        bounded_gif([], 10)
