"""The Space Chess board image: map, characters, pickups, the last action, and what it all means.

It is drawn from the public view (plain JSON, scenarios.md) and a GameMap, not from the engine's
state classes, so the picture can be made from anything that has a view: a live game, a stored
snapshot, a replay step. It is drawn in layers: what does not change from one order to the next
is drawn once and kept in small bounded caches, and each render pastes it and paints only the
rest. The map part (grid, rulers, obstacles, camps) is kept per map, header height and image
height; the map key per its lines (the things shown, in the reader's words: so per language);
each roster row and each token per what it shows (a move draws the mover's row again, not the
others; a token is pasted wherever it stands). The caption, the pickups, the overlay, the marks
and the effects are painted on each time. The layers change no pixel: `_CACHED_LAYERS` off draws
every part straight onto the board, as the tests' reference.

A posted board must make sense to someone opening the channel days later, so it carries its
context (`Caption`: the game, the turn, what just happened, what comes next, the winner) and a
legend of what is on the map. Every word comes in already translated (`Caption`, `labels`): the
renders know no catalog. Text is never smaller than `MIN_TEXT` px, and the standard map's image is
at most 990 px wide, so no text is under 12 px when a phone shows the post 1,080 px wide.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any

from PIL import Image

from engine.core.squaregrid import Cell, format_cell, parse_cell
from engine.spacechess.maps import GameMap
from renders import common as c
from renders import hexmarks as m
from renders.spacechess.sheet import DEFAULT_LABELS as SHEET_LABELS

CELL = 28  # pixel pitch of one square, grid line included: big enough for a 3-letter tag on a phone
RULE_W = 30  # row-number rulers left and right
TITLE_H = 34
LINE_H = 22  # one caption line under the title
BANNER_H = 38
NOTE_H = 30
RULER_H = 20  # column-letter rulers above and below
LEGEND_W = 250
#: the sidebar's margin, between the right ruler and its text (the key's symbols reach into it)
KEY_MARGIN = 8
LEGEND_ROW_H = 42
LEGEND_KEY_H = 22  # one line of the map key under the roster
MARKER = 22  # diameter of a character's token
MIN_TEXT = 11  # smallest font size drawn on a board (token tags, reach costs, pickups)
AP_BOX = 10  # side of one AP box in the roster
SIDEBAR_TEXT = 14
SIDEBAR_SMALL = 12

#: English words of the map key; the bot passes the reader's (`labels`), item names as the sheet's
LEGEND_LABELS: dict[str, str] = {
    "legend": "Map key",
    "obstacle": "obstacle",
    "pickup_spot": "pickup spot",
    "camp": "deployment rows of team {team}",
    "general": "thick border: general",
    "move": "path of the move",
    "shot": "line of fire",
    "blocked": "blocks the line",
    "area": "cells hit",
    "reach": "reachable, with its AP cost",
    "ap": "AP",
    "hp": "HP",
    "weapon_pickup": "weapon",
    "item_pickup": "item",
    "at": "{cell}: {what}",  # a key line about one cell ("F6: blocks the line")
    "mark_move": "move, from → to",
    "mark_push": "pushed or teleported by a power",
    "mark_shot": "shot at its target",
    "mark_ghost": "died here",
}


@dataclass(frozen=True)
class Overlay:
    """The last action, drawn on top of the board."""

    kind: str  # "move" | "shot" | "grenade" | "airstrike" | "none"
    path: tuple[str, ...] = ()  # cells of a move, in order
    line: tuple[str, str] | None = None  # shooter cell, target cell
    area: tuple[str, ...] = ()  # grenade square / air strike cells
    blocked_at: str | None = None  # a line of fire's first blocking cell (SC-22)


@dataclass(frozen=True)
class Caption:
    """What the post says around the board, every word already in the reader's language.

    `lines` (the turn, what just happened, what comes next) go under the title; `banner` (the
    winner) is a band in `banner_team`'s colour (grey for a draw); `note` is a call-out for a
    picture that would otherwise show nothing (a reach with no affordable step).
    """

    title: str = ""
    lines: tuple[str, ...] = ()
    banner: str = ""
    banner_team: int | None = None
    note: str = ""

    @property
    def height(self) -> int:
        return (TITLE_H + LINE_H * len(self.lines) + (BANNER_H if self.banner else 0)
                + (NOTE_H if self.note else 0))

    def wrapped(self, width: int) -> Caption:
        """The caption with each line wrapped to `width` pixels, whole: what happened in a batch
        (its last damage too) is never cut at the image's edge."""
        lines = tuple(row for line in self.lines for row in c.wrap(line, SIDEBAR_TEXT, width))
        return replace(self, lines=lines)


@dataclass(frozen=True)
class Effect:
    """Words the last action left on a cell, over its token: "+5 HP" healed, "-8 HP" taken."""

    cell: str
    text: str


@dataclass(frozen=True)
class BoardLayout:
    """Where things go in the image; row 1 is at the bottom, as team 1 sees a chess board."""

    columns: int
    rows: int
    header: int = TITLE_H

    @property
    def left(self) -> int:
        return RULE_W

    @property
    def top(self) -> int:
        return self.header + RULER_H

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


def layout_for(game_map: GameMap, header: int = TITLE_H) -> BoardLayout:
    return BoardLayout(game_map.width, game_map.height, header)


def camp_rows(game_map: GameMap) -> dict[int, int]:
    """SC-10 deployment rows: row index -> the team deploying there."""
    return {0: 1, 1: 1, game_map.height - 2: 2, game_map.height - 1: 2}


# -- the static part -------------------------------------------------------------------------------
#: paste the parts kept drawn (the key, roster rows, tokens); False draws them on the board itself,
#: the tests' reference
_CACHED_LAYERS = True


class _Kept:
    """Parts of boards kept drawn, by what they show (a bounded LRU, shared by the drawing threads).

    `draw`: a part over the sidebar's paper (a roster row, the key) is drawn straight onto the
    board the first time, then its box is cut out and kept. `stamp`: a part over whatever lies
    under it (a token) is drawn straight the first time too, and made a stamp with the mask of
    its pixels the second (a stamp costs three drawings: a board of a game seen once, as each of a
    draw's fan-out, pays nothing for it). Emptied by `recording_text()` (its `cache_clear`, as the
    `functools` caches), so recorded words are drawn again.

    A kept part is the board's own pixels, cut at the board's scale: only a plain `c.Canvas` (the
    board's) is served one or has one kept. Any other canvas (the close-up's `ZoomCanvas`, drawing
    the same painters larger) is painted straight, so it never gets a board-scale part nor leaves
    one of its own pixels for a board."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        #: a kept part, or None for a part seen once and not stamped yet
        self._parts: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def draw(self, canvas: c.Canvas, box: tuple[int, int, int, int], key: Hashable, paint: Callable[[], None]) -> None:
        """The part `key` into `box` (left, top, right, bottom, as `Image.crop` takes it): pasted
        if kept, else painted by `paint` and kept. The box holds nothing else over the paper."""
        if not _keeps(canvas):
            paint()
            return
        part = self._get(key)
        if part is not None:
            canvas.image.paste(part, box[:2])
            return
        paint()
        self._put(key, canvas.image.crop(box))

    def stamp(self, canvas: c.Canvas, origin: tuple[int, int], size: tuple[int, int], key: Hashable,
              paint: Callable[[c.Canvas, int, int], None]) -> None:
        """The part `key` at `origin`, `paint(canvas, x, y)` drawing it in a box of `size` from
        (x, y) and setting only its own pixels: pasted with its mask once stamped."""
        if not _keeps(canvas):
            paint(canvas, *origin)
            return
        with self._lock:
            seen = key in self._parts
        part = self._get(key) if seen else None
        if part is None and seen:
            part = _stamp(size, partial(paint, x=0, y=0))
            self._put(key, part)
        if part is None:
            paint(canvas, *origin)
            self._put(key, None)
            return
        canvas.image.paste(part[0], origin, part[1])

    def _get(self, key: Hashable) -> Any:
        with self._lock:
            part = self._parts.get(key)
            if key in self._parts:
                self._parts.move_to_end(key)
        return part

    def _put(self, key: Hashable, part: Any) -> None:
        with self._lock:
            self._parts[key] = part
            while len(self._parts) > self.maxsize:
                self._parts.popitem(last=False)

    def __len__(self) -> int:
        return len(self._parts)

    def cache_clear(self) -> None:
        with self._lock:
            self._parts.clear()


def _keeps(canvas: c.Canvas) -> bool:
    """Whether parts are kept for `canvas`: layers on, and the board's plain canvas (see `_Kept`)."""
    return _CACHED_LAYERS and type(canvas) is c.Canvas


#: the ground a stamp is painted on: a colour of the palette's cube that nothing on a board is
#: drawn in, nor is the nearest colour of any shade of what is (the named colours, their blends)
STAMP_GROUND: c.RGB = (255, 0, 255)


def _stamp(size: tuple[int, int], paint: Callable[..., None]) -> tuple[Image.Image, Image.Image]:
    """What `paint(canvas)` draws in a box of `size` and the mask of the pixels it set (those no
    longer `STAMP_GROUND`). Its text is shaded against what lies under its middle, so that must
    be something `paint` drew itself."""
    canvas = c.Canvas(c.drawable_copy(_ground(size)))
    paint(canvas)
    return canvas.image, Image.frombytes("L", size, canvas.image.tobytes().translate(_painted_table()))


@lru_cache(maxsize=8)
def _ground(size: tuple[int, int]) -> Image.Image:
    """A blank stamp in the palette, to copy."""
    return c.to_palette(Image.new("RGB", size, STAMP_GROUND))


@lru_cache(maxsize=1)
def _painted_table() -> bytes:
    """From a palette index to a stamp's mask (`bytes.translate`): 0 for the ground, else 255."""
    ground = _ground((1, 1)).getpixel((0, 0))
    return bytes(0 if index == ground else 255 for index in range(256))


@lru_cache(maxsize=16)
def _background(game_map: GameMap, header: int = TITLE_H) -> Image.Image:
    """Map, camps, grid and rulers; cached per map (GameMap is a frozen, hashable value) and header."""
    layout = layout_for(game_map, header)
    canvas = c.Canvas(Image.new("RGB", layout.size, c.PAPER))
    canvas.draw.rectangle((layout.left, layout.top, layout.board_right, layout.board_bottom), fill=c.GRID)
    camps = camp_rows(game_map)
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
    dead: bool = False  # not just off the board (not deployed yet, during preparation)


def short_tags(ids: list[str]) -> dict[str, str]:
    """Token tags: the shortest capitalised prefix (2 or 3 letters) that no other character shares.

    Ids still clashing on 3 letters get their first letter and the number they end with ("Sol2"
    is S2, as its name says), else a free number. The result does not depend on the order of
    `ids`, so a character keeps its tag from one image to the next.
    """
    return dict(_short_tags(tuple(sorted(ids))))


@lru_cache(maxsize=256)
def _short_tags(ids: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`short_tags` of sorted ids: the same ids on every board of a game, so their tags are kept
    (finding them was a quarter of a board's drawing)."""
    tags: dict[str, str] = {}
    for length in (2, 3):
        candidates = {i: printable_tag(i, length) for i in ids if i not in tags}
        counts: dict[str, int] = {}
        for tag in [*candidates.values(), *tags.values()]:
            counts[tag] = counts.get(tag, 0) + 1
        tags.update({i: tag for i, tag in candidates.items() if counts[tag] == 1})
    for i in [i for i in ids if i not in tags]:
        own = re.search(r"(\d+)$", c.printable(i).strip())
        if own and len(tag := f"{printable_tag(i, 1)}{int(own.group(1))}") <= 3 and tag not in tags.values():
            tags[i] = tag
    number = 0
    for i in [i for i in ids if i not in tags]:
        tag = ""
        while not tag or tag in tags.values():
            number += 1
            tag = f"{printable_tag(i, 1)}{number}"
        tags[i] = tag
    return tuple(tags.items())


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
                dead=not bool(data.get("alive", True)),
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
    size = MIN_TEXT if len(who.tag) > 2 else 12
    canvas.text(centre, who.tag, size, c.TEAM_TEXT[who.team], anchor="mm")


def _draw_character_at(canvas: c.Canvas, x: int, y: int, who: _Character) -> None:
    """The token at the top of the cell whose inside starts at (x, y), the HP bar at its bottom."""
    x0, y0, x1, y1 = x, y, x + CELL - 2, y + CELL - 2
    cx = (x0 + x1 + 1) // 2
    _draw_token(canvas, (cx, y0 + MARKER // 2), who)
    canvas.bar((x0 + 1, y1 - 3, x1 - 1, y1), who.hp, who.max_hp)


def _diamond(canvas: c.Canvas, centre: tuple[int, int], r: int) -> None:
    cx, cy = centre
    canvas.draw.polygon(((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)), fill=c.YELLOW, outline=c.BLACK)


def _draw_pickup(canvas: c.Canvas, layout: BoardLayout, pickup: Mapping[str, Any], game_map: GameMap,
                 labels: Mapping[str, str]) -> None:
    """An item or weapon as a diamond with its kind's letters; an AP or HP bonus as a yellow square
    saying both its amount and what it gives ("+3" over "PA"), so no one mistakes AP for HP."""
    cell = _cell(pickup["at"], game_map)
    centre = layout.centre(cell)
    unit = _amount_unit(pickup, labels)
    if unit is None:
        _diamond(canvas, centre, CELL // 2 - 1)
        canvas.text(centre, _pickup_text(pickup, labels), MIN_TEXT, c.BLACK, anchor="mm")
        return
    canvas.draw.rectangle(layout.cell_box(cell), fill=c.YELLOW, outline=c.BLACK)
    cx, cy = centre
    canvas.text((cx, cy - 6), f"+{pickup['amount']}", MIN_TEXT, c.BLACK, anchor="mm")
    canvas.text((cx, cy + 6), unit, MIN_TEXT, c.BLACK, anchor="mm")


def _amount_unit(pickup: Mapping[str, Any], labels: Mapping[str, str]) -> str | None:
    """What an AP/HP bonus gives in the reader's words ("PA"), None for any other pickup."""
    kind, amount = pickup.get("kind"), pickup.get("amount")
    if kind in ("ap", "hp") and isinstance(amount, int) and not isinstance(amount, bool):
        return c.fit(labels.get(str(kind), str(kind).upper()), MIN_TEXT, CELL - 2)
    return None


def _pickup_text(pickup: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """The first two letters of an item's or a weapon's kind in the reader's words (an item "OB"
    for « objet », a weapon "AR" for « arme »); the key says more."""
    kind = str(pickup.get("kind", "?"))
    return c.printable(labels.get(f"{kind}_pickup", kind))[:2].upper()


def _draw_reach(canvas: c.Canvas, layout: BoardLayout, reach: Mapping[str, int], game_map: GameMap) -> None:
    for text, cost in sorted(reach.items()):
        cell = _cell(text, game_map)
        canvas.draw.rectangle(layout.cell_box(cell), fill=c.REACH_TINT)
        canvas.text(layout.centre(cell), str(cost), MIN_TEXT, c.BLACK, anchor="mm")


def _centres(layout: BoardLayout, cells: tuple[str, ...], game_map: GameMap) -> list[tuple[int, int]]:
    return [layout.centre(_cell(text, game_map)) for text in cells]


def _tint_area(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    for text in overlay.area:
        canvas.draw.rectangle(layout.cell_box(_cell(text, game_map)), fill=c.AREA_TINT)


def _outline_cell(canvas: c.Canvas, layout: BoardLayout, cell: Cell) -> None:
    x0, y0, x1, y1 = layout.cell_box(cell)
    canvas.draw.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=c.VERMILLION, width=3)


def _outline_area(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    for text in overlay.area:
        _outline_cell(canvas, layout, _cell(text, game_map))


def _under_move(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    """The path goes under the tokens, so the mover's token sits on its end."""
    points = _centres(layout, overlay.path, game_map)
    if len(points) > 1:
        canvas.draw.line(points, fill=c.PURPLE, width=5, joint="curve")
    for x, y in points:
        canvas.draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=c.PURPLE)


def _shot_ends(overlay: Overlay, layout: BoardLayout, game_map: GameMap) -> tuple[tuple[int, int], tuple[int, int]]:
    if overlay.line is None:
        raise ValueError("a shot overlay needs line=(shooter cell, target cell)")
    start, end = _centres(layout, overlay.line, game_map)
    return start, end


def _under_shot(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    """The line goes under the tokens, so it never covers the shooter's or anyone's tag. A blocked
    line is bright up to its blocker and dimmed (dashed, grey) beyond it: the shot stops there."""
    start, end = _shot_ends(overlay, layout, game_map)
    if overlay.blocked_at is None:
        canvas.draw.line((start, end), fill=c.VERMILLION, width=3)
        return
    stop = layout.centre(_cell(overlay.blocked_at, game_map))
    canvas.draw.line((start, stop), fill=c.VERMILLION, width=3)
    _dashed(canvas, stop, end, c.MUTED)


def _dashed(canvas: c.Canvas, start: tuple[int, int], end: tuple[int, int], fill: c.RGB) -> None:
    (x0, y0), (x1, y1) = start, end
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    dash = 7
    steps = int(length // dash)
    for index in range(0, steps, 2):
        a, b = index * dash / length, min(1.0, (index + 1) * dash / length)
        canvas.draw.line((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b),
                         fill=fill, width=2)


def _over_shot(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    """The target ringed (grey when the line is blocked); the blocking cell outlined and crossed."""
    _, (tx, ty) = _shot_ends(overlay, layout, game_map)
    r = MARKER // 2 + 2
    ring = c.VERMILLION if overlay.blocked_at is None else c.MUTED
    canvas.draw.ellipse((tx - r, ty - r, tx + r, ty + r), outline=ring, width=3)
    if overlay.blocked_at is not None:
        cell = _cell(overlay.blocked_at, game_map)
        _outline_cell(canvas, layout, cell)
        x0, y0, x1, y1 = layout.cell_box(cell)
        canvas.draw.line((x0 + 4, y0 + 4, x1 - 4, y1 - 4), fill=c.VERMILLION, width=3)
        canvas.draw.line((x0 + 4, y1 - 4, x1 - 4, y0 + 4), fill=c.VERMILLION, width=3)


def _over_airstrike(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    _outline_area(canvas, layout, overlay, game_map)
    points = _centres(layout, overlay.area, game_map)
    if len(points) > 1:
        canvas.draw.line((points[0], points[-1]), fill=c.VERMILLION, width=3)


# -- the last action's marks (renders/hexmarks.py's strokes, on squares) ------------------------------
#: the mark kinds a Space Chess board draws: a move, a power's push or teleport, a shot, a death
MARK_KINDS = (m.MOVE, m.JUMP, m.PUSH, m.SHOT, m.GHOST)


def _check_marks(marks: Sequence[m.Mark], game_map: GameMap) -> None:
    """ValueError for a kind this board does not draw; OrderError('bad_cell') for a cell off the map."""
    for index, mark in enumerate(marks):
        if mark.kind not in MARK_KINDS or len(mark.cells) != (1 if mark.kind == m.GHOST else 2):
            raise ValueError(f"marks[{index}]: {mark.kind!r} with cells {list(mark.cells)} is not one of "
                             f"{', '.join(MARK_KINDS)} with its cells")
        for text in mark.cells:
            _cell(text, game_map)


def _draw_ghosts(canvas: c.Canvas, layout: BoardLayout, marks: Sequence[m.Mark], game_map: GameMap) -> None:
    """Who died, where they stood: a grey token crossed out, under whatever stands there now."""
    r = MARKER // 2
    for mark in marks:
        if mark.kind != m.GHOST:
            continue
        x0, y0, _, _ = layout.cell_box(_cell(mark.cells[0], game_map))
        cx, cy = x0 + CELL // 2 - 1, y0 + MARKER // 2
        canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=c.FLOOR, outline=c.MUTED, width=2)
        canvas.draw.line((cx - r + 4, cy - r + 4, cx + r - 4, cy + r - 4), fill=c.MUTED, width=3)
        canvas.draw.line((cx - r + 4, cy + r - 4, cx + r - 4, cy - r + 4), fill=c.MUTED, width=3)


def _token_point(layout: BoardLayout, cell: Cell) -> tuple[int, int]:
    """The centre of a token on `cell` (tokens sit at the top of their cell, over the HP bar)."""
    x0, y0, x1, _ = layout.cell_box(cell)
    return (x0 + x1 + 1) // 2, y0 + MARKER // 2


def _draw_marks(canvas: c.Canvas, layout: BoardLayout, marks: Sequence[m.Mark], game_map: GameMap) -> None:
    """Moves as solid arrows from the cell left to the cell reached, a power's push or teleport as a
    dashed one, shots as a tracer: haloed in white, under the tokens (no tag is hidden), the arrow's
    head out of the token it points at."""
    for mark in marks:
        if mark.kind == m.GHOST:
            continue
        a, b = (_token_point(layout, _cell(text, game_map)) for text in mark.cells)
        if mark.kind == m.SHOT:
            m.dotted(canvas.draw, a, m.towards(b, a, 0.45 * CELL), CELL)
        else:
            m.arrow(canvas.draw, a, m.towards(b, a, 0.6 * CELL), CELL, mark.kind != m.MOVE)


def _draw_impacts(canvas: c.Canvas, layout: BoardLayout, marks: Sequence[m.Mark], game_map: GameMap) -> None:
    """Each shot's impact on its target, over the token."""
    for mark in marks:
        if mark.kind == m.SHOT:
            a, b = (_token_point(layout, _cell(text, game_map)) for text in mark.cells)
            m.draw_impact(canvas.draw, m.towards(b, a, 0.45 * CELL), 0.22 * CELL)


def _draw_effects(canvas: c.Canvas, layout: BoardLayout, effects: Sequence[Effect], game_map: GameMap) -> None:
    """Each effect's words on a yellow tag on the top edge of its cell, above the token's tag (HP
    healed or lost, AP or HP picked up)."""
    face = c.font(MIN_TEXT)
    for effect in effects:
        x0, y0, x1, _ = layout.cell_box(_cell(effect.cell, game_map))
        cx = (x0 + x1 + 1) // 2
        half = round(face.getlength(effect.text)) // 2 + 3
        canvas.draw.rectangle((cx - half, y0 - 12, cx + half, y0 + 1), fill=c.YELLOW, outline=c.BLACK)
        canvas.text((cx, y0 - 5), effect.text, MIN_TEXT, c.BLACK, anchor="mm")


_Painter = Callable[[c.Canvas, BoardLayout, Overlay, GameMap], None]


def _nothing(canvas: c.Canvas, layout: BoardLayout, overlay: Overlay, game_map: GameMap) -> None:
    """Overlay parts that a kind does not have."""


#: For each overlay kind: what goes under the tokens and what goes over them.
_OVERLAYS: dict[str, tuple[_Painter, _Painter]] = {
    "none": (_nothing, _nothing),
    "move": (_under_move, _nothing),
    "shot": (_under_shot, _over_shot),
    "grenade": (_tint_area, _outline_area),
    "airstrike": (_tint_area, _over_airstrike),
}


# -- the sidebar: who is who, then the map key -------------------------------------------------------
def _draw_roster(canvas: c.Canvas, x: int, y: int, characters: list[_Character], kept: _Kept | None = None) -> int:
    """Team by team, general first; the dead stay listed, greyed and struck through; who is not on
    the board yet (preparation) is listed with its token and values, as the living. Returns the y
    under the last row. Each row is pasted from `kept` when given (the board's `_ROSTER_ROWS`), else
    drawn (the close-up's key, at its own scale)."""
    for team in (1, 2):
        members = sorted((w for w in characters if w.team == team), key=lambda w: (not w.general, w.id))
        if not members:
            continue
        canvas.draw.rectangle((x, y, x + LEGEND_W - 16, y + 5), fill=c.TEAM_COLOURS[team])
        y += 12
        for who in members:
            paint = partial(_draw_roster_row, canvas, x, y, who)
            if kept is None:
                paint()
            else:
                shown = (who.id, who.tag, who.team, who.general, who.hp, who.max_hp, who.ap, who.dead)  # not the cell
                kept.draw(canvas, (x, y, x + ROSTER_ROW_W, y + LEGEND_ROW_H), shown, paint)
            y += LEGEND_ROW_H
        y += 6
    return y


#: the width of a roster row, from the sidebar's left to the image's edge
ROSTER_ROW_W = LEGEND_W - KEY_MARGIN


def _draw_roster_row(canvas: c.Canvas, x: int, y: int, who: _Character) -> None:
    """One character's row, `LEGEND_ROW_H` high: its token, name, HP bar and AP boxes."""
    centre = (x + MARKER // 2 + 1, y + MARKER // 2 + 1)
    name = c.fit(who.id, SIDEBAR_TEXT, LEGEND_W - MARKER - 30)
    text_left = x + MARKER + 8
    if who.dead:
        canvas.text((text_left, y + 4), name, SIDEBAR_TEXT, c.MUTED)
        length = round(c.font(SIDEBAR_TEXT).getlength(name))
        canvas.draw.line((text_left, y + 12, text_left + length, y + 12), fill=c.MUTED, width=1)
    else:
        _draw_token(canvas, centre, who)
        canvas.text((text_left, y), name, SIDEBAR_TEXT, c.INK)
        canvas.bar((text_left, y + 22, text_left + 48, y + 30), who.hp, who.max_hp)
        canvas.text((text_left + 52, y + 26), f"{who.hp}/{who.max_hp}", SIDEBAR_SMALL, c.INK, anchor="lm")
        _draw_ap_boxes(canvas, (text_left + 98, y + 21), who.ap)


#: roster rows kept drawn, by what they show: a move draws only the mover's row again
_ROSTER_ROWS = _Kept(512)
#: tokens on the board kept as stamps
_TOKENS = _Kept(512)


def _draw_ap_boxes(canvas: c.Canvas, origin: tuple[int, int], ap: int) -> None:
    """AP as 9 boxes (SC-11 cap), filled up to the character's AP."""
    x, y = origin
    for box in range(9):
        left = x + box * (AP_BOX + 1)
        fill = c.INK if box < ap else None
        canvas.draw.rectangle((left, y, left + AP_BOX - 1, y + AP_BOX - 1), fill=fill, outline=c.INK)


def _pickup_words(pickup: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """'+2 AP', 'jet pack', 'weapon: sniper' in the reader's words."""
    kind = str(pickup.get("kind", ""))
    amount = pickup.get("amount")
    if kind in ("ap", "hp") and isinstance(amount, int):
        return f"+{amount} {labels.get(kind, kind.upper())}"
    name = pickup.get(kind) or pickup.get("item") or pickup.get("weapon")
    if name:
        return labels.get(str(name), str(name).replace("_", " "))
    return labels.get(f"{kind}_pickup", kind)


def _at(labels: Mapping[str, str], cell: str, what: str) -> str:
    """A key line about one cell, as the reader's language punctuates it ("F6 : bloque la ligne")."""
    return labels["at"].replace("{cell}", str(cell)).replace("{what}", what)


#: a key line's symbol, as a value (so that a key is a cache key): its shape and what it is drawn with
#: ("square", fill), ("stroke", fill, width), ("diamond",), ("spot",), ("blocked",) or ("mark", kind)
_Symbol = tuple[Any, ...]
#: a key line: its symbol, and its words
_KeyLine = tuple[_Symbol, str]


def _key_lines(view: Mapping[str, Any], game_map: GameMap, overlay: Overlay, reach: Mapping[str, int] | None,
               labels: Mapping[str, str], marks: Sequence[m.Mark] = ()) -> list[_KeyLine]:
    """The map key: only what this picture shows, so it stays short."""
    lines: list[_KeyLine] = []
    for pickup in sorted(view.get("pickups", ()), key=lambda p: str(p.get("at"))):
        text = _at(labels, pickup["at"], _pickup_words(pickup, labels))
        lines.append((("diamond",) if _amount_unit(pickup, labels) is None else ("square", c.YELLOW), text))
    if game_map.obstacles:
        lines.append((("square", c.OBSTACLE), labels["obstacle"]))
    if game_map.pickup_spots:
        lines.append((("spot",), labels["pickup_spot"]))
    for team in (1, 2):
        lines.append((("square", c.TEAM_TINT[team]), labels["camp"].replace("{team}", str(team))))
    if overlay.kind == "move":
        lines.append((("stroke", c.PURPLE, 5), labels["move"]))
    elif overlay.kind == "shot":
        lines.append((("stroke", c.VERMILLION, 3), labels["shot"]))
        if overlay.blocked_at is not None:
            lines.append((("blocked",), _at(labels, overlay.blocked_at, labels["blocked"])))
    elif overlay.kind in ("grenade", "airstrike"):
        lines.append((("square", c.AREA_TINT), labels["area"]))
    shown = {mark.kind for mark in marks}
    for kind, word in ((m.MOVE, "mark_move"), (m.JUMP, "mark_push"), (m.PUSH, "mark_push"), (m.SHOT, "mark_shot"),
                       (m.GHOST, "mark_ghost")):
        if kind in shown and not any(words == labels[word] for _, words in lines):
            lines.append((("mark", kind), labels[word]))
    if reach:
        lines.append((("square", c.REACH_TINT), labels["reach"]))
    return lines


def _draw_symbol(canvas: c.Canvas, symbol: _Symbol, xy: tuple[int, int]) -> None:
    """A key line's symbol centred on `xy`, drawn as the thing it stands for is on the board."""
    half = AP_BOX
    square = (xy[0] - half, xy[1] - half, xy[0] + half, xy[1] + half)
    shape = symbol[0]
    if shape == "square":
        canvas.draw.rectangle(square, fill=symbol[1], outline=c.GRID_STRONG)
    elif shape == "stroke":
        canvas.draw.line((xy[0] - half, xy[1], xy[0] + half, xy[1]), fill=symbol[1], width=symbol[2])
    elif shape == "diamond":
        _diamond(canvas, xy, half)
    elif shape == "spot":
        canvas.draw.ellipse((xy[0] - 3, xy[1] - 3, xy[0] + 3, xy[1] + 3), fill=c.GRID_STRONG)
    elif shape == "blocked":
        canvas.draw.rectangle(square, outline=c.VERMILLION, width=3)
    else:
        _draw_key_mark(canvas, symbol[1], xy)


def _draw_key_mark(canvas: c.Canvas, kind: str, xy: tuple[int, int]) -> None:
    """A mark's symbol in the key, drawn as on the board."""
    start, end = (xy[0] - AP_BOX - 2, xy[1]), (xy[0] + AP_BOX + 2, xy[1])
    if kind == m.SHOT:
        m.dotted(canvas.draw, start, m.towards(end, start, 5), CELL)
        m.draw_impact(canvas.draw, m.towards(end, start, 4), 6)
    elif kind == m.GHOST:
        canvas.draw.ellipse((xy[0] - 8, xy[1] - 8, xy[0] + 8, xy[1] + 8), fill=c.FLOOR, outline=c.MUTED, width=2)
        canvas.draw.line((xy[0] - 4, xy[1] - 4, xy[0] + 4, xy[1] + 4), fill=c.MUTED, width=3)
        canvas.draw.line((xy[0] - 4, xy[1] + 4, xy[0] + 4, xy[1] - 4), fill=c.MUTED, width=3)
    else:
        m.arrow(canvas.draw, start, end, CELL, kind != m.MOVE)


#: the width of a key line's words, right of its symbol
KEY_TEXT_W = LEGEND_W - 48
#: at most this many lines for one key line's words: a longer text is cut at the last one
KEY_WRAP = 2
#: the height of each further line of a wrapped key line
KEY_WRAP_H = 15


@lru_cache(maxsize=512)
def wrapped(words: str, size: int = SIDEBAR_SMALL, width: int = KEY_TEXT_W, most: int = KEY_WRAP) -> tuple[str, ...]:
    """A key line's words on as many lines as they need (at most `most`): the end of a line is what
    tells two lines apart ("deployment rows of team 1" / "… team 2"), so a last line still too long
    loses its beginning, never its end."""
    face = c.font(size)
    lines: list[str] = []
    current = ""
    for word in c.printable(words).split(" "):
        if not word:
            continue
        candidate = f"{current} {word}".strip()
        if current and face.getlength(candidate) > width and len(lines) < most - 1:
            lines.append(current)
            candidate = word
        current = candidate
    while current and face.getlength(current) > width:
        current = "…" + current.lstrip("…")[1:]
    return (*lines, current)


def _draw_key(canvas: c.Canvas, x: int, y: int, lines: Sequence[_KeyLine], legend: str) -> None:
    """The key's title (`legend`, in the reader's words) and its lines, from (x, y) down."""
    canvas.text((x, y), c.fit(legend, SIDEBAR_TEXT, LEGEND_W - 16), SIDEBAR_TEXT, c.INK)
    y += LEGEND_KEY_H + 2
    for symbol, words in lines:
        rows = wrapped(words)
        middle = y + (LEGEND_KEY_H + KEY_WRAP_H * (len(rows) - 1)) // 2
        _draw_symbol(canvas, symbol, (x + AP_BOX + 1, middle))
        for index, row in enumerate(rows):
            canvas.text((x + 2 * AP_BOX + 10, middle + KEY_WRAP_H * index - KEY_WRAP_H * (len(rows) - 1) // 2),
                        row, SIDEBAR_SMALL, c.INK, anchor="lm")
        y += _key_line_height(words)


def _key_line_height(words: str) -> int:
    return LEGEND_KEY_H + KEY_WRAP_H * (len(wrapped(words)) - 1)


def _roster_height(characters: list[_Character]) -> int:
    teams = {who.team for who in characters}
    return 18 * len(teams) + LEGEND_ROW_H * len(characters)


def _key_height(lines: Sequence[_KeyLine]) -> int:
    return 12 + LEGEND_KEY_H + 2 + sum(_key_line_height(words) for _, words in lines)


#: the key's margin above its title
KEY_TOP = 6


#: map keys kept drawn, by their lines (the things shown, in the reader's words: a French key is
#: never an English board's) and title
_KEYS = _Kept(64)


def _canvas(game_map: GameMap, header: int, needed: int) -> Image.Image:
    """A copy of the map's background, made taller when the sidebar needs more room (small maps,
    a long roster)."""
    return c.drawable_copy(_tall_background(game_map, header, max(needed, layout_for(game_map, header).size[1])))


@lru_cache(maxsize=16)
def _tall_background(game_map: GameMap, header: int, height: int) -> Image.Image:
    """The map's background at least `height` high: paper under it when the sidebar is taller."""
    background = _background(game_map, header)
    if height <= background.height:
        return background
    canvas = Image.new("P", (background.width, height), background.getpixel((0, 0)))
    canvas.putpalette(background.getpalette() or [])
    canvas.paste(background, (0, 0))
    return canvas


def _draw_caption(canvas: c.Canvas, caption: Caption, width: int) -> None:
    """Title, context lines, the winner's banner and the note, top to bottom."""
    text_width = width - 2 * RULE_W
    if caption.title:
        canvas.text((RULE_W, TITLE_H // 2), c.fit(caption.title, 18, text_width), 18, c.INK, anchor="lm")
    y = TITLE_H
    for line in caption.lines:  # already wrapped (Caption.wrapped): never cut
        canvas.text((RULE_W, y + LINE_H // 2 - 2), line, SIDEBAR_TEXT, c.INK, anchor="lm")
        y += LINE_H
    if caption.banner:
        fill = c.TEAM_COLOURS.get(caption.banner_team or 0, c.MUTED)
        ink = c.TEAM_TEXT.get(caption.banner_team or 0, c.WHITE)
        canvas.draw.rectangle((0, y + 2, width - 1, y + BANNER_H - 4), fill=fill)
        canvas.text((width // 2, y + BANNER_H // 2 - 1), c.fit(caption.banner, 20, text_width), 20, ink, anchor="mm")
        y += BANNER_H
    if caption.note:
        canvas.draw.rectangle((RULE_W, y + 2, width - RULE_W, y + NOTE_H - 3), fill=c.YELLOW, outline=c.BLACK)
        canvas.text((RULE_W + 8, y + NOTE_H // 2), c.fit(caption.note, SIDEBAR_TEXT, text_width - 16),
                    SIDEBAR_TEXT, c.BLACK, anchor="lm")


# -- the public functions ------------------------------------------------------------------------------
def board_image(
    view: Mapping[str, Any],
    game_map: GameMap,
    *,
    overlay: Overlay | None = None,
    reach: Mapping[str, int] | None = None,
    title: str = "",
    caption: Caption | None = None,
    labels: Mapping[str, str] | None = None,
    marks: Sequence[m.Mark] = (),
    effects: Sequence[Effect] = (),
) -> tuple[Image.Image, BoardLayout]:
    """The board drawn in the fixed palette, with the layout it was drawn on (for close-ups)."""
    overlay = overlay or Overlay("none")
    if overlay.kind not in _OVERLAYS:
        raise ValueError(f"unknown overlay kind {overlay.kind!r}; expected one of {sorted(_OVERLAYS)}")
    _check_marks(marks, game_map)
    for effect in effects:
        _cell(effect.cell, game_map)
    caption = (caption or Caption(title=title)).wrapped(layout_for(game_map).size[0] - 2 * RULE_W)
    words = {**SHEET_LABELS, **LEGEND_LABELS, **(labels or {})}
    under, over = _OVERLAYS[overlay.kind]
    layout = layout_for(game_map, caption.height)
    characters = _characters(view, game_map)
    key = _key_lines(view, game_map, overlay, reach, words, marks)
    sidebar = layout.top + _roster_height(characters) + _key_height(key)
    canvas = c.Canvas(_canvas(game_map, caption.height, sidebar))
    _draw_caption(canvas, caption, layout.size[0])
    if reach:
        _draw_reach(canvas, layout, reach, game_map)
    under(canvas, layout, overlay, game_map)
    _draw_ghosts(canvas, layout, marks, game_map)
    _draw_marks(canvas, layout, marks, game_map)
    for pickup in view.get("pickups", ()):
        _draw_pickup(canvas, layout, pickup, game_map, words)
    for who in characters:
        if who.at is None:
            continue
        x0, y0, _, _ = layout.cell_box(who.at)  # keyed by what a token shows: not its name, AP or cell
        _TOKENS.stamp(canvas, (x0, y0), (CELL - 1, CELL - 1), (who.tag, who.team, who.general, who.hp, who.max_hp),
                      partial(_draw_character_at, who=who))
    over(canvas, layout, overlay, game_map)
    _draw_impacts(canvas, layout, marks, game_map)
    _draw_effects(canvas, layout, effects, game_map)
    x = layout.board_right + RULE_W + KEY_MARGIN
    y = _draw_roster(canvas, x, layout.top, characters, _ROSTER_ROWS)
    _KEYS.draw(canvas, (x - KEY_MARGIN, y, x - KEY_MARGIN + LEGEND_W, y + _key_height(key)),
               (tuple(key), words["legend"]), partial(_draw_key, canvas, x, y + KEY_TOP, key, words["legend"]))
    return canvas.image, layout


def render_board(
    view: Mapping[str, Any],
    game_map: GameMap,
    *,
    overlay: Overlay | None = None,
    reach: Mapping[str, int] | None = None,
    title: str = "",
    caption: Caption | None = None,
    labels: Mapping[str, str] | None = None,
    marks: Sequence[m.Mark] = (),
    effects: Sequence[Effect] = (),
) -> bytes:
    """The board as PNG bytes; the same arguments always give the same bytes.

    `reach` maps cells to the AP a move there costs (drawn as numbers on tinted cells). `caption`
    (else just `title`) is what the post says above the board; `labels` word the map key (English
    by default). Cells that are not on the map raise OrderError('bad_cell'); an unknown overlay
    kind raises ValueError. `marks` draw the last action (moves, pushes and teleports, shots,
    deaths: renders/hexmarks.py's kinds) and `effects` its words on cells (HP healed or lost).
    """
    image, _ = board_image(view, game_map, overlay=overlay, reach=reach, title=title, caption=caption, labels=labels,
                           marks=marks, effects=effects)
    return c.encode_png(image)
