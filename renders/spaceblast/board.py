"""The SpaceBlast board image: the hexagonal arena (SB-1), ships, missiles, mines, asteroids, a legend.

It is drawn from the public view (scenarios.md) and the arena radius only, never from the engine's
state, so anything that has a view (a live game, a stored snapshot, each phase step of a replay)
can be pictured, and no order or power that the view hides can leak into an image (SB-20).

The image is always 1,080 px wide, the width a phone shows, and the hexes shrink as the radius
grows: that keeps every text at 12 px or more when the picture is seen full width. The grid, the
cell labels and the row letters never change during a game, so they are drawn once per radius and
copied, already in the fixed palette, for each render (a GIF frame then costs only its pieces).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from PIL import Image

from engine.core.hexgrid import Hex
from renders import common as c
from renders import hexmarks as hm
from renders.spaceblast import marks as mk
from renders.spaceblast import style as s

WIDTH = 1080
MARGIN = 34  # left and right of the widest row: room for its row letters
HEADER_H = 76  # title line, then a caption line (the GIF's phase steps)
BOARD_PAD = 10
LEGEND_ROW_H = 52
KEY_H = 44
BOTTOM_PAD = 10
STORY_SIZE = 16  # the replay's lines: what each phase did
STORY_ROW_H = 24
STORY_TEXT_X = MARGIN + 30  # right of the ship glyph that starts a ship's line
SQRT3 = math.sqrt(3)

_SLOTS = ((-0.58, -0.17), (-0.58, 0.25), (0.58, -0.17), (0.58, 0.25))  # small items beside a ship
_HEX_CORNERS = tuple(math.radians(-90 + 60 * k) for k in range(6))  # pointy top


@dataclass(frozen=True)
class BoardLayout:
    """Where things go in the image: row A at the top, cell 1 at the left of its row (SB-1)."""

    radius: int
    ships: int = 6  # the legend lists this many ships, two per line
    story_rows: int = 0  # text rows under the arena telling a replay's phase (none on a plain board)

    @cached_property
    def hex_size(self) -> float:
        """Centre-to-corner distance: the widest row (2R+1 cells) fills the width between margins."""
        return (WIDTH - 2 * MARGIN) / (2 * self.radius + 1) / SQRT3

    @property
    def board_top(self) -> int:
        return HEADER_H + BOARD_PAD

    @cached_property
    def board_bottom(self) -> int:
        return self.board_top + math.ceil((3 * self.radius + 2) * self.hex_size)

    @property
    def story_top(self) -> int:
        return self.board_bottom + BOARD_PAD

    @property
    def legend_top(self) -> int:
        return self.story_top + self.story_rows * STORY_ROW_H + 6

    @property
    def legend_rows(self) -> int:
        return max(1, (self.ships + 1) // 2)

    @property
    def size(self) -> tuple[int, int]:
        return WIDTH, self.legend_top + self.legend_rows * LEGEND_ROW_H + KEY_H + BOTTOM_PAD

    @cached_property
    def label_size(self) -> int:
        """Cell labels: as large as the hex allows up to 16 px, never under 12."""
        return min(16, max(12, round(self.hex_size * 0.34)))

    @cached_property
    def ship_radius(self) -> float:
        """As big as fits between the cell label above and the tag below whatever the heading (a
        tip points at most 60° up or down, reaching sin 60° of the radius)."""
        room = 0.57 * self.hex_size - self.label_size / 2
        return min(0.47 * self.hex_size, room / math.sin(math.radians(60)))

    def hex_centre(self, cell: Hex) -> tuple[float, float]:
        size = self.hex_size
        x = WIDTH / 2 + SQRT3 * size * (cell.q + cell.r / 2)
        y = (self.board_top + self.board_bottom) / 2 + 1.5 * size * cell.r
        return x, y

    def centre(self, cell: str) -> tuple[int, int]:
        """The pixel at the middle of `cell` ("G7"); a ship there paints it in its colour."""
        x, y = self.hex_centre(s.parse_cell(cell, self.radius, "cell"))
        return round(x), round(y)

    def hex_polygon(self, cell: Hex, inset: float = 0.0) -> list[tuple[float, float]]:
        x, y = self.hex_centre(cell)
        r = self.hex_size - inset
        return [(x + r * math.cos(a), y + r * math.sin(a)) for a in _HEX_CORNERS]


def layout_for(radius: int, ships: int = 6, story_rows: int = 0) -> BoardLayout:
    """The layout of a radius-`radius` arena; ValueError outside SB-1's 4..9."""
    s.arena(radius)
    return BoardLayout(radius, ships, story_rows)


# -- the static part -------------------------------------------------------------------------------
def _draw_cell(canvas: c.Canvas, layout: BoardLayout, cell: Hex, fill: c.RGB, outline: c.RGB) -> None:
    canvas.draw.polygon(layout.hex_polygon(cell), fill=fill, outline=outline, width=2)
    x, y = layout.hex_centre(cell)
    label = s.arena(layout.radius).format(cell)
    canvas.text((round(x), round(y - 0.57 * layout.hex_size)), label, layout.label_size, c.MUTED, anchor="mm")


@lru_cache(maxsize=6)
def _background(radius: int) -> Image.Image:
    """Header band, grid, cell labels and row letters, in the palette; cached per radius."""
    layout = BoardLayout(radius, 0)
    canvas = c.Canvas(Image.new("RGB", (WIDTH, layout.board_bottom + BOARD_PAD), c.PAPER))
    board = s.arena(radius)
    for cell in board:
        _draw_cell(canvas, layout, cell, c.FLOOR, c.GRID_STRONG)
    letter_size = 16 if radius <= 7 else 14
    half = layout.hex_size * SQRT3 / 2
    for row in board.rows:
        letter = board.format(row[0])[0]
        for end, side in ((row[0], -1), (row[-1], 1)):
            x, y = layout.hex_centre(end)
            canvas.text((round(x + side * (half + 15)), round(y)), letter, letter_size, c.INK, anchor="mm")
    return c.to_palette(canvas.image)


def _blank(layout: BoardLayout) -> Image.Image:
    background = _background(layout.radius)
    paper = background.getpixel((0, 0))
    image = Image.new("P", layout.size, paper)
    image.putpalette(background.getpalette() or [])
    image.paste(background, (0, 0))
    return image


# -- reading the view ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Item:
    """One thing drawn in a cell; `order` puts ships first, then the mine, then missiles."""

    order: int
    kind: str  # ship | mine | missile
    owner: str
    angle: float = 0.0
    active: bool = False


def _style(styles: Mapping[str, s.ShipStyle], owner: Any) -> tuple[c.RGB, s.ShipStyle | None]:
    """An owner's colour; a missile or mine of a ship missing from the view is drawn grey."""
    found = styles.get(str(owner))
    return (found.colour, found) if found else (s.GONE, None)


def _contents(view: Mapping[str, Any], radius: int) -> tuple[dict[Hex, list[_Item]], list[Hex]]:
    """Everything to draw, by cell, checked against the arena before anything is drawn.

    Missiles and mines are sets in the view: they are sorted here, so the same set in another order
    gives the same picture.
    """
    cells: dict[Hex, list[_Item]] = {}
    for ship_id, ship in view.get("ships", {}).items():
        if s.on_board(ship):
            where = f"ships.{ship_id}"
            cell = s.parse_cell(ship["at"], radius, where)
            angle = s.parse_facing(ship.get("facing"), where)
            cells.setdefault(cell, []).append(_Item(0, "ship", str(ship_id), angle))
    for mine in view.get("mines", ()):
        cell = s.parse_cell(mine.get("at"), radius, "mines")
        cells.setdefault(cell, []).append(
            _Item(1, "mine", str(mine.get("owner")), active=bool(mine.get("active")))
        )
    for missile in view.get("missiles", ()):
        cell = s.parse_cell(missile.get("at"), radius, "missiles")
        angle = s.parse_facing(missile.get("facing"), "missiles")
        cells.setdefault(cell, []).append(_Item(2, "missile", str(missile.get("owner")), angle))
    for items in cells.values():
        items.sort(key=lambda item: (item.order, item.owner, item.angle, item.active))
    asteroids = sorted({s.parse_cell(text, radius, "asteroids") for text in view.get("asteroids", ())})
    return cells, asteroids


# -- drawing pieces ------------------------------------------------------------------------------------
def _draw_piece(
    canvas: c.Canvas,
    layout: BoardLayout,
    item: _Item,
    centre: tuple[float, float],
    small: bool,
    styles: Mapping[str, s.ShipStyle],
    ship: Mapping[str, Any] | None,
) -> None:
    size = layout.hex_size
    colour, found = _style(styles, item.owner)
    if item.kind == "mine":
        s.draw_mine(canvas.draw, centre, size * (0.12 if small else 0.22), colour, item.active)
    elif item.kind == "missile":
        s.draw_missile(canvas.draw, centre, size * (0.4 if small else 0.72), item.angle, colour)
    elif found is not None and ship is not None:
        x, y = centre
        s.draw_numbered_ship(canvas, centre, layout.ship_radius, item.angle, found)
        pip = max(5, round(size * 0.13))
        gap = 2 if pip < 8 else 3
        column = 4 * pip + 3 * gap
        s.draw_pips(
            canvas.draw,
            (x + size * 0.56, y - column / 2),
            s.token_count(ship, "hits"),
            pip,
            gap,
            vertical=True,
        )
        canvas.text((round(x), round(y + 0.58 * size)), found.tag, layout.label_size, c.INK, anchor="mm")


def _item_points(layout: BoardLayout, cell: Hex, items: Sequence[_Item]) -> list[tuple[float, float]]:
    """Where each item of a cell is drawn: the first in the middle, the others in the side slots."""
    if not items:
        return []
    x, y = layout.hex_centre(cell)
    size = layout.hex_size
    return [(x, y)] + [(x + dx * size, y + dy * size)
                       for dx, dy in (_SLOTS[index % len(_SLOTS)] for index in range(len(items) - 1))]


def _draw_cell_items(
    canvas: c.Canvas,
    layout: BoardLayout,
    cell: Hex,
    items: list[_Item],
    styles: Mapping[str, s.ShipStyle],
    ships: Mapping[str, Any],
) -> None:
    """The first item (a ship if any) big in the middle, the others small in the side slots."""
    points = _item_points(layout, cell, items)
    # drawn back to front: the side slots first, so that a ship's tag stays on top
    for item, point in zip(items[1:], points[1:], strict=True):
        _draw_piece(canvas, layout, item, point, True, styles, None)
    _draw_piece(canvas, layout, items[0], points[0], False, styles, ships.get(items[0].owner))


def _mine_point(layout: BoardLayout, contents: Mapping[Hex, list[_Item]]) -> Any:
    """Where a cell's mine is drawn; where the view has none there (it exploded), its first side
    slot, where a mine beside a ship would be."""

    def at(cell: Hex) -> tuple[float, float]:
        items = contents.get(cell, [])
        points = _item_points(layout, cell, items)
        found = next((point for item, point in zip(items, points, strict=True) if item.kind == "mine"), None)
        if found is not None:
            return found
        x, y = layout.hex_centre(cell)
        return x + _SLOTS[0][0] * layout.hex_size, y + _SLOTS[0][1] * layout.hex_size

    return at


def _relabel(canvas: c.Canvas, layout: BoardLayout, lit: set[Hex]) -> Any:
    """Writes a cell's coordinates again on a box of its colour, over a mark that ran under them."""

    def again(cell: Hex) -> None:
        x, y = layout.hex_centre(cell)
        label = s.arena(layout.radius).format(cell)
        half_w = c.font(layout.label_size).getlength(label) / 2 + 2
        half_h = layout.label_size / 2 + 1
        top = y - 0.57 * layout.hex_size
        canvas.draw.rectangle((x - half_w, top - half_h, x + half_w, top + half_h),
                              fill=c.AREA_TINT if cell in lit else c.FLOOR)
        canvas.text((round(x), round(top)), label, layout.label_size, c.MUTED, anchor="mm")

    return again


def _draw_header(
    canvas: c.Canvas, view: Mapping[str, Any], title: str, caption: str, labels: Mapping[str, str]
) -> None:
    turn = s.word(labels, "turn", turn=s.token_count(view, "turn"))
    turn_w = round(c.font(20).getlength(turn))
    canvas.text((WIDTH - MARGIN, 26), turn, 20, c.INK, anchor="rm")
    if title:
        canvas.text((MARGIN, 26), c.fit(title, 22, WIDTH - 2 * MARGIN - turn_w - 20), 22, c.INK, anchor="lm")
    winner = view.get("winner")
    result = ""
    if winner == "draw":
        result = s.word(labels, "draw")
    elif winner is not None:
        result = s.word(labels, "winner", name=c.printable(str(winner)))
    result = c.fit(result, 18, WIDTH // 2 - MARGIN) if result else ""
    if result:
        canvas.text((WIDTH - MARGIN, 58), result, 18, c.VERMILLION, anchor="rm")
    if caption:
        room = WIDTH - 2 * MARGIN - round(c.font(18).getlength(result)) - 20
        canvas.text((MARGIN, 58), c.fit(caption, 18, room), 18, c.INK, anchor="lm")


def _draw_legend(
    canvas: c.Canvas,
    layout: BoardLayout,
    view: Mapping[str, Any],
    styles: Mapping[str, s.ShipStyle],
    labels: Mapping[str, str],
    shown: Iterable[str] = (),
) -> None:
    """Who is who, two ships a line in seat order; ships gone stay listed in grey with their state;
    then the key (with the marks' entries `shown`)."""
    column_w = (WIDTH - 2 * MARGIN) // 2
    ships = view.get("ships", {})
    for ship_id, style in styles.items():
        ship = ships[ship_id]
        x = MARGIN + (style.seat % 2) * column_w
        y = layout.legend_top + (style.seat // 2) * LEGEND_ROW_H
        flying = s.on_board(ship)
        facing = s.ANGLES.get(str(ship.get("facing", "E")).upper(), 0.0)
        s.draw_numbered_ship(canvas, (x + 20, y + 24), 18, facing, style, None if flying else s.GONE)
        score = s.word(labels, "score", score=s.token_count(ship, "score"))
        canvas.text((x + column_w - 16, y + 13), score, 18, c.INK, anchor="rm")
        name_room = column_w - 60 - round(c.font(18).getlength(score)) - 24
        name = ship_id if style.tag == ship_id else f"{ship_id} ({style.tag})"
        canvas.text(
            (x + 46, y + 13), c.fit(name, 18, name_room), 18, c.INK if flying else c.MUTED, anchor="lm"
        )
        hits = s.token_count(ship, "hits")
        s.draw_pips(canvas.draw, (x + 46, y + 32), min(hits, s.HULL), 11, 3)
        count = s.hits_words(labels, hits)
        canvas.text((x + 106, y + 37), count, 14, c.INK, anchor="lm")
        state = s.status(ship_id, ship, view, labels)
        detail = state or s.where(labels, ship)
        detail_x = x + 106 + max(40, round(c.font(14).getlength(count)) + 12)
        canvas.text(
            (detail_x, y + 37),
            c.fit(detail, 14, x + column_w - 24 - detail_x),
            14,
            c.VERMILLION if state else c.MUTED,
            anchor="lm",
        )
    _draw_key(canvas, layout.legend_top + layout.legend_rows * LEGEND_ROW_H + 4, labels, shown)


def _draw_key(canvas: c.Canvas, top: int, labels: Mapping[str, str], shown: Iterable[str] = ()) -> None:
    """What the glyphs mean, on one line under the ships; then what the marks of a replay's frame
    mean, those `shown` on it (mk.KEYED: impact, explosion, shield)."""
    canvas.draw.line((MARGIN, top, WIDTH - MARGIN, top), fill=c.GRID)
    y = top + KEY_H // 2
    x = MARGIN + 4
    draw = canvas.draw
    entries = [
        ("missile", lambda at: s.draw_missile(draw, at, 26, 0, c.MUTED)),
        ("mine_active", lambda at: s.draw_mine(draw, at, 7, c.MUTED, True)),
        ("mine_inactive", lambda at: s.draw_mine(draw, at, 7, c.MUTED, False)),
        ("asteroid", lambda at: s.draw_rock(draw, at, 12)),
        ("hit_taken", lambda at: s.draw_pips(draw, (at[0] - 5, at[1] - 5), 1, 11, 0, total=1)),
    ]
    entries += [(key, lambda at, key=key: mk.draw_key_glyph(draw, key, at)) for key in mk.KEYED if key in set(shown)]
    for key, glyph in entries:
        glyph((x + 13, y))
        text = c.fit(s.word(labels, key), 14, 150)
        canvas.text((x + 32, y), text, 14, c.INK, anchor="lm")
        x += 32 + round(c.font(14).getlength(text)) + 26


def _draw_story(
    canvas: c.Canvas, layout: BoardLayout, story: Sequence[Mapping[str, Any]], styles: Mapping[str, s.ShipStyle]
) -> None:
    """The phase told in words under the arena, one entry a line, wrapped and never cut; a ship's
    entry starts with its glyph, so a reader matches the words to the dart on the board."""
    y = layout.story_top
    for entry in story:
        ship = entry.get("ship")
        style = styles.get(str(ship)) if ship is not None else None
        if style is not None:
            s.draw_numbered_ship(canvas, (MARGIN + 11, y + STORY_ROW_H / 2), 10, 0.0, style)
        for row in story_lines(str(entry.get("text", ""))):
            canvas.text((STORY_TEXT_X, y + STORY_ROW_H // 2), row, STORY_SIZE, c.INK, anchor="lm")
            y += STORY_ROW_H


def story_lines(text: str) -> tuple[str, ...]:
    """One story entry's rows as drawn."""
    return c.wrap(text, STORY_SIZE, WIDTH - MARGIN - STORY_TEXT_X)


def story_rows(story: Sequence[Mapping[str, Any]]) -> int:
    """The rows a story takes: the frames of a replay are made as tall as their longest story."""
    return sum(len(story_lines(str(entry.get("text", "")))) for entry in story)


def _draw_highlight(canvas: c.Canvas, layout: BoardLayout, cells: Iterable[Hex]) -> None:
    for cell in cells:
        _draw_cell(canvas, layout, cell, c.AREA_TINT, c.VERMILLION)


# -- the public functions ----------------------------------------------------------------------------
def board_image(
    view: Mapping[str, Any],
    radius: int,
    *,
    labels: Mapping[str, str],
    title: str = "",
    caption: str = "",
    highlight: Iterable[str] = (),
    ships: int | None = None,
    story: Sequence[Mapping[str, Any]] = (),
    rows_at_least: int = 0,
    marks: Iterable[Mapping[str, Any]] = (),
    told: Iterable[str] = (),
) -> Image.Image:
    """The board as a palette image (what render_board encodes; the GIF's frames).

    `ships` makes the legend that many ships tall, and `rows_at_least` the story that many rows, so
    frames whose views list different ships or tell more still have the same size. `story` is what
    the phase did, as ``{"text", "ship"?}`` entries in the reader's words, and `marks` the same
    drawn where it happened (renders/spaceblast/marks.py; a replay's frames, and the still board's
    last turn), which `told` says in words under everything, each sentence wrapped whole.
    """
    rows = max(rows_at_least, story_rows(story))
    layout = layout_for(radius, max(ships or 0, len(view.get("ships", {}))), rows)
    words = s.words(labels)
    styles = s.ship_styles(view)
    marked = sorted({s.parse_cell(text, radius, "highlight") for text in highlight})
    contents, asteroids = _contents(view, radius)
    placed = mk.place(marks, radius)
    lines = hm.caption_lines(told, WIDTH - 2 * MARGIN)
    canvas = c.Canvas(hm.with_room_below(_blank(layout), hm.caption_height(lines)))
    _draw_highlight(canvas, layout, marked)
    relabel = _relabel(canvas, layout, set(marked))
    mk.draw_blasts(canvas, layout, placed, relabel)
    for cell in asteroids:
        x, y = layout.hex_centre(cell)
        s.draw_rock(canvas.draw, (x, y + 0.08 * layout.hex_size), 0.4 * layout.hex_size)
    mk.draw_ghosts(canvas, layout, placed, styles)
    mk.draw_shields(canvas, layout, placed)
    ship_views = {str(k): v for k, v in view.get("ships", {}).items()}
    for cell in sorted(contents):
        _draw_cell_items(canvas, layout, cell, contents[cell], styles, ship_views)
    mk.draw_strokes(canvas, layout, placed, _mine_point(layout, contents), relabel)
    _draw_header(canvas, view, c.printable(title), c.printable(caption), words)
    _draw_story(canvas, layout, story, styles)
    _draw_legend(canvas, layout, view, styles, words, mk.keyed(placed))
    hm.draw_caption(canvas, lines, layout.size[1], MARGIN)
    return canvas.image


def render_board(
    view: Mapping[str, Any],
    radius: int,
    *,
    labels: Mapping[str, str],
    title: str = "",
    highlight: Iterable[str] = (),
    marks: Iterable[Mapping[str, Any]] = (),
    told: Iterable[str] = (),
) -> bytes:
    """The board as PNG bytes; the same arguments always give the same bytes.

    `highlight` tints cells (say, where something happened this turn); `marks` draw what the last
    turn did (renders/spaceblast/marks.py) and `told` says it under the board, wrapped, never
    cut; `labels` are every word
    drawn (style.LABELS), in the reader's language: one missing raises ValueError, as does a cell
    or a facing in the view or in `highlight` that does not fit the arena (naming it), or a radius
    outside 4..9.
    """
    return c.encode_png(board_image(view, radius, title=title, highlight=highlight, labels=labels, marks=marks,
                                    told=told))
