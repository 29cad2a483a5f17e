"""Square-grid geometry: cell names (SC-1), distance (SC-4), no-squeeze steps (SC-17), line of fire (SC-21)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import OrderError
from engine.core.squaregrid import (
    Cell,
    cells_crossed,
    distance,
    format_cell,
    in_bounds,
    line_is_clear,
    neighbours,
    open_steps,
    ordered_crossing,
    parse_cell,
)


def cells(*names: str) -> set[Cell]:
    return {parse_cell(name) for name in names}


# --- SC-1 cell names -------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["C12", "c12", "C 12", " c 12 ", "\tC12\n"])
def test_sc1_parse_cell_accepts_case_and_spaces(text: str) -> None:
    assert parse_cell(text) == Cell(2, 11)


def test_sc1_format_cell_is_letter_then_one_based_row() -> None:
    assert format_cell(Cell(2, 11)) == "C12"
    assert format_cell(Cell(0, 0)) == "A1"
    assert format_cell(Cell(25, 98)) == "Z99"


def test_sc1_round_trip_every_cell_of_a_26_by_99_board() -> None:
    for x in range(26):
        for y in range(99):
            cell = Cell(x, y)
            assert parse_cell(format_cell(cell)) == cell
            assert parse_cell(format_cell(cell).lower()) == cell


@pytest.mark.parametrize(
    "text",
    ["", "   ", "C", "12", "12C", "CC12", "C0", "C100", "C-1", "C1.5", "C+1", "É1", "C１２", "C 1 2", "A1;"],
)
def test_sc1_parse_cell_refuses_malformed_text(text: str) -> None:
    with pytest.raises(OrderError) as raised:
        parse_cell(text)
    assert raised.value.code == "bad_cell"
    assert raised.value.params == {"cell": text}


@pytest.mark.parametrize(("text", "width", "height"), [("Y1", 24, 44), ("A45", 24, 44), ("X44", 23, 44)])
def test_sc1_parse_cell_refuses_cells_off_the_board(text: str, width: int, height: int) -> None:
    with pytest.raises(OrderError) as raised:
        parse_cell(text, width, height)
    assert (raised.value.code, raised.value.params) == ("bad_cell", {"cell": text})


def test_sc1_parse_cell_accepts_the_far_corner_of_the_board() -> None:
    assert parse_cell("x44", 24, 44) == Cell(23, 43)


def test_in_bounds_edges() -> None:
    assert in_bounds(Cell(0, 0), 24, 44)
    assert in_bounds(Cell(23, 43), 24, 44)
    assert not in_bounds(Cell(24, 0), 24, 44)
    assert not in_bounds(Cell(0, 44), 24, 44)
    assert not in_bounds(Cell(-1, 3), 24, 44)
    assert not in_bounds(Cell(3, -1), 24, 44)


# --- SC-4 distance and adjacency -------------------------------------------------------------

small_cells = st.builds(Cell, st.integers(-30, 30), st.integers(-30, 30))


def test_sc4_distance_is_chebyshev() -> None:
    assert distance(parse_cell("A1"), parse_cell("C12")) == 11
    assert distance(parse_cell("A1"), parse_cell("K3")) == 10
    assert distance(parse_cell("D4"), parse_cell("E5")) == 1
    assert distance(parse_cell("D4"), parse_cell("D4")) == 0


@settings(max_examples=200)
@given(small_cells, small_cells)
def test_sc4_distance_counts_king_moves(a: Cell, b: Cell) -> None:
    assert distance(a, b) == distance(b, a) == max(abs(a.x - b.x), abs(a.y - b.y))


def test_sc4_neighbours_are_the_on_board_cells_at_distance_one() -> None:
    centre = parse_cell("D4")
    assert set(neighbours(centre, 24, 44)) == cells("C3", "D3", "E3", "C4", "E4", "C5", "D5", "E5")
    assert set(neighbours(parse_cell("A1"), 24, 44)) == cells("A2", "B1", "B2")
    assert len(neighbours(parse_cell("A10"), 24, 44)) == 5
    assert len(neighbours(parse_cell("X44"), 24, 44)) == 3


# --- SC-17 D no squeezing between two blocked cells -------------------------------------------


def test_sc17_diagonal_step_between_two_blocked_cells_is_refused() -> None:
    walls = cells("B1", "A2")
    steps = open_steps(parse_cell("A1"), 24, 44, lambda cell: cell in walls)
    assert steps == []


def test_sc17_diagonal_step_beside_one_blocked_cell_is_allowed() -> None:
    walls = cells("B1")
    steps = open_steps(parse_cell("A1"), 24, 44, lambda cell: cell in walls)
    assert set(steps) == cells("A2", "B2")


# --- SC-21 line of fire ----------------------------------------------------------------------


def centre(cell: Cell) -> tuple[Fraction, Fraction]:
    return Fraction(2 * cell.x + 1, 2), Fraction(2 * cell.y + 1, 2)


def slab(start: Fraction, delta: Fraction, low: int, high: int) -> tuple[Fraction, Fraction] | None:
    """Parameters t where start + t * delta lies strictly inside (low, high); None if never."""
    if delta == 0:
        return (Fraction(-(10**9)), Fraction(10**9)) if low < start < high else None
    t1, t2 = (low - start) / delta, (high - start) / delta
    return min(t1, t2), max(t1, t2)


def open_overlap(a: Cell, b: Cell, cell: Cell) -> tuple[Fraction, Fraction] | None:
    """Independent exact check: the t-interval where the open segment is in the open square."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    x_slab = slab(ax, bx - ax, cell.x, cell.x + 1)
    y_slab = slab(ay, by - ay, cell.y, cell.y + 1)
    if x_slab is None or y_slab is None:
        return None
    low = max(Fraction(0), x_slab[0], y_slab[0])
    high = min(Fraction(1), x_slab[1], y_slab[1])
    return (low, high) if low < high else None


def touches_closed_square(a: Cell, b: Cell, cell: Cell) -> bool:
    """The closed segment meets the closed square: edges and corners count."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    low, high = Fraction(0), Fraction(1)
    for start, delta, lo, hi in ((ax, bx - ax, cell.x, cell.x + 1), (ay, by - ay, cell.y, cell.y + 1)):
        if delta == 0:
            if not lo <= start <= hi:
                return False
            continue
        t1, t2 = (lo - start) / delta, (hi - start) / delta
        low, high = max(low, min(t1, t2)), min(high, max(t1, t2))
    return low <= high


def box(a: Cell, b: Cell) -> list[Cell]:
    return [
        Cell(x, y)
        for x in range(min(a.x, b.x) - 1, max(a.x, b.x) + 2)
        for y in range(min(a.y, b.y) - 1, max(a.y, b.y) + 2)
    ]


board_cells = st.builds(Cell, st.integers(0, 23), st.integers(0, 43))


def test_sc21_exact_diagonal_crosses_only_the_diagonal_cells() -> None:
    assert cells_crossed(parse_cell("A1"), parse_cell("C3")) == cells("B2")
    assert ordered_crossing(parse_cell("E1"), parse_cell("A5")) == [parse_cell(n) for n in ("D2", "C3", "B4")]


def test_sc21_horizontal_and_vertical_lines_cross_the_cells_between() -> None:
    assert ordered_crossing(parse_cell("A1"), parse_cell("E1")) == [parse_cell(n) for n in ("B1", "C1", "D1")]
    assert ordered_crossing(parse_cell("C9"), parse_cell("C5")) == [parse_cell(n) for n in ("C8", "C7", "C6")]


def test_sc21_line_through_the_middle_of_an_edge_crosses_both_cells() -> None:
    # A1 -> C2 passes through the midpoint of the edge between B1 and B2: it enters both.
    assert ordered_crossing(parse_cell("A1"), parse_cell("C2")) == [parse_cell("B1"), parse_cell("B2")]
    assert ordered_crossing(parse_cell("A1"), parse_cell("B3")) == [parse_cell("A2"), parse_cell("B2")]


def test_sc21_same_and_adjacent_cells_cross_nothing() -> None:
    here = parse_cell("J20")
    assert cells_crossed(here, here) == frozenset()
    for other in neighbours(here, 24, 44):
        assert cells_crossed(here, other) == frozenset()


def test_sc21_cells_touched_at_a_corner_do_not_block() -> None:
    corners = cells("B1", "A2", "C2", "B3")
    assert line_is_clear(parse_cell("A1"), parse_cell("C3"), lambda cell: cell in corners)
    assert not line_is_clear(parse_cell("A1"), parse_cell("C3"), lambda cell: cell == parse_cell("B2"))


def test_sc21_shooter_and_target_cells_never_block() -> None:
    a, b = parse_cell("B2"), parse_cell("H5")
    assert line_is_clear(a, b, lambda cell: cell in (a, b))


@settings(max_examples=300)
@given(board_cells, board_cells)
def test_sc21_crossed_cells_match_an_exact_fraction_intersection(a: Cell, b: Cell) -> None:
    expected = {cell for cell in box(a, b) if cell not in (a, b) and open_overlap(a, b, cell)}
    assert cells_crossed(a, b) == expected


@settings(max_examples=200)
@given(board_cells, board_cells)
def test_sc21_crossing_is_symmetric_and_ordered_from_the_shooter(a: Cell, b: Cell) -> None:
    forward = ordered_crossing(a, b)
    assert cells_crossed(a, b) == cells_crossed(b, a)
    assert ordered_crossing(b, a) == forward[::-1]
    entries = [open_overlap(a, b, cell)[0] for cell in forward]
    assert entries == sorted(entries)
    assert len(set(entries)) == len(entries)


@settings(max_examples=200)
@given(board_cells, board_cells)
def test_sc21_touching_edges_or_corners_never_blocks(a: Cell, b: Cell) -> None:
    crossed = cells_crossed(a, b)
    grazed = {cell for cell in box(a, b) if touches_closed_square(a, b, cell)} - crossed
    assert line_is_clear(a, b, lambda cell: cell in grazed)
    for cell in crossed:
        assert not line_is_clear(a, b, lambda other, cell=cell: other == cell)


@settings(max_examples=100)
@given(board_cells, st.integers(-20, 20), st.sampled_from([(1, 0), (0, 1), (1, 1), (1, -1)]))
def test_sc21_straight_and_exact_diagonal_lines(a: Cell, length: int, direction: tuple[int, int]) -> None:
    sign = 1 if length >= 0 else -1
    dx, dy = direction[0] * sign, direction[1] * sign
    b = Cell(a.x + dx * abs(length), a.y + dy * abs(length))
    between = [Cell(a.x + dx * k, a.y + dy * k) for k in range(1, abs(length))]
    assert ordered_crossing(a, b) == between
