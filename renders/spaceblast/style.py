"""What the SpaceBlast pictures share: each seat's colour and marker, the glyphs, the words.

A ship keeps its look from one image to the next (board, sheet card, every frame of a replay)
because its style comes from its seat, the position of its id in ``view["ships"]``, which the view
keeps in seat order. Colour is never the only cue: each seat also has its own marker shape inside the
ship glyph, and the board prints a short tag under every ship. In the two-ships game (SB-15) a
player's two ships share its colour and tag, and carry their number (1, 2) in place of the marker
and after the tag ("An1", "An2").

Every colour used here is one of the fixed palette's named colours (renders/common.py), so drawing
on a palette canvas never adds palette entries and every frame of a GIF shares one palette.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from PIL import ImageDraw

from engine.core.errors import OrderError
from engine.core.hexgrid import Hex, HexBoard
from engine.spaceblast.material import POWERS
from renders import common as c
from renders.spacechess.board import short_tags

Point = tuple[float, float]

HULL = 4  # SB-4: 3 armour tokens + the ship itself
#: SB-4 starting material: the sheet draws this many token pips (more when a power gave some back).
TOKENS: dict[str, int] = {"turns": 10, "brakes": 2, "missiles": 8, "mines": 3}

#: Okabe-Ito hues, darkest first so that 2-3 player games get the most different ones. Yellow is left
#: out: on the light floor it has too little contrast for a small glyph.
SHIP_COLOURS: tuple[c.RGB, ...] = (c.BLUE, c.ORANGE, c.GREEN, c.VERMILLION, c.SKY, c.PURPLE)
#: The marker's colour on each hull colour: whichever of black and white contrasts more.
SHIP_INK: tuple[c.RGB, ...] = (c.WHITE, c.BLACK, c.BLACK, c.WHITE, c.BLACK, c.BLACK)
MARKERS: tuple[str, ...] = ("circle", "square", "diamond", "plus", "ring", "cross")
GONE: c.RGB = c.MUTED

#: Screen angle (degrees, y pointing down) of each SB-2 direction on a pointy-top grid.
ANGLES: dict[str, float] = {"E": 0.0, "NE": -60.0, "NW": -120.0, "W": 180.0, "SW": 120.0, "SE": 60.0}

#: the SB-2 directions a picture names (a ship's facing), each drawn as the reader writes it
DIRECTIONS: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
#: the words drawn in the pictures, every one given by the caller in the reader's language (the bot
#: reads them from its catalog: bot.games.spaceblast.words.picture_labels); the render draws no word
#: of its own. ``turn``, ``score``, ``winner``, ``where`` and ``hits_beyond`` are templates (``{turn}``,
#: ``{score}``, ``{name}``, ``{at}`` and ``{facing}``, ``{hull}`` and ``{extra}``); ``direction.<D>`` and ``power.<name>`` name a facing and a power.
LABELS: tuple[str, ...] = (
    "turn", "score", "score_key", "winner", "won", "draw", "gone", "left_arena", "crashed", "disqualified", "missile", "mine_active", "mine_inactive",
    "asteroid", "hit_taken", "hits_beyond", "where", "hull", "turns", "brakes", "missiles", "mines", "powers",
    "key_impact", "key_explosion", "key_shield",
    *(f"direction.{name}" for name in DIRECTIONS), *(f"power.{name}" for name in POWERS),
)  # fmt: skip


def words(labels: Mapping[str, str]) -> dict[str, str]:
    """The picture's words; ValueError naming the ones missing, rather than drawing an identifier."""
    missing = [key for key in LABELS if key not in labels]
    if missing:
        raise ValueError(f"labels: missing {', '.join(missing)}")
    return dict(labels)


def word(labels: Mapping[str, str], key: str, **values: Any) -> str:
    """A label, its ``{placeholders}`` filled from `values`; an identifier with no label (a power
    a newer engine deals) is drawn readable rather than lost."""
    text = labels.get(key, key.replace("_", " "))
    return text.format(**values) if values else text


def hits_words(labels: Mapping[str, str], hits: int) -> str:
    """A ship's hits against its hull ("3/4"); past the hull (SB-12: a doomed ship can still be hit
    before the damage phase, and each of those hits scores) the hull full and what came beyond it."""
    if hits <= HULL:
        return f"{hits}/{HULL}"
    return word(labels, "hits_beyond", hull=HULL, extra=hits - HULL)


def facing_words(labels: Mapping[str, str], facing: Any) -> str:
    """A direction as the reader writes it (``O`` for a French reader's west)."""
    return labels.get(f"direction.{str(facing).upper()}", str(facing))


def where(labels: Mapping[str, str], ship: Mapping[str, Any]) -> str:
    """A flying ship's cell and facing ("G7 facing NW", "G7 vers NO")."""
    return word(labels, "where", at=ship.get("at"), facing=facing_words(labels, ship.get("facing")))


@dataclass(frozen=True)
class ShipStyle:
    seat: int
    colour: c.RGB
    ink: c.RGB
    marker: str
    tag: str
    #: the ship's number among its player's ships (SB-15), "" for a ship that is its own player
    mark: str = ""


def ship_styles(view: Mapping[str, Any]) -> dict[str, ShipStyle]:
    """Each ship's look, by seat (see the module docstring); beyond 6 players colours repeat with
    another marker, so each (colour, marker) pair stays unique up to 36 players. A ship's colour,
    marker and tag are its player's: the ship itself, or in SB-15 the player of two."""
    ships = {str(ident): ship for ident, ship in view.get("ships", {}).items()}
    owners = {ident: str(ship.get("player", ident)) for ident, ship in ships.items()}
    players = list(dict.fromkeys(owners.values()))
    tags = short_tags(players)
    styles = {}
    for seat, (ship, owner) in enumerate(owners.items()):
        index = players.index(owner)
        hue = index % len(SHIP_COLOURS)
        mark = str(ships[ship].get("mark", "")) if "player" in ships[ship] else ""
        styles[ship] = ShipStyle(
            seat=seat,
            colour=SHIP_COLOURS[hue],
            ink=SHIP_INK[hue],
            marker=MARKERS[(index + index // len(SHIP_COLOURS)) % len(MARKERS)],
            tag=tags[owner] + mark,
            mark=mark,
        )
    return styles


def on_board(ship: Mapping[str, Any]) -> bool:
    """A ship is drawn while it has a cell and is not marked dead (a doomed ship still counts, SB-12)."""
    return ship.get("at") is not None and ship.get("alive", True) is not False


# -- reading cells and directions -----------------------------------------------------------------
@cache
def arena(radius: int) -> HexBoard:
    return HexBoard.hexagon(radius)


def parse_cell(text: Any, radius: int, where: str) -> Hex:
    """A cell of the view; ValueError naming the cell and where it was found, since a view that
    does not fit its arena is a caller's bug, not a player's typo."""
    try:
        return arena(radius).parse(str(text))
    except OrderError:
        raise ValueError(f"{where}: cell {text!r} is not on the radius-{radius} arena") from None


def parse_facing(text: Any, where: str) -> float:
    """The screen angle of a direction of the view; ValueError naming it when unknown."""
    angle = ANGLES.get(str(text).strip().upper())
    if angle is None:
        raise ValueError(f"{where}: facing {text!r} is not one of {', '.join(ANGLES)}")
    return angle


# -- glyphs ---------------------------------------------------------------------------------------
def polar(centre: Point, angle: float, distance: float) -> Point:
    rad = math.radians(angle)
    return centre[0] + distance * math.cos(rad), centre[1] + distance * math.sin(rad)


def ship_polygon(centre: Point, angle: float, radius: float) -> list[Point]:
    """A dart: tip towards `angle`, two rear corners and a notch between them, so the heading reads
    at a glance even on a 12-pixel glyph."""
    return [
        polar(centre, angle, radius),
        polar(centre, angle + 140, radius),
        polar(centre, angle + 180, radius * 0.45),
        polar(centre, angle - 140, radius),
    ]


def draw_ship(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    radius: float,
    angle: float,
    style: ShipStyle,
    colour: c.RGB | None = None,
) -> None:
    """The ship's dart in its colour (or `colour`, e.g. grey for the gone) with its seat marker
    (a numbered ship's number is drawn there instead, by `draw_numbered_ship`).

    The marker sits behind the glyph's centre, so the centre pixel itself keeps the hull colour.
    """
    fill = colour or style.colour
    draw.polygon(
        ship_polygon(centre, angle, radius), fill=fill, outline=c.BLACK, width=max(1, round(radius / 9))
    )
    if not style.mark:
        marker_at = polar(centre, angle + 180, radius * 0.3)
        draw_marker(draw, marker_at, radius * 0.2, style.marker, style.ink if colour is None else c.WHITE)


def draw_ghost_ship(draw: ImageDraw.ImageDraw, centre: Point, radius: float, angle: float, colour: c.RGB) -> None:
    """A ship no longer there, as it faced: its dart's outline only, in its colour on a white halo
    (read on the floor, on an explosion alike, and hollow enough to show the asteroid it hit)."""
    points = ship_polygon(centre, angle, radius)
    loop = [*points, points[0]]
    width = max(2, round(radius / 7))
    draw.line(loop, fill=c.WHITE, width=width + 2, joint="curve")
    draw.line(loop, fill=colour, width=width, joint="curve")


#: smallest number drawn on a ship glyph (SB-15): the board's texts are 12 px or more
MARK_SIZE_MIN = 12


def draw_numbered_ship(
    canvas: c.Canvas, centre: Point, radius: float, angle: float, style: ShipStyle, colour: c.RGB | None = None
) -> None:
    """`draw_ship`, then the ship's number (SB-15) on its rear half, far enough back that the
    centre pixel keeps the hull colour whatever the heading."""
    draw_ship(canvas.draw, centre, radius, angle, style, colour)
    if style.mark:
        x, y = polar(centre, angle + 180, radius * 0.42)
        size = max(MARK_SIZE_MIN, round(radius * 0.6))
        canvas.text((round(x), round(y)), style.mark, size, style.ink if colour is None else c.WHITE, anchor="mm")


def draw_marker(draw: ImageDraw.ImageDraw, centre: Point, size: float, marker: str, ink: c.RGB) -> None:
    """One of MARKERS, axis-aligned whatever the ship's heading so the shape is recognisable."""
    x, y = centre
    r = max(2.5, size)
    line = max(1, round(r / 2.5))
    box = (x - r, y - r, x + r, y + r)
    if marker == "circle":
        draw.ellipse(box, fill=ink)
    elif marker == "square":
        k = r * 0.85
        draw.rectangle((x - k, y - k, x + k, y + k), fill=ink)
    elif marker == "diamond":
        draw.polygon(((x, y - r * 1.2), (x + r * 1.2, y), (x, y + r * 1.2), (x - r * 1.2, y)), fill=ink)
    elif marker == "plus":
        draw.line((x - r, y, x + r, y), fill=ink, width=line + 1)
        draw.line((x, y - r, x, y + r), fill=ink, width=line + 1)
    elif marker == "ring":
        draw.ellipse(box, outline=ink, width=line)
    else:  # cross
        draw.line((x - r, y - r, x + r, y + r), fill=ink, width=line + 1)
        draw.line((x - r, y + r, x + r, y - r), fill=ink, width=line + 1)


def draw_missile(
    draw: ImageDraw.ImageDraw, centre: Point, length: float, angle: float, colour: c.RGB
) -> None:
    """An arrow along its flight direction, centred on `centre`, in its owner's colour."""
    half = length / 2
    shaft = max(1.5, length * 0.09)
    head = max(3.0, length * 0.24)
    head_base = half - length * 0.42

    def at(along: float, across: float) -> Point:
        tip = polar(centre, angle, along)
        return polar(tip, angle + 90, across)

    points = [
        at(-half, -shaft), at(head_base, -shaft), at(head_base, -head), at(half, 0),
        at(head_base, head), at(head_base, shaft), at(-half, shaft),
    ]  # fmt: skip
    draw.polygon(points, fill=colour, outline=c.BLACK, width=1)


def draw_mine(draw: ImageDraw.ImageDraw, centre: Point, radius: float, colour: c.RGB, active: bool) -> None:
    """A spiked ball: filled with its owner's colour when armed, hollow (a thick ring) when not."""
    x, y = centre
    spike = max(1, round(radius / 3.5))
    for k in range(8):
        end = polar(centre, 22.5 + 45 * k, radius * 1.5)
        draw.line((x, y, *end), fill=c.INK, width=spike)
    box = (x - radius, y - radius, x + radius, y + radius)
    if active:
        draw.ellipse(box, fill=colour, outline=c.BLACK, width=1)
    else:
        draw.ellipse(box, fill=c.BLACK)
        ring = max(2, round(radius / 2.6))
        inner = (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1)
        draw.ellipse(inner, fill=c.WHITE, outline=colour, width=ring)


_ROCK = (1.0, 0.78, 0.95, 0.72, 1.0, 0.86, 0.7, 0.96, 0.8)


def draw_rock(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """An asteroid: a fixed lumpy outline (deterministic) in the obstacle grey, with two craters."""
    step = 360 / len(_ROCK)
    points = [polar(centre, -90 + k * step, radius * f) for k, f in enumerate(_ROCK)]
    draw.polygon(points, fill=c.OBSTACLE, outline=c.BAR_BACK, width=max(1, round(radius / 10)))
    for dx, dy, r in ((-0.3, -0.2, 0.2), (0.32, 0.25, 0.14)):
        cx, cy = centre[0] + dx * radius, centre[1] + dy * radius
        draw.ellipse((cx - r * radius, cy - r * radius, cx + r * radius, cy + r * radius), fill=c.BAR_BACK)


def draw_pips(
    draw: ImageDraw.ImageDraw,
    origin: Point,
    hits: int,
    size: float,
    gap: float,
    vertical: bool = False,
    total: int = HULL,
) -> None:
    """Hull marks: `total` squares from `origin` (top-left), the first `hits` filled in vermillion."""
    for k in range(total):
        offset = k * (size + gap)
        x = origin[0] + (0 if vertical else offset)
        y = origin[1] + (offset if vertical else 0)
        fill = c.VERMILLION if k < hits else c.WHITE
        draw.rectangle((x, y, x + size - 1, y + size - 1), fill=fill, outline=c.INK, width=1)


def token_count(ship: Mapping[str, Any], key: str) -> int:
    value = ship.get(key, 0)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def status(ship_id: str, ship: Mapping[str, Any], view: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """The ship's state word: winner, disqualified, eliminated, or "" for a ship still flying."""
    if view.get("winner") == ship_id:
        return word(labels, "won")
    if ship.get("disqualified"):
        return word(labels, "disqualified")
    if not on_board(ship):
        return word(labels, _FATES.get(str(ship.get("fate")), "gone"))
    return ""


#: how a ship left play, where "eliminated" alone would not tell (SB-9 the edge, SB-16 an asteroid)
_FATES = {"left_arena": "left_arena", "asteroid": "crashed"}


def powers_text(powers: Sequence[str], labels: Mapping[str, str]) -> str:
    return ", ".join(labels.get(f"power.{p}", str(p).replace("_", " ")) for p in powers)
