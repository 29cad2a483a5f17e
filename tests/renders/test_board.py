"""The Space Chess board image (SC-1 orientation, SC-2 standard map, SC-10 camps, SC-28 the dead)."""

from __future__ import annotations

import copy

import pytest

from bot.games.spacechess.pictures import picture_labels
from engine.core.errors import OrderError
from engine.core.squaregrid import parse_cell
from engine.spacechess.maps import standard_map
from renders import common
from renders.hexmarks import GHOST, MOVE, PUSH, SHOT, Mark
from renders.spacechess.board import Caption, Effect, Overlay, layout_for, render_board, short_tags

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

OVERLAYS = {
    "none": Overlay("none"),
    "move": Overlay("move", path=("B2", "C3", "D3", "E4")),
    "shot": Overlay("shot", line=("E3", "G8")),
    "grenade": Overlay("grenade", area=("F8", "G8", "F7", "G7")),
    "airstrike": Overlay("airstrike", area=("C5", "D6", "E7", "F8")),
}


def cell_pixels(image, game_map, cell_text):
    box = layout_for(game_map).cell_box(parse_cell(cell_text))
    data = image.crop((box[0], box[1], box[2] + 1, box[3] + 1)).tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


@pytest.mark.parametrize("kind", sorted(OVERLAYS))
def test_board_golden_every_overlay_kind(kind, small_map, small_view, golden) -> None:
    reach = {"C2": 1, "C3": 1, "D4": 2} if kind == "move" else None
    png = render_board(
        small_view, small_map, overlay=OVERLAYS[kind], reach=reach, title=f"Small map - {kind}"
    )
    assert png.startswith(PNG_SIGNATURE)
    golden(f"board_small_{kind}.png", png)


@pytest.mark.parametrize("kind", sorted(set(OVERLAYS) - {"none"}))
def test_board_every_overlay_kind_draws_something(kind, small_map, small_view, decode) -> None:
    plain = decode(render_board(small_view, small_map, overlay=OVERLAYS["none"]))
    drawn = decode(render_board(small_view, small_map, overlay=OVERLAYS[kind]))
    overlay = OVERLAYS[kind]
    cells = overlay.area or overlay.path or overlay.line
    assert any(cell_pixels(plain, small_map, cell) != cell_pixels(drawn, small_map, cell) for cell in cells)


def test_board_standard_map_with_14_characters_is_under_1mb(standard_view) -> None:
    """SC-2 standard map, SC-5 up to 14 players, every layer drawn at once."""
    game_map = standard_map()
    reach = {f"{col}{row}": 1 + (row % 9) for col in "ABCDEFGHIJKLMNOPQRSTUVWX" for row in range(4, 41)}
    reach = {cell: cost for cell, cost in reach.items() if parse_cell(cell) not in game_map.obstacles}
    standard_view["pickups"] = [{"at": "L20", "kind": "hp", "amount": 5}, {"at": "M25", "kind": "item"}]
    for overlay in OVERLAYS.values():
        png = render_board(standard_view, game_map, overlay=overlay, reach=reach, title="A long title " * 10)
        assert len(png) < 1_000_000


def test_board_is_deterministic(small_map, small_view) -> None:
    first = render_board(small_view, small_map, overlay=OVERLAYS["shot"], title="t")
    again = render_board(copy.deepcopy(small_view), small_map, overlay=OVERLAYS["shot"], title="t")
    assert first == again


def test_sc28_dead_character_is_not_drawn(small_map, small_view, decode) -> None:
    without_bob = copy.deepcopy(small_view)
    del without_bob["characters"]["bob"]
    empty = decode(render_board(without_bob, small_map))
    alive = decode(render_board(small_view, small_map))
    assert cell_pixels(alive, small_map, "E3") != cell_pixels(empty, small_map, "E3")
    for dead in ({"alive": False, "hp": 0, "at": None}, {"alive": False, "hp": 0}):  # with or without a cell
        view = copy.deepcopy(small_view)
        view["characters"]["bob"].update(dead)
        image = decode(render_board(view, small_map))
        assert cell_pixels(image, small_map, "E3") == cell_pixels(empty, small_map, "E3")


def test_sc1_row_1_at_the_bottom_and_team_colours(small_map, small_view, decode) -> None:
    """Row 1 is drawn at the bottom (team 1's side) and column A on the left; tokens wear team colours."""
    layout = layout_for(small_map)
    a1 = layout.cell_box(parse_cell("A1"))
    h10 = layout.cell_box(parse_cell("H10"))
    assert a1[0] < h10[0] and a1[1] > h10[1]
    image = decode(render_board(small_view, small_map))
    for name, colour in (("bob", common.TEAM_COLOURS[1]), ("dmitri", common.TEAM_COLOURS[2])):
        assert colour in cell_pixels(image, small_map, small_view["characters"][name]["at"])
    assert common.TEAM_COLOURS[2] not in cell_pixels(image, small_map, "E3")


def test_sc10_camps_are_tinted_for_each_team(small_map, small_view, decode) -> None:
    image = decode(render_board(small_view, small_map))
    assert common.TEAM_TINT[1] in cell_pixels(image, small_map, "A1")
    assert common.TEAM_TINT[2] in cell_pixels(image, small_map, "A10")
    assert common.OBSTACLE in cell_pixels(image, small_map, "C8")


def test_board_reach_tints_the_cells_it_lists(small_map, small_view, decode) -> None:
    image = decode(render_board(small_view, small_map, reach={"C2": 1, "H5": 4}))
    assert common.REACH_TINT in cell_pixels(image, small_map, "H5")
    assert common.REACH_TINT not in cell_pixels(image, small_map, "H6")


def test_board_pickup_is_drawn(small_map, small_view, decode) -> None:
    image = decode(render_board(small_view, small_map))
    assert common.YELLOW in cell_pixels(image, small_map, "F4")
    assert common.YELLOW not in cell_pixels(image, small_map, "F5")


def test_board_legend_makes_room_on_a_small_map(small_map, standard_view, decode) -> None:
    for data in standard_view["characters"].values():
        data["at"] = "A1"
    image = decode(render_board(standard_view, small_map))
    assert image.height > layout_for(small_map).size[1]


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v["characters"]["bob"].update(at="Z1"),
        lambda v: v["characters"]["bob"].update(at="A11"),
        lambda v: v["pickups"][0].update(at="I1"),
    ],
)
def test_board_cell_off_the_map_is_bad_cell(change, small_map, small_view) -> None:
    change(small_view)
    with pytest.raises(OrderError) as caught:
        render_board(small_view, small_map)
    assert caught.value.code == "bad_cell"


@pytest.mark.parametrize(
    "overlay",
    [
        Overlay("explosion"),
        Overlay("shot"),
        Overlay("move", path=("B2", "Q9")),
    ],
)
def test_board_bad_overlay_is_refused(overlay, small_map, small_view) -> None:
    with pytest.raises((ValueError, OrderError)):
        render_board(small_view, small_map, overlay=overlay)


def test_short_tags_are_unique_and_stable() -> None:
    ids = ["alice", "albert", "bob", "alfred", "alfonso", "Élodie", "x"]
    tags = short_tags(ids)
    assert len(set(tags.values())) == len(ids)
    assert tags["bob"] == "Bo"
    assert tags["alice"] == "Ali"
    assert tags["Élodie"] == "Él"  # the shipped font draws accents
    assert tags["x"] == "X"
    assert {tags["alfred"], tags["alfonso"]} == {"A1", "A2"}
    assert short_tags(list(reversed(ids))) == tags


def test_numbered_names_keep_their_number_as_their_tag() -> None:
    """Issue 27: Sol1 and Sol2 were drawn S3 and S4 when another S-name took the first numbers."""
    tags = short_tags(["Sol1", "Sol2", "SOLAR", "SOLEIL"])  # sorted first
    assert (tags["Sol1"], tags["Sol2"]) == ("S1", "S2")
    assert len(set(tags.values())) == 4


def test_preparation_is_not_drawn_as_dead(small_map, small_view, drawn) -> None:
    """Someone not deployed yet is listed with its values; only the dead are greyed and struck."""
    small_view["status"] = "setup"
    small_view["characters"]["bob"].update(at=None, alive=True)
    small_view["characters"]["dmitri"].update(at=None, alive=False, hp=0)
    render_board(small_view, small_map)
    assert "5/20" in drawn and "0/20" not in drawn


def test_an_ap_or_hp_pickup_says_which(small_map, small_view, drawn) -> None:
    small_view["pickups"].append({"at": "A5", "kind": "hp", "amount": 3})
    render_board(small_view, small_map, labels={"ap": "PA", "hp": "PV"})
    assert {"+2", "PA", "+3", "PV"} <= set(drawn)


@pytest.fixture
def drawn():
    """The words drawn while the test runs (renders.common.recording_text)."""
    from renders.common import recording_text

    with recording_text() as texts:
        yield texts


def test_board_golden_last_action_in_french(small_map, small_view, golden, drawn) -> None:
    """The last action as a French post shows it (issue 27): a move's arrow, a power's push, a shot's
    tracer and impact, the damage on its target, a death's ghost, the caption wrapped, never cut."""
    small_view["characters"]["carla"]["at"] = "D8"
    small_view["characters"]["dmitri"].update(hp=6)
    last = ("Dernière action : carla utilise le pouvoir intimidation sur bob, qui passe de E5 à E3 (2 PA ; reste 7 PA)."
            " bob tire sur dmitri au bolter (reste 2 PA). dmitri subit 6 dégâts → 6 PV.")
    caption = Caption("Orion — Space Chess", ("Tour 4 (tirages appliqués : 4)", last))
    marks = (Mark(MOVE, ("B4", "B2")), Mark(PUSH, ("E5", "E3")), Mark(SHOT, ("E3", "G8")), Mark(GHOST, ("F2",)))
    png = render_board(small_view, small_map, caption=caption, marks=marks, effects=(Effect("G8", "-6 PV"),),
                       labels=picture_labels("fr"))
    assert "dmitri subit 6 dégâts → 6 PV." in " ".join(drawn)
    golden("board_small_last_action_fr.png", png)
