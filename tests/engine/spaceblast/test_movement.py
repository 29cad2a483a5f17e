"""Who moves in a simultaneous step (SB-9), on positions alone: chains, contests, swaps, cycles, rams."""

from __future__ import annotations

from engine.core.hexgrid import Direction
from engine.spaceblast.movement import is_ram, simultaneous_step
from engine.spaceblast.state import arena

BOARD = arena(6)


def step(ships: dict[str, tuple[str, str]], movers: list[str] | None = None):
    at = {ident: BOARD.parse(cell) for ident, (cell, _) in ships.items()}
    facing = {ident: Direction[d] for ident, (_, d) in ships.items()}
    result = simultaneous_step(at, facing, movers if movers is not None else list(ships), BOARD)
    moved = {ident: BOARD.format(cell) if cell in BOARD else None for ident, cell in result.moved.items()}
    clashes = [(c.kind, c.ships, BOARD.format(c.cell)) for c in result.clashes]
    return moved, result.blocked, clashes


def test_ram_angle_is_the_targets_facing_or_next_to_it() -> None:
    assert [d.name for d in Direction if is_ram(d, Direction.E)] == ["E", "NE", "SE"]


def test_a_chain_moves_together() -> None:
    moved, blocked, clashes = step({"a": ("G5", "E"), "b": ("G6", "E"), "c": ("G7", "E")})
    assert moved == {"a": "G6", "b": "G7", "c": "G8"} and not blocked and not clashes


def test_a_still_ship_blocks_the_whole_chain() -> None:
    moved, blocked, clashes = step({"a": ("G5", "E"), "b": ("G6", "E"), "c": ("G7", "E")}, movers=["a", "b"])
    assert moved == {} and blocked == {"a", "b"}
    assert clashes == [("ram", ("a", "b"), "G6"), ("ram", ("b", "c"), "G7")]


def test_contest_and_the_still_occupant_of_the_contested_cell() -> None:
    _, blocked, clashes = step({"a": ("G6", "E"), "b": ("F6", "SE"), "t": ("G7", "W")}, movers=["a", "b"])
    assert blocked == {"a", "b"}
    assert clashes == [("same_cell", ("a", "b"), "G7"), ("blocked", ("a", "t"), "G7"), ("blocked", ("b", "t"), "G7")]


def test_swap_is_a_collision_and_nothing_more() -> None:
    moved, blocked, clashes = step({"a": ("G6", "E"), "b": ("G7", "W")})
    assert moved == {} and blocked == {"a", "b"} and clashes == [("face_to_face", ("a", "b"), "G7")]


def test_cycles_of_three_move_and_leaving_ships_free_their_cell() -> None:
    moved, _, clashes = step({"a": ("G7", "E"), "b": ("G8", "SW"), "c": ("H7", "NW")})
    assert moved == {"a": "G8", "b": "H7", "c": "G7"} and clashes == []
    moved, _, _ = step({"a": ("A7", "E"), "b": ("A6", "E")})
    assert moved == {"a": None, "b": "A7"}


def test_two_ships_leaving_towards_one_outside_hex_do_not_collide() -> None:
    left_of_a1 = BOARD.parse("A1").neighbour(Direction.W)
    assert left_of_a1 == BOARD.parse("B1").neighbour(Direction.NW) and left_of_a1 not in BOARD
    moved, _, clashes = step({"a": ("A1", "W"), "b": ("B1", "NW")})
    assert moved == {"a": None, "b": None} and clashes == []
