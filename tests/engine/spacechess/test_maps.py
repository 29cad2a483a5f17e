"""Space Chess maps: the SC-34 file format, the SC-2 standard map, SC-17 reachability."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import SetupError
from engine.core.squaregrid import Cell, parse_cell
from engine.spacechess.maps import GameMap, format_map, parse_map, reachable_floor, standard_map

SMALL = "..#\n.+.\n#..\n...\n"


def floor_cells(game_map: GameMap) -> set[Cell]:
    return {
        Cell(x, y)
        for x in range(game_map.width)
        for y in range(game_map.height)
        if game_map.is_floor(Cell(x, y))
    }


# --- SC-34 reading -----------------------------------------------------------------------------


def test_sc34_first_line_is_the_highest_row() -> None:
    game_map = parse_map(SMALL, name="small")
    assert (game_map.name, game_map.width, game_map.height) == ("small", 3, 4)
    assert game_map.obstacles == {Cell(2, 3), Cell(0, 1)}
    assert game_map.pickup_spots == {Cell(1, 2)}


def test_sc34_pickup_spots_are_floor() -> None:
    game_map = parse_map(SMALL)
    assert game_map.is_floor(Cell(1, 2))
    assert not game_map.is_floor(Cell(0, 1))
    assert not game_map.is_floor(Cell(3, 0))
    assert not game_map.in_bounds(Cell(3, 0))
    assert game_map.in_bounds(Cell(2, 3))


def test_sc34_default_name_is_custom() -> None:
    assert parse_map(SMALL).name == "custom"


@pytest.mark.parametrize("text", [SMALL, SMALL.rstrip("\n"), SMALL.replace("\n", "\r\n")])
def test_sc34_trailing_newline_and_windows_line_ends_are_accepted(text: str) -> None:
    assert parse_map(text) == parse_map(SMALL)


def test_sc34_format_is_the_inverse_of_parse() -> None:
    assert format_map(parse_map(SMALL)) == SMALL


map_texts = st.integers(1, 26).flatmap(
    lambda width: st.lists(
        st.text(alphabet=".#+", min_size=width, max_size=width), min_size=4, max_size=99
    ).map(lambda rows: "".join(row + "\n" for row in rows))
).filter(lambda text: "." in text or "+" in text)  # a valid map has a floor cell (pickup spots are floor)


@settings(max_examples=60)
@given(map_texts)
def test_sc34_round_trip_of_any_valid_map(text: str) -> None:
    game_map = parse_map(text, name="any")
    assert format_map(game_map) == text
    assert parse_map(format_map(game_map), name="any") == game_map


def test_sc34_largest_and_smallest_maps_are_accepted() -> None:
    assert parse_map(("." * 26 + "\n") * 99).height == 99
    assert parse_map(".\n.\n.\n.\n").width == 1


# --- SC-34 malformed files: code, exact place, parameters -----------------------------------------


def refusal(text: str) -> tuple[str, str, dict[str, Any]]:
    with pytest.raises(SetupError) as raised:
        parse_map(text)
    return raised.value.code, raised.value.where, raised.value.params


def test_sc34_empty_file_is_refused() -> None:
    assert refusal("") == ("map_empty", "line 1, column 1", {})


def test_sc34_file_with_only_a_newline_is_refused() -> None:
    assert refusal("\n") == ("map_empty", "line 1, column 1", {})


def test_sc34_blank_first_line_is_refused_as_empty() -> None:
    assert refusal("\n....\n....\n....\n....\n") == ("map_empty", "line 1, column 1", {})


def test_sc34_short_line_is_ragged_where_it_ends() -> None:
    assert refusal("....\n....\n..\n....\n") == ("map_ragged", "line 3, column 3", {"expected": 4, "got": 2})


def test_sc34_long_line_is_ragged_after_the_expected_width() -> None:
    assert refusal("....\n....\n....\n......\n") == (
        "map_ragged",
        "line 4, column 5",
        {"expected": 4, "got": 6},
    )


def test_sc34_blank_line_inside_the_map_is_ragged() -> None:
    assert refusal("....\n\n....\n....\n") == ("map_ragged", "line 2, column 1", {"expected": 4, "got": 0})


def test_sc34_extra_blank_line_at_the_end_is_ragged() -> None:
    assert refusal("....\n....\n....\n....\n\n") == (
        "map_ragged",
        "line 5, column 1",
        {"expected": 4, "got": 0},
    )


def test_sc34_unknown_character_is_refused_where_it_stands() -> None:
    assert refusal("....\n....\n.#x.\n....\n") == ("map_bad_char", "line 3, column 3", {"char": "x"})


def test_sc34_space_and_tab_are_bad_characters() -> None:
    assert refusal("....\n... \n....\n....\n") == ("map_bad_char", "line 2, column 4", {"char": " "})
    assert refusal("\t...\n....\n....\n....\n") == ("map_bad_char", "line 1, column 1", {"char": "\t"})


def test_sc34_lone_carriage_return_is_a_bad_character() -> None:
    assert refusal("....\n..\r.\n....\n....\n") == ("map_bad_char", "line 2, column 3", {"char": "\r"})


def test_sc34_more_than_26_columns_is_refused_at_column_27() -> None:
    assert refusal(("." * 27 + "\n") * 4) == (
        "map_too_many_columns",
        "line 1, column 27",
        {"maximum": 26, "got": 27},
    )


def test_sc34_fewer_than_4_rows_is_refused_after_the_last_line() -> None:
    assert refusal("...\n...\n...\n") == ("map_too_few_rows", "line 4, column 1", {"minimum": 4, "got": 3})


def test_sc34_more_than_99_rows_is_refused_at_line_100() -> None:
    assert refusal("..\n" * 100) == ("map_too_many_rows", "line 100, column 1", {"maximum": 99})


def test_sc34_the_first_error_in_file_order_wins() -> None:
    # a bad character on line 2 comes before the ragged line 3
    assert refusal("....\n.?..\n..\n....\n")[:2] == ("map_bad_char", "line 2, column 2")
    # a ragged line 2 comes before a bad character on line 3
    assert refusal("....\n..\n.?..\n....\n")[:2] == ("map_ragged", "line 2, column 3")
    # inside one line, a bad character before the end comes before raggedness
    assert refusal("....\n.?......\n....\n....\n")[:2] == ("map_bad_char", "line 2, column 2")
    # on line 1, a bad character before column 27 comes before the width limit
    assert refusal("?" + "." * 29 + "\n")[:2] == ("map_bad_char", "line 1, column 1")
    # ...and the width limit comes before a bad character beyond column 26
    assert refusal("." * 28 + "?\n")[:2] == ("map_too_many_columns", "line 1, column 27")
    # a faulty line among the first 99 comes before the row limit
    assert refusal("..\n" * 50 + ".x\n" + "..\n" * 60)[:2] == ("map_bad_char", "line 51, column 2")
    # any line fault comes before too few rows
    assert refusal("..\n..#\n")[:2] == ("map_ragged", "line 2, column 3")


# --- SC-2 the standard map --------------------------------------------------------------------


def test_sc2_standard_map_is_24_by_44_and_named_standard() -> None:
    game_map = standard_map()
    assert (game_map.name, game_map.width, game_map.height) == ("standard", 24, 44)
    assert standard_map() is game_map


def test_sc2_standard_map_is_point_symmetric() -> None:
    game_map = standard_map()

    def mirror(cell: Cell) -> Cell:
        return Cell(game_map.width - 1 - cell.x, game_map.height - 1 - cell.y)

    assert {mirror(cell) for cell in game_map.obstacles} == game_map.obstacles
    assert {mirror(cell) for cell in game_map.pickup_spots} == game_map.pickup_spots


def test_sc2_standard_map_has_12_to_18_percent_obstacles() -> None:
    game_map = standard_map()
    assert 0.12 <= len(game_map.obstacles) / (game_map.width * game_map.height) <= 0.18


@pytest.mark.parametrize("row", [1, 2, 3, 42, 43, 44])
def test_sc2_standard_map_rows_near_the_camps_are_all_floor(row: int) -> None:
    game_map = standard_map()
    assert all(game_map.is_floor(Cell(x, row - 1)) for x in range(game_map.width))


@pytest.mark.parametrize("camp_cell", ["A1", "X2", "L1", "X44", "A43", "M44"])
def test_sc2_every_floor_cell_of_the_standard_map_is_reachable_from_both_camps(camp_cell: str) -> None:
    game_map = standard_map()
    assert reachable_floor(game_map, parse_cell(camp_cell, 24, 44)) == floor_cells(game_map)


def test_sc2_standard_map_has_a_handful_of_pickup_spots_on_floor() -> None:
    game_map = standard_map()
    assert 2 <= len(game_map.pickup_spots) <= 10
    assert all(game_map.is_floor(cell) for cell in game_map.pickup_spots)


def test_sc2_standard_map_file_is_in_canonical_form() -> None:
    game_map = standard_map()
    assert parse_map(format_map(game_map), name="standard") == game_map


# --- SC-17 reachability ------------------------------------------------------------------------


def test_sc17_reachable_floor_does_not_squeeze_through_touching_corners() -> None:
    # The bottom-left pocket is sealed by two obstacles that only touch at a corner.
    game_map = parse_map("....\n....\n#...\n.#..\n")
    assert reachable_floor(game_map, Cell(0, 0)) == {Cell(0, 0)}
    assert Cell(0, 0) not in reachable_floor(game_map, Cell(3, 3))


def test_sc17_reachable_floor_goes_diagonally_past_a_single_obstacle() -> None:
    game_map = parse_map("....\n....\n....\n.#..\n")
    assert Cell(0, 0) in reachable_floor(game_map, Cell(2, 0))
    assert reachable_floor(game_map, Cell(0, 0)) == floor_cells(game_map)


def test_sc17_reachable_floor_from_an_obstacle_or_off_the_board_is_empty() -> None:
    game_map = parse_map("....\n....\n....\n.#..\n")
    assert reachable_floor(game_map, Cell(1, 0)) == set()
    assert reachable_floor(game_map, Cell(9, 9)) == set()


def test_sc34_a_map_without_a_floor_cell_is_refused() -> None:
    """Issue 23.12: nobody could ever stand on it (pickup spots are floor: one is enough)."""
    assert refusal("####\n####\n####\n####\n") == ("map_no_floor", "", {})
    assert parse_map("####\n#+##\n####\n####\n").width == 4
