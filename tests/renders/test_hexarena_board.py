"""The HexArena board (reconstructed rules: HA-1 arena, HA-2 bases, HA-3 facings, HA-6 the carried
admiral, HA-11 debris and graveyards), drawn from the public view only."""

from __future__ import annotations

import copy
import io
import math
from typing import Any

import pytest
from PIL import Image

from bot.games.hexarena import picture_labels
from renders import common
from renders.hexarena import board as drawn
from renders.hexarena import layout_for
from renders.hexarena.board import BASES, BOARD, WIDTH
from renders.hexarena.style import DEBRIS, STAR
from renders.hexboard import ANGLES, HIGHLIGHT, SIDE_COLOURS, SIDE_TINTS
from renders.hexmarks import GHOST, IMPACT, JUMP, MOVE, RAM, SHOT, TURN, Mark

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: the words every picture of these tests draws: the English catalog's (the bot's words for the board)
ENGLISH = picture_labels("en")


def render_board(view: dict[str, Any], **options: Any) -> bytes:
    return drawn.render_board(view, **{"labels": ENGLISH, **options})


def board_image(view: dict[str, Any], **options: Any) -> Image.Image:
    return drawn.board_image(view, **{"labels": ENGLISH, **options})
FACINGS = ("E", "NE", "NW", "W", "SW", "SE")
FACED = ("admiral", "fighter", "cargo")


def ship(side: str, type_: str, at: str | None, facing: str | None = "E", **extra: Any) -> dict[str, Any]:
    data = {"side": side, "type": type_, "at": at, "facing": None if type_ == "patrol" else facing,
            "carried_by": None, "alive": True}  # fmt: skip
    data.update(extra)
    return data


def opening() -> dict[str, dict[str, Any]]:
    """HA-2's standard opening, ids numbered in the rule's order."""
    ships = {}
    cells = {
        "red": {"admiral": ("G1",), "patrol": ("F1", "H1"), "fighter": ("G2", "G3"), "cargo": ("E1", "F2", "H2", "I1")},
        "blue": {"admiral": ("G13",), "patrol": ("F12", "H12"), "fighter": ("G12", "G11"),
                 "cargo": ("E11", "F11", "H11", "I11")},
    }  # fmt: skip
    for side, fleet in cells.items():
        for type_, where in fleet.items():
            for n, at in enumerate(where, start=1):
                ships[f"{side}_{type_}{n}"] = ship(side, type_, at, "E" if side == "red" else "W")
    return ships


def view_of(ships: dict[str, dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    view = {
        "status": "running",
        "variants": [],
        "to_move": "red",
        "winner": None,
        "reason": None,
        "turn": 3,
        "players": {"red": "alice", "blue": "bob"},
        "ships": opening() if ships is None else ships,
        "debris": [],
        "debris_reserve": 8,
    }
    view.update(extra)
    return view


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def picture(view: dict[str, Any], **kwargs: Any) -> Image.Image:
    """The drawing without the PNG round trip (the same pixels, a quarter of the time)."""
    return board_image(view, **kwargs).convert("RGB")


def cell_crop(image: Image.Image, cell: str) -> bytes:
    """The pixels of the square inside `cell`'s hexagon (neighbours stay out of it)."""
    layout = layout_for()
    x, y = layout.centre(cell)
    half = int(layout.hex_size * 0.75)
    return image.crop((x - half, y - half, x + half, y + half)).tobytes()


def colours_in(image: Image.Image, cell: str) -> set[tuple[int, int, int]]:
    data = cell_crop(image, cell)
    return {tuple(data[i : i + 3]) for i in range(0, len(data), 3)}


def panel(image: Image.Image) -> bytes:
    layout = layout_for()
    return image.crop((layout.panel_left, layout.board_top, WIDTH, image.height)).tobytes()


# -- the picture ------------------------------------------------------------------------------------
def test_board_is_a_png_and_deterministic() -> None:
    ships = opening()
    ships["blue_cargo2"].update(alive=False, at=None)
    ships["red_patrol1"].update(alive=False, at=None)
    view = view_of(ships, debris=["F11", "D6", "J4"], debris_reserve=5)
    first = render_board(view, title="HexArena — turn 3", highlight=["G7"])
    assert first.startswith(PNG_SIGNATURE)
    assert render_board(copy.deepcopy(view), title="HexArena — turn 3", highlight=["G7"]) == first
    shuffled = copy.deepcopy(view)  # debris is a set; the ships' order says nothing either
    shuffled["debris"].reverse()
    shuffled["ships"] = dict(reversed(list(shuffled["ships"].items())))
    assert render_board(shuffled, title="HexArena — turn 3", highlight=["G7"]) == first


def test_ha1_layout_rows_from_the_top_cells_from_the_left_at_phone_width() -> None:
    layout = layout_for()
    assert len(BOARD) == 127
    assert layout.size[0] == WIDTH and layout.label_size >= 12  # no text under 12 px at 1,080 px
    a1, a7, g1, g7, g13, m1 = (layout.centre(cell) for cell in ("A1", "A7", "G1", "G7", "G13", "M1"))
    assert a1[1] < g7[1] < m1[1] and a1[1] == a7[1] and a1[0] < a7[0]
    assert g1[0] < g7[0] < g13[0] and g1[1] == g7[1] == g13[1]
    assert a1[0] == m1[0]
    for cell in BOARD:
        x, y = layout.hex_centre(cell)
        assert 0 < x < layout.panel_left and layout.board_top < y < layout.board_bottom


def test_ha2_both_bases_are_tinted_nine_cells_and_the_rest_is_floor() -> None:
    image = picture(view_of({}))
    layout = layout_for()
    assert {BOARD.format(cell) for cell in BASES["red"]} == {
        "G1",
        "F1",
        "G2",
        "H1",
        "E1",
        "F2",
        "G3",
        "H2",
        "I1",
    }
    assert {BOARD.format(cell) for cell in BASES["blue"]} == {
        "G13", "F12", "G12", "H12", "E11", "F11", "G11", "H11", "I11"
    }  # fmt: skip
    for cell in BOARD:
        side = next((side for side, cells in BASES.items() if cell in cells), None)
        expected = SIDE_TINTS[side] if side else common.FLOOR
        assert image.getpixel(layout.centre(BOARD.format(cell))) == expected, BOARD.format(cell)
    red_edge = layout.centre("G3")  # the base's outline, in its side's colour, on its outer side (E)
    assert (
        image.getpixel((red_edge[0] + round(layout.hex_size * math.sqrt(3) / 2), red_edge[1]))
        == common.VERMILLION
    )


@pytest.mark.parametrize("side", ["red", "blue"])
@pytest.mark.parametrize("type_", ["admiral", "fighter", "cargo", "patrol"])
def test_each_ship_paints_its_side_colour_at_its_cell_centre_whatever_its_facing(
    side: str, type_: str
) -> None:
    facings = FACINGS if type_ != "patrol" else (None,)
    for facing in facings:
        image = picture(view_of({"s": ship(side, type_, "G7", facing)}))
        assert image.getpixel(layout_for().centre("G7")) == SIDE_COLOURS[side], facing


def test_the_opening_fleets_wear_their_sides_colours() -> None:
    view = view_of()
    image = decode(render_board(view))
    for ship_id, data in view["ships"].items():
        assert image.getpixel(layout_for().centre(data["at"])) == SIDE_COLOURS[data["side"]], ship_id


def test_every_type_has_its_own_glyph() -> None:
    crops = {cell_crop(picture(view_of({"s": ship("red", t, "G7", "E")})), "G7") for t in FACED + ("patrol",)}
    assert len(crops) == 4


@pytest.mark.parametrize("type_", FACED)
def test_ha3_the_hull_points_where_the_ship_faces(type_: str) -> None:
    """Halfway to the nose is hull colour; nearly as far as the nose the other way is the floor."""
    layout = layout_for()
    crops = set()
    for facing in FACINGS:
        image = picture(view_of({"s": ship("blue", type_, "G7", facing)}))
        crops.add(cell_crop(image, "G7"))
        x, y = layout.centre("G7")
        dx, dy = math.cos(math.radians(ANGLES[facing])), math.sin(math.radians(ANGLES[facing]))
        r = layout.ship_radius
        ahead = (round(x + 0.5 * r * dx), round(y + 0.5 * r * dy))
        behind = (round(x - 0.9 * r * dx), round(y - 0.9 * r * dy))
        assert image.getpixel(ahead) == SIDE_COLOURS["blue"], facing
        assert image.getpixel(behind) == common.FLOOR, facing
    assert len(crops) == len(FACINGS)


def test_ha3_a_patrol_has_no_facing() -> None:
    crops = {cell_crop(picture(view_of({"s": ship("red", "patrol", "G7", f)})), "G7") for f in FACINGS}
    assert len(crops) == 1


def test_sides_differ_by_mark_as_well_as_colour() -> None:
    """Colour is not the only cue: the white mark on a hull is a disc for blue and a square for red."""

    def white_pixels(side: str) -> int:
        image = picture(view_of({"s": ship(side, "cargo", "G7", "E")}))
        data = cell_crop(image, "G7")
        return sum(1 for i in range(0, len(data), 3) if tuple(data[i : i + 3]) == common.WHITE)

    assert white_pixels("red") != white_pixels("blue")


def test_ha6_a_cargo_carrying_the_admiral_shows_the_star() -> None:
    empty = picture(view_of({"c": ship("red", "cargo", "F5", "SE"), "a": ship("red", "admiral", "A1")}))
    ships = {"c": ship("red", "cargo", "F5", "SE"), "a": ship("red", "admiral", None, carried_by="c")}
    loaded = picture(view_of(ships))
    assert cell_crop(loaded, "F5") != cell_crop(empty, "F5")
    assert STAR in colours_in(loaded, "F5") and STAR not in colours_in(empty, "F5")
    assert loaded.getpixel(layout_for().centre("F5")) == SIDE_COLOURS["red"]  # still the cargo's colour
    assert STAR in colours_in(empty, "A1")  # an admiral on its own wears the star too
    assert cell_crop(loaded, "A1") == cell_crop(
        picture(view_of({"c": ship("red", "cargo", "F5", "SE")})), "A1"
    )


def test_ha11_debris_on_the_board_and_in_the_reserve() -> None:
    plain = picture(view_of())
    wrecked = picture(view_of(debris=["D6", "J4"], debris_reserve=6))
    for cell in ("D6", "J4"):
        assert DEBRIS in colours_in(wrecked, cell) and DEBRIS not in colours_in(plain, cell)
    assert panel(wrecked) != panel(plain)
    assert panel(picture(view_of(debris_reserve=0))) != panel(plain)


def test_ha11_destroyed_ships_leave_the_board_for_their_sides_graveyard() -> None:
    alive = picture(view_of({"f": ship("blue", "fighter", "G7", "W"), "p": ship("red", "patrol", "A1")}))
    gone = picture(
        view_of({"f": ship("blue", "fighter", "G7", "W", alive=False), "p": ship("red", "patrol", "A1")})
    )
    empty = picture(view_of({"p": ship("red", "patrol", "A1")}))
    assert cell_crop(gone, "G7") == cell_crop(empty, "G7")  # a dead ship is not drawn even with a cell
    assert panel(gone) != panel(alive)
    layout = layout_for()
    graveyards = gone.crop((layout.panel_left, layout.board_top, WIDTH, layout.board_top + 360))
    assert SIDE_COLOURS["blue"] in {colour for _, colour in graveyards.getcolors(1 << 16)}
    red_dead = picture(
        view_of({"f": ship("blue", "fighter", "G7", "W"), "p": ship("red", "patrol", None, alive=False)})
    )
    assert panel(red_dead) != panel(gone)  # the other side's graveyard


def test_highlight_outlines_the_last_move() -> None:
    plain = picture(view_of())
    marked = picture(view_of(), highlight=["G7", "G3"])
    for cell in ("G7", "G3"):
        assert cell_crop(marked, cell) != cell_crop(plain, cell)
    assert HIGHLIGHT in colours_in(marked, "G7")
    assert marked.getpixel(layout_for().centre("G3")) == SIDE_COLOURS["red"]  # the fighter stays on top
    assert HIGHLIGHT not in colours_in(marked, "G3")  # a base cell keeps its tint under the outline
    assert cell_crop(marked, "G9") == cell_crop(plain, "G9")


@pytest.mark.parametrize(("winner", "colour"), [("red", common.VERMILLION), ("blue", common.BLUE)])
def test_a_finished_view_shows_the_winners_banner(winner: str, colour: tuple[int, int, int]) -> None:
    playing = decode(render_board(view_of()))
    finished = decode(render_board(view_of(winner=winner, reason="base_reached", status="finished")))
    layout = layout_for()
    header = (0, 0, WIDTH, layout.board_top)
    assert finished.crop(header).tobytes() != playing.crop(header).tobytes()
    assert playing.getpixel((WIDTH - 4, 59)) == common.PAPER
    assert finished.getpixel((WIDTH - 4, 59)) == colour
    board = (0, layout.board_top, WIDTH, finished.height)
    assert finished.crop(board).tobytes() == playing.crop(board).tobytes()


def test_whose_move_title_variants_and_labels_change_the_header() -> None:
    plain = render_board(view_of())
    assert render_board(view_of(to_move="blue")) != plain
    assert render_board(view_of(), title="Game 2") != plain
    assert render_board(view_of(variants=["omega"])) != plain
    assert render_board(view_of(), labels=picture_labels("fr")) != plain


def test_every_word_drawn_is_given_a_missing_one_is_named() -> None:
    """The render has no words of its own: a label left out is an error, never an English default."""
    labels = {key: text for key, text in ENGLISH.items() if key != "graveyard"}
    with pytest.raises(ValueError, match="graveyard"):
        render_board(view_of(), labels=labels)


def test_the_engines_own_view_renders() -> None:
    """The view's shape is the engine's, not a guess of this test's: the opening renders as expected."""
    hexarena = pytest.importorskip("engine.hexarena")  # the engine lands with its own commit

    view = hexarena.HEXARENA.view(hexarena.HEXARENA.setup({}))
    image = decode(render_board(view, highlight=["G3"]))
    assert image.getpixel(layout_for().centre("G1")) == SIDE_COLOURS["red"]
    assert image.getpixel(layout_for().centre("G12")) == SIDE_COLOURS["blue"]


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"ships": {"s": ship("red", "fighter", "N1")}}, "N1"),  # rows A..M
        ({"ships": {"s": ship("red", "fighter", "A8")}}, "A8"),  # row A has 7 cells
        ({"ships": {"s": ship("red", "cargo", "G7", "north")}}, "north"),
        ({"ships": {"s": ship("red", "admiral", "G7", None)}}, "None"),
        ({"ships": {"s": ship("red", "frigate", "G7")}}, "frigate"),
        ({"ships": {"s": ship("green", "fighter", "G7")}}, "green"),
        ({"ships": {"s": ship("red", "admiral", None, carried_by="nobody")}}, "nobody"),
        ({"debris": ["G14"]}, "G14"),
    ],
)
def test_a_view_that_does_not_fit_the_board_raises_value_error_naming_it(
    extra: dict[str, Any], named: str
) -> None:
    view = view_of()
    view.update(extra)
    with pytest.raises(ValueError, match=named):
        render_board(view)


def test_bad_highlight_raises_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="Z1"):
        render_board(view_of(), highlight=["Z1"])


# -- the last action (issue 27) -------------------------------------------------------------------------
def _ink_along(image: Image.Image, a: str, b: str) -> list[bool]:
    """Whether each pixel on the straight line between the centres of `a` and `b` (their middle
    half) is black: the shaft of an arrow or a tracer."""
    layout = layout_for()
    (ax, ay), (bx, by) = layout.centre(a), layout.centre(b)
    steps = round(math.dist((ax, ay), (bx, by)))
    return [image.getpixel((round(ax + (bx - ax) * k / steps), round(ay + (by - ay) * k / steps))) == common.BLACK
            for k in range(steps // 4, 3 * steps // 4)]


def test_a_move_is_a_solid_arrow_between_its_two_cells_outlined_alone() -> None:
    ships = {"f": ship("red", "fighter", "G9", "E")}
    image = picture(view_of(ships), marks=[Mark(MOVE, ("G3", "G9"))])
    assert all(_ink_along(image, "G4", "G8"))  # the shaft, unbroken
    assert HIGHLIGHT in colours_in(image, "G9") and HIGHLIGHT not in colours_in(image, "G6")
    assert image.getpixel(layout_for().centre("G3")) != common.FLOOR  # the cell left is outlined too


def test_a_teleport_is_a_dashed_arrow_from_where_it_left_to_where_it_arrived_not_its_path() -> None:
    ships = {"p": ship("blue", "patrol", "A7")}
    image = picture(view_of(ships), marks=[Mark(JUMP, ("M1", "A7"))])
    dashes = _ink_along(image, "M1", "A7")
    assert any(dashes) and not all(dashes)  # dashed: ink and gaps
    for cell in ("G4", "F5", "H3"):  # the cells on its way are neither outlined nor crossed
        assert HIGHLIGHT not in colours_in(image, cell)
    assert HIGHLIGHT in colours_in(image, "M1") and HIGHLIGHT in colours_in(image, "A7")


def test_a_shot_is_a_tracer_to_an_impact_on_its_target_and_the_target_a_ghost() -> None:
    ships = {"a": ship("red", "admiral", "G1")}
    plain = picture(view_of(ships, debris=["G6"]))
    shot = picture(view_of(ships, debris=["G6"]), marks=[Mark(SHOT, ("G1", "G6")),
                                                         Mark(GHOST, ("G6",), side="blue", piece="fighter")])
    assert IMPACT in colours_in(shot, "G6") and IMPACT not in colours_in(plain, "G6")
    assert SIDE_COLOURS["blue"] in colours_in(shot, "G6")  # the ghost of the fighter destroyed there
    assert SIDE_COLOURS["blue"] not in colours_in(plain, "G6")
    assert any(_ink_along(shot, "G2", "G5")) and not all(_ink_along(shot, "G2", "G5"))  # dots
    assert DEBRIS in colours_in(shot, "G6")  # the debris that took the cell stays seen


def test_a_ram_marks_an_impact_between_both_ships() -> None:
    ships = {"p": ship("blue", "patrol", "G6")}
    image = picture(view_of(ships), marks=[Mark(RAM, ("G6", "G7"))])
    layout = layout_for()
    (ax, ay), (bx, by) = layout.centre("G6"), layout.centre("G7")
    assert image.getpixel(((ax + bx) // 2, (ay + by) // 2)) == IMPACT
    assert HIGHLIGHT in colours_in(image, "G6") or image.getpixel((ax, ay - 20)) == HIGHLIGHT
    assert HIGHLIGHT in colours_in(image, "G7")


def test_a_turned_ship_shows_the_heading_it_left() -> None:
    ships = {"f": ship("red", "fighter", "G7", "NE")}
    turned = picture(view_of(ships), marks=[Mark(TURN, ("G7",), side="red", piece="fighter", facings=("W", "NE"))])
    outlined = picture(view_of(ships), highlight=["G7"])
    x, y = layout_for().centre("G7")
    behind = (round(x - 0.9 * layout_for().ship_radius), y)  # where the old nose pointed (W)
    assert turned.getpixel(behind) == SIDE_COLOURS["red"] and outlined.getpixel(behind) != SIDE_COLOURS["red"]


@pytest.mark.parametrize(("facings", "turned_through", "not_through"), [
    (("E", "SE"), 30, -30),  # clockwise, a sixth of a turn
    (("E", "NE"), -30, 30),  # counter-clockwise
    (("E", "W"), 90, -90),  # half a turn reads clockwise, round the bottom
])
def test_a_turn_is_an_arc_arrow_the_way_it_turned(facings: tuple[str, str], turned_through: float,
                                                  not_through: float) -> None:
    """The old heading hollow said a ship turned, not which way: the arc runs round the ship from
    the old heading to the new, the short way round."""
    layout = layout_for()
    ships = {"f": ship("red", "fighter", "G7", facings[1])}
    image = picture(view_of(ships), marks=[Mark(TURN, ("G7",), side="red", piece="fighter", facings=facings)])
    x, y = layout.centre("G7")

    def inked(angle: float) -> bool:
        px, py = x + layout.turn_radius * math.cos(math.radians(angle)), y + layout.turn_radius * math.sin(
            math.radians(angle))
        return any(image.getpixel((round(px) + dx, round(py) + dy)) == common.BLACK
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    assert inked(turned_through) and not inked(not_through)


def test_arkeon_draws_no_turn_arc() -> None:
    """The arc is HexArena's: a board that does not ask for it (Arkeon) draws a turn as before."""
    from renders import hexmarks

    canvas = common.Canvas(Image.new("RGB", (200, 200), common.FLOOR))
    geometry = layout_for().geometry
    placed = hexmarks.place([Mark(TURN, ("G7",), side="red", piece="fighter", facings=("E", "SE"))],
                            lambda text, where: BOARD.parse(text))
    before = canvas.image.tobytes()
    hexmarks.draw_actions(canvas, geometry, placed, 12, lambda cell: common.FLOOR)
    assert canvas.image.tobytes() == before


def test_a_destroyed_ship_is_ghosted_facing_as_it_stood() -> None:
    """The view keeps a destroyed ship's facing: its ghost points where the ship did, not up."""
    from bot.games.hexarena import last_marks
    from engine.core.protocol import Event

    layout = layout_for()
    ships = {"blue_fighter1": ship("blue", "fighter", None, "SW", alive=False)}
    view = view_of(ships)
    events = [Event("destroyed", {"ship": "blue_fighter1", "side": "blue", "type": "fighter", "at": "G7",
                                  "by": "red_fighter1", "debris": False, "released": None, "reserve": 8})]
    marks = last_marks(events, view)
    assert marks == [Mark(GHOST, ("G7",), side="blue", piece="fighter", facings=("SW",))]
    image = picture(view, marks=marks)
    x, y = layout.centre("G7")
    nose = (x + 0.95 * layout.ship_radius * math.cos(math.radians(ANGLES["SW"])),
            y + 0.95 * layout.ship_radius * math.sin(math.radians(ANGLES["SW"])))
    near = {image.getpixel((round(nose[0]) + dx, round(nose[1]) + dy)) for dx in (-2, -1, 0, 1, 2)
            for dy in (-2, -1, 0, 1, 2)}
    assert SIDE_COLOURS["blue"] in near
    with pytest.raises(ValueError, match="at most one facing"):
        render_board(view, marks=[Mark(GHOST, ("G7",), side="blue", piece="fighter", facings=("SW", "E"))])


def test_turn_and_ram_golden_french(golden) -> None:
    """A fighter turns, then rams a fighter to destruction, drawn as the bot posts it: the arc the
    way it turned, the old heading hollow, the impact, the rammed ship ghosted as it faced."""
    from bot.games.hexarena import caption, last_marks, ship_number
    from engine.core.protocol import Event

    ships = opening()
    ships["blue_fighter2"].update(alive=False, at=None)
    ships["red_fighter1"].update(at="G9", facing="NE")
    view = view_of(ships, to_move="blue")
    events = [Event("rotated", {"ship": "red_fighter1", "at": "G9", "from": "E", "to": "NE"}),
              Event("rammed", {"ship": "red_fighter1", "at": "G9", "direction": "NE", "target": "blue_fighter2",
                               "target_at": "F9"}),
              Event("destroyed", {"ship": "blue_fighter2", "side": "blue", "type": "fighter", "at": "F9",
                                  "by": "red_fighter1", "debris": False, "released": None, "reserve": 8})]
    numbers = {ident: n for ident in ships if (n := ship_number(ident))}
    with common.recording_text() as said:
        png = drawn.render_board(view, labels=picture_labels("fr"), title="Arena — HexArena",
                                 marks=last_marks(events, view), caption=caption(events, "fr"), numbers=numbers)
    assert any(line.startswith("Dernier coup") for line in said)
    assert {"alice", "bob"} <= set(said), "each side's player is named in the panel: who moved is on the picture"
    from tests.bot.every_game.leaks import leaked_words, missing_lists

    if not missing_lists():  # every word drawn is French (the ships' ids are not drawn, their names are;
        # the players' names are theirs)
        assert not leaked_words(" ".join(said), "fr", ("Arena", *filter(None, view["players"].values())))
    golden("hexarena_turn_ram_fr.png", png)


def test_the_last_moves_outline_leaves_the_coordinates_readable() -> None:
    """The thick outline runs under a cell's coordinates: the label sits on a box of the cell's colour."""
    layout = layout_for()
    image = picture(view_of({}), highlight=["G7", "E10"])
    for cell in ("G7", "E10"):
        x, y = layout.centre(cell)
        top = y - 0.66 * layout.hex_size
        box = image.crop((x - 8, round(top - layout.label_size / 2), x + 8, round(top + layout.label_size / 2)))
        assert common.BLACK not in {colour for _, colour in box.getcolors(1 << 16)}, cell


def test_the_patrols_mark_sits_on_its_centre_pointing_nowhere() -> None:
    """A faced ship wears its side mark at its tail; the patrol, which has no facing, round its centre."""
    layout = layout_for()
    for side in ("red", "blue"):
        image = picture(view_of({"p": ship(side, "patrol", "G7")}))
        x, y = layout.centre("G7")
        r = round(layout.ship_radius)
        whites = [(i, j) for i in range(x - r, x + r) for j in range(y - r, y + r) if image.getpixel((i, j)) == common.WHITE]
        cx, cy = sum(i for i, _ in whites) / len(whites), sum(j for _, j in whites) / len(whites)
        assert abs(cx - x) < 1.5 and abs(cy - y) < 1.5, side


def test_ships_are_numbered_as_their_names_are_and_the_caption_is_told_whole() -> None:
    long = "Dernier coup : " + "Chasseur rouge 2 se déplace G3 → G10. " * 6
    ships = {"red_fighter2": ship("red", "fighter", "G10", "E"), "red_admiral1": ship("red", "admiral", "G1")}
    with common.recording_text() as drawn:
        image = picture(view_of(ships), numbers={"red_fighter2": "2"}, caption=[long])
    assert "2" in drawn
    told = [line for line in drawn if "Chasseur" in line or "G10." in line]
    assert " ".join(told).split() == long.split()  # every word, over several lines, none cut
    assert len(told) > 1 and image.height > layout_for().size[1]


def test_bad_marks_raise_value_error_naming_them() -> None:
    with pytest.raises(ValueError, match="Z9"):
        render_board(view_of(), marks=[Mark(MOVE, ("G1", "Z9"))])
    with pytest.raises(ValueError, match="frigate"):
        render_board(view_of(), marks=[Mark(GHOST, ("G1",), side="red", piece="frigate")])
    with pytest.raises(ValueError, match="bounce"):
        render_board(view_of(), marks=[Mark("bounce", ("G1", "G2"))])


def test_last_turn_golden_french(golden) -> None:
    """A shot that destroys a fighter, drawn and told as the bot posts it (the presenter's marks,
    caption and numbers from the engine's events): the tracer, the impact, the ghost on its debris."""
    from bot.games.hexarena import caption, last_marks, ship_number
    from engine.core.protocol import Event

    ships = opening()
    ships["blue_fighter2"].update(alive=False, at=None)
    ships["red_fighter1"].update(at="G5")
    view = view_of(ships, debris=["G11"], debris_reserve=7, to_move="blue")
    events = [Event("fired", {"ship": "red_fighter1", "at": "G5", "direction": "E",
                              "line": ["G6", "G7", "G8", "G9", "G10", "G11"], "target": "blue_fighter2"}),
              Event("destroyed", {"ship": "blue_fighter2", "side": "blue", "type": "fighter", "at": "G11",
                                  "by": "red_fighter1", "debris": True, "released": None, "reserve": 7})]
    numbers = {ident: n for ident in ships if (n := ship_number(ident))}
    png = drawn.render_board(view, labels=picture_labels("fr"), title="Arena — HexArena", marks=last_marks(events, view),
                             caption=caption(events, "fr"), numbers=numbers)
    golden("hexarena_last_turn_fr.png", png)
