"""What the HexArena pictures share: the ships' glyphs, the debris, the admiral's star, the words.

Each ship type has its own outline, so type never hangs on colour: the admiral a round pointer, the
fighter a sharp dart, the cargo a blunt box, the patrol (no facing, HA-3) a diamond. The faced ones
point where they face. The side shows twice: the hull's colour and a white mark on it (a disc for
blue, a square for red): filled at a faced ship's tail, a hollow ring round the patrol's centre. A yellow star beside a ship says "the admiral is here", whether it is the
admiral itself or a cargo carrying it (HA-6), since a carried admiral has no cell of its own.
Every glyph leaves its centre pixel in the side's colour.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from renders import common as c
from renders import hexboard as h

Point = h.Point

SIDES: tuple[str, ...] = ("red", "blue")  # HA-12: red moves first, its base is on the left (HA-2)
ADMIRAL, FIGHTER, CARGO, PATROL = "admiral", "fighter", "cargo", "patrol"
TYPES: tuple[str, ...] = (ADMIRAL, FIGHTER, CARGO, PATROL)
FACED: frozenset[str] = frozenset({ADMIRAL, FIGHTER, CARGO})  # HA-3
STAR: c.RGB = c.YELLOW
DEBRIS: c.RGB = c.OBSTACLE

#: the words drawn in the picture, every one given by the caller in the reader's language (the bot
#: reads them from its catalog: bot.games.hexarena.picture_labels); the render draws no word of its own
LABELS: tuple[str, ...] = (
    "turn", "to_move", "wins", "draw", "result_reason", "red", "blue", "variants", "debris_reserve", "graveyard", "key",
    *TYPES, "admiral_here", "debris", "base", "last_move", "blitz", "alpha", "omega",
    *(f"reason.{reason}" for reason in h.REASONS["hexarena"]),
)  # fmt: skip


def words(labels: Mapping[str, str]) -> dict[str, str]:
    """The picture's words; ValueError naming the ones missing, rather than drawing an identifier."""
    return h.check_labels(labels, LABELS)


def _shape(centre: Point, radius: float, ship_type: str, angle: float) -> list[Point]:
    """The hull outline of a type, turned to `angle` (ignored for the patrol)."""
    if ship_type == FIGHTER:
        return [
            h.polar(centre, angle, radius),
            h.polar(centre, angle + 140, radius),
            h.polar(centre, angle + 180, radius * 0.6),
            h.polar(centre, angle - 140, radius),
        ]
    if ship_type == CARGO:
        frame = ((0.95, 0.0), (0.45, 0.62), (-0.78, 0.62), (-0.78, -0.62), (0.45, -0.62))
        return [h.local(centre, angle, along * radius, across * radius) for along, across in frame]
    if ship_type == ADMIRAL:
        # a disc with a nose: the arc from 35° to 325° off the facing, then the tip
        points = [h.polar(centre, angle + offset, radius * 0.68) for offset in range(40, 321, 10)]
        return [*points, h.polar(centre, angle, radius)]
    x, y = centre  # patrol
    k = radius * 0.9
    return [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]


def draw_ship(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: float,
    ship_type: str,
    side: str,
    angle: float | None,
) -> None:
    """A ship's hull in its side's colour with the side's mark; `angle` None for the patrol (or a
    picture where the facing does not matter)."""
    heading = -90.0 if angle is None else angle
    draw.polygon(
        _shape(centre, radius, ship_type, heading),
        fill=h.SIDE_COLOURS[side],
        outline=c.BLACK,
        width=max(1, round(radius / 9)),
    )
    if ship_type == PATROL:
        _draw_patrol_mark(draw, centre, radius, side)
        return
    mark_at = h.polar(centre, heading + 180, 0.33 * radius)
    h.draw_side_mark(draw, mark_at, radius * 0.2, side, h.SIDE_INK[side])


def _draw_patrol_mark(draw: ImageDraw.ImageDraw, centre: Point, radius: float, side: str) -> None:
    """The patrol has no facing (HA-3), so its side's mark is a hollow ring round its centre, which
    points nowhere, where the faced ships wear a filled one at their tail."""
    x, y = centre
    r = radius * 0.34
    width = max(2, round(radius / 8))
    ink = h.SIDE_INK[side]
    if h.SIDE_SHAPES.get(side) == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=width)
    else:
        k = r * 0.85
        draw.rectangle((x - k, y - k, x + k, y + k), outline=ink, width=width)


def draw_ghost(
    draw: ImageDraw.ImageDraw, centre: Point, radius: float, ship_type: str, side: str, angle: float = -90.0
) -> None:
    """A ship that is no longer there as it was: its hull's outline in its side's colour, hollow, on
    a white halo (seen on the floor and on the debris that took its cell). A destroyed ship points
    as it stood (the view keeps its facing), up when that is not known; a turned one shows the
    heading it left."""
    points = _shape(centre, radius, ship_type, angle)
    loop = [*points, points[0]]
    width = max(2, round(radius / 7))
    draw.line(loop, fill=c.WHITE, width=width + 3, joint="curve")
    draw.line(loop, fill=h.SIDE_COLOURS[side], width=width, joint="curve")


def draw_star(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """The admiral's star: yellow with a black outline, seen on either side's colour and the floor."""
    points = [h.polar(centre, -90 + 36 * k, radius if k % 2 == 0 else radius * 0.45) for k in range(10)]
    draw.polygon(points, fill=STAR, outline=c.BLACK, width=1)


_SCRAP = (1.0, 0.55, 0.9, 0.4, 0.8, 0.6, 1.0, 0.45, 0.85, 0.5, 0.95, 0.4)


def draw_debris(draw: ImageDraw.ImageDraw, centre: Point, radius: float, ghost: bool = False) -> None:
    """A destroyed ship's wreck (HA-11): a jagged grey scrap, the same every time (deterministic);
    `ghost`, a recycled one where it lay: its outline only."""
    step = 360 / len(_SCRAP)
    points = [h.polar(centre, -80 + k * step, radius * f) for k, f in enumerate(_SCRAP)]
    if ghost:
        draw.line([*points, points[0]], fill=DEBRIS, width=max(2, round(radius / 7)), joint="curve")
        return
    draw.polygon(points, fill=DEBRIS, outline=c.BAR_BACK, width=max(1, round(radius / 10)))
    x, y = centre
    r = radius * 0.16
    draw.ellipse((x - r, y - r, x + r, y + r), fill=c.BAR_BACK)
