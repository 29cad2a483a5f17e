"""The last action drawn on a two-side hex board (Arkeon, HexArena): what moved where, what shot or
rammed what, what was pushed or turned, what was destroyed or removed, and a caption saying it.

A board that only shows where things stand tells a player who comes back two days later nothing
of what the other side just did. The bots turn the engine's events of the last input into `Mark`s
(plain data, like the view), and the boards draw them with what is here:

- a move is a solid arrow from the cell left to the cell reached; a teleport (HexArena's wrap) a
  dashed one, straight from where it left to where it arrived, never along the wrapped path;
- a shot is a dotted line from the shooter to an impact on its target; a ram an impact on the
  side between the two ships; a push (Arkeon's repulsor) an arrow on the piece it moved;
- a rotation the piece's old facing ghosted under it, beside the new one, and where a board asks
  for it (HexArena) an arc arrow round the piece, from the old heading to the new, the way it turned;
- a destroyed or removed piece is ghosted where it stood (each game draws its own ghosts, under the
  pieces, so whatever took the cell stays on top).

Every line has a white halo, so it reads on a ship, on the floor and in grey alike; the cell
coordinates a mark runs under are written again over it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.hexgrid import Hex
from renders import common as c
from renders import hexboard as h

Point = h.Point

MOVE, JUMP, SHOT, RAM, PUSH, TURN, GHOST = "move", "jump", "shot", "ram", "push", "turn", "ghost"
KINDS: tuple[str, ...] = (MOVE, JUMP, SHOT, RAM, PUSH, TURN, GHOST)
#: how many cells each kind names: from and to, shooter and target, rammer and rammed, or the one cell
_CELLS = {MOVE: 2, JUMP: 2, SHOT: 2, RAM: 2, PUSH: 2, TURN: 1, GHOST: 1}
INK: c.RGB = c.BLACK
HALO: c.RGB = c.WHITE
IMPACT: c.RGB = c.YELLOW
CAPTION_SIZE = 16
CAPTION_LINE_H = 22
CAPTION_PAD = 10


@dataclass(frozen=True)
class Mark:
    """One thing the last action did. `cells` are cell names: from and to (MOVE, JUMP, PUSH), the
    shooter and its target (SHOT), the rammer and the rammed (RAM), the piece's cell (TURN, GHOST).
    A GHOST names the `side` and `piece` (type or kind) that stood there, and may name the one
    facing it had (`facings`, a direction name); a TURN the same of the piece turned and its
    `facings` (from, to: direction names)."""

    kind: str
    cells: tuple[str, ...]
    side: str = ""
    piece: str = ""
    facings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Placed:
    """A mark checked against its board: its cells as hexes, its facings as screen angles."""

    mark: Mark
    cells: tuple[Hex, ...]
    angles: tuple[float, ...]


def place(marks: Iterable[Mark], parse: Callable[[str, str], Hex]) -> list[Placed]:
    """The marks on the board, checked before anything is drawn: ValueError naming a kind, a cell
    or a facing that does not fit (`parse(text, where)` reads a cell of the board)."""
    placed = []
    for index, mark in enumerate(marks):
        where = f"marks[{index}]"
        if mark.kind not in KINDS:
            raise ValueError(f"{where}: kind {mark.kind!r} is not one of {', '.join(KINDS)}")
        if len(mark.cells) != _CELLS[mark.kind]:
            raise ValueError(f"{where}: a {mark.kind} names {_CELLS[mark.kind]} cells, not {list(mark.cells)}")
        cells = tuple(parse(text, where) for text in mark.cells)
        angles: tuple[float, ...] = ()
        if mark.kind == TURN:
            if len(mark.facings) != 2:
                raise ValueError(f"{where}: a turn needs two facings, not {mark.facings!r}")
            angles = tuple(h.parse_facing(text, where) for text in mark.facings)
        elif mark.kind == GHOST and mark.facings:
            if len(mark.facings) != 1:
                raise ValueError(f"{where}: a ghost has at most one facing, not {mark.facings!r}")
            angles = (h.parse_facing(mark.facings[0], where),)
        if mark.kind in (GHOST, TURN):
            h.parse_side(mark.side, where)
        placed.append(Placed(mark, cells, angles))
    return placed


def outlined(placed: Iterable[Placed]) -> set[Hex]:
    """The cells a board outlines for the last action: both ends of a move, a shot, a ram or a push
    (never a teleport's path), the cell of a turn or of a ghost."""
    return {cell for mark in placed for cell in mark.cells}


# -- the strokes ---------------------------------------------------------------------------------------
def towards(a: Point, b: Point, distance: float) -> Point:
    """The point `distance` from `a` on the way to `b`."""
    length = math.dist(a, b) or 1.0
    return a[0] + (b[0] - a[0]) * distance / length, a[1] + (b[1] - a[1]) * distance / length


def _dashes(a: Point, b: Point, on: float, off: float) -> list[tuple[Point, Point]]:
    """The pieces of a dashed line from `a` to `b`."""
    length = math.dist(a, b)
    pieces, at = [], 0.0
    while at < length:
        pieces.append((towards(a, b, at), towards(a, b, min(at + on, length))))
        at += on + off
    return pieces


def _head(tip: Point, angle: float, size: float) -> list[Point]:
    return [tip, h.polar(tip, angle + 150, size), h.polar(tip, angle - 150, size)]


def _stroke(draw: ImageDraw.ImageDraw, segments: Sequence[tuple[Point, Point]], width: int) -> None:
    """Segments in ink over a white halo, the halo drawn first under all of them."""
    for colour, grow in ((HALO, 4), (INK, 0)):
        for a, b in segments:
            draw.line((*a, *b), fill=colour, width=width + grow)


Segment = tuple[Point, Point]


def arrow(draw: ImageDraw.ImageDraw, start: Point, end: Point, unit: float, dashed: bool) -> list[Segment]:
    """A straight arrow, solid or dashed; the segments it covers (for the labels it crosses)."""
    width = max(3, round(unit / 9))
    angle = math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    size = max(10.0, unit * 0.36)
    neck = towards(end, start, size * 0.8)
    segments = _dashes(start, neck, unit * 0.32, unit * 0.2) if dashed else [(start, neck)]
    _stroke(draw, segments, width)
    head = _head(end, angle, size)
    draw.polygon(head, fill=INK, outline=HALO, width=2)
    return [(start, end), (head[1], head[2])]


def path_arrow(draw: ImageDraw.ImageDraw, points: Sequence[Point], unit: float, head: bool = True) -> list[Segment]:
    """A solid arrow along `points` (a move of several steps, bending where it turned, as `arrow`
    draws one of a single step), its head at the last point; without `head` the shaft only
    (`path_head` draws it later, say over a label written again). The segments it covers."""
    width = max(3, round(unit / 9))
    size = max(10.0, unit * 0.36)
    neck = towards(points[-1], points[-2], size * 0.8)
    segments = list(zip([*points[:-1]], [*points[1:-1], neck], strict=True))
    _stroke(draw, segments, width)
    if head:
        path_head(draw, points, unit)
    return [*segments, (neck, points[-1])]


def path_head(draw: ImageDraw.ImageDraw, points: Sequence[Point], unit: float) -> None:
    """The head of `path_arrow`, on its last point, along its last step."""
    (ax, ay), (bx, by) = points[-2], points[-1]
    draw.polygon(_head((bx, by), math.degrees(math.atan2(by - ay, bx - ax)), max(10.0, unit * 0.36)),
                 fill=INK, outline=HALO, width=2)


def turn_sweep(start: float, end: float) -> float:
    """The turn from screen angle `start` to `end` the short way, in degrees (positive clockwise on
    the screen); half a turn reads as clockwise."""
    sweep = (end - start) % 360
    return sweep - 360 if sweep > 180 else sweep


def arc_arrow(draw: ImageDraw.ImageDraw, centre: Point, radius: float, start: float, sweep: float,
              unit: float, head: bool = True) -> list[Segment]:
    """A curved arrow round `centre` at `radius`, from screen angle `start` turning `sweep` degrees
    (positive clockwise), its head on the new heading: a rotation, told by the way it went round.
    Without `head` the shaft only (`arc_head` draws it later, say over a label written again).
    The segments it covers (for the labels it crosses)."""
    width = max(4, round(unit / 8))
    turning = 1.0 if sweep >= 0 else -1.0
    # the head takes the last part of the arc, so the shaft stops at its base
    head_sweep = math.degrees(_arc_head_size(unit) * 0.8 / radius) * turning
    shaft_sweep = sweep - head_sweep if abs(sweep) > abs(head_sweep) else sweep * 0.4
    steps = max(4, round(abs(sweep) / 6))
    points = [h.polar(centre, start + shaft_sweep * k / steps, radius) for k in range(steps + 1)]
    segments = list(zip(points, points[1:], strict=False))
    _stroke(draw, segments, width)
    if head:
        arc_head(draw, centre, radius, start, sweep, unit)
    return [*segments, (points[-1], h.polar(centre, start + sweep, radius))]


def _arc_head_size(unit: float) -> float:
    return max(9.0, unit * 0.38)


def arc_head(draw: ImageDraw.ImageDraw, centre: Point, radius: float, start: float, sweep: float,
             unit: float) -> None:
    """The head of `arc_arrow`: on the new heading, along the way it turned."""
    size = _arc_head_size(unit)
    turning = 1.0 if sweep >= 0 else -1.0
    tip = h.polar(centre, start + sweep, radius)
    heading = start + sweep + (90 - math.degrees(size * 0.4 / radius)) * turning
    draw.polygon(_head(tip, heading, size), fill=INK, outline=HALO, width=2)


def dotted(draw: ImageDraw.ImageDraw, start: Point, end: Point, unit: float) -> list[Segment]:
    """A shot's tracer: round dots from the shooter to the impact."""
    r = max(2.5, unit * 0.07)
    step = max(9.0, unit * 0.26)
    length = math.dist(start, end)
    dots = [towards(start, end, k * step) for k in range(int(length // step) + 1)]
    for colour, grow in ((HALO, 1.5), (INK, 0.0)):
        for x, y in dots:
            draw.ellipse((x - r - grow, y - r - grow, x + r + grow, y + r + grow), fill=colour)
    return [(start, end)]


def draw_impact(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> list[Segment]:
    """A hit: a yellow burst with a black outline (a shot's end, a ram between two ships); the
    segments across it."""
    points = [h.polar(centre, -90 + 22.5 * k, radius if k % 2 == 0 else radius * 0.5) for k in range(16)]
    draw.polygon(points, fill=IMPACT, outline=INK, width=2)
    return [(points[0], points[8]), (points[4], points[12])]


def draw_ghosts(canvas: c.Canvas, geometry: h.HexGeometry, placed: Iterable[Placed],
                ghost: Callable[[ImageDraw.ImageDraw, Point, Mark], None]) -> None:
    """The destroyed and removed pieces where they stood, and a turned piece's old facing, drawn by
    the game's `ghost`: call this before drawing the pieces, so what took the cell (a debris, a
    released admiral, the turned piece itself) stays on top."""
    for mark in placed:
        if mark.mark.kind in (GHOST, TURN):
            ghost(canvas.draw, geometry.hex_centre(mark.cells[0]), mark.mark)


def draw_actions(canvas: c.Canvas, geometry: h.HexGeometry, placed: Iterable[Placed], label_size: int,
                 fill_of: Callable[[Hex], c.RGB], turn_radius: float = 0.0) -> None:
    """Arrows, tracers and impacts over the pieces, then the coordinates they ran under written
    again on their cell's colour (`fill_of`). A turn is the ghost of the old facing beside the new
    one, and with a `turn_radius` (pixels from the piece's centre: a board whose pieces leave room
    for it) also an arc arrow from the old heading to the new, the short way round."""
    unit = geometry.size
    inked: list[Segment] = []
    for mark in placed:
        kind = mark.mark.kind
        if kind in (GHOST, TURN):
            continue
        a, b = (geometry.hex_centre(cell) for cell in mark.cells)
        if kind in (MOVE, JUMP, PUSH):
            inked += arrow(canvas.draw, towards(a, b, 0.12 * unit), towards(b, a, 0.56 * unit), unit, kind == JUMP)
        elif kind == SHOT:
            hit = towards(b, a, 0.42 * unit)
            inked += dotted(canvas.draw, towards(a, b, 0.55 * unit), hit, unit)
            inked += draw_impact(canvas.draw, hit, 0.3 * unit)
        elif kind == RAM:
            inked += draw_impact(canvas.draw, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), 0.34 * unit)
    _rewrite_labels(canvas, geometry, inked, label_size, fill_of)
    if turn_radius > 0:
        _draw_turns(canvas, geometry, [mark for mark in placed if mark.mark.kind == TURN], label_size, fill_of,
                    turn_radius)


def _draw_turns(canvas: c.Canvas, geometry: h.HexGeometry, turns: Sequence[Placed], label_size: int,
                fill_of: Callable[[Hex], c.RGB], radius: float) -> None:
    """Each turn's arc arrow: the shafts, the coordinates they crossed written again, then the heads
    on top (a head next to its cell's coordinates stays whole)."""
    arcs = [(geometry.hex_centre(mark.cells[0]), mark.angles[0], turn_sweep(*mark.angles)) for mark in turns]
    inked = [segment for centre, start, sweep in arcs
             for segment in arc_arrow(canvas.draw, centre, radius, start, sweep, geometry.size, head=False)]
    _rewrite_labels(canvas, geometry, inked, label_size, fill_of)
    for centre, start, sweep in arcs:
        arc_head(canvas.draw, centre, radius, start, sweep, geometry.size)


def _near(point: Point, segment: Segment, reach_x: float, reach_y: float) -> bool:
    """Whether `segment` comes within the box of half-sides `reach_x`, `reach_y` round `point`
    (as an ellipse: the vertical distances scaled to the horizontal)."""
    scale = reach_x / reach_y
    (ax, ay), (bx, by) = segment
    px, py = point[0] - ax, (point[1] - ay) * scale
    dx, dy = bx - ax, (by - ay) * scale
    along = max(0.0, min(1.0, (px * dx + py * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.hypot(px - along * dx, py - along * dy) < reach_x


def _rewrite_labels(canvas: c.Canvas, geometry: h.HexGeometry, inked: Sequence[Segment], label_size: int,
                    fill_of: Callable[[Hex], c.RGB]) -> None:
    """The coordinates of every cell a mark came near, written again, so no arrow hides them."""
    reach_x, reach_y = label_size * 1.6 + 6, label_size * 0.5 + 6
    for cell in geometry.board:
        point = h.label_point(geometry, cell)
        if any(_near(point, segment, reach_x, reach_y) for segment in inked):
            h.draw_label(canvas, geometry, cell, label_size, backing=fill_of(cell))


# -- the caption ---------------------------------------------------------------------------------------
def caption_lines(sentences: Iterable[str], width: int) -> tuple[str, ...]:
    """Each sentence of the caption wrapped to `width` pixels, whole: a caption is never cut."""
    return tuple(line for sentence in sentences for line in c.wrap(sentence, CAPTION_SIZE, width))


def caption_height(lines: Sequence[str]) -> int:
    return 2 * CAPTION_PAD + CAPTION_LINE_H * len(lines) if lines else 0


def with_room_below(image: Image.Image, extra: int) -> Image.Image:
    """A palette `image` grown by `extra` rows of paper at the bottom (the caption's place)."""
    if extra <= 0:
        return image
    grown = Image.new("P", (image.width, image.height + extra))
    grown.putpalette(c.palette_image().getpalette() or [])
    grown.paste(c.to_palette(Image.new("RGB", (image.width, extra), c.PAPER)), (0, image.height))
    grown.paste(image, (0, 0))
    return grown


def draw_caption(canvas: c.Canvas, lines: Sequence[str], top: int, margin: int) -> None:
    """The caption under the board: a rule, then its lines, left-aligned."""
    if not lines:
        return
    width = canvas.image.width
    canvas.draw.line((margin, top, width - margin, top), fill=c.GRID, width=2)
    for index, line in enumerate(lines):
        y = top + CAPTION_PAD + CAPTION_LINE_H * index + CAPTION_LINE_H // 2
        canvas.text((margin, y), line, CAPTION_SIZE, c.INK, anchor="lm")
