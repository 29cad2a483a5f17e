"""The Space Chess board image: map, characters, pickups, the last action and the reach of a move.

It is drawn from the public view (plain JSON, scenarios.md) and a GameMap, not from the engine's
state classes, so the picture can be made from anything that has a view: a live game, a stored
snapshot, a replay step. The map part (grid, labels, obstacles, camps) never changes during a
game, so it is drawn once per map and copied for each render.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

from engine.core.squaregrid import Cell, format_cell, parse_cell
from engine.spacechess.maps import GameMap
from renders import common as c

CELL = 28  # pixel pitch of one square, grid line included: big enough for a 3-letter tag on a phone
RULE_W = 30  # row-number rulers left and right
TITLE_H = 34
RULER_H = 20  # column-letter rulers above and below
LEGEND_W = 250
LEGEND_ROW_H = 36
MARKER = 22  # diameter of a character's token


@dataclass(frozen=True)
class Overlay:
    """The last action, drawn on top of the board."""

    kind: str  # "move" | "shot" | "grenade" | "airstrike" | "none"
    path: tuple[str, ...] = ()  # cells of a move, in order
    line: tuple[str, str] | None = None  # shooter cell, target cell
    area: tuple[str, ...] = ()  # grenade square / air strike cells


@dataclass(frozen=True)
class BoardLayout:
    """Where things go in the image; row 1 is at the bottom, as team 1 sees a chess board."""

    columns: int
    rows: int

    @property
    def left(self) -> int:
        return RULE_W

    @property
    def top(self) -> int:
        return TITLE_H + RULER_H

    @property
    def board_right(self) -> int:
        return self.left + self.columns * CELL

    @property
    def board_bottom(self) -> int:
        return self.top + self.rows * CELL

    @property
    def size(self) -> tuple[int, int]:
        return self.board_right + RULE_W + LEGEND_W, self.board_bottom + RULER_H

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """The cell's inside, grid lines excluded (inclusive pixel bounds, as ImageDraw takes them)."""
        x0 = self.left + cell.x * CELL + 1
        y0 = self.top + (self.rows - 1 - cell.y) * CELL + 1
        return x0, y0, x0 + CELL - 2, y0 + CELL - 2

    def centre(self, cell: Cell) -> tuple[int, int]:
        x0, y0, x1, y1 = self.cell_box(cell)
        return (x0 + x1 + 1) // 2, (y0 + y1 + 1) // 2


def layout_for(game_map: GameMap) -> BoardLayout:
    return BoardLayout(game_map.width, game_map.height)


# -- the static part -------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _background(game_map: GameMap) -> Image.Image:
    """Map, camps, grid and rulers; cached per map (GameMap is a frozen, hashable value)."""
    layout = layout_for(game_map)
    canvas = c.Canvas(Image.new("RGB", layout.size, c.PAPER))
    canvas.draw.rectangle((layout.left, layout.top, layout.board_right, layout.board_bottom), fill=c.GRID)
    camps = {0: 1, 1: 1, game_map.height - 2: 2, game_map.height - 1: 2}  # SC-10 deployment rows
    for y in range(game_map.height):
        for x in range(game_map.width):
            cell = Cell(x, y)
            if cell in game_map.obstacles:
                fill = c.OBSTACLE
            else:
                fill = c.TEAM_TINT[camps[y]] if y in camps else c.FLOOR
            canvas.draw.rectangle(layout.cell_box(cell), fill=fill)
            if cell in game_map.pickup_spots:
                cx, cy = layout.centre(cell)
                canvas.draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=c.GRID_STRONG)
    # every fifth line a little darker, to count cells at a glance
    for x in range(0, game_map.width + 1, 5):
        px = layout.left + x * CELL
        canvas.draw.line((px, layout.top, px, layout.board_bottom), fill=c.GRID_STRONG)
    for y in range(0, game_map.height + 1, 5):
        py = layout.board_bottom - y * CELL
        canvas.draw.line((layout.left, py, layout.board_right, py), fill=c.GRID_STRONG)
    for x in range(game_map.width):
        cx = layout.left + x * CELL + CELL // 2
        letter = format_cell(Cell(x, 0))[0]
        canvas.text((cx, layout.top - RULER_H // 2), letter, 12, c.INK, anchor="mm")
        canvas.text((cx, layout.board_bottom + RULER_H // 2), letter, 12, c.INK, anchor="mm")
    for y in range(game_map.height):
        cy = layout.centre(Cell(0, y))[1]
        canvas.text((RULE_W // 2, cy), str(y + 1), 12, c.INK, anchor="mm")
        canvas.text((layout.board_right + RULE_W // 2, cy), str(y + 1), 12, c.INK, anchor="mm")
    return c.to_palette(canvas.image)  # renders then draw on the palette copy: no quantising per render


# -- reading the view ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Character:
    id: str
    tag: str
    team: int
    general: bool
    at: Cell | None
    hp: int
    max_hp: int
    ap: int


def short_tags(ids: list[str]) -> dict[str, str]:
    """Token tags: the shortest capitalised prefix (2 or 3 letters) that no other character shares.

    Ids still clashing on 3 letters get their first letter and a free number instead. The result
    does not depend on the order of `ids`, so a character keeps its tag from one image to the next.
    """
    ids = sorted(ids)
    tags: dict[str, str] = {}
    for length in (2, 3):
        candidates = {i: printable_tag(i, length) for i in ids if i not in tags}
        counts: dict[str, int] = {}
        for tag in [*candidates.values(), *tags.values()]:
            counts[tag] = counts.get(tag, 0) + 1
        tags.update({i: tag for i, tag in candidates.items() if counts[tag] == 1})
    number = 0
    for i in [i for i in ids if i not in tags]:
        tag = ""
        while not tag or tag in tags.values():
            number += 1
            tag = f"{printable_tag(i, 1)}{number}"
        tags[i] = tag
    return tags


def printable_tag(character_id: str, length: int) -> str:
    text = c.printable(character_id).strip() or "?"
    return text[:length].capitalize()


def _characters(view: Mapping[str, Any], game_map: GameMap) -> list[_Character]:
    entries = view.get("characters", {})
    ids = sorted(entries)
    tags = short_tags(ids)
    found = []
    for character_id in ids:
        data = entries[character_id]
        at = data.get("at")
        alive = bool(data.get("alive", True)) and at is not None
        found.append(
            _Character(
                id=character_id,
                tag=tags[character_id],
                team=int(data["team"]),
                general=data.get("role") == "general",
                at=_cell(at, game_map) if alive else None,
                hp=int(data.get("hp", 0)),
                max_hp=int(data.get("max_hp", 0)),
                ap=int(data.get("ap", 0)),
            )
        )
    return found


def _cell(text: str, game_map: GameMap) -> Cell:
    """A cell of the view; OrderError('bad_cell') names a cell that is not on this map."""
    return parse_cell(text, game_map.width, game_map.height)


# -- drawing pieces ----------------------------------------------------------------------------------
def _draw_token(canvas: c.Canvas, centre: tuple[int, int], who: _Character) -> None:
    """Team 1 round, team 2 square: the shape tells the teams apart even without colour."""
    cx, cy = centre
    r = MARKER // 2
    box = (cx - r, cy - r, cx + r, cy + r)
    width = 3 if who.general else 1
    if who.team == 1:
        canvas.draw.ellipse(box, fill=c.TEAM_COLOURS[1], outline=c.BLACK, width=width)
    else:
        canvas.draw.rectangle(box, fill=c.TEAM_COLOURS[2], outline=c.BLACK, width=width)
    size = 11 if len(who.tag) > 2 else 12
    canvas.text(centre, who.tag, size, c.TEAM_TEXT[who.team], anchor="mm")


def _draw_character(canvas: c.Canvas, layout: BoardLayout, who: _Character, at: Cell) -> None:
    x0, y0, x1, y1 = layout.cell_box(at)
    cx = (x0 + x1 + 1) // 2
    _draw_token(canvas, (cx, y0 + MARKER // 2), who)
    canvas.bar((x0 + 1, y1 - 3, x1 - 1, y1), who.hp, who.max_hp)


def _draw_pickup(canvas: c.Canvas, layout: BoardLayout, pickup: Mapping[str, Any], game_map: GameMap) -> None:
    cx, cy = layout.centre(_cell(pickup["at"], game_map))
    r = CELL // 2 - 2
    canvas.draw.polygon(
        ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), fill=c.YELLOW, outline=c.BLACK
    )
    canvas.text((cx, cy), _pickup_text(pickup), 10, c.BLACK, anchor="mm")


def _pickup_text(pickup: Mapping[str, Any]) -> str:
    """'+3' for an AP/HP pickup that carries an amount, else the kind's first two letters."""
    amount = pickup.get("amount")
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"+{amount}"
    return c.printable(str(pickup.get("kind", "?")))[:2].upper()


def _draw_reach(canvas: c.Canvas, layout: BoardLayout, reach: Mapping[str, int], game_map: GameMap) -> None:
    for text, cost in sorted(reach.items()):
        cell = _cell(text, game_map)
        canvas.draw.rectangle(layout.cell_box(cell), fill=c.REACH_TINT)
        canvas.text(layout.centre(cell), str(cost), 11, c.BLACK, anchor="mm")


def _centres(layout: BoardLayout, cells: tuple[str, ...], game_map: GameMap) -> list[tuple[int, int]]:
    return [layout.centre(_cell(text, game_map)) for text in cells]


def _tint_area(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    for text in overlay.area:
        canvas.draw.rectangle(layout.cell_box(_cell(text, game_map)), fill=c.AREA_TINT)


def _outline_area(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    for text in overlay.area:
        x0, y0, x1, y1 = layout.cell_box(_cell(text, game_map))
        canvas.draw.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=c.VERMILLION, width=3)


def _under_move(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    """The path goes under the tokens, so the mover's token sits on its end."""
    points = _centres(layout, overlay.path, game_map)
    if len(points) > 1:
        canvas.draw.line(points, fill=c.PURPLE, width=5, joint="curve")
    for x, y in points:
        canvas.draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=c.PURPLE)


def _over_shot(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    if overlay.line is None:
        raise ValueError("a shot overlay needs line=(shooter cell, target cell)")
    (sx, sy), (tx, ty) = _centres(layout, overlay.line, game_map)
    canvas.draw.line((sx, sy, tx, ty), fill=c.VERMILLION, width=3)
    r = MARKER // 2 + 2
    canvas.draw.ellipse((tx - r, ty - r, tx + r, ty + r), outline=c.VERMILLION, width=3)


def _over_airstrike(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    _outline_area(canvas, layout, overlay, game_map)
    points = _centres(layout, overlay.area, game_map)
    if len(points) > 1:
        canvas.draw.line((points[0], points[-1]), fill=c.VERMILLION, width=3)


_Painter = Callable[[c.Canvas, BoardLayout, Overlay, GameMap], None]


def _nothing(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    """Overlay parts that a kind does not have."""


#: For each overlay kind: what goes under the tokens and what goes over them.
_OVERLAYS: dict[str, tuple[_Painter, _Painter]] = {
    "none": (_nothing, _nothing),
    "move": (_under_move, _nothing),
    "shot": (_nothing, _over_shot),
    "grenade": (_tint_area, _outline_area),
    "airstrike": (_tint_area, _over_airstrike),
}


def _draw_legend(canvas: c.Canvas, layout: BoardLayout, characters: list[_Character]) -> None:
    """Who is who: team by team, general first; the dead stay listed, greyed and struck through."""
    x = layout.board_right + RULE_W + 8
    y = layout.top
    for team in (1, 2):
        members = sorted((w for w in characters if w.team == team), key=lambda w: (not w.general, w.id))
        if not members:
            continue
        canvas.draw.rectangle((x, y, x + LEGEND_W - 16, y + 5), fill=c.TEAM_COLOURS[team])
        y += 12
        for who in members:
            centre = (x + MARKER // 2 + 1, y + MARKER // 2 + 1)
            name = c.fit(who.id, 13, LEGEND_W - MARKER - 30)
            if who.at is None:
                canvas.text((x + MARKER + 8, y + 4), name, 13, c.MUTED)
                length = round(c.font(13).getlength(name))
                canvas.draw.line(
                    (x + MARKER + 8, y + 11, x + MARKER + 8 + length, y + 11), fill=c.MUTED, width=1
                )
            else:
                _draw_token(canvas, centre, who)
                canvas.text((x + MARKER + 8, y), name, 13, c.INK)
                bar_left = x + MARKER + 8
                canvas.bar((bar_left, y + 19, bar_left + 70, y + 25), who.hp, who.max_hp)
                canvas.text((bar_left + 76, y + 22), f"{who.hp}/{who.max_hp}", 11, c.INK, anchor="lm")
                _draw_ap_pips(canvas, (bar_left + 128, y + 18), who.ap)
            y += LEGEND_ROW_H
        y += 6


def _draw_ap_pips(canvas: c.Canvas, origin: tuple[int, int], ap: int) -> None:
    """AP as 9 small squares (SC-11 cap), filled up to the character's AP."""
    x, y = origin
    for pip in range(9):
        left = x + pip * 9
        fill = c.INK if pip < ap else None
        canvas.draw.rectangle((left, y, left + 6, y + 6), fill=fill, outline=c.INK)


def _legend_height(characters: list[_Character]) -> int:
    teams = {who.team for who in characters}
    return 18 * len(teams) + LEGEND_ROW_H * len(characters)


def _canvas(game_map: GameMap, characters: list[_Character]) -> Image.Image:
    """A copy of the map's background, made taller when the legend needs more room (small maps)."""
    background = _background(game_map)
    needed = layout_for(game_map).top + _legend_height(characters)
    if needed <= background.height:
        return background.copy()
    canvas = Image.new("P", (background.width, needed), background.getpixel((0, 0)))
    canvas.putpalette(background.getpalette() or [])
    canvas.paste(background, (0, 0))
    return canvas


# -- the public function -------------------------------------------------------------------------------
def render_board(
    view: Mapping[str, Any],
    game_map: GameMap,
    *,
    overlay: Overlay | None = None,
    reach: Mapping[str, int] | None = None,
    title: str = "",
) -> bytes:
    """The board as PNG bytes; the same arguments always give the same bytes.

    `reach` maps cells to the AP a move there costs (drawn as numbers on tinted cells). Cells
    that are not on the map raise OrderError('bad_cell'); an unknown overlay kind raises ValueError.
    """
    overlay = overlay or Overlay("none")
    if overlay.kind not in _OVERLAYS:
        raise ValueError(f"unknown overlay kind {overlay.kind!r}; expected one of {sorted(_OVERLAYS)}")
    under, over = _OVERLAYS[overlay.kind]
    layout = layout_for(game_map)
    characters = _characters(view, game_map)
    canvas = c.Canvas(_canvas(game_map, characters))
    if title:
        canvas.text(
            (RULE_W, TITLE_H // 2),
            c.fit(title, 18, layout.size[0] - 2 * RULE_W),
            18,
            c.INK,
            anchor="lm",
        )
    if reach:
        _draw_reach(canvas, layout, reach, game_map)
    under(canvas, layout, overlay, game_map)
    for pickup in view.get("pickups", ()):
        _draw_pickup(canvas, layout, pickup, game_map)
    for who in characters:
        if who.at is not None:
            _draw_character(canvas, layout, who, who.at)
    over(canvas, layout, overlay, game_map)
    _draw_legend(canvas, layout, characters)
    return c.encode_png(canvas.image)
