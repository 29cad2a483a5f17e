"""The Arkeon board image: the 29 cells (AK-1), both bases, every piece with its attack marks, the
last move, and a side panel with each side's reserve, whose move it is and what the glyphs mean.

It is drawn from the public view only (scenarios.md: ``cells``, ``reserve``, ``to_move``, ``winner``)
and never from the engine's state classes, so a stored snapshot or a scenario step can be pictured
the same way as a live game, and nothing the view leaves out can leak into an image.

The image is 1,080 px wide (a phone's width; no text under 12 px there). The grid, the coordinates
and the key never change, so they are drawn once (per set of words) and copied for each render.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image

from engine.core.hexgrid import Hex, HexBoard
from renders import common as c
from renders import hexboard as h
from renders import hexmarks as m
from renders.arkeon import style as s

WIDTH = 1080
MARGIN = 34  # left of the board and right of the panel: room for the row letters
PANEL_W = 300
HEADER_H = 76  # title line, then whose move it is or the winner's banner
BOARD_PAD = 14
BOTTOM_PAD = 14
SIDE_BLOCK_H = 118
KEY_ROW_H = 30
KEY_UNIT = 26.0  # a key glyph's hex size: the base's hexagon fits its row
BOARD = HexBoard.arkeon()
BOARD_NAME = "Arkeon board (rows A-E of 5, 6, 7, 6, 5 cells)"


@dataclass(frozen=True)
class BoardLayout:
    """Where things go: the board left of the panel, row A at the top, cell 1 at the left of its row."""

    geometry: h.HexGeometry
    board_top: int
    board_bottom: int
    panel_left: int
    size: tuple[int, int]
    label_size: int

    @property
    def hex_size(self) -> float:
        return self.geometry.size

    def hex_centre(self, cell: Hex) -> tuple[float, float]:
        return self.geometry.hex_centre(cell)

    def centre(self, cell: str) -> tuple[int, int]:
        """The pixel at the middle of `cell` ("C4"); a piece there paints it in its side's colour."""
        x, y = self.hex_centre(h.parse_cell(BOARD, cell, "cell", BOARD_NAME))
        return round(x), round(y)


@cache
def layout_for() -> BoardLayout:
    """The one layout of the fixed 29-cell board: the widest row (7 cells) fills the board's width."""
    widest = max(len(row) for row in BOARD.rows)
    size = (WIDTH - PANEL_W - 2 * MARGIN) / widest / h.SQRT3
    rows = len(BOARD.rows)
    board_top = HEADER_H + BOARD_PAD
    board_bottom = board_top + math.ceil((1.5 * (rows - 1) + 2) * size)
    middle_r = (BOARD.rows[0][0].r + BOARD.rows[-1][0].r) / 2
    origin = (MARGIN + widest * h.SQRT3 * size / 2, (board_top + board_bottom) / 2 - 1.5 * size * middle_r)
    panel_bottom = board_top + 4 + 2 * SIDE_BLOCK_H + 36 + len(_KEY) * KEY_ROW_H
    return BoardLayout(
        geometry=h.HexGeometry(BOARD, size, origin),
        board_top=board_top,
        board_bottom=board_bottom,
        panel_left=WIDTH - PANEL_W,
        size=(WIDTH, max(board_bottom, panel_bottom) + BOTTOM_PAD),
        label_size=min(16, max(12, round(size * 0.34))),
    )


# -- the static part -------------------------------------------------------------------------------
def _floor(_cell: Hex) -> c.RGB:
    return c.FLOOR


_KEY = (*s.KINDS, "last_move")


def _key_entries(words: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((key, h.word(words, key)) for key in _KEY)


@lru_cache(maxsize=8)
def _background(key_words: tuple[tuple[str, str], ...], key_title: str) -> Image.Image:
    """Grid, coordinates, row letters, the panel's divider and the key, in the palette."""
    layout = layout_for()
    canvas = c.Canvas(Image.new("RGB", layout.size, c.PAPER))
    h.draw_grid(canvas, layout.geometry, layout.label_size, _floor)
    canvas.draw.line(
        (layout.panel_left, layout.board_top, layout.panel_left, layout.size[1] - BOTTOM_PAD),
        fill=c.GRID,
        width=2,
    )
    _draw_key(canvas, layout, key_words, key_title)
    return c.to_palette(canvas.image)


def _draw_key(
    canvas: c.Canvas, layout: BoardLayout, key_words: tuple[tuple[str, str], ...], key_title: str
) -> None:
    """What each glyph means, one a line (room for the longer French names: "tournicoteur
    anti-horaire"), at the foot of the panel (blue pieces facing E)."""
    left = layout.panel_left + 16
    top = layout.board_top + 4 + 2 * SIDE_BLOCK_H + 8
    canvas.text((left, top + 12), c.fit(key_title, 16, PANEL_W - 40), 16, c.INK, anchor="lm")
    room = WIDTH - MARGIN // 2 - left - 47
    for index, (key, text) in enumerate(key_words):
        y = top + 28 + index * KEY_ROW_H + KEY_ROW_H // 2
        glyph = (left + 14, y)
        if key == "last_move":
            points = [h.polar(glyph, angle, 12) for angle in h.HEX_CORNERS]
            canvas.draw.polygon(points, fill=h.HIGHLIGHT, outline=h.HIGHLIGHT_OUTLINE, width=3)
        else:
            facing = 0.0 if key in s.AGGRESSIVE else None
            s.draw_piece(canvas.draw, glyph, KEY_UNIT, "blue", key, facing)
        canvas.text((left + 47, y), c.fit(text, 14, room), 14, c.INK, anchor="lm")


def _blank(words: Mapping[str, str]) -> Image.Image:
    background = _background(_key_entries(words), h.word(words, "key"))
    return background.copy()


# -- reading the view ------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class _Piece:
    cell: Hex
    side: str
    kind: str
    facing: float | None


def _pieces(view: Mapping[str, Any]) -> list[_Piece]:
    """Every piece of ``view["cells"]``, checked against the board before anything is drawn."""
    pieces = []
    for text, piece in (view.get("cells") or {}).items():
        where = f"cells.{text}"
        cell = h.parse_cell(BOARD, text, where, BOARD_NAME)
        if not isinstance(piece, Mapping):
            raise ValueError(f"{where}: {piece!r} is not a piece")
        side = h.parse_side(piece.get("side"), where)
        kind = piece.get("kind")
        if kind not in s.KINDS:
            raise ValueError(f"{where}: kind {kind!r} is not one of {', '.join(s.KINDS)}")
        # only the aggressive kinds point anywhere (AK-4..AK-8); another kind's facing is ignored
        facing = h.parse_facing(piece.get("facing"), where) if kind in s.AGGRESSIVE else None
        pieces.append(_Piece(cell, side, str(kind), facing))
    return sorted(pieces)


def _reserve(view: Mapping[str, Any], side: str) -> tuple[int, frozenset[str]]:
    """A side's basic count and the advanced kinds it may place now (a set in the view)."""
    reserve = (view.get("reserve") or {}).get(side) or {}
    advanced = frozenset(str(kind) for kind in reserve.get("advanced") or ())
    unknown = sorted(advanced - set(s.ADVANCED))
    if unknown:
        raise ValueError(
            f"reserve.{side}.advanced: kind {unknown[0]!r} is not one of {', '.join(s.ADVANCED)}"
        )
    return h.count(reserve.get("basic")), advanced


# -- the panel ---------------------------------------------------------------------------------------
def _draw_sides(
    canvas: c.Canvas, layout: BoardLayout, view: Mapping[str, Any], words: Mapping[str, str]
) -> None:
    """One block a side: its name and player, a "to move" tag, its basic count, its advanced pieces
    (in colour when they may be placed, hollow grey when not, AK-14)."""
    left = layout.panel_left + 16
    right = WIDTH - MARGIN // 2
    players = view.get("players") or {}
    playing = view.get("winner") is None
    for index, side in enumerate(s.SIDES):
        top = layout.board_top + 4 + index * SIDE_BLOCK_H
        basic, advanced = _reserve(view, side)
        h.draw_side_token(canvas.draw, (left + 12, top + 16), 11, side)
        name = h.word(words, side)
        canvas.text((left + 32, top + 16), name, 20, c.INK, anchor="lm")
        tag_w = 0
        if playing and view.get("to_move") == side:
            tag = h.word(words, "your_move")
            tag_w = round(c.font(14).getlength(tag)) + 16
            canvas.draw.rounded_rectangle(
                (right - tag_w, top + 5, right, top + 27), 6, fill=h.SIDE_COLOURS[side]
            )
            canvas.text((right - tag_w // 2, top + 16), tag, 14, c.WHITE, anchor="mm")
        player = players.get(side)
        if player:
            name_end = left + 32 + round(c.font(20).getlength(name)) + 10
            room = right - tag_w - 8 - name_end
            if room > 30:
                canvas.text((name_end, top + 17), c.fit(str(player), 14, room), 14, c.MUTED, anchor="lm")
        s.draw_piece(canvas.draw, (left + 12, top + 50), 28, side, "basic", None)
        basic_text = h.word(words, "reserve_basic").format(count=basic)
        canvas.text((left + 32, top + 50), c.fit(basic_text, 16, right - left - 32), 16, c.INK, anchor="lm")
        label = c.fit(h.word(words, "advanced"), 14, 90)
        canvas.text((left, top + 86), label, 14, c.MUTED, anchor="lm")
        x = left + round(c.font(14).getlength(label)) + 22
        for kind in s.ADVANCED:
            s.draw_piece(canvas.draw, (x, top + 86), 32, side, kind, None, muted=kind not in advanced)
            x += 36
        canvas.draw.line((left, top + SIDE_BLOCK_H - 4, right, top + SIDE_BLOCK_H - 4), fill=c.GRID)


def _parse(text: str, where: str) -> Hex:
    return h.parse_cell(BOARD, text, where, BOARD_NAME)


def _ghost(layout: BoardLayout) -> Callable[[Any, h.Point, m.Mark], None]:
    """A removed piece where it stood, hollow in its side's colour; a turned piece's old attack
    marks, hollow, under the piece."""

    def draw(draw: Any, centre: h.Point, mark: m.Mark) -> None:
        if mark.kind == m.TURN:
            if mark.piece in s.AGGRESSIVE:
                s.draw_old_facing(draw, centre, layout.hex_size, mark.side, mark.piece, h.ANGLES[mark.facings[0]])
        else:
            s.draw_ghost(draw, centre, layout.hex_size, mark.side, mark.piece)

    return draw


# -- the public functions ----------------------------------------------------------------------------
def board_image(
    view: Mapping[str, Any],
    *,
    labels: Mapping[str, str],
    title: str = "",
    highlight: Iterable[str] = (),
    marks: Iterable[m.Mark] = (),
    caption: Iterable[str] = (),
) -> Image.Image:
    """The board as a palette image (what render_board encodes)."""
    layout = layout_for()
    words = s.words(labels)
    placed = m.place(marks, _parse)
    for mark in placed:
        if mark.mark.kind in (m.GHOST, m.TURN) and mark.mark.piece not in s.KINDS:
            raise ValueError(f"marks: piece {mark.mark.piece!r} is not one of {', '.join(s.KINDS)}")
    marked = sorted({_parse(text, "highlight") for text in highlight} | m.outlined(placed))
    pieces = _pieces(view)
    lines = m.caption_lines(caption, WIDTH - 2 * MARGIN)
    canvas = c.Canvas(m.with_room_below(_blank(words), m.caption_height(lines)))
    h.draw_highlight(canvas, layout.geometry, marked, layout.label_size, _floor)
    m.draw_ghosts(canvas, layout.geometry, placed, _ghost(layout))
    for piece in pieces:
        centre = layout.hex_centre(piece.cell)
        s.draw_piece(canvas.draw, centre, layout.hex_size, piece.side, piece.kind, piece.facing)
    lit = set(marked)
    m.draw_actions(canvas, layout.geometry, placed, layout.label_size,
                   lambda cell: h.HIGHLIGHT if cell in lit else c.FLOOR)
    h.draw_header(canvas, h.header_for(view, title, words), WIDTH, MARGIN)
    _draw_sides(canvas, layout, view, words)
    m.draw_caption(canvas, lines, layout.size[1], MARGIN)
    return canvas.image


def render_board(
    view: Mapping[str, Any],
    *,
    labels: Mapping[str, str],
    title: str = "",
    highlight: Iterable[str] = (),
    marks: Iterable[m.Mark] = (),
    caption: Iterable[str] = (),
) -> bytes:
    """The board as PNG bytes; the same arguments always give the same bytes.

    `highlight` outlines cells (the piece placed or swapped); `marks` draw what else the move did
    (renders/hexmarks.py: pushes, turns, attacks, removed pieces; their cells are outlined too) and
    `caption` says it in words under the board, each sentence wrapped whole. `labels` are every word
    drawn (style.LABELS), in the reader's language: one missing raises ValueError, as does anything
    in the view or the marks that does not fit the board (a cell, side, kind or facing, a cell in
    `highlight`), naming it.
    """
    return c.encode_png(board_image(view, title=title, highlight=highlight, labels=labels, marks=marks,
                                    caption=caption))
