"""What the two-side hex boards (Arkeon, HexArena) share: pixel geometry of a HexBoard, reading cells
and facings from a view, the grid with its labels, outlines, the header with its winner banner.

SpaceBlast's board grew its own copy of the geometry before these games existed and sizes itself by
radius only; these boards are fixed shapes (AK-1, HA-1) with a side panel, so the geometry here is
parameterised by any :class:`HexBoard`, a hex size and the pixel of the centre cell.

Every colour drawn here is a colour of the fixed palette (renders/common.py): the boards draw on a
palette canvas, where a colour outside it would be added to the image's palette and change its bytes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from engine.core.errors import OrderError
from engine.core.hexgrid import Direction, Hex, HexBoard
from renders import common as c

Point = tuple[float, float]
SQRT3 = math.sqrt(3)
#: Corner angles of a pointy-top hex, from the top corner clockwise (y points down).
HEX_CORNERS: tuple[float, ...] = tuple(-90.0 + 60.0 * k for k in range(6))


def _screen_angle(direction: Direction) -> float:
    """Derived from the axial step, so the pictures can never disagree with the engine's grid."""
    x = SQRT3 * (direction.dq + direction.dr / 2)
    y = 1.5 * direction.dr
    return round(math.degrees(math.atan2(y, x)), 6) + 0.0  # + 0.0: -0.0 would print oddly


#: Screen angle (degrees, y pointing down) of each direction name: E 0, NE -60, ..., SE 60.
ANGLES: dict[str, float] = {direction.name: _screen_angle(direction) for direction in Direction}

#: The two sides' colours (Okabe-Ito blue and vermillion stay apart under the common colour-vision
#: deficiencies), the colour drawn on them, a light tint for their cells, and a shape cue so that
#: colour is never the only one: blue is round, red is square (tokens, ship markers, the legend).
SIDE_COLOURS: dict[str, c.RGB] = {"blue": c.BLUE, "red": c.VERMILLION}
SIDE_INK: dict[str, c.RGB] = {"blue": c.WHITE, "red": c.WHITE}
SIDE_TINTS: dict[str, c.RGB] = {"blue": c.TEAM_TINT[1], "red": c.AREA_TINT}
SIDE_SHAPES: dict[str, str] = {"blue": "circle", "red": "square"}
#: The last move's cells: a pale yellow (a colour of the palette's cube) under a thick black outline.
HIGHLIGHT: c.RGB = (255, 255, 192)
HIGHLIGHT_OUTLINE: c.RGB = c.BLACK


def polar(centre: Point, angle: float, distance: float) -> Point:
    rad = math.radians(angle)
    return centre[0] + distance * math.cos(rad), centre[1] + distance * math.sin(rad)


def local(centre: Point, angle: float, along: float, across: float) -> Point:
    """A point given in the glyph's own frame (x along `angle`, y to its right), so a glyph is
    described once and turns with the facing."""
    return polar(polar(centre, angle, along), angle + 90, across)


@dataclass(frozen=True)
class HexGeometry:
    """Pixel positions of a board's cells: `size` is the centre-to-corner distance, `origin` the pixel
    of the centre cell Hex(0, 0)."""

    board: HexBoard
    size: float
    origin: Point

    def hex_centre(self, cell: Hex) -> Point:
        x = self.origin[0] + SQRT3 * self.size * (cell.q + cell.r / 2)
        y = self.origin[1] + 1.5 * self.size * cell.r
        return x, y

    def hex_polygon(self, cell: Hex, inset: float = 0.0) -> list[Point]:
        centre = self.hex_centre(cell)
        return [polar(centre, angle, self.size - inset) for angle in HEX_CORNERS]

    def edge(self, cell: Hex, direction: Direction) -> tuple[Point, Point]:
        """The side of `cell` shared with its neighbour in `direction` (its two corners)."""
        centre = self.hex_centre(cell)
        angle = ANGLES[direction.name]
        return polar(centre, angle - 30, self.size), polar(centre, angle + 30, self.size)


# -- reading the view --------------------------------------------------------------------------------
def parse_cell(board: HexBoard, text: Any, where: str, board_name: str) -> Hex:
    """A cell of the view; ValueError naming the cell and where it was found, since a view that does
    not fit its board is a caller's bug, not a player's typo."""
    try:
        return board.parse(str(text))
    except OrderError:
        raise ValueError(f"{where}: cell {text!r} is not on the {board_name}") from None


def parse_facing(text: Any, where: str) -> float:
    """The screen angle of a direction of the view; ValueError naming it when unknown."""
    angle = ANGLES.get(str(text).strip().upper()) if isinstance(text, str) else None
    if angle is None:
        raise ValueError(f"{where}: facing {text!r} is not one of {', '.join(ANGLES)}")
    return angle


def parse_side(text: Any, where: str) -> str:
    if text not in SIDE_COLOURS:
        raise ValueError(f"{where}: side {text!r} is not one of {', '.join(SIDE_COLOURS)}")
    return str(text)


def count(value: Any) -> int:
    """A count of the view, or 0 when it is missing or not a number (a view in the lobby)."""
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


#: why each game may end (the views' ``reason``): the header words each as its ``reason.<reason>`` label
REASONS: dict[str, tuple[str, ...]] = {
    "arkeon": ("agreed", "base_destroyed", "draw", "no_move", "resigned", "timeout"),
    "hexarena": ("admiral_stuck", "agreed", "base_reached", "no_legal_action", "resigned", "timeout"),
}


def check_labels(labels: Mapping[str, str], needed: Iterable[str]) -> dict[str, str]:
    """The words a picture draws, all given: ValueError naming any missing, since a picture must not
    fall back on words of another language."""
    missing = [key for key in needed if key not in labels]
    if missing:
        raise ValueError(f"labels: missing {', '.join(missing)}")
    return dict(labels)


def word(labels: Mapping[str, str], key: str) -> str:
    """A label, or the identifier itself made readable, so a new reason or kind still shows."""
    return labels.get(key, key.replace("_", " "))


# -- the static grid ---------------------------------------------------------------------------------
def draw_cell(
    canvas: c.Canvas,
    geometry: HexGeometry,
    cell: Hex,
    fill: c.RGB,
    label_size: int,
    outline: c.RGB = c.GRID_STRONG,
    width: int = 2,
) -> None:
    """A cell with its coordinates at the top, where pieces leave room for them."""
    canvas.draw.polygon(geometry.hex_polygon(cell), fill=fill, outline=outline, width=width)
    draw_label(canvas, geometry, cell, label_size)


def label_point(geometry: HexGeometry, cell: Hex) -> Point:
    """Where a cell's coordinates are written: near its top corner, above any piece."""
    x, y = geometry.hex_centre(cell)
    return x, y - 0.66 * geometry.size


def draw_label(
    canvas: c.Canvas, geometry: HexGeometry, cell: Hex, label_size: int, backing: c.RGB | None = None
) -> None:
    """A cell's coordinates; on a `backing` box of that colour where a thick outline or a mark runs
    under them, so they stay readable (the box interrupts the line, as a label in a frame does)."""
    x, y = label_point(geometry, cell)
    label = geometry.board.format(cell)
    if backing is not None:
        half_w = c.font(label_size).getlength(label) / 2 + 2
        half_h = label_size / 2 + 1
        canvas.draw.rectangle((x - half_w, y - half_h, x + half_w, y + half_h), fill=backing)
    canvas.text((round(x), round(y)), label, label_size, c.MUTED, anchor="mm")


def draw_grid(
    canvas: c.Canvas, geometry: HexGeometry, label_size: int, fill_of: Callable[[Hex], c.RGB]
) -> None:
    """Every cell (coordinates included) and the row letters at both ends of each row."""
    for cell in geometry.board:
        draw_cell(canvas, geometry, cell, fill_of(cell), label_size)
    half = geometry.size * SQRT3 / 2
    for row in geometry.board.rows:
        letter = geometry.board.format(row[0])[0]
        for end, side in ((row[0], -1), (row[-1], 1)):
            x, y = geometry.hex_centre(end)
            canvas.text((round(x + side * (half + 15)), round(y)), letter, 16, c.INK, anchor="mm")


def draw_region_border(
    draw: ImageDraw.ImageDraw, geometry: HexGeometry, cells: Iterable[Hex], colour: c.RGB, width: int
) -> None:
    """The outer boundary of a group of cells (a HexArena base): each side not shared inside it."""
    region = frozenset(cells)
    for cell in sorted(region):
        for direction in Direction:
            if cell.neighbour(direction) not in region:
                draw.line(geometry.edge(cell, direction), fill=colour, width=width)


def draw_highlight(
    canvas: c.Canvas,
    geometry: HexGeometry,
    cells: Iterable[Hex],
    label_size: int,
    fill_of: Callable[[Hex], c.RGB],
) -> None:
    """The last move's cells: pale yellow where the cell was plain floor, its own tint kept otherwise
    (a base stays recognisable), under a thick outline that shows even beneath a piece."""
    for cell in cells:
        fill = fill_of(cell)
        canvas.draw.polygon(geometry.hex_polygon(cell), fill=HIGHLIGHT if fill == c.FLOOR else fill)
        canvas.draw.polygon(geometry.hex_polygon(cell, inset=2), outline=HIGHLIGHT_OUTLINE, width=4)
        draw_label(canvas, geometry, cell, label_size, backing=HIGHLIGHT if fill == c.FLOOR else fill)


# -- small shared glyphs -------------------------------------------------------------------------------
def draw_side_mark(draw: ImageDraw.ImageDraw, centre: Point, size: float, side: str, fill: c.RGB) -> None:
    """The side's shape cue (SIDE_SHAPES), axis-aligned whatever the piece's heading."""
    x, y = centre
    r = max(2.5, size)
    if SIDE_SHAPES.get(side) == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)
    else:
        k = r * 0.8  # about the disc's area, and its corners keep clear of the glyph's centre
        draw.rectangle((x - k, y - k, x + k, y + k), fill=fill)


def draw_side_token(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, side: str, outline_width: int = 2
) -> None:
    """A disc (blue) or a square (red) in the side's colour: the legend's swatch and Arkeon's pieces."""
    x, y = centre
    colour = SIDE_COLOURS[side]
    if SIDE_SHAPES[side] == "circle":
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=c.BLACK,
                     width=outline_width)  # fmt: skip
    else:
        k = radius * 0.9
        draw.rectangle((x - k, y - k, x + k, y + k), fill=colour, outline=c.BLACK, width=outline_width)


# -- the header --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Header:
    """What the header says: title and turn on the first line; then either the winner banner across
    the width, or whose move it is."""

    title: str
    turn: str
    winner: str | None  # a side, "draw", or None while playing
    result: str  # the banner's words
    status: str  # whose move, while playing
    status_side: str | None
    note: str = ""  # right of the status line (HexArena's variants)


def draw_header(canvas: c.Canvas, header: Header, width: int, margin: int) -> None:
    turn_w = round(c.font(20).getlength(header.turn)) if header.turn else 0
    if header.turn:
        canvas.text((width - margin, 24), header.turn, 20, c.INK, anchor="rm")
    if header.title:
        room = width - 2 * margin - turn_w - 20
        canvas.text((margin, 24), c.fit(header.title, 22, room), 22, c.INK, anchor="lm")
    if header.winner is not None:
        # the banner: the winner's colour across the whole width (grey for a draw), its shape cue,
        # and the words in white, so a finished game reads as finished at a glance
        colour = SIDE_COLOURS.get(header.winner, c.MUTED)
        canvas.draw.rectangle((0, 44, width, 74), fill=colour)
        x = margin
        if header.winner in SIDE_COLOURS:
            draw_side_mark(canvas.draw, (margin + 9, 59), 8, header.winner, c.WHITE)
            x += 26
        canvas.text((x, 59), c.fit(header.result, 20, width - x - margin), 20, c.WHITE, anchor="lm")
        return
    x = margin
    if header.status_side in SIDE_COLOURS:
        draw_side_token(canvas.draw, (margin + 10, 59), 10, header.status_side)
        x += 28
    note_w = round(c.font(16).getlength(header.note)) + 20 if header.note else 0
    if header.status:
        canvas.text((x, 59), c.fit(header.status, 18, width - x - margin - note_w), 18, c.INK, anchor="lm")
    if header.note:
        canvas.text((width - margin, 59), header.note, 16, c.MUTED, anchor="rm")


def header_for(view: Mapping[str, Any], title: str, labels: Mapping[str, str], note: str = "") -> Header:
    """The header of a two-side game's view (`to_move`, `winner`, `reason`, `turn`)."""
    winner = view.get("winner")
    turn = f"{word(labels, 'turn')} {count(view.get('turn'))}" if "turn" in view else ""
    result = ""
    if winner is not None:
        winner = str(winner)
        if winner == "draw":
            result = word(labels, "draw")
        else:
            side = word(labels, winner) if winner in SIDE_COLOURS else c.printable(winner)
            result = word(labels, "wins").format(side=side)
        reason = view.get("reason")
        if reason:
            result = word(labels, "result_reason").format(result=result, reason=word(labels, f"reason.{reason}"))
    to_move = view.get("to_move")
    status = ""
    if winner is None and to_move in SIDE_COLOURS:
        status = word(labels, "to_move").format(side=word(labels, str(to_move)))
    return Header(
        title=c.printable(title),
        turn=turn,
        winner=winner,
        result=result,
        status=status,
        status_side=to_move if winner is None and to_move in SIDE_COLOURS else None,
        note=note,
    )
