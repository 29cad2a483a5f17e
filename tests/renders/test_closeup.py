"""Close-ups and move previews (issue 27, point 4): drawn at their own scale, as sharp as the board
(every shape and word drawn large, not the board's pixels enlarged), with their key — who the tokens
in view are and what the marks in view mean, in the reader's words — and a golden image each."""

from __future__ import annotations

import pytest
from PIL import Image

from bot.games.spacechess.pictures import picture_labels
from renders import common
from renders.spacechess import board as board_module
from renders.spacechess.board import CELL, RULER_H, Caption, Overlay, board_image
from renders.spacechess.closeup import MAX_SCALE, RULE, render_closeup, window

PATH = ("E3", "E4", "D4", "D5")


@pytest.fixture
def drawn():
    """Every string drawn while the test runs."""
    with common.recording_text() as texts:
        yield texts


def _colours_along(image, y: int, x0: int, x1: int) -> set[tuple[int, int, int]]:
    return {image.getpixel((x, y)) for x in range(x0, x1)}


def test_a_closeup_is_drawn_at_its_own_scale_with_sharp_edges(small_map, small_view, decode) -> None:
    """Along a row of floor cells the picture holds the floor and the grid's colours alone: an
    enlarged crop would blend them at every grid line."""
    image = decode(render_closeup(small_view, small_map, ["E3"]))
    x0, y0, x1, y1 = window(small_map, ["E3"], (11, 9))
    row = 5  # row 6 of the small map, "........": floor only, nothing on it
    assert y0 <= row <= y1
    pitch = CELL * MAX_SCALE
    y = round(RULER_H + 4 + (y1 - row + 0.5) * pitch)
    seen = _colours_along(image, y, RULE + 1, RULE + round((x1 - x0 + 1) * pitch) - 1)
    grid = common.to_palette(Image.new("RGB", (1, 1), common.GRID)).convert("RGB").getpixel((0, 0))
    assert seen == {common.FLOOR, grid}, seen


def test_a_closeups_words_and_tokens_are_drawn_large(small_map, small_view, monkeypatch) -> None:
    sizes: dict[str, set[int]] = {}
    original = common.Canvas.text

    def recording(self, xy, text, size, fill, anchor="la"):
        sizes.setdefault(text, set()).add(size)
        return original(self, xy, text, size, fill, anchor)

    monkeypatch.setattr(common.Canvas, "text", recording)
    render_closeup(small_view, small_map, ["E3"])
    assert round(12 * MAX_SCALE) in sizes["Bo"]  # bob's token tag, 12 px on the board (and in the key)
    assert min(sizes["bob"]) >= 18  # the key's names, larger than the board's sidebar (14 px)


def test_a_closeup_has_the_key_of_what_it_shows_only(small_map, small_view, drawn) -> None:
    labels = picture_labels("fr")
    render_closeup(small_view, small_map, ["B2"], least=(4, 4), labels=labels)  # A1 to D4
    said = set(drawn)
    assert {"Légende", "alice", "emplacement de bonus", "rangées de départ de l’équipe 1"} <= said
    # bob (E3), carla and dmitri, the obstacles, team 2's camp and the bonus on F4 are out of view
    assert not {"bob", "carla", "dmitri", "obstacle", "rangées de départ de l’équipe 2"} & said
    assert not any(text.startswith("F4") for text in said)


def test_a_move_preview_keys_its_path(small_map, small_view, drawn) -> None:
    render_closeup(small_view, small_map, list(PATH), overlay=Overlay("move", path=PATH), least=(5, 5), width=420,
                   labels=picture_labels("en"))
    assert {"Map key", "path of the move", "bob"} <= set(drawn)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_golden_closeup(small_map, small_view, golden, language) -> None:
    golden(f"closeup_{language}.png", render_closeup(small_view, small_map, ["E3"], labels=picture_labels(language),
                                                     caption=Caption("Orion — Space Chess · bob")))


@pytest.mark.parametrize("language", ["fr", "en"])
def test_golden_move_preview(small_map, small_view, golden, language) -> None:
    golden(f"move_preview_{language}.png", render_closeup(
        small_view, small_map, list(PATH), overlay=Overlay("move", path=PATH), least=(5, 5), width=420,
        labels=picture_labels(language), caption=Caption("D5 : 3")))


def test_a_closeup_and_a_board_share_no_kept_part(small_map, small_view, monkeypatch) -> None:
    """The board's kept roster rows and tokens are its own pixels at its scale: a close-up drawn
    after a board is drawn at its own (never pasted a board's row), and a board drawn after a
    close-up is the board drawn from scratch (never pasted a close-up's pixels)."""
    labels = picture_labels("en")
    with monkeypatch.context() as patched:
        patched.setattr(board_module, "_CACHED_LAYERS", False)
        closeup_alone = render_closeup(small_view, small_map, ["E3"], labels=labels)
        board_alone = board_image(small_view, small_map, labels=labels)[0].tobytes()
    for _ in range(3):  # a token is stamped on its third drawing
        board_image(small_view, small_map, labels=labels)
    assert render_closeup(small_view, small_map, ["E3"], labels=labels) == closeup_alone
    for kept in (board_module._ROSTER_ROWS, board_module._TOKENS, board_module._KEYS):
        kept.cache_clear()
    render_closeup(small_view, small_map, ["E3"], labels=labels)
    assert board_image(small_view, small_map, labels=labels)[0].tobytes() == board_alone
