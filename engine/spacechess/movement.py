"""Movement: speed, the AP cost of a path, and the shortest legal path (SC-17, SC-18, SC-19).

The search is a breadth-first search, so the path found has the fewest cells; because the cost only
grows with the number of cells, the fewest cells is also the cheapest. The legal-move listing shares the search.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from engine.core.squaregrid import Cell
from engine.spacechess.maps import GameMap
from engine.spacechess.ruleset import Ruleset
from engine.spacechess.state import Character, GameState


def jetpack_usable(character: Character, rules: Ruleset) -> bool:
    """SC-18: heavy armour or a Grizzly bolter (per the ruleset's `jetpack` switches) ground it."""
    if not character.has("jetpack"):
        return False
    weapon_ok = character.weapon is None or rules.weapons[character.weapon].jetpack
    armour_ok = character.armour is None or rules.armours[character.armour].jetpack
    return weapon_ok and armour_ok


def speed(character: Character, rules: Ruleset) -> int:
    """SC-17: the sum of the speed modifiers (weapon, armour, +1 for a usable jet pack)."""
    total = 0
    if character.weapon is not None:
        total += rules.weapons[character.weapon].speed
    if character.armour is not None:
        total += rules.armours[character.armour].speed
    if jetpack_usable(character, rules):
        total += rules.item("jetpack", "speed")
    return total


def path_cost(cells: int, speed_total: int, vehicle: bool) -> int:
    """SC-17 `max(1, n - s)`; SC-19 with an active vehicle `max(1, ceil(n / 2) - s)`."""
    effective = -(-cells // 2) if vehicle else cells
    return max(1, effective - speed_total)


def move_cost(character: Character, rules: Ruleset, cells: int) -> int:
    return path_cost(cells, speed(character, rules), character.ability_used == "vehicle")


@cache
def _steps(game_map: GameMap) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell index (y * width + x): its 8-neighbour steps as (target, side_a, side_b).

    For a diagonal step, side_a and side_b are the two orthogonal cells it passes between (the
    SC-17 no-squeeze rule); for a straight step both are -1. Built once per map, so a search only
    does integer look-ups.
    """
    width, height = game_map.width, game_map.height
    table = []
    for y in range(height):
        for x in range(width):
            steps = []
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    nx, ny = x + dx, y + dy
                    if (dx or dy) and 0 <= nx < width and 0 <= ny < height:
                        sides = (ny * width + x, y * width + nx) if dx and dy else (-1, -1)
                        steps.append((ny * width + nx, *sides))
            table.append(tuple(steps))
    return tuple(table)


@cache
def _obstacle_flags(game_map: GameMap) -> bytes:
    flags = bytearray(game_map.width * game_map.height)
    for cell in game_map.obstacles:
        flags[cell.y * game_map.width + cell.x] = 1
    return bytes(flags)


class _Walk:
    """One mover's view of the board: what blocks its steps and where it may stop.

    Characters always block (SC-18: a jet pack never crosses them); obstacles block unless the
    jet pack works, and then only as a place to stop.
    """

    def __init__(self, state: GameState, mover: Character) -> None:
        assert mover.at is not None
        game_map = state.game_map
        self.width = game_map.width
        self.steps = _steps(game_map)
        self.obstacles = _obstacle_flags(game_map)
        self.occupied = frozenset(
            c.at.y * self.width + c.at.x for c in state.living() if c.id != mover.id and c.at is not None
        )
        flying = jetpack_usable(mover, state.rules)
        blocked = bytearray(len(self.obstacles)) if flying else bytearray(self.obstacles)
        for index in self.occupied:
            blocked[index] = 1
        self.blocked = bytes(blocked)
        self.start = mover.at.y * self.width + mover.at.x

    def index(self, cell: Cell) -> int:
        return cell.y * self.width + cell.x

    def cell(self, index: int) -> Cell:
        return Cell(index % self.width, index // self.width)

    def can_stop(self, index: int) -> bool:
        return not self.obstacles[index] and index not in self.occupied

    def distances(self, goal: int = -1) -> list[int]:
        """Breadth-first step counts from the start (-1: unreached); stops once `goal` is reached,
        when every cell nearer than the goal already has its final count."""
        blocked, steps = self.blocked, self.steps
        distances = [-1] * len(blocked)
        distances[self.start] = 0
        queue = deque([self.start])
        while queue:
            here = queue.popleft()
            further = distances[here] + 1
            for there, side_a, side_b in steps[here]:
                if (
                    distances[there] >= 0
                    or blocked[there]
                    or (side_a >= 0 and blocked[side_a] and blocked[side_b])
                ):
                    continue
                distances[there] = further
                if there == goal:
                    return distances
                queue.append(there)
        return distances

    def came_from(self, here: int, distances: list[int]) -> list[int]:
        """The cells one step nearer the start from which a legal step leads `here`."""
        blocked, wanted = self.blocked, distances[here] - 1
        return [
            there
            for there, side_a, side_b in self.steps[here]
            if distances[there] == wanted and not (side_a >= 0 and blocked[side_a] and blocked[side_b])
        ]


def shortest_path(state: GameState, mover: Character, goal: Cell) -> list[Cell] | None:
    """The cells entered on the way to `goal` (goal last), or None when it cannot be reached.

    Among the paths with the fewest cells, the one hugging the straight line is chosen (then the
    smallest cells), so the path shown to players looks like what they meant.
    """
    assert mover.at is not None
    if not state.game_map.in_bounds(goal):
        return None
    walk = _Walk(state, mover)
    target = walk.index(goal)
    if not walk.can_stop(target):
        return None
    distances = walk.distances(target)
    if distances[target] < 0:
        return None
    start = mover.at
    line_x, line_y = goal.x - start.x, goal.y - start.y

    def deviation(index: int) -> tuple[int, Cell]:
        cell = walk.cell(index)
        return abs(line_x * (cell.y - start.y) - line_y * (cell.x - start.x)), cell

    path = [target]
    while distances[path[-1]] > 1:
        path.append(min(walk.came_from(path[-1], distances), key=deviation))
    return [walk.cell(index) for index in reversed(path)]


def reachable_cells(state: GameState, mover: Character) -> dict[Cell, tuple[int, int]]:
    """Every cell the mover can end a move on with its AP: (cells on the path, AP cost), for
    the legal moves and the reach hint (``legal``)."""
    walk = _Walk(state, mover)
    found = {}
    for index, cells in enumerate(walk.distances()):
        if cells <= 0 or not walk.can_stop(index):
            continue
        cost = move_cost(mover, state.rules, cells)
        if cost <= mover.ap:
            found[walk.cell(index)] = (cells, cost)
    return found
