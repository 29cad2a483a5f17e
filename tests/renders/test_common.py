"""Shared render helpers: text folding for the bundled font, the fixed palette, PNG encoding."""

from __future__ import annotations

import io

from PIL import Image

from renders import common


def test_printable_keeps_accents_and_marks_what_the_font_lacks() -> None:
    assert common.printable("Élodie à l'œil") == "Élodie à l'œil"
    assert common.printable("Zoë ★ 🚀") == "Zoë ? ?"
    assert common.printable("plain-ASCII 42\n") == "plain-ASCII 42?"
    assert common.printable("Arkeon — turn 3 “go” …") == "Arkeon — turn 3 “go” …"  # the bot's titles


def test_fit_cuts_long_text_to_the_width() -> None:
    assert common.fit("bob", 14, 200) == "bob"
    cut = common.fit("a very long character name indeed", 14, 80)
    assert cut.endswith("...")
    assert common.font(14).getlength(cut) <= 80


def test_palette_holds_every_named_colour_exactly() -> None:
    palette = common.palette_image().getpalette()
    colours = {tuple(palette[i : i + 3]) for i in range(0, len(palette), 3)}
    assert len(palette) <= 256 * 3
    for colour in (common.BLUE, common.ORANGE, common.FLOOR, common.OBSTACLE, *common.TEAM_TINT.values()):
        assert colour in colours


def test_encode_png_is_a_palette_png_and_deterministic() -> None:
    image = Image.new("RGB", (40, 30), common.FLOOR)
    canvas = common.Canvas(image)
    canvas.text((2, 2), "Hi", 14, common.INK)
    canvas.bar((2, 20, 38, 26), 5, 20)
    png = common.encode_png(image)
    assert png == common.encode_png(image.copy())
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P"
    assert decoded.convert("RGB").getpixel((39, 29)) == common.FLOOR


def test_hp_colour_thresholds() -> None:
    assert common.hp_colour(10, 20) == common.GREEN
    assert common.hp_colour(9, 20) == common.YELLOW
    assert common.hp_colour(5, 20) == common.YELLOW
    assert common.hp_colour(4, 20) == common.VERMILLION
    assert common.hp_colour(0, 0) == common.GREEN
