"""Movement: speed, the AP cost of a path, and the shortest legal path (SC-17, SC-18, SC-19).

The search is a breadth-first search, so the path found has the fewest cells; because the cost only
grows with the number of cells, the fewest cells is also the cheapest. Previews share the search.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from engine.core.squaregrid import Cell, open_steps
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


def _walker(state: GameState, mover: Character) -> tuple[Callable[[Cell], bool], Callable[[Cell], bool]]:
    """What blocks the mover's steps and where it may stop.

    Characters always block (SC-18: a jet pack never crosses them); obstacles block unless the
    jet pack works, and then only as a place to stop.
    """
    game_map = state.game_map
    others = frozenset(c.at for c in state.living() if c.id != mover.id and c.at is not None)
    flying = jetpack_usable(mover, state.rules)

    def can_stop(cell: Cell) -> bool:
        return game_map.is_floor(cell) and cell not in others

    if flying:

        def blocked(cell: Cell) -> bool:
            return cell in others

    else:

        def blocked(cell: Cell) -> bool:
            return not can_stop(cell)

    return blocked, can_stop


def _distances(state: GameState, mover: Character, goal: Cell | None) -> dict[Cell, int]:
    """Breadth-first step counts from the mover's cell; stops once `goal` is reached, when every
    cell nearer than the goal already has its final count."""
    assert mover.at is not None
    blocked, _ = _walker(state, mover)
    width, height = state.game_map.width, state.game_map.height
    distances = {mover.at: 0}
    queue = deque([mover.at])
    while queue:
        cell = queue.popleft()
        for step in open_steps(cell, width, height, blocked):
            if step not in distances:
                distances[step] = distances[cell] + 1
                if step == goal:
                    return distances
                queue.append(step)
    return distances


def shortest_path(state: GameState, mover: Character, goal: Cell) -> list[Cell] | None:
    """The cells entered on the way to `goal` (goal last), or None when it cannot be reached.

    Among the paths with the fewest cells, the one hugging the straight line is chosen (then the
    smallest cells), so the path shown to players looks like what they meant.
    """
    assert mover.at is not None
    blocked, can_stop = _walker(state, mover)
    if not can_stop(goal):
        return None
    distances = _distances(state, mover, goal)
    if goal not in distances:
        return None
    start = mover.at
    line_x, line_y = goal.x - start.x, goal.y - start.y
    width, height = state.game_map.width, state.game_map.height

    def deviation(cell: Cell) -> tuple[int, Cell]:
        return abs(line_x * (cell.y - start.y) - line_y * (cell.x - start.x)), cell

    path = [goal]
    cell = goal
    while distances[cell] > 1:
        previous = [
            p for p in open_steps(cell, width, height, blocked) if distances.get(p) == distances[cell] - 1
        ]
        cell = min(previous, key=deviation)
        path.append(cell)
    path.reverse()
    return path


def reachable_cells(state: GameState, mover: Character) -> dict[Cell, tuple[int, int]]:
    """Every cell the mover can end a move on with its AP: (cells on the path, AP cost) (previews)."""
    _, can_stop = _walker(state, mover)
    found = {}
    for cell, cells in _distances(state, mover, None).items():
        if cells == 0 or not can_stop(cell):
            continue
        cost = move_cost(mover, state.rules, cells)
        if cost <= mover.ap:
            found[cell] = (cells, cost)
    return found
