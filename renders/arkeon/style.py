"""What the Arkeon pictures share: the pieces' glyphs, their attack marks, the words.

A piece is a token in its side's colour and shape (blue disc, red square: colour is never the only
cue), with its kind drawn in white on it and, for the aggressive kinds, a pointer out of the token
towards each cell it attacks (AK-4 one, AK-5 three). Every glyph leaves the token's centre pixel in
the side's colour, so a glance (or a test) at a cell's centre tells whose piece stands there.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from renders import common as c
from renders import hexboard as h

Point = h.Point

SIDES: tuple[str, ...] = ("blue", "red")  # AK-1: Blue's base is on the left (C2), Red's on the right (C6)
BASE = "base"
AGGRESSIVE: tuple[str, ...] = ("basic", "triple")  # AK-4, AK-5
ADVANCED: tuple[str, ...] = ("triple", "pacifier", "cw", "ccw", "repulsor")  # AK-3, in reserve order
KINDS: tuple[str, ...] = (BASE, "basic", *ADVANCED)

#: the words drawn in the picture, every one given by the caller in the reader's language (the bot
#: reads them from its catalog: bot.games.arkeon.picture_labels); the render draws no word of its own
LABELS: tuple[str, ...] = (
    "turn", "to_move", "wins", "draw", "result_reason", "blue", "red", "your_move", "reserve_basic", "advanced", "key",
    *KINDS, "last_move", *(f"reason.{reason}" for reason in h.REASONS["arkeon"]),
)  # fmt: skip


def words(labels: Mapping[str, str]) -> dict[str, str]:
    """The picture's words; ValueError naming the ones missing, rather than drawing an identifier."""
    return h.check_labels(labels, LABELS)


def attack_angles(kind: str, facing: float) -> tuple[float, ...]:
    """AK-4: the basic attacks the cell it points at; AK-5: the triple that one and the two 60° either
    side of it."""
    if kind == "triple":
        return (facing - 60.0, facing, facing + 60.0)
    return (facing,) if kind == "basic" else ()


def draw_piece(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    unit: float,
    side: str,
    kind: str,
    facing: float | None,
    muted: bool = False,
) -> None:
    """One piece sized by `unit` (the hex's centre-to-corner distance on the board).

    `facing` None draws an aggressive kind without its marks (the reserve in the legend); `muted`
    draws the piece hollow and grey (an advanced piece that may not be placed now, AK-14).
    """
    if kind == BASE:
        _draw_base(draw, centre, unit, side)
        return
    colour = h.SIDE_COLOURS[side]
    if facing is not None:
        for angle in attack_angles(kind, facing):
            _draw_attack_mark(draw, centre, unit, angle, colour)
    radius = 0.38 * unit
    if muted:
        x, y = centre
        box = (x - radius, y - radius, x + radius, y + radius)
        if h.SIDE_SHAPES[side] == "circle":
            draw.ellipse(box, fill=c.FLOOR, outline=c.MUTED, width=2)
        else:
            k = radius * 0.9
            draw.rectangle((x - k, y - k, x + k, y + k), fill=c.FLOOR, outline=c.MUTED, width=2)
        draw_kind(draw, centre, unit, kind, facing if facing is not None else 0.0, c.MUTED)
        return
    h.draw_side_token(draw, centre, radius, side, outline_width=max(1, round(unit / 25)))
    draw_kind(draw, centre, unit, kind, facing if facing is not None else 0.0, h.SIDE_INK[side])


def _draw_attack_mark(
    draw: ImageDraw.ImageDraw, centre: Point, unit: float, angle: float, colour: c.RGB
) -> None:
    """A pointer from under the token to near the attacked cell's side (drawn before the token, so it
    seems to come out of it)."""
    points = [
        h.local(centre, angle, 0.80 * unit, 0.0),
        h.local(centre, angle, 0.28 * unit, 0.17 * unit),
        h.local(centre, angle, 0.28 * unit, -0.17 * unit),
    ]
    draw.polygon(points, fill=colour, outline=c.BLACK, width=max(1, round(unit / 30)))


def draw_kind(
    draw: ImageDraw.ImageDraw, centre: Point, unit: float, kind: str, facing: float, ink: c.RGB
) -> None:
    """The kind's sign on the token; none for a basic, whose plain token is its sign."""
    line = max(2, round(unit * 0.06))
    x, y = centre
    if kind == "triple":
        # three dots towards the three attacked cells
        for angle in attack_angles(kind, facing):
            dx, dy = h.polar(centre, angle, 0.2 * unit)
            r = max(2.0, 0.065 * unit)
            draw.ellipse((dx - r, dy - r, dx + r, dy + r), fill=ink)
    elif kind == "pacifier":
        r = 0.2 * unit
        draw.ellipse((x - r, y - r, x + r, y + r), outline=ink, width=line)
    elif kind in ("cw", "ccw"):
        _draw_rotation(draw, centre, unit, kind == "cw", ink, line)
    elif kind == "repulsor":
        # AK-8: it pushes along its six axes
        for direction_angle in h.ANGLES.values():
            start = h.polar(centre, direction_angle, 0.1 * unit)
            end = h.polar(centre, direction_angle, 0.27 * unit)
            draw.line((*start, *end), fill=ink, width=line)


def _draw_rotation(
    draw: ImageDraw.ImageDraw, centre: Point, unit: float, clockwise: bool, ink: c.RGB, line: int
) -> None:
    """Half a circle with a big arrowhead, the way the piece turns its neighbours (AK-7): clockwise
    on the token's right, from the top down to a head pointing left; counter-clockwise its mirror,
    on the left. Which half of the token holds the sign tells them apart at a glance, even small
    (the panel, the key) and in grey, where a full circle's arrowhead alone did not."""
    x, y = centre
    r = 0.22 * unit
    start, end = (-90.0, 60.0) if clockwise else (120.0, 270.0)  # screen angles run clockwise
    draw.arc((x - r, y - r, x + r, y + r), start, end, fill=ink, width=line)
    tip = h.polar(centre, 90.0, r - line / 2)  # at the bottom, pointing along the turn
    ahead = 180.0 if clockwise else 0.0
    head = 0.22 * unit
    base = h.polar(tip, ahead + 180, head * 0.75)
    draw.polygon([tip, h.polar(base, -90, head * 0.5), h.polar(base, 90, head * 0.5)], fill=ink)


def draw_ghost(draw: ImageDraw.ImageDraw, centre: Point, unit: float, side: str, kind: str) -> None:
    """A piece removed this move, where it stood: hollow, outlined and signed in its side's colour,
    on a white halo (a grey hollow piece is one that may not be placed, AK-14)."""
    colour = h.SIDE_COLOURS[side]
    x, y = centre
    width = max(2, round(unit / 18))
    if kind == BASE:
        points = [h.polar(centre, angle, 0.56 * unit) for angle in h.HEX_CORNERS]
        loop = [*points, points[0]]
    elif h.SIDE_SHAPES[side] == "circle":
        loop = [h.polar(centre, angle, 0.38 * unit) for angle in range(0, 361, 10)]
    else:
        k = 0.38 * unit * 0.9
        loop = [(x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k), (x - k, y - k)]
    draw.line(loop, fill=c.WHITE, width=width + 3, joint="curve")
    draw.line(loop, fill=colour, width=width, joint="curve")
    if kind != BASE:
        draw_kind(draw, centre, unit, kind, 0.0, colour)


def draw_old_facing(draw: ImageDraw.ImageDraw, centre: Point, unit: float, side: str, kind: str,
                    facing: float) -> None:
    """A turned piece's attack marks as they pointed before the turn: hollow, under the piece."""
    colour = h.SIDE_COLOURS[side]
    for angle in attack_angles(kind, facing):
        points = [
            h.local(centre, angle, 0.80 * unit, 0.0),
            h.local(centre, angle, 0.28 * unit, 0.17 * unit),
            h.local(centre, angle, 0.28 * unit, -0.17 * unit),
        ]
        draw.line([*points, points[0]], fill=colour, width=max(2, round(unit / 16)), joint="curve")


def _draw_base(draw: ImageDraw.ImageDraw, centre: Point, unit: float, side: str) -> None:
    """A big hexagon in the side's colour holding the side's shape as a white outline (AK-1)."""
    colour = h.SIDE_COLOURS[side]
    points = [h.polar(centre, angle, 0.56 * unit) for angle in h.HEX_CORNERS]
    draw.polygon(points, fill=colour, outline=c.BLACK, width=max(2, round(unit / 20)))
    x, y = centre
    line = max(2, round(unit * 0.07))
    r = 0.28 * unit
    if h.SIDE_SHAPES[side] == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), outline=c.WHITE, width=line)
    else:
        k = r * 0.85
        draw.rectangle((x - k, y - k, x + k, y + k), outline=c.WHITE, width=line)
    r2 = 0.12 * unit
    draw.ellipse((x - r2, y - r2, x + r2, y + r2), outline=c.WHITE, width=max(1, line // 2))
