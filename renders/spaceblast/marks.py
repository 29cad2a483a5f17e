"""What a phase of a SpaceBlast turn did, drawn on its frame of the turn's animation (issue 27).

Words alone ("Collision at G7: Ann and Bob each lose 1") left the reader matching names to darts;
the frame now draws each thing where it happened, from marks the bot makes of the engine's events
(plain data beside the view, never worked out again from the rules here):

- ``move`` ``{path, ship?}``: a ship's move, a solid arrow from the cell it stood on through each
  step (a side slip, the step ahead, turbo's second) to the cell it ended on (SB-9, SB-17);
- ``turn`` ``{at, from, to, steps}``: a curved arrow round the ship, from the old heading to the new,
  the way it turned (steps: + clockwise, SB-7);
- ``mine_laid`` ``{at}``: a dashed ring round the mine just laid (SB-8);
- ``clash`` ``{at, ships}``: a collision or a ram, a flash on every ship in it (`ships`, their cells),
  on its side towards the cell fought over (`at`);
- ``missile`` ``{path, facing, end}``: a missile's flight, a dotted line along the cells it crossed
  (`path`, from the cell it started on), ending in an impact on what it ``hit``, on the ``asteroid``
  that stopped it, in an arrow off the arena when it ``left_arena``, or short of it still ``flying``;
- ``burst`` ``{at, ship?, facing?}``: an explosion: beside the ship still there, where a mine
  lies, for a mine or a missile it flew into; round the cell for a ship destroyed (``ship``: its
  hollow outline over it, as it faced);
- ``shield`` ``{at}``: a ring round the ship whose shield took the loss (SB-17);
- ``left_arena`` ``{at, ship, facing}``: the ship's hollow outline on its last cell and a dashed
  arrow out of the arena (SB-9);
- ``crash`` ``{at, ship, facing}``: an explosion round the asteroid and the ship's hollow outline on
  it (SB-16), unlike leaving the arena.

Explosions, outlines and shields go under the pieces (what is still there stays on top); lines,
flashes, dashed rings and arrows over them. Every colour is one of the fixed palette's, as the frames need.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.hexgrid import Hex
from renders import common as c
from renders import hexmarks as m
from renders.spaceblast import style as s

if TYPE_CHECKING:
    from renders.spaceblast.board import BoardLayout

Point = tuple[float, float]

MOVE, TURN, MINE_LAID, CLASH, MISSILE, BURST, SHIELD, LEFT_ARENA, CRASH = (
    "move", "turn", "mine_laid", "clash", "missile", "burst", "shield", "left_arena", "crash")  # fmt: skip
KINDS: tuple[str, ...] = (MOVE, TURN, MINE_LAID, CLASH, MISSILE, BURST, SHIELD, LEFT_ARENA, CRASH)
#: how a missile's flight ended
MISSILE_ENDS: tuple[str, ...] = ("hit", "asteroid", "left_arena", "flying")
#: the kinds that draw the hollow outline of a ship no longer there (with `ship` and `facing`)
_GHOSTED = (BURST, LEFT_ARENA, CRASH)
#: the key's entries for the marks a reader may not guess (style.LABELS): shown on a frame having them
KEYED: tuple[str, ...] = ("key_impact", "key_explosion", "key_shield")
BLAST: c.RGB = c.VERMILLION  # an explosion's outer burst; its heart is the impact's yellow
SHIELD_RING: c.RGB = c.SKY


@dataclass(frozen=True)
class Placed:
    """A mark checked against the arena: its cells as hexes, its directions as screen angles."""

    kind: str
    cells: tuple[Hex, ...]
    angles: tuple[float, ...] = ()
    sweep: float = 0.0
    ship: str = ""
    end: str = ""


def place(marks: Iterable[Mapping[str, Any]], radius: int) -> list[Placed]:
    """The marks on the arena, checked before anything is drawn: ValueError naming the mark and
    what does not fit (a kind, a cell, a facing, a missile's end)."""
    placed = []
    for index, mark in enumerate(marks):
        where = f"marks[{index}]"
        kind = mark.get("kind")
        if kind not in KINDS:
            raise ValueError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
        if kind == MISSILE:
            path = tuple(s.parse_cell(text, radius, where) for text in mark.get("path") or ())
            if not path:
                raise ValueError(f"{where}: a missile needs the cells of its path")
            if mark.get("end") not in MISSILE_ENDS:
                raise ValueError(f"{where}: end {mark.get('end')!r} is not one of {', '.join(MISSILE_ENDS)}")
            placed.append(Placed(kind, path, (s.parse_facing(mark.get("facing"), where),), end=str(mark["end"])))
            continue
        if kind == MOVE:
            path = tuple(s.parse_cell(text, radius, where) for text in mark.get("path") or ())
            if len(path) < 2:
                raise ValueError(f"{where}: a move needs the cell it left and the cell it reached")
            placed.append(Placed(kind, path, ship=str(mark.get("ship") or "")))
            continue
        cells = (s.parse_cell(mark.get("at"), radius, where),)
        if kind == CLASH:
            cells += tuple(s.parse_cell(text, radius, where) for text in mark.get("ships") or ())
        angles: tuple[float, ...] = ()
        sweep = 0.0
        if kind == TURN:
            angles = (s.parse_facing(mark.get("from"), where), s.parse_facing(mark.get("to"), where))
            steps = mark.get("steps")
            if not isinstance(steps, int) or isinstance(steps, bool) or steps == 0:
                raise ValueError(f"{where}: a turn's steps must be a non-zero whole number, not {steps!r}")
            sweep = 60.0 * steps
        elif kind in _GHOSTED and mark.get("facing") is not None:
            angles = (s.parse_facing(mark.get("facing"), where),)
        if kind in (LEFT_ARENA, CRASH) and not angles:
            raise ValueError(f"{where}: a ship leaving play needs its facing")
        placed.append(Placed(kind, cells, angles, sweep, str(mark.get("ship") or "")))
    return placed


def keyed(placed: Iterable[Placed]) -> list[str]:
    """The key entries the marks need: an impact (a collision, a ram, a missile's hit), an
    explosion, a shield."""
    kinds = {mark.kind for mark in placed}
    impact = CLASH in kinds or any(mark.kind == MISSILE and mark.end in ("hit", "asteroid") for mark in placed)
    wanted = {"key_impact": impact, "key_explosion": bool(kinds & {BURST, CRASH}), "key_shield": SHIELD in kinds}
    return [key for key in KEYED if wanted[key]]


def draw_key_glyph(draw: Any, key: str, at: Point) -> None:
    """A KEYED entry's glyph, key-sized."""
    if key == "key_impact":
        m.draw_impact(draw, at, 11)
    elif key == "key_explosion":
        draw_blast(draw, at, 12)
    else:
        shield_ring(draw, at, 7)


# -- under the pieces ------------------------------------------------------------------------------
def draw_blasts(canvas: c.Canvas, layout: BoardLayout, placed: Sequence[Placed],
                relabel: Callable[[Hex], None]) -> None:
    """The explosions, first of all (what is drawn later stays on top), and the coordinates they
    covered written again."""
    blasts = sorted({mark.cells[0] for mark in placed if mark.kind == CRASH or (mark.kind == BURST and mark.ship)})
    for cell in blasts:
        draw_blast(canvas.draw, layout.hex_centre(cell), 0.64 * layout.hex_size)
    for cell in blasts:
        relabel(cell)


def draw_ghosts(canvas: c.Canvas, layout: BoardLayout, placed: Sequence[Placed],
                styles: Mapping[str, s.ShipStyle]) -> None:
    """The ships gone this phase, hollow where they stood, as they faced, with their tag under them
    as a ship in play has it (on a white box, over an explosion too), so the picture says whose
    ship it was (before the pieces)."""
    for mark in placed:
        if mark.kind in _GHOSTED and mark.angles and mark.ship:
            found = styles.get(mark.ship)
            colour = found.colour if found is not None else s.GONE
            x, y = layout.hex_centre(mark.cells[0])
            s.draw_ghost_ship(canvas.draw, (x, y), layout.ship_radius, mark.angles[0], colour)
            if found is not None:  # on a white box: it may lie on the explosion
                at = (round(x), round(y + 0.58 * layout.hex_size))
                half_w, half_h = c.font(layout.label_size).getlength(found.tag) / 2 + 3, layout.label_size / 2 + 1
                canvas.draw.rectangle((at[0] - half_w, at[1] - half_h, at[0] + half_w, at[1] + half_h), fill=c.WHITE)
                canvas.text(at, found.tag, layout.label_size, c.INK, anchor="mm")


def draw_shields(canvas: c.Canvas, layout: BoardLayout, placed: Sequence[Placed]) -> None:
    """The shields that took a loss, round their ships (before the pieces: the ship's tag and hull
    marks stay on top)."""
    for mark in placed:
        if mark.kind == SHIELD:
            shield_ring(canvas.draw, layout.hex_centre(mark.cells[0]), 1.3 * layout.ship_radius)


def draw_blast(draw: Any, centre: Point, radius: float) -> None:
    """An explosion: a vermillion burst round a yellow heart, both outlined in black."""
    for colour, outer, inner in ((BLAST, radius, radius * 0.55), (m.IMPACT, radius * 0.55, radius * 0.3)):
        points = [s.polar(centre, -90 + 15 * k, outer if k % 2 == 0 else inner) for k in range(24)]
        draw.polygon(points, fill=colour, outline=c.BLACK, width=1)


# -- over the pieces ---------------------------------------------------------------------------------
def draw_strokes(canvas: c.Canvas, layout: BoardLayout, placed: Sequence[Placed],
                 mine_at: Callable[[Hex], Point], relabel: Callable[[Hex], None]) -> None:
    """Lines, flashes, rings, small explosions and arrows over the pieces; `mine_at` says where a
    cell's mine is drawn (or was), `relabel` writes a cell's coordinates again (over a turn's arc,
    or an arrow leaving the arena)."""
    unit = layout.hex_size
    draw = canvas.draw
    _draw_moves(draw, layout, [mark for mark in placed if mark.kind == MOVE], relabel)
    for mark in placed:
        centre = layout.hex_centre(mark.cells[0])
        if mark.kind == MINE_LAID:
            dashed_ring(draw, mine_at(mark.cells[0]), 0.3 * unit)
        elif mark.kind == BURST and not mark.ship:  # beside the ship that flew into it
            draw_blast(draw, mine_at(mark.cells[0]), 0.34 * unit)
        elif mark.kind == CLASH:
            _draw_clash(draw, layout, mark)
        elif mark.kind == MISSILE:
            _draw_flight(draw, layout, mark)
        elif mark.kind == LEFT_ARENA:
            out = s.polar(centre, mark.angles[0], 1.35 * unit)
            m.arrow(draw, m.towards(centre, out, 0.55 * layout.ship_radius), out, unit, True)
            relabel(mark.cells[0])
    turns = [mark for mark in placed if mark.kind == TURN]
    radius = turn_radius(layout)
    for mark in turns:
        m.arc_arrow(draw, layout.hex_centre(mark.cells[0]), radius, mark.angles[0], mark.sweep, unit, head=False)
    for mark in turns:  # the arc crosses its cell's coordinates: written again, then the head on top
        relabel(mark.cells[0])
        m.arc_head(draw, layout.hex_centre(mark.cells[0]), radius, mark.angles[0], mark.sweep, unit)


def _draw_moves(draw: Any, layout: BoardLayout, moves: Sequence[Placed], relabel: Callable[[Hex], None]) -> None:
    """Each move's arrow, first of the strokes (a flash or an impact on its end stays on top): from
    beside the centre of the cell left (what took it stays readable) through each step's cell to
    the edge of the ship where it ended (of its hull pips, on its east side); the coordinates of its cells written again over the
    shafts, then the heads on top."""
    unit = layout.hex_size
    paths = []
    for mark in moves:
        points = [layout.hex_centre(cell) for cell in mark.cells]
        points[0] = m.towards(points[0], points[1], 0.25 * unit)
        (x, y), (px, py) = points[-1], points[-2]
        from_east = px > x and abs(py - y) < 0.5 * unit  # a move west: its head stops short of the hull pips
        points[-1] = m.towards(points[-1], points[-2], (0.78 if from_east else 0.56) * unit)
        paths.append(points)
        m.path_arrow(draw, points, unit, head=False)
    for cell in sorted({cell for mark in moves for cell in mark.cells}):
        relabel(cell)
    for points in paths:
        m.path_head(draw, points, unit)


def turn_radius(layout: BoardLayout) -> float:
    """Where a turn's arc runs: clear of the ship's tip, inside its cell."""
    return layout.ship_radius + 0.28 * layout.hex_size


def _draw_clash(draw: Any, layout: BoardLayout, mark: Placed) -> None:
    """A flash on each ship's side towards the cell fought over (a ship on that cell, a rammed one:
    towards the others)."""
    fought = layout.hex_centre(mark.cells[0])
    ships = [layout.hex_centre(cell) for cell in mark.cells[1:]]
    for index, centre in enumerate(ships):
        aim = fought
        if math.dist(centre, fought) < 1:
            others = [point for k, point in enumerate(ships) if k != index] or [fought]
            aim = (sum(x for x, _ in others) / len(others), sum(y for _, y in others) / len(others))
        m.draw_impact(draw, m.towards(centre, aim, 0.6 * layout.hex_size), 0.28 * layout.hex_size)


def _draw_flight(draw: Any, layout: BoardLayout, mark: Placed) -> None:
    """A missile's dotted line along the (straight) cells it crossed, ending as its flight did."""
    unit = layout.hex_size
    first, last = layout.hex_centre(mark.cells[0]), layout.hex_centre(mark.cells[-1])
    behind = s.polar(last, mark.angles[0] + 180, unit)  # the way it came, even on a one-cell path
    start = m.towards(first, last, 0.45 * unit) if len(mark.cells) > 1 else s.polar(first, mark.angles[0], 0.45 * unit)
    if mark.end == "left_arena":
        out = s.polar(last, mark.angles[0], 1.2 * unit)
        m.arrow(draw, start, out, unit, True)
    elif mark.end == "flying":
        if len(mark.cells) > 1:
            m.arrow(draw, start, m.towards(last, behind, 0.42 * unit), unit, False)
    else:
        hit = m.towards(last, behind, 0.42 * unit if mark.end == "hit" else 0.2 * unit)
        if math.dist(start, hit) > 2:
            m.dotted(draw, start, hit, unit)
        m.draw_impact(draw, hit, 0.3 * unit)


def dashed_ring(draw: Any, centre: Point, radius: float) -> None:
    """A dashed circle in ink on a white halo: "here", round something small (a mine just laid)."""
    box = (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)
    for colour, width in ((m.HALO, 6), (m.INK, 3)):
        for k in range(8):
            draw.arc(box, 45 * k - 12, 45 * k + 16, fill=colour, width=width)


def shield_ring(draw: Any, centre: Point, radius: float) -> None:
    """A shield: a sky-blue ring edged in black round the ship."""
    for colour, grow, width in ((c.BLACK, 3, 8), (SHIELD_RING, 2, 5)):
        r = radius + grow
        draw.ellipse((centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r), outline=colour, width=width)
