"""The HexArena board image (reconstructed rules): the 127-cell hexagon (HA-1) with both bases (HA-2),
every ship with its type, facing, side and the admiral's whereabouts, the debris, the last move, and
a side panel with the debris reserve, each side's graveyard and what the glyphs mean.

It is drawn from the public view only (scenarios.md: ``ships``, ``debris``, ``debris_reserve``,
``to_move``, ``winner``), never from the engine's state classes, so a stored snapshot or a scenario
step is pictured like a live game. The bases are not in the view: they are fixed by HA-2 (the cells
within 2 of the corners G1 and G13) and worked out here from the shared hex grid.

The image is 1,080 px wide (a phone's width; no text under 12 px there). The grid, the bases, the
coordinates and the key never change, so they are drawn once (per set of words) and copied.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from PIL import Image

from engine.core.hexgrid import Hex, HexBoard
from renders import common as c
from renders import hexboard as h
from renders import hexmarks as m
from renders.hexarena import style as s

WIDTH = 1080
MARGIN = 34  # left of the board and right of the panel: room for the row letters
PANEL_W = 250
HEADER_H = 76  # title line, then whose move it is or the winner's banner
BOARD_PAD = 14
BOTTOM_PAD = 14
RADIUS = 6  # HA-1
BOARD = HexBoard.hexagon(RADIUS)
BOARD_NAME = "HexArena board (radius 6, rows A-M)"
#: HA-2: each base is the 9 cells within distance 2 of its corner.
BASES: dict[str, frozenset[Hex]] = {
    "red": BOARD.within(BOARD.parse("G1"), 2),
    "blue": BOARD.within(BOARD.parse("G13"), 2),
}
DEBRIS_SHOWN = 16  # reserve icons drawn at most (HA: 8 in the box); the count is always written
GRAVE_COLUMNS = 5
GRAVE_SHOWN = 10
DEBRIS_BLOCK_H = 96
GRAVE_BLOCK_H = 122
KEY_ROW_H = 32


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

    @property
    def ship_radius(self) -> float:
        """As big as fits under the cell's coordinates whatever the heading (a tip points at most 60°
        up, reaching sin 60° of the radius)."""
        room = 0.66 * self.hex_size - self.label_size / 2
        return min(0.52 * self.hex_size, room / math.sin(math.radians(60)))

    @property
    def turn_radius(self) -> float:
        """Where a turned ship's arc arrow runs: just clear of its hull's tip, inside the cell."""
        return self.ship_radius + 0.16 * self.hex_size

    def hex_centre(self, cell: Hex) -> tuple[float, float]:
        return self.geometry.hex_centre(cell)

    def centre(self, cell: str) -> tuple[int, int]:
        """The pixel at the middle of `cell` ("G7"); a ship there paints it in its side's colour."""
        x, y = self.hex_centre(h.parse_cell(BOARD, cell, "cell", BOARD_NAME))
        return round(x), round(y)


@cache
def layout_for() -> BoardLayout:
    """The one layout of the fixed arena: the widest row (13 cells) fills the board's width."""
    widest = 2 * RADIUS + 1
    size = (WIDTH - PANEL_W - 2 * MARGIN) / widest / h.SQRT3
    board_top = HEADER_H + BOARD_PAD
    board_bottom = board_top + math.ceil((1.5 * (widest - 1) + 2) * size)
    origin = (MARGIN + widest * h.SQRT3 * size / 2, (board_top + board_bottom) / 2)
    panel_bottom = board_top + 4 + DEBRIS_BLOCK_H + 2 * GRAVE_BLOCK_H + 30 + len(_KEY) * KEY_ROW_H
    return BoardLayout(
        geometry=h.HexGeometry(BOARD, size, origin),
        board_top=board_top,
        board_bottom=board_bottom,
        panel_left=WIDTH - PANEL_W,
        size=(WIDTH, max(board_bottom, panel_bottom) + BOTTOM_PAD),
        label_size=min(16, max(12, round(size * 0.34))),
    )


# -- the static part -------------------------------------------------------------------------------
_KEY = (*s.TYPES, "admiral_here", "debris", "base", "last_move")


def _fill(cell: Hex) -> c.RGB:
    for side, cells in BASES.items():
        if cell in cells:
            return h.SIDE_TINTS[side]
    return c.FLOOR


def _draw_bases(canvas: c.Canvas, layout: BoardLayout) -> None:
    for side, cells in BASES.items():
        h.draw_region_border(canvas.draw, layout.geometry, cells, h.SIDE_COLOURS[side], 4)


@lru_cache(maxsize=8)
def _background(key_words: tuple[tuple[str, str], ...], key_title: str) -> Image.Image:
    """Grid, bases, coordinates, row letters, the panel's divider and the key, in the palette."""
    layout = layout_for()
    canvas = c.Canvas(Image.new("RGB", layout.size, c.PAPER))
    h.draw_grid(canvas, layout.geometry, layout.label_size, _fill)
    _draw_bases(canvas, layout)
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
    """What each glyph means, one a line, at the foot of the panel (red ships facing E)."""
    left = layout.panel_left + 14
    top = layout.board_top + 4 + DEBRIS_BLOCK_H + 2 * GRAVE_BLOCK_H
    canvas.text((left, top + 12), c.fit(key_title, 16, PANEL_W - 40), 16, c.INK, anchor="lm")
    draw = canvas.draw
    for index, (key, text) in enumerate(key_words):
        y = top + 30 + index * KEY_ROW_H + KEY_ROW_H // 2
        glyph = (left + 16, y)
        if key in s.TYPES:
            s.draw_ship(draw, glyph, 14, key, "red", None if key == s.PATROL else 0.0)
        elif key == "admiral_here":
            s.draw_star(draw, glyph, 10)
        elif key == "debris":
            s.draw_debris(draw, glyph, 13)
        else:
            points = [h.polar(glyph, angle, 14) for angle in h.HEX_CORNERS]
            if key == "base":
                draw.polygon(points, fill=h.SIDE_TINTS["red"], outline=h.SIDE_COLOURS["red"], width=3)
            else:
                draw.polygon(points, fill=h.HIGHLIGHT, outline=h.HIGHLIGHT_OUTLINE, width=3)
        canvas.text((left + 40, y), c.fit(text, 14, PANEL_W - 70), 14, c.INK, anchor="lm")


def _blank(words: Mapping[str, str]) -> Image.Image:
    key_words = tuple((key, h.word(words, key)) for key in _KEY)
    return _background(key_words, h.word(words, "key")).copy()


# -- reading the view ------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class _Ship:
    cell: Hex
    ship_id: str
    side: str = field(compare=False)
    type: str = field(compare=False)
    angle: float | None = field(compare=False)
    admiral_here: bool = field(compare=False)


@dataclass(frozen=True)
class _Contents:
    ships: list[_Ship]
    debris: list[Hex]
    graveyards: dict[str, list[str]]  # side -> types of its destroyed ships


def _contents(view: Mapping[str, Any]) -> _Contents:
    """Everything to draw, checked against the board before anything is drawn.

    Ships leave the board when destroyed (``alive`` false) or carried (``at`` null, HA-6): the
    destroyed go to their side's graveyard, the carried admiral shows as a star on its cargo. Debris
    is a set and the graveyards are sorted, so the same view in another order gives the same bytes.
    """
    ships: Mapping[str, Any] = view.get("ships") or {}
    carriers: set[str] = set()
    parsed: list[tuple[str, Mapping[str, Any], str, str]] = []
    for ship_id, ship in ships.items():
        where = f"ships.{ship_id}"
        if not isinstance(ship, Mapping):
            raise ValueError(f"{where}: {ship!r} is not a ship")
        side = h.parse_side(ship.get("side"), where)
        ship_type = ship.get("type")
        if ship_type not in s.TYPES:
            raise ValueError(f"{where}: type {ship_type!r} is not one of {', '.join(s.TYPES)}")
        carrier = ship.get("carried_by")
        if carrier is not None and ship.get("alive", True) is not False:
            if carrier not in ships:
                raise ValueError(f"{where}: carried_by {carrier!r} is not a ship of the view")
            if ship_type == s.ADMIRAL:
                carriers.add(str(carrier))
        parsed.append((str(ship_id), ship, side, str(ship_type)))
    on_board: list[_Ship] = []
    graveyards: dict[str, list[str]] = {side: [] for side in s.SIDES}
    for ship_id, ship, side, ship_type in parsed:
        where = f"ships.{ship_id}"
        if ship.get("alive", True) is False:
            graveyards[side].append(ship_type)
            continue
        if ship.get("at") is None:
            continue  # carried
        cell = h.parse_cell(BOARD, ship["at"], where, BOARD_NAME)
        angle = h.parse_facing(ship.get("facing"), where) if ship_type in s.FACED else None
        here = ship_type == s.ADMIRAL or ship_id in carriers
        on_board.append(_Ship(cell, ship_id, side, ship_type, angle, here))
    for types in graveyards.values():
        types.sort(key=s.TYPES.index)
    debris = sorted({h.parse_cell(BOARD, text, "debris", BOARD_NAME) for text in view.get("debris") or ()})
    return _Contents(sorted(on_board), debris, graveyards)


# -- drawing ----------------------------------------------------------------------------------------
def _draw_ship(canvas: c.Canvas, layout: BoardLayout, ship: _Ship) -> None:
    centre = layout.hex_centre(ship.cell)
    s.draw_ship(canvas.draw, centre, layout.ship_radius, ship.type, ship.side, ship.angle)
    if ship.admiral_here:
        size = layout.hex_size
        s.draw_star(canvas.draw, (centre[0] + 0.44 * size, centre[1] + 0.38 * size), 0.22 * size)


def _draw_panel(
    canvas: c.Canvas,
    layout: BoardLayout,
    view: Mapping[str, Any],
    contents: _Contents,
    words: Mapping[str, str],
) -> None:
    """The debris reserve (HA-11: a wreck is left only while the reserve has one), then each side's
    graveyard of destroyed ships, under its side's name and its player's (who played the last move
    is then on the picture, not only their side)."""
    left = layout.panel_left + 14
    right = WIDTH - 14
    top = layout.board_top + 4
    reserve = h.count(view.get("debris_reserve"))
    text = h.word(words, "debris_reserve").format(count=reserve)
    canvas.text((left, top + 12), c.fit(text, 16, right - left), 16, c.INK, anchor="lm")
    for k in range(min(reserve, DEBRIS_SHOWN)):
        x = left + 13 + (k % 8) * 27
        y = top + 42 + (k // 8) * 28
        s.draw_debris(canvas.draw, (x, y), 12)
    canvas.draw.line((left, top + DEBRIS_BLOCK_H - 6, right, top + DEBRIS_BLOCK_H - 6), fill=c.GRID)
    players = view.get("players") or {}
    for index, side in enumerate(s.SIDES):
        block = top + DEBRIS_BLOCK_H + index * GRAVE_BLOCK_H
        dead = contents.graveyards[side]
        h.draw_side_token(canvas.draw, (left + 9, block + 12), 8, side)
        title = h.word(words, "graveyard").format(side=h.word(words, side), count=len(dead))
        canvas.text((left + 24, block + 12), c.fit(title, 16, right - left - 24), 16, c.INK, anchor="lm")
        player = players.get(side)
        if player:  # under it the side's player, muted, as Arkeon's panel names them
            canvas.text((left + 24, block + 30), c.fit(str(player), 13, right - left - 24), 13, c.MUTED, anchor="lm")
        for k, ship_type in enumerate(dead[:GRAVE_SHOWN]):
            x = left + 20 + (k % GRAVE_COLUMNS) * 44
            y = block + 52 + (k // GRAVE_COLUMNS) * 42
            s.draw_ship(canvas.draw, (x, y), 16, ship_type, side, None)
        if len(dead) > GRAVE_SHOWN:
            canvas.text((right, block + 12), f"+{len(dead) - GRAVE_SHOWN}", 14, c.MUTED, anchor="rm")
        canvas.draw.line((left, block + GRAVE_BLOCK_H - 6, right, block + GRAVE_BLOCK_H - 6), fill=c.GRID)


def _variants_note(view: Mapping[str, Any], words: Mapping[str, str]) -> str:
    names = [h.word(words, str(name)) for name in view.get("variants") or () if str(name) != "base"]
    return c.printable(h.word(words, "variants").format(names=", ".join(names))) if names else ""


def _draw_number(canvas: c.Canvas, layout: BoardLayout, ship: _Ship, number: str) -> None:
    """The ship's number among its side's ships of its type ("Red fighter 2" is the 2), on a white
    badge at the cell's lower left: the star's corner is the lower right."""
    x, y = layout.hex_centre(ship.cell)
    size = layout.hex_size
    centre = (x - 0.47 * size, y + 0.4 * size)
    r = 0.5 * layout.label_size + 1.5 if len(number) == 1 else 0.5 * c.font(layout.label_size).getlength(number) + 4
    canvas.draw.ellipse((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), fill=c.WHITE,
                        outline=c.BLACK, width=1)  # fmt: skip
    canvas.text((round(centre[0]), round(centre[1])), number, layout.label_size, c.INK, anchor="mm")


def _ghost(layout: BoardLayout) -> Callable[[Any, h.Point, m.Mark], None]:
    """How a destroyed ship (or a recycled debris) is ghosted where it stood, and a turned ship's
    old heading: its outline only."""

    def draw(draw: Any, centre: h.Point, mark: m.Mark) -> None:
        if mark.kind == m.TURN:  # the hull as it pointed before, under the ship
            if mark.piece in s.FACED:
                s.draw_ghost(draw, centre, layout.ship_radius, mark.piece, mark.side, h.ANGLES[mark.facings[0]])
        elif mark.piece == "debris":
            s.draw_debris(draw, (centre[0], centre[1] + 0.06 * layout.hex_size), 0.42 * layout.hex_size, ghost=True)
        elif mark.facings and mark.piece in s.FACED:  # as it pointed when it was destroyed
            s.draw_ghost(draw, centre, layout.ship_radius, mark.piece, mark.side, h.ANGLES[mark.facings[0]])
        else:
            s.draw_ghost(draw, centre, layout.ship_radius, mark.piece, mark.side)

    return draw


def _parse(text: str, where: str) -> Hex:
    return h.parse_cell(BOARD, text, where, BOARD_NAME)


# -- the public functions ----------------------------------------------------------------------------
def board_image(
    view: Mapping[str, Any],
    *,
    labels: Mapping[str, str],
    title: str = "",
    highlight: Iterable[str] = (),
    marks: Iterable[m.Mark] = (),
    caption: Iterable[str] = (),
    numbers: Mapping[str, str] | None = None,
) -> Image.Image:
    """The board as a palette image (what render_board encodes)."""
    layout = layout_for()
    words = s.words(labels)
    placed = m.place(marks, _parse)
    for mark in placed:
        known = (*s.TYPES, "debris") if mark.mark.kind == m.GHOST else s.TYPES
        if mark.mark.kind in (m.GHOST, m.TURN) and mark.mark.piece not in known:
            raise ValueError(f"marks: ship {mark.mark.piece!r} is not one of {', '.join(known)}")
    marked = sorted({_parse(text, "highlight") for text in highlight} | m.outlined(placed))
    contents = _contents(view)
    lines = m.caption_lines(caption, WIDTH - 2 * MARGIN)
    canvas = c.Canvas(m.with_room_below(_blank(words), m.caption_height(lines)))
    if marked:
        h.draw_highlight(canvas, layout.geometry, marked, layout.label_size, _fill)
        _draw_bases(canvas, layout)  # the outlines that the highlighted cells covered
    for cell in contents.debris:
        x, y = layout.hex_centre(cell)
        s.draw_debris(canvas.draw, (x, y + 0.06 * layout.hex_size), 0.42 * layout.hex_size)
    m.draw_ghosts(canvas, layout.geometry, placed, _ghost(layout))
    for ship in contents.ships:
        _draw_ship(canvas, layout, ship)
        number = (numbers or {}).get(ship.ship_id)
        if number:
            _draw_number(canvas, layout, ship, c.printable(str(number)))
    lit = set(marked)
    m.draw_actions(canvas, layout.geometry, placed, layout.label_size,
                   lambda cell: h.HIGHLIGHT if cell in lit and _fill(cell) == c.FLOOR else _fill(cell),
                   turn_radius=layout.turn_radius)
    h.draw_header(canvas, h.header_for(view, title, words, _variants_note(view, words)), WIDTH, MARGIN)
    _draw_panel(canvas, layout, view, contents, words)
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
    numbers: Mapping[str, str] | None = None,
) -> bytes:
    """The board as PNG bytes; the same arguments always give the same bytes.

    `highlight` outlines cells; `marks` draw the last action (renders/hexmarks.py: its cells are
    outlined too) and `caption` says it in words under the board, each sentence wrapped whole;
    `numbers` writes each ship's number (by id) beside it, as the text names it. `labels` are every
    word drawn (style.LABELS), in the reader's language: one missing raises ValueError, as does
    anything in the view or the marks that does not fit the board (a cell, side, kind, type or
    facing, a `carried_by` naming no ship, a cell in `highlight`), naming it.
    """
    return c.encode_png(board_image(view, title=title, highlight=highlight, labels=labels, marks=marks,
                                    caption=caption, numbers=numbers))
