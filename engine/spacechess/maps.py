"""Space Chess boards: the plain-text map format (SC-34) and the standard map (SC-2).

A map file is drawn as the board looks from team 2's side: its first line is the highest row.
Parsing reports the first fault in file order with its line and column, because the person
fixing a hand-drawn map needs to know where to look, not just that something is wrong.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from engine.core.errors import SetupError
from engine.core.squaregrid import MAX_HEIGHT, MAX_WIDTH, Cell, in_bounds, open_steps

FLOOR = "."
OBSTACLE = "#"
PICKUP_SPOT = "+"
MIN_ROWS = 4


@dataclass(frozen=True)
class GameMap:
    name: str
    width: int
    height: int
    obstacles: frozenset[Cell]
    pickup_spots: frozenset[Cell]

    def in_bounds(self, cell: Cell) -> bool:
        return in_bounds(cell, self.width, self.height)

    def is_floor(self, cell: Cell) -> bool:
        """Pickup spots are floor: they only mark where the GM may drop pickups (SC-33)."""
        return self.in_bounds(cell) and cell not in self.obstacles


def _where(line: int, column: int) -> str:
    return f"line {line}, column {column}"


def _file_lines(text: str) -> list[str]:
    """Split into lines, forgiving one final newline and Windows line ends."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _check_chars(line: str, line_number: int, limit: int) -> None:
    for column, char in enumerate(line[:limit], start=1):
        if char not in (FLOOR, OBSTACLE, PICKUP_SPOT):
            raise SetupError("map_bad_char", _where(line_number, column), char=char)


def _check_layout(lines: list[str]) -> None:
    """Raise the first fault in reading order, so a fix never reveals an earlier one."""
    if not lines or lines[0] == "":
        raise SetupError("map_empty", _where(1, 1))
    width = len(lines[0])
    for index, line in enumerate(lines):
        line_number = index + 1
        if line_number > MAX_HEIGHT:
            raise SetupError("map_too_many_rows", _where(line_number, 1), maximum=MAX_HEIGHT)
        if index == 0:
            _check_chars(line, line_number, MAX_WIDTH)
            if width > MAX_WIDTH:
                raise SetupError(
                    "map_too_many_columns", _where(1, MAX_WIDTH + 1), maximum=MAX_WIDTH, got=width
                )
            continue
        _check_chars(line, line_number, width)
        if len(line) != width:
            raise SetupError(
                "map_ragged",
                _where(line_number, min(len(line), width) + 1),
                expected=width,
                got=len(line),
            )
    if len(lines) < MIN_ROWS:
        raise SetupError("map_too_few_rows", _where(len(lines) + 1, 1), minimum=MIN_ROWS, got=len(lines))


def parse_map(text: str, name: str = "custom") -> GameMap:
    """Read a map file (SC-34); raises SetupError locating the first fault as 'line L, column C' (a map
    without a single floor cell: no place)."""
    lines = _file_lines(text)
    _check_layout(lines)
    height = len(lines)
    obstacles = set()
    pickup_spots = set()
    for index, line in enumerate(lines):
        y = height - 1 - index
        for x, char in enumerate(line):
            if char == OBSTACLE:
                obstacles.add(Cell(x, y))
            elif char == PICKUP_SPOT:
                pickup_spots.add(Cell(x, y))
    if len(obstacles) == len(lines[0]) * height:  # nobody could ever stand on it (pickup spots are floor)
        raise SetupError("map_no_floor", "")
    return GameMap(name, len(lines[0]), height, frozenset(obstacles), frozenset(pickup_spots))


def format_map(game_map: GameMap) -> str:
    """The map file text, highest row first; parse_map reads it back to an equal map."""

    def char(cell: Cell) -> str:
        if cell in game_map.obstacles:
            return OBSTACLE
        return PICKUP_SPOT if cell in game_map.pickup_spots else FLOOR

    rows = (
        "".join(char(Cell(x, y)) for x in range(game_map.width)) for y in range(game_map.height - 1, -1, -1)
    )
    return "".join(row + "\n" for row in rows)


#: the packaged maps a game (or the bot's config) can name instead of giving a map's text
MAP_NAMES = ("standard",)


@cache
def standard_map() -> GameMap:
    """The default board (SC-2), read once from the packaged file."""
    text = (files("engine.spacechess") / "maps" / "standard.map").read_text(encoding="utf-8")
    return parse_map(text, name="standard")


def reachable_floor(game_map: GameMap, start: Cell) -> set[Cell]:
    """Floor cells a walker on an empty board reaches from `start` (SC-17 steps, no squeeze).

    It tells whether both camps can reach every floor cell (no sealed pockets on a board);
    a non-floor start reaches nothing.
    """
    if not game_map.is_floor(start):
        return set()

    def blocked(cell: Cell) -> bool:
        return not game_map.is_floor(cell)

    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for step in open_steps(cell, game_map.width, game_map.height, blocked):
            if step not in seen:
                seen.add(step)
                queue.append(step)
    return seen
