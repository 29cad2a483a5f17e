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


def _pillow_png(image: Image.Image) -> Image.Image:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return Image.open(io.BytesIO(out.getvalue()))


def _noisy_palette_image(width: int, height: int, seed: int) -> Image.Image:
    """A palette image whose every band differs (so that no band comes from another image's)."""
    image = common.to_palette(Image.new("RGB", (width, height), common.FLOOR))
    image.putdata([(seed * 7 + 31 * x + 17 * y + (x * y) % 13) % 200 for y in range(height) for x in range(width)])
    return image


def test_encode_png_gives_the_pixels_and_palette_pillow_reads_for_any_size() -> None:
    """Bands of PNG_BAND_ROWS from the bottom: heights under one band, over one, not a multiple of it."""
    rows = common.PNG_BAND_ROWS
    for size in ((1, 1), (37, rows - 1), (64, rows), (50, rows + 1), (983, 3 * rows + 7)):
        image = _noisy_palette_image(*size, seed=size[1])
        decoded = Image.open(io.BytesIO(common.encode_png(image)))
        decoded.load()  # Pillow checks each chunk's CRC; zlib checks the adler32 of the data
        expected = _pillow_png(image)
        assert (decoded.mode, decoded.size) == ("P", size)
        assert decoded.tobytes() == expected.tobytes()
        assert decoded.getpalette() == expected.getpalette()


def test_encode_png_bytes_do_not_depend_on_the_band_cache(monkeypatch) -> None:
    """A band deflates alike whether it was seen before or not; an image that shares bands with
    another (the same board after a move) gives the bytes it gives alone; the cache stays bounded."""
    first = _noisy_palette_image(120, 5 * common.PNG_BAND_ROWS, seed=1)
    second = first.copy()
    second.putpixel((3, 2), 7)  # only the top band changes
    monkeypatch.setattr(common, "_bands", type(common._bands)())
    alone = common.encode_png(second)
    common._bands.clear()
    common.encode_png(first)
    assert common.encode_png(second) == alone
    assert Image.open(io.BytesIO(alone)).tobytes() == second.tobytes()
    monkeypatch.setattr(common, "PNG_BAND_CACHE", 3)
    common.encode_png(_noisy_palette_image(120, 5 * common.PNG_BAND_ROWS, seed=2))
    assert len(common._bands) == 3


def test_adler32_combine_is_zlibs() -> None:
    import zlib

    for first, second in ((b"", b""), (b"abc", b"defgh"), (bytes(range(256)) * 300, b"\xff" * 70000)):
        assert common._adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(
            first + second)
