"""Hex-grid geometry: SB-1..SB-3, HA-1/HA-2/HA-5/HA-7, AK-1/AK-2."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.core.hexgrid import CENTRE, Direction, Hex, HexBoard, hexagon_corners

ARENA = HexBoard.hexagon(6)
ALL_BOARDS = [pytest.param(HexBoard.hexagon(r), id=f"hexagon{r}") for r in range(4, 10)] + [
    pytest.param(HexBoard.arkeon(), id="arkeon")
]


def cells(board: HexBoard, *texts: str) -> set[Hex]:
    return {board.parse(t) for t in texts}


def names(board: HexBoard, hexes) -> set[str]:
    return {board.format(h) for h in hexes}


# -- notation -------------------------------------------------------------------------------------
@pytest.mark.parametrize("board", ALL_BOARDS)
def test_sb1_ak1_notation_round_trip_for_every_cell(board: HexBoard) -> None:
    seen = set()
    for cell in board:
        text = board.format(cell)
        assert board.parse(text) == cell
        assert board.parse(text.lower()) == cell
        assert board.parse(f" {text[0]} {text[1:]} ") == cell
        seen.add(text)
    assert len(seen) == len(board) == len(board.cells)


@pytest.mark.parametrize("radius", range(4, 10))
def test_sb1_hexagon_row_sizes(radius: int) -> None:
    board = HexBoard.hexagon(radius)
    sizes = [len(row) for row in board.rows]
    assert sizes == [radius + 1 + i for i in range(radius)] + [2 * radius + 1] + [
        2 * radius - i for i in range(radius)
    ]
    assert len(board) == 3 * radius * (radius + 1) + 1
    letter = string.ascii_uppercase[radius]
    assert board.format(CENTRE) == f"{letter}{radius + 1}"


def test_sb1_radius6_rows_a_g_m_and_centre_g7() -> None:
    assert len(ARENA) == 127
    assert len(ARENA.rows) == 13
    assert [len(ARENA.rows[i]) for i in (0, 6, 12)] == [7, 13, 7]
    assert ARENA.parse("G7") == CENTRE
    assert ARENA.format(ARENA.rows[0][0]) == "A1"
    assert ARENA.format(ARENA.rows[-1][-1]) == "M7"


def test_sb1_iteration_is_reading_order() -> None:
    texts = [ARENA.format(c) for c in ARENA]
    assert texts[:8] == ["A1", "A2", "A3", "A4", "A5", "A6", "A7", "B1"]
    assert list(ARENA) == sorted(ARENA.cells)


@pytest.mark.parametrize(
    "text", ["A8", "A0", "N1", "M8", "G14", "Z3", "", "G", "7", "GG7", "G-1", "G 7 7", "é1"]
)
def test_sb1_parse_off_board_or_malformed_is_bad_cell(text: str) -> None:
    with pytest.raises(OrderError) as caught:
        ARENA.parse(text)
    assert caught.value.code == "bad_cell"
    assert caught.value.params == {"cell": text}


def test_ak1_parse_uses_the_board_shape() -> None:
    board = HexBoard.arkeon()
    assert board.format(board.parse("c7")) == "C7"
    for text in ("A6", "B7", "C8", "F1"):
        with pytest.raises(OrderError, match="bad_cell"):
            board.parse(text)


def test_format_off_board_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        ARENA.format(Hex(r=0, q=7))


@pytest.mark.parametrize("radius", [3, 10])
def test_sb1_hexagon_radius_limits(radius: int) -> None:
    with pytest.raises(ValueError):
        HexBoard.hexagon(radius)


def test_board_rows_must_be_unbroken() -> None:
    with pytest.raises(ValueError, match="gap"):
        HexBoard([Hex(r=0, q=0), Hex(r=0, q=2)])
    with pytest.raises(ValueError):
        HexBoard([])


# -- directions -----------------------------------------------------------------------------------
def test_sb2_turn_right_is_clockwise() -> None:
    order = [Direction.E]
    for _ in range(6):
        order.append(order[-1].turn_right())
    assert [d.name for d in order] == ["E", "SE", "SW", "W", "NW", "NE", "E"]


@pytest.mark.parametrize("direction", list(Direction))
def test_sb2_turns_and_rotations(direction: Direction) -> None:
    assert direction.turn_left().turn_right() == direction
    assert direction.rotated(6) == direction
    assert direction.rotated(-6) == direction
    assert direction.rotated(2) == direction.turn_right().turn_right()
    assert direction.rotated(-1) == direction.turn_left()
    assert direction.opposite() != direction
    assert direction.opposite().opposite() == direction
    assert CENTRE.neighbour(direction).neighbour(direction.opposite()) == CENTRE


@given(st.sampled_from(list(Direction)), st.integers(-20, 20), st.integers(-20, 20))
@settings(max_examples=60)
def test_sb2_rotation_adds_up(direction: Direction, a: int, b: int) -> None:
    assert direction.rotated(a).rotated(b) == direction.rotated(a + b)


def test_sb2_directions_in_the_row_notation() -> None:
    g7 = ARENA.parse("G7")
    assert {d.name: ARENA.format(g7.neighbour(d)) for d in Direction} == {
        "E": "G8", "NE": "F7", "NW": "F6", "W": "G6", "SW": "H6", "SE": "H7",
    }  # fmt: skip
    a1 = ARENA.parse("A1")
    assert ARENA.format(a1.neighbour(Direction.SE)) == "B2"
    assert ARENA.format(a1.neighbour(Direction.SW)) == "B1"


def test_ak2_direction_parse() -> None:
    assert Direction.parse(" ne ") is Direction.NE
    with pytest.raises(OrderError) as caught:
        Direction.parse("N")
    assert caught.value.code == "bad_syntax"
    assert caught.value.params == {"direction": "N"}


# -- neighbours and distance ------------------------------------------------------------------------
def test_sb1_neighbours_of_centre_and_corners() -> None:
    assert names(ARENA, ARENA.neighbours(CENTRE)) == {"G8", "F7", "F6", "G6", "H6", "H7"}
    assert not ARENA.is_edge(CENTRE)
    assert names(ARENA, ARENA.neighbours(ARENA.parse("A1"))) == {"A2", "B1", "B2"}
    assert names(ARENA, ARENA.neighbours(ARENA.parse("G1"))) == {"F1", "G2", "H1"}
    assert names(ARENA, ARENA.neighbours(ARENA.parse("M7"))) == {"M6", "L7", "L8"}
    for corner, _ in hexagon_corners(6):
        assert len(ARENA.neighbours(corner)) == 3
        assert ARENA.is_edge(corner)
    assert names(ARENA, ARENA.neighbours(ARENA.parse("A4"))) == {"A3", "A5", "B4", "B5"}


def test_ak1_tips_have_three_neighbours() -> None:
    board = HexBoard.arkeon()
    assert [len(row) for row in board.rows] == [5, 6, 7, 6, 5]
    assert len(board) == 29
    assert names(board, board.neighbours(board.parse("C1"))) == {"B1", "C2", "D1"}
    assert names(board, board.neighbours(board.parse("C7"))) == {"B6", "C6", "D6"}
    # the four corners of the cut rows are the only other cells with 3 neighbours
    assert [board.format(c) for c in board if len(board.neighbours(c)) == 3] == [
        "A1",
        "A5",
        "C1",
        "C7",
        "E1",
        "E5",
    ]


hexes = st.builds(Hex, r=st.integers(-12, 12), q=st.integers(-12, 12))


@given(hexes, hexes, hexes)
@settings(max_examples=100)
def test_sb1_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, st.sampled_from(list(Direction)), st.integers(0, 12))
@settings(max_examples=60)
def test_sb1_distance_along_a_straight_line(start: Hex, direction: Direction, steps: int) -> None:
    assert start.distance(start.neighbour(direction, steps)) == steps
    assert all(start.distance(n) == 1 for n in start.neighbours())


def test_sb1_distance_in_notation() -> None:
    assert ARENA.parse("A1").distance(ARENA.parse("M7")) == 12
    assert ARENA.parse("G1").distance(ARENA.parse("G13")) == 12
    assert ARENA.parse("A1").distance(ARENA.parse("G1")) == 6


# -- SB-3 corners, HA-2 bases -----------------------------------------------------------------------
def test_sb3_corners_in_seat_order_face_the_centre() -> None:
    corners = [(ARENA.format(cell), facing.name) for cell, facing in hexagon_corners(6)]
    assert corners == [("A1", "SE"), ("A7", "SW"), ("G13", "W"), ("M7", "NW"), ("M1", "NE"), ("G1", "E")]
    for cell, facing in hexagon_corners(6):
        assert CENTRE in ARENA.line(cell, facing)


@pytest.mark.parametrize("radius", range(4, 10))
def test_sb3_corners_for_every_radius(radius: int) -> None:
    board = HexBoard.hexagon(radius)
    corners = [cell for cell, _ in hexagon_corners(radius)]
    assert corners == [
        board.rows[0][0],
        board.rows[0][-1],
        board.rows[radius][-1],
        board.rows[-1][-1],
        board.rows[-1][0],
        board.rows[radius][0],
    ]
    for cell, facing in hexagon_corners(radius):
        assert cell.neighbour(facing, radius) == CENTRE


def test_ha2_bases_are_the_cells_within_two_of_the_side_corners() -> None:
    red = ARENA.within(ARENA.parse("G1"), 2)
    assert red == cells(ARENA, "G1", "F1", "G2", "H1", "E1", "F2", "G3", "H2", "I1")
    blue = ARENA.within(ARENA.parse("G13"), 2)
    assert blue == cells(ARENA, "G13", "F12", "G12", "H12", "E11", "F11", "G11", "H11", "I11")
    assert {c for c in red if c.distance(ARENA.parse("G1")) == 1} == cells(ARENA, "F1", "G2", "H1")
    assert {c for c in blue if c.distance(ARENA.parse("G13")) == 1} == cells(ARENA, "F12", "G12", "H12")


# -- lines and wrapping (HA-5, HA-7) ------------------------------------------------------------------
def test_ha5_line_runs_to_the_edge() -> None:
    assert [ARENA.format(c) for c in ARENA.line(ARENA.parse("G10"), Direction.E)] == ["G11", "G12", "G13"]
    assert [ARENA.format(c) for c in ARENA.line(ARENA.parse("A1"), Direction.SE)] == [
        "B2", "C3", "D4", "E5", "F6", "G7", "H7", "I7", "J7", "K7", "L7", "M7",
    ]  # fmt: skip
    assert ARENA.line(ARENA.parse("G13"), Direction.E) == ()


def test_ha7_wrap_is_the_other_end_of_the_line() -> None:
    assert ARENA.format(ARENA.wrap(ARENA.parse("G1"), Direction.W)) == "G13"
    assert ARENA.format(ARENA.wrap(ARENA.parse("A4"), Direction.NE)) == "J1"
    assert ARENA.format(ARENA.wrap(ARENA.parse("A4"), Direction.NW)) == "J10"
    assert ARENA.format(ARENA.wrap(ARENA.parse("M7"), Direction.SE)) == "A1"
    assert ARENA.wrap(ARENA.parse("G1"), Direction.E) is None
    assert ARENA.wrap(CENTRE, Direction.NE) is None


@given(st.sampled_from(sorted(ARENA.cells)), st.sampled_from(list(Direction)))
@settings(max_examples=80)
def test_ha7_wrap_lands_on_an_edge_cell_of_the_same_line(cell: Hex, direction: Direction) -> None:
    target = ARENA.wrap(cell, direction)
    if target is None:
        assert cell.neighbour(direction) in ARENA
        return
    assert ARENA.is_edge(target)
    assert target.neighbour(direction.opposite()) not in ARENA
    assert target == cell or cell in ARENA.line(target, direction)


def test_ha5_wrapped_line_reenters_at_the_far_end() -> None:
    path = ARENA.wrapped_line(ARENA.parse("G11"), Direction.E)
    assert [ARENA.format(c) for c in path] == [f"G{n}" for n in (12, 13, *range(1, 11))]
    diagonal = ARENA.wrapped_line(ARENA.parse("L7"), Direction.SE)
    assert [ARENA.format(c) for c in diagonal[:3]] == ["M7", "A1", "B2"]
    assert ARENA.format(diagonal[-1]) == "K7"


@given(st.sampled_from(sorted(ARENA.cells)), st.sampled_from(list(Direction)))
@settings(max_examples=80)
def test_ha5_wrapped_line_visits_the_whole_line_once(cell: Hex, direction: Direction) -> None:
    path = ARENA.wrapped_line(cell, direction)
    assert cell not in path
    assert len(set(path)) == len(path)
    whole = ARENA.line(cell, direction) + ARENA.line(cell, direction.opposite())
    assert set(path) == set(whole)
