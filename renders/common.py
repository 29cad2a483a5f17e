"""What every render shares: the colours, the font, the text helpers and the PNG encoding.

Images are drawn in RGB (antialiased text) and saved as 8-bit palette PNGs: a palette image is a
third of the bytes to compress, which makes encoding several times faster and the files several
times smaller than RGB, and the drawings only use a few dozen colours anyway. The palette is fixed
(not computed per image) so that quantising is a cheap nearest-colour lookup and the same input
always gives the same bytes. `encode_png` writes the PNG itself, its image data compressed in bands
kept once compressed: two boards of one game differ in a few bands (see its docstring).
"""

from __future__ import annotations

import io
import struct
import sys
import threading
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies.
BLUE: RGB = (0, 114, 178)
ORANGE: RGB = (230, 159, 0)
VERMILLION: RGB = (213, 94, 0)
GREEN: RGB = (0, 158, 115)
YELLOW: RGB = (240, 228, 66)
SKY: RGB = (86, 180, 233)
PURPLE: RGB = (204, 121, 167)

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
INK: RGB = (34, 34, 34)
MUTED: RGB = (120, 120, 120)
PAPER: RGB = (250, 250, 247)
FLOOR: RGB = (236, 236, 230)
GRID: RGB = (206, 206, 198)
GRID_STRONG: RGB = (170, 170, 160)
OBSTACLE: RGB = (92, 96, 104)
BAR_BACK: RGB = (60, 60, 60)

#: Team 1 and team 2: colour, the colour of text drawn on it, and a light tint for their camp.
TEAM_COLOURS: dict[int, RGB] = {1: BLUE, 2: ORANGE}
TEAM_TEXT: dict[int, RGB] = {1: WHITE, 2: BLACK}
TEAM_TINT: dict[int, RGB] = {1: (214, 230, 242), 2: (248, 232, 200)}
REACH_TINT: RGB = (208, 236, 224)
AREA_TINT: RGB = (246, 206, 180)

#: zlib level of a PNG band (`encode_png`). Measured on a 14-character standard board in 32-row
#: bands: level 1 is hardly faster than 3 for 27 % more bytes, level 6 takes 2-4 times as long for
#: 16 % fewer bytes, and a board whose bands are all new (each post of a draw's fan-out) pays that
#: in full.
PNG_COMPRESS_LEVEL = 3
#: rows of one band: the fewer, the fewer rows a change compresses again, but the more bytes (each
#: band starts with an empty dictionary) and the more overhead for an image with no band seen
#: before. On a game's boards one move after another: 16 rows 1.0 ms for 46 KiB, a new board 6.0
#: ms; 32 rows 1.25 ms for 42.6 KiB, a new board 5.0 ms (Pillow: 4.6 ms whatever, 40 KiB).
PNG_BAND_ROWS = 32
#: compressed bands kept: about 1 KB each on a board, the bands of ~200 boards in ~8 MB, so that
#: the boards of the 50 games a load test's players order in find theirs
PNG_BAND_CACHE = 8192

_NAMED = (
    BLUE, ORANGE, VERMILLION, GREEN, YELLOW, SKY, PURPLE, BLACK, WHITE, INK, MUTED, PAPER, FLOOR, GRID,
    GRID_STRONG, OBSTACLE, BAR_BACK, *TEAM_TINT.values(), REACH_TINT, AREA_TINT,
)  # fmt: skip
#: Pairs that meet in antialiased edges (text on its background, markers on the floor): each gets
#: a ramp of in-between shades so the edges stay smooth after quantising.
_BLENDS = (
    (WHITE, BLUE), (BLACK, ORANGE), (INK, PAPER), (INK, FLOOR), (MUTED, PAPER), (BLUE, FLOOR),
    (ORANGE, FLOOR), (BLACK, FLOOR), (BLACK, REACH_TINT), (INK, TEAM_TINT[1]), (INK, TEAM_TINT[2]),
    (VERMILLION, FLOOR), (PURPLE, FLOOR), (GREEN, FLOOR), (BLACK, YELLOW), (WHITE, BAR_BACK), (WHITE, INK),
)  # fmt: skip
_BLEND_STEPS = 5


def _blend(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@cache
def palette_image() -> Image.Image:
    """The fixed 256-colour palette: named colours, blend ramps, then a colour cube for the rest."""
    colours: list[RGB] = list(dict.fromkeys(_NAMED))
    for a, b in _BLENDS:
        colours += [_blend(a, b, step / (_BLEND_STEPS + 1)) for step in range(1, _BLEND_STEPS + 1)]
    levels = (0, 64, 128, 192, 255)
    colours += [(r, g, b) for r in levels for g in levels for b in levels]
    colours = list(dict.fromkeys(colours))[:256]
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB drawing in the fixed palette (nearest colour, no dithering)."""
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)


def drawable_copy(image: Image.Image) -> Image.Image:
    """A copy of a palette image to draw on, with its palette's lookup of colours: Pillow builds that
    lookup again (256 colours, in Python) at a copy's first drawing, which was most of what drawing
    a token or a roster row on its own cost."""
    copied = image.copy()
    if image.palette is not None and copied.palette is not None:
        copied.palette.colors = dict(image.palette.colors)
    return copied


def encode_png(image: Image.Image) -> bytes:
    """A drawing as an 8-bit palette PNG; an RGB one is quantised first (see the module docstring).

    Deflating the pixels was half of a Space Chess board's cost (4.6 ms with Pillow's encoder at
    level 3, idle machine), and no setting of Pillow's made it cheaper for its bytes: level 1 takes
    as long for 35 % more bytes, Z_RLE doubles the bytes, Z_HUFFMAN_ONLY is 3 times slower and 7
    times bigger, level 6 takes 2-3 times as long for 17 % fewer; `optimize` only adds a pass; a
    smaller image or fewer colours would change what players see (the palette is already 8-bit).
    But two boards of one game differ in a few places (a token, a row of AP boxes, the caption),
    so the rows are deflated in bands of `PNG_BAND_ROWS`, each on its own and ended with a sync
    flush (the image data is their concatenation), and each band's deflated bytes are kept by its
    content: a board then deflates only the bands that changed (5 to 10 of 43 after a move) and
    joins the rest from the cache. Bands are counted from the bottom, so a caption one line longer
    (a taller header) moves no band under it.

    Measured (benchmarks/bench_render.py, 2 cores shared with other jobs): a game's boards one
    move after another 3.4 ms instead of 6.6 (1.6 instead of 5.8 when they come back, as in
    bench_service_order's), for 45 KiB instead of 41 (the bands' separate dictionaries); hashing
    the rows is most of what is left; an image none of whose bands was seen before (a fan-out's
    post of a game) costs about what Pillow's encode did. The bytes depend only on the pixels (a
    band deflates alike whether it was cached or not), so the same image always gives the same
    file. A band's key is its 64-bit hash with its width and length: a false hit would take some
    10^15 boards.
    """
    indexed = image if image.mode == "P" else to_palette(image)
    width, height = indexed.size
    data = memoryview(indexed.tobytes())
    deflated = [b"\x78\x5e"]  # zlib's header: deflate with a 32 KB window, a fast level
    checksum = 1  # adler32 of nothing
    for bottom in reversed(range(height, 0, -PNG_BAND_ROWS)):
        top = max(0, bottom - PNG_BAND_ROWS)
        compressed, adler = _deflated_band(data[top * width:bottom * width], width)
        deflated.append(compressed)
        checksum = _adler32_combine(checksum, adler, (bottom - top) * (width + 1))
    deflated += [_LAST_BLOCK, checksum.to_bytes(4, "big")]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, not interlaced
    return b"".join((_PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", indexed.im.getpalette("RGB")),
                     _chunk(b"IDAT", b"".join(deflated)), _chunk(b"IEND", b"")))


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: a final, empty deflate block: what ends the bands' concatenation
_LAST_BLOCK = zlib.compressobj(PNG_COMPRESS_LEVEL, zlib.DEFLATED, -15).flush()
_ADLER_BASE = 65521
#: (width, length, hash) of a band of rows -> its deflated bytes and their adler32, least recent first
_bands: OrderedDict[tuple[int, int, int], tuple[bytes, int]] = OrderedDict()
_bands_lock = threading.Lock()  # renders run in several threads


def _deflated_band(band: memoryview, width: int) -> tuple[bytes, int]:
    """A band's rows of `width` pixels, each after its filter byte (0: none, the filter for palette
    images), deflated on their own and sync-flushed (so that bands concatenate), with the adler32
    of what was deflated; from the cache when these rows were seen before."""
    key = (width, len(band), hash(band))
    with _bands_lock:
        found = _bands.get(key)
        if found is not None:
            _bands.move_to_end(key)
            return found
    rows = b"".join(b"\x00" + band[start:start + width] for start in range(0, len(band), width))
    compressor = zlib.compressobj(PNG_COMPRESS_LEVEL, zlib.DEFLATED, -15)
    found = compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows)
    with _bands_lock:
        _bands[key] = found
        while len(_bands) > PNG_BAND_CACHE:
            _bands.popitem(last=False)
    return found


def _adler32_combine(first: int, second: int, second_length: int) -> int:
    """The adler32 of two byte strings joined, from theirs (zlib's adler32_combine, which Python's
    zlib does not offer): the whole image's checksum without reading its rows again."""
    rest = second_length % _ADLER_BASE
    low = first & 0xFFFF
    sum1 = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (rest * low + (first >> 16) + (second >> 16) + _ADLER_BASE - rest) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


@cache
def _font_bytes() -> bytes:
    return resources.files("renders").joinpath("fonts/DejaVuSans.ttf").read_bytes()


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, shipped with the package (licence in renders/fonts): French names and labels keep
    their accents, and renders look the same on every machine."""
    return ImageFont.truetype(io.BytesIO(_font_bytes()), size)


def printable(text: str) -> str:
    """Text the font can draw: letters, digits, punctuation and symbols of the Latin, Greek and
    Cyrillic blocks, the dashes, quotes and ellipsis that titles use ("Arkeon — turn 3") and the
    arrows of event lines ("K2 → K3");
    anything else (emoji, control characters) becomes '?' instead of an empty box."""
    text = unicodedata.normalize("NFC", text)
    return "".join(char if char == " " or (char.isprintable() and _drawable(ord(char))) else "?" for char in text)


def _drawable(code: int) -> bool:
    return code < 0x2000 or 0x2010 <= code <= 0x2027 or 0x2190 <= code <= 0x2193  # arrows: "K2 → K3"


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: int) -> str:
    """`text` folded and cut with '...' so it fits `width` pixels at font `size`."""
    text = printable(text)
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "...") > width:
        text = text[:-1]
    return text + "..."


@lru_cache(maxsize=1024)
def wrap(text: str, size: int, width: int) -> tuple[str, ...]:
    """`text` on as many lines of `width` pixels at font `size` as it needs, broken between words: a
    caption that tells what happened loses nothing. A word wider than a line alone is broken inside."""
    face = font(size)
    lines: list[str] = []
    current = ""
    for word in printable(text).split(" "):
        candidate = f"{current} {word}" if current else word
        if face.getlength(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while face.getlength(word) > width and len(word) > 1:
            cut = max([k for k in range(1, len(word)) if face.getlength(word[:k]) <= width] or [1])
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    return (*lines, current) if current or not lines else tuple(lines)


def hp_colour(hp: int, max_hp: int) -> RGB:
    """Bar colour by health; the bar's length carries the value, the colour only reinforces it."""
    if max_hp <= 0 or hp * 2 >= max_hp:
        return GREEN
    return YELLOW if hp * 4 >= max_hp else VERMILLION


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased coverage of `text` and its offset from the anchor point.

    Pillow rasterises glyphs again on every draw.text call, which made text most of a board's
    drawing time; names, tags and numbers repeat from one render to the next, so their masks are kept.
    """
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top


#: any coverage at all -> 255, for `bytes.translate` (Pillow's `point` takes 256 Python calls a mask)
_COVERED = bytes([0] + [255] * 255)


@lru_cache(maxsize=4096)
def _text_patch(text: str, size: int, anchor: str, fill: RGB, background: RGB) -> tuple[Image.Image, Image.Image]:
    """`text` in `fill` over a solid `background`, already in the palette, with the mask of its pixels:
    pasted as is into a palette image, its antialiased edges get the right in-between shades."""
    mask, _, _ = _text_mask(text, size, anchor)
    patch = Image.new("RGB", mask.size, background)
    patch.paste(fill, (0, 0), mask)
    return to_palette(patch), Image.frombytes("L", mask.size, mask.tobytes().translate(_COVERED))


#: the list collecting what `Canvas.text` writes while `recording_text()` is open, else None
_drawn: ContextVar[list[str] | None] = ContextVar("drawn_text", default=None)


@contextmanager
def recording_text() -> Iterator[list[str]]:
    """Collect every string drawn in an image while the block runs (the language checks read the
    images' words where they are written, no OCR). The renders' cached drawings (backgrounds, keys)
    are emptied first, so their words are drawn, hence recorded, again; outside the block recording
    costs one context-variable read per label. The list is shared with threads started with a copy
    of the context (`asyncio.to_thread`)."""
    texts: list[str] = []
    _forget_drawings()
    token = _drawn.set(texts)
    try:
        yield texts
    finally:
        _drawn.reset(token)


def _forget_drawings() -> None:
    """Empty the caches of every render module but this one (whose caches hold glyph masks and
    fitted strings, drawn through `Canvas.text` anyway): its `functools` caches and whatever else
    it keeps with a `cache_clear` (kept parts of boards; a class is not a cache)."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("renders.") or name == __name__:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and not isinstance(value, type) and getattr(value, "__module__", None) == name:
                clear()


class Canvas:
    """An image being drawn (RGB, or already in the fixed palette): ImageDraw for shapes, plus cached
    text and the HP bar.

    A palette canvas skips the quantisation of the whole image when it is saved, which is most of the
    cost of a board; its text is quantised once per (text, colours) against the solid background
    found under it, which is where every label of a board sits (cells, tokens, rulers, legend).
    """

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)

    def text(self, xy: tuple[int, int], text: str, size: int, fill: RGB, anchor: str = "la") -> None:
        """Draw `text` (already printable) with its `anchor` point at `xy`, as ImageDraw.text does.
        Every word of every image is drawn here (a test holds the renders to it), and recorded
        while `recording_text()` is open."""
        recorder = _drawn.get()
        if recorder is not None:
            recorder.append(text)
        mask, left, top = _text_mask(text, size, anchor)
        origin = (xy[0] + left, xy[1] + top)
        if self.image.mode != "P":
            self.image.paste(fill, origin, mask)
            return
        centre = (min(max(origin[0] + mask.width // 2, 0), self.image.width - 1),
                  min(max(origin[1] + mask.height // 2, 0), self.image.height - 1))
        palette = self.image.getpalette() or []
        index = self.image.getpixel(centre)
        assert isinstance(index, int)
        background = (palette[3 * index], palette[3 * index + 1], palette[3 * index + 2])
        patch, binary = _text_patch(text, size, anchor, fill, background)
        self.image.paste(patch, origin, binary)

    def bar(self, box: tuple[int, int, int, int], hp: int, max_hp: int) -> None:
        """An HP bar filling `box` (left, top, right, bottom) in proportion to hp/max_hp."""
        left, top, right, bottom = box
        self.draw.rectangle(box, fill=BAR_BACK)
        if max_hp > 0 and hp > 0:
            filled = left + round((right - left) * min(hp, max_hp) / max_hp)
            self.draw.rectangle((left, top, filled, bottom), fill=hp_colour(hp, max_hp))
