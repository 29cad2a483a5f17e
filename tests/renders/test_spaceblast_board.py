"""The SpaceBlast board, its replay GIF (SB-1 arena and notation, SB-2 facings, SB-12 gone ships)."""

from __future__ import annotations

import copy
import functools
import io
import math
from dataclasses import replace
from typing import Any
from unittest.mock import patch

import pytest
from PIL import Image, ImageDraw, ImageSequence

from bot.games.spaceblast.words import picture_labels
from renders import common
from renders.spaceblast import animation, layout_for
from renders.spaceblast import board as drawn
from renders.spaceblast.board import WIDTH
from renders.spaceblast.style import ANGLES, SHIP_COLOURS, draw_ship, ship_styles

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: the words every picture of these tests draws: the English catalog's (the bot's words for the arena)
ENGLISH = picture_labels("en")


def render_board(view: dict[str, Any], radius: int, **options: Any) -> bytes:
    return drawn.render_board(view, radius, **{"labels": ENGLISH, **options})


def board_image(view: dict[str, Any], radius: int, **options: Any) -> Image.Image:
    return drawn.board_image(view, radius, **{"labels": ENGLISH, **options})


def render_turn_gif(frames: Any, radius: int, **options: Any) -> bytes:
    return animation.render_turn_gif(frames, radius, **{"labels": ENGLISH, **options})
FACINGS = ("E", "NE", "NW", "W", "SW", "SE")


def ship(at: str | None, facing: str = "E", **extra: Any) -> dict[str, Any]:
    data = {
        "at": at,
        "facing": facing,
        "hits": 1,
        "alive": at is not None,
        "turns": 8,
        "brakes": 2,
        "missiles": 6,
        "mines": 3,
        "score": 2,
        "disqualified": False,
    }
    data.update(extra)
    return data


def view_of(ships: dict[str, dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A radius-6 game; without `ships`, six ships in seat order spread over the arena."""
    if ships is None:
        ships = {
            "red": ship("C3", "SE"), "blue": ship("B6", "SW", hits=2), "green": ship("F10", "W"),
            "amber": ship("K6", "NW", hits=3), "sky": ship("J2", "NE"), "pink": ship("G4", "E", hits=0),
        }  # fmt: skip
    view = {"turn": 3, "winner": None, "ships": ships, "missiles": [], "mines": [], "asteroids": []}
    view.update(extra)
    return view


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def cell_crop(image: Image.Image, radius: int, cell: str) -> bytes:
    """The pixels of the square inside `cell`'s hexagon (neighbours stay out of it)."""
    layout = layout_for(radius)
    x, y = layout.centre(cell)
    half = int(layout.hex_size * 0.8)
    return image.crop((x - half, y - half, x + half, y + half)).tobytes()


def colours_in(image: Image.Image, radius: int, cell: str) -> set[tuple[int, int, int]]:
    data = cell_crop(image, radius, cell)
    return {tuple(data[i : i + 3]) for i in range(0, len(data), 3)}


# -- the picture ------------------------------------------------------------------------------------
def test_board_is_a_png_and_deterministic() -> None:
    view = view_of(
        missiles=[{"owner": "red", "at": "F5", "facing": "SE"}, {"owner": "blue", "at": "E4", "facing": "W"}],
        mines=[{"owner": "sky", "at": "H2", "active": True}, {"owner": "red", "at": "A1", "active": False}],
        asteroids=["E8", "I8"],
    )
    first = render_board(view, 6, title="Game 1", highlight=["G7"])
    assert first.startswith(PNG_SIGNATURE)
    assert render_board(copy.deepcopy(view), 6, title="Game 1", highlight=["G7"]) == first
    shuffled = copy.deepcopy(view)  # missiles, mines and asteroids are sets: their order does not matter
    for key in ("missiles", "mines", "asteroids"):
        shuffled[key].reverse()
    assert render_board(shuffled, 6, title="Game 1", highlight=["G7"]) == first


def test_sb1_layout_rows_from_the_top_cells_from_the_left() -> None:
    layout = layout_for(6)
    assert layout.size[0] == WIDTH
    a1, a7, g1, g7, g13, m1 = (layout.centre(cell) for cell in ("A1", "A7", "G1", "G7", "G13", "M1"))
    assert a1[1] < g7[1] < m1[1] and a1[1] == a7[1] and a1[0] < a7[0]
    assert g1[0] < g7[0] < g13[0] and g1[1] == g7[1] == g13[1]
    assert g7[0] == WIDTH // 2 and a1[0] == m1[0]


def test_each_ship_paints_its_seat_colour_at_its_cell_centre() -> None:
    view = view_of()
    image = decode(render_board(view, 6))
    layout = layout_for(6)
    for seat, data in enumerate(view["ships"].values()):
        assert image.getpixel(layout.centre(data["at"])) == SHIP_COLOURS[seat]
    assert image.getpixel(layout.centre("G7")) == common.FLOOR


@pytest.mark.parametrize("facing", FACINGS)
def test_sb2_the_dart_points_where_the_ship_faces(facing: str) -> None:
    """Halfway to the tip is hull colour; as far the other way, past the notch, is the floor."""
    layout = layout_for(6)
    image = decode(render_board(view_of({"red": ship("G7", facing)}), 6))
    x, y = layout.centre("G7")
    angle = math.radians(ANGLES[facing])
    ahead = (
        round(x + 0.5 * layout.ship_radius * math.cos(angle)),
        round(y + 0.5 * layout.ship_radius * math.sin(angle)),
    )
    behind = (
        round(x - 0.75 * layout.ship_radius * math.cos(angle)),
        round(y - 0.75 * layout.ship_radius * math.sin(angle)),
    )
    assert image.getpixel(ahead) == SHIP_COLOURS[0]
    assert image.getpixel(behind) == common.FLOOR


def test_sb2_every_facing_draws_a_different_glyph() -> None:
    crops = set()
    for facing in FACINGS:
        image = decode(render_board(view_of({"red": ship("G7", facing)}), 6))
        crops.add(cell_crop(image, 6, "G7"))
    assert len(crops) == len(FACINGS)


def test_seats_differ_by_marker_as_well_as_colour() -> None:
    """Colour is not the only cue: each seat's dart carries its own marker shape, and two darts of the
    same colour and heading with different markers look different."""
    styles = list(ship_styles(view_of()).values())
    assert len({st.colour for st in styles}) == len({st.marker for st in styles}) == 6
    pictures = set()
    for st in styles:
        image = Image.new("RGB", (60, 60), common.FLOOR)
        draw_ship(ImageDraw.Draw(image), (30, 30), 24, 0.0, replace(st, colour=common.BLUE, ink=common.WHITE))
        pictures.add(image.tobytes())
    assert len(pictures) == 6


def test_missiles_mines_and_asteroids_appear_in_their_cells() -> None:
    empty = decode(render_board(view_of({"red": ship("A1"), "blue": ship("M7")}), 6))
    view = view_of(
        {"red": ship("A1"), "blue": ship("M7")},
        missiles=[{"owner": "blue", "at": "F5", "facing": "NE"}],
        mines=[{"owner": "red", "at": "H2", "active": True}, {"owner": "blue", "at": "D8", "active": False}],
        asteroids=["E8"],
    )
    image = decode(render_board(view, 6))
    for cell in ("F5", "H2", "D8", "E8"):
        assert cell_crop(image, 6, cell) != cell_crop(empty, 6, cell), cell
    assert SHIP_COLOURS[1] in colours_in(image, 6, "F5")  # the missile wears its owner's colour
    assert SHIP_COLOURS[0] in colours_in(image, 6, "H2")  # so does the mine
    assert SHIP_COLOURS[1] in colours_in(image, 6, "D8")
    assert common.OBSTACLE in colours_in(image, 6, "E8")


def test_missile_direction_and_mine_state_change_the_picture() -> None:
    def crop(**extra: Any) -> bytes:
        return cell_crop(decode(render_board(view_of({"red": ship("A1")}, **extra), 6)), 6, "G7")

    arrows = {crop(missiles=[{"owner": "red", "at": "G7", "facing": f}]) for f in FACINGS}
    assert len(arrows) == len(FACINGS)
    armed = crop(mines=[{"owner": "red", "at": "G7", "active": True}])
    inert = crop(mines=[{"owner": "red", "at": "G7", "active": False}])
    assert armed != inert


def test_a_ship_on_its_mine_and_a_missile_keeps_its_colour_at_the_centre() -> None:
    view = view_of(
        {"red": ship("G7", "NE")},
        mines=[{"owner": "red", "at": "G7", "active": False}],
        missiles=[{"owner": "red", "at": "G7", "facing": "NE"}],
    )
    image = decode(render_board(view, 6))
    assert image.getpixel(layout_for(6).centre("G7")) == SHIP_COLOURS[0]
    alone = decode(render_board(view_of({"red": ship("G7", "NE")}), 6))
    assert cell_crop(image, 6, "G7") != cell_crop(alone, 6, "G7")


def test_hull_pips_follow_hits() -> None:
    crops = {
        cell_crop(decode(render_board(view_of({"red": ship("G7", hits=h)}), 6)), 6, "G7") for h in range(5)
    }
    assert len(crops) == 5


@pytest.mark.parametrize("radius", [4, 5, 6, 7, 8, 9])
def test_every_radius_renders_at_phone_width_with_corners_inside(radius: int) -> None:
    layout = layout_for(radius)
    assert layout.size[0] == WIDTH and layout.label_size >= 12  # no text under 12 px at 1,080 px
    last_row = "ABCDEFGHIJKLMNOPQRS"[2 * radius]
    corners = ("A1", f"A{radius + 1}", f"{last_row}1", f"{last_row}{radius + 1}")
    ships = {f"s{k}": ship(cell, "E") for k, cell in enumerate(corners)}
    image = decode(render_board(view_of(ships), radius))
    assert image.size == layout_for(radius, ships=len(ships)).size
    for seat, cell in enumerate(corners):
        x, y = layout.centre(cell)
        assert 0 < x < WIDTH and layout.board_top < y < layout.board_bottom
        assert image.getpixel((x, y)) == SHIP_COLOURS[seat]


@pytest.mark.parametrize("gone", [{"alive": False, "at": None}, {"alive": False}, {"at": None}])
def test_sb12_gone_ships_are_not_drawn(gone: dict[str, Any]) -> None:
    empty = decode(render_board(view_of({"red": ship("A1")}), 6))
    flying = decode(render_board(view_of({"red": ship("A1"), "blue": ship("G7")}), 6))
    assert cell_crop(flying, 6, "G7") != cell_crop(empty, 6, "G7")
    blue = ship("G7")
    blue.update(gone)
    view = view_of({"red": ship("A1"), "blue": blue})
    image = decode(render_board(view, 6))
    assert cell_crop(image, 6, "G7") == cell_crop(empty, 6, "G7")
    assert SHIP_COLOURS[1] not in {colour for _, colour in image.getcolors(1 << 16)}  # greyed in the legend


def test_highlight_tints_the_cells() -> None:
    image = decode(render_board(view_of(), 6, highlight=["G7"]))
    assert common.AREA_TINT in colours_in(image, 6, "G7")
    assert common.AREA_TINT not in colours_in(image, 6, "G9")


def test_title_turn_and_winner_change_the_header_only() -> None:
    plain = decode(render_board(view_of(), 6))
    layout = layout_for(6)
    for changed in (
        decode(render_board(view_of(), 6, title="Game 7")),
        decode(render_board(view_of(turn=4), 6)),
        decode(render_board(view_of(winner="red"), 6)),
    ):
        header = (0, 0, WIDTH, layout.board_top)
        assert changed.crop(header).tobytes() != plain.crop(header).tobytes()


def test_labels_translate_the_legend() -> None:
    assert render_board(view_of(), 6, labels=picture_labels("fr")) != render_board(view_of(), 6)


def test_every_word_drawn_is_given_a_missing_one_is_named() -> None:
    """The render has no words of its own: a label left out is an error, never an English default."""
    labels = {key: text for key, text in ENGLISH.items() if key != "asteroid"}
    with pytest.raises(ValueError, match="asteroid"):
        render_board(view_of(), 6, labels=labels)


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({"ships": {"red": ship("Z99")}}, "Z99"),
        ({"ships": {"red": ship("A8")}}, "A8"),  # row A of radius 6 has 7 cells
        ({"missiles": [{"owner": "red", "at": "N1", "facing": "E"}]}, "N1"),
        ({"mines": [{"owner": "red", "at": "G14", "active": True}]}, "G14"),
        ({"asteroids": ["Q3"]}, "Q3"),
        ({"ships": {"red": ship("G7", "north")}}, "north"),
        ({"missiles": [{"owner": "red", "at": "G7", "facing": "up"}]}, "up"),
    ],
)
def test_a_view_that_does_not_fit_the_arena_raises_value_error_naming_it(
    extra: dict[str, Any], named: str
) -> None:
    view = view_of({"red": ship("A1")})
    view.update(extra)
    with pytest.raises(ValueError, match=named):
        render_board(view, 6)


def test_bad_highlight_and_radius_raise_value_error() -> None:
    with pytest.raises(ValueError, match="K12"):
        render_board(view_of(), 6, highlight=["K12"])
    with pytest.raises(ValueError, match="radius"):
        render_board(view_of(), 3)
    with pytest.raises(ValueError, match="M7"):
        render_board(view_of({"red": ship("M7")}), 4)  # radius 4 has rows A..I only


# -- the turn GIF ------------------------------------------------------------------------------------
def turn_frames(count: int) -> list[dict[str, Any]]:
    """One turn's phase steps: a missile crossing row G, one ship turning, hits landing."""
    frames = []
    for step in range(count):
        frame = view_of(missiles=[{"owner": "red", "at": f"G{1 + step % 13}", "facing": "E"}])
        frame["ships"]["red"]["facing"] = FACINGS[step % 6]
        frame["ships"]["blue"]["hits"] = min(4, step // 3)
        frame["caption"] = f"phase step {step + 1}"
        frames.append(frame)
    return frames


@pytest.mark.parametrize("count", [1, 6, 12])
def test_gif_has_one_frame_per_view_and_stays_small(count: int) -> None:
    gif = render_turn_gif(turn_frames(count), 6, title="Turn 3")
    assert gif.startswith(b"GIF89a")
    image = Image.open(io.BytesIO(gif))
    assert image.n_frames == count
    assert image.size == layout_for(6).size
    assert len(gif) < 1_000_000  # Discord takes 10 MB


def test_gif_frames_show_the_boards_exactly() -> None:
    """Delta frames (unchanged pixels left transparent) must add up to each full board."""
    frames = turn_frames(5)
    gif = Image.open(io.BytesIO(render_turn_gif(frames, 6, title="T")))
    for index, frame in enumerate(ImageSequence.Iterator(gif)):
        expected = board_image(frames[index], 6, title="T", caption=frames[index]["caption"]).convert("RGB")
        assert frame.convert("RGB").tobytes() == expected.tobytes(), index


def test_gif_is_deterministic_and_captions_show() -> None:
    frames = turn_frames(3)
    assert render_turn_gif(frames, 6) == render_turn_gif(copy.deepcopy(frames), 6)
    uncaptioned = [{k: v for k, v in frame.items() if k != "caption"} for frame in frames]
    assert render_turn_gif(uncaptioned, 6) != render_turn_gif(frames, 6)


def test_gif_frames_keep_one_size_when_a_ship_leaves_the_view() -> None:
    frames = turn_frames(2)
    del frames[1]["ships"]["pink"]
    image = Image.open(io.BytesIO(render_turn_gif(frames, 6)))
    assert image.n_frames == 2


def test_gif_bad_input() -> None:
    with pytest.raises(ValueError, match="frame"):
        render_turn_gif([], 6)
    frames = turn_frames(2)
    frames[1]["missiles"][0]["at"] = "X1"
    with pytest.raises(ValueError, match="X1"):
        render_turn_gif(frames, 6)


# -- the replay tells the turn (issue 27) ------------------------------------------------------------
def told_frames(language: str) -> list[dict[str, Any]]:
    """A reveal frame listing each ship's orders and a last frame summing up the turn, with a doomed
    ship hit beyond its hull (SB-12), in `language`'s words as the bot writes them."""
    orders = {"fr": ("gauche missile", "frein", "rien"), "en": ("left missile", "brake", "none")}[language]
    ships = {"red": ship("C3", "SE"), "blue": ship("B6", "SW", hits=5), "green": ship("F10", "W")}
    reveal = view_of(copy.deepcopy(ships))
    reveal["story"] = [{"ship": ident, "text": f"{ident} : {said}" if language == "fr" else f"{ident}: {said}"}
                       for ident, said in zip(ships, orders, strict=True)]
    summary = view_of(copy.deepcopy(ships))
    summary["story"] = [{"ship": "blue", "text": "blue : 2 coups reçus, 0 point marqué ce tour — une ligne "
                         "assez longue pour passer à la ligne suivante sans jamais être coupée au milieu"
                         if language == "fr" else "blue: 2 hits taken, 0 points scored this turn — a line "
                         "long enough to wrap onto the next line without ever being cut in the middle"}]
    return [reveal, summary]


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("index", [0, 1], ids=["reveal", "summary"])
def test_told_frames_golden(language: str, index: int, golden) -> None:
    frames = told_frames(language)
    rows = max(drawn.story_rows(frame["story"]) for frame in frames)
    frame = frames[index]
    image = drawn.board_image(frame, 6, labels=picture_labels(language), title="Nova", caption=f"{index}",
                              story=frame["story"], rows_at_least=rows)
    golden(f"spaceblast_{('reveal', 'summary')[index]}_{language}.png", common.encode_png(image))


def test_the_reveal_frame_draws_each_ships_orders_and_the_story_is_never_cut() -> None:
    frames = told_frames("en")
    with common.recording_text() as said:
        gif = Image.open(io.BytesIO(render_turn_gif(frames, 6)))
    assert {"red: left missile", "blue: brake", "green: none"} <= set(said)
    long_line = frames[1]["story"][0]["text"]
    rows = drawn.story_lines(long_line)
    assert len(rows) == 2 and " ".join(rows) == long_line and set(rows) <= set(said)
    assert gif.size == layout_for(6, 3, 3).size  # both frames as tall as the reveal's three lines


def test_hits_beyond_the_hull_show_the_hull_full_and_what_came_beyond() -> None:
    """SB-12: a doomed ship can take a fifth hit before the damage phase; 4 boxes and "5/4" said
    nothing, the legend says the hull is full and one more came."""
    with common.recording_text() as said:
        render_board(view_of({"blue": ship("B6", "SW", hits=5)}), 6)
    assert "4/4 +1 beyond the hull" in said and "5/4" not in said


def test_the_legend_tells_a_crash_from_leaving_the_arena() -> None:
    with common.recording_text() as said:
        render_board(view_of({"red": ship(None, fate="left_arena"), "blue": ship(None, fate="asteroid"),
                              "green": ship(None, fate="destroyed")}), 6)
    assert {"left the arena", "crashed on an asteroid", "eliminated"} <= set(said)


# -- each phase's marks drawn where it happened (issue 27) ---------------------------------------------
def at_angle(radius: int, cell: str, angle: float, distance: float) -> tuple[int, int]:
    x, y = layout_for(radius).centre(cell)
    return round(x + distance * math.cos(math.radians(angle))), round(y + distance * math.sin(math.radians(angle)))


def near(image: Image.Image, point: tuple[int, int], reach: int = 2) -> set[tuple[int, int, int]]:
    return {image.getpixel((point[0] + dx, point[1] + dy)) for dx in range(-reach, reach + 1)
            for dy in range(-reach, reach + 1)}


def marked(view: dict[str, Any], marks: list[dict[str, Any]]) -> Image.Image:
    return board_image(view, 6, marks=marks).convert("RGB")


@pytest.mark.parametrize(("steps", "through", "not_through"), [(1, 30, -30), (-1, -30, 30), (2, 60, -60)])
def test_a_rotation_is_a_curved_arrow_the_way_the_ship_turned(steps: int, through: float, not_through: float) -> None:
    """SB-7: from the old heading to the new, clockwise for a right turn (steps +), round the ship."""
    from renders.spaceblast.marks import turn_radius

    to = {1: "SE", -1: "NE", 2: "SW"}[steps]
    image = marked(view_of({"red": ship("G7", to)}), [{"kind": "turn", "at": "G7", "from": "E", "to": to,
                                                        "steps": steps}])
    radius = turn_radius(layout_for(6))
    assert common.BLACK in near(image, at_angle(6, "G7", through, radius), 1)
    assert common.BLACK not in near(image, at_angle(6, "G7", not_through, radius), 1)


def test_a_mine_laid_is_ringed_where_it_lies() -> None:
    view = view_of({"red": ship("G7")}, mines=[{"owner": "red", "at": "G7", "active": False}])
    plain, ringed = board_image(view, 6).convert("RGB"), marked(view, [{"kind": "mine_laid", "at": "G7"}])
    layout = layout_for(6)
    x, y = layout.centre("G7")
    mine = (x - 0.58 * layout.hex_size, y - 0.17 * layout.hex_size)  # the first side slot
    ring = (round(mine[0] - 0.3 * layout.hex_size), round(mine[1]))  # its left, clear of the ship
    assert common.BLACK in near(ringed, ring) and common.BLACK not in near(plain, ring)


def test_a_collision_flashes_on_both_ships_towards_the_cell_fought_over() -> None:
    """SB-9: who hit whom, seen: a flash on each ship's side facing G7, none elsewhere."""
    view = view_of({"red": ship("G6", "E"), "blue": ship("G8", "W")})
    image = marked(view, [{"kind": "clash", "at": "G7", "ships": ["G6", "G8"]}])
    size = layout_for(6).hex_size
    assert common.YELLOW in near(image, at_angle(6, "G6", 0, 0.6 * size))
    assert common.YELLOW in near(image, at_angle(6, "G8", 180, 0.6 * size))
    assert common.YELLOW not in colours_in(image, 6, "G7")


def test_a_ram_flashes_on_the_rammer_and_on_the_rammed() -> None:
    view = view_of({"red": ship("G5", "E"), "blue": ship("G6", "E")})
    image = marked(view, [{"kind": "clash", "at": "G6", "ships": ["G5", "G6"]}])
    size = layout_for(6).hex_size
    assert common.YELLOW in near(image, at_angle(6, "G5", 0, 0.6 * size))
    assert common.YELLOW in near(image, at_angle(6, "G6", 180, 0.6 * size))


def test_a_missile_is_a_line_along_the_cells_it_crossed_to_its_impact() -> None:
    view = view_of({"red": ship("C4"), "blue": ship("C7", "W")})
    image = marked(view, [{"kind": "missile", "path": ["C4", "C5", "C6", "C7"], "facing": "E", "end": "hit"}])
    for cell in ("C5", "C6"):
        assert common.BLACK in colours_in(image, 6, cell), cell
    assert common.YELLOW in near(image, at_angle(6, "C7", 180, 0.42 * layout_for(6).hex_size))
    flying = marked(view, [{"kind": "missile", "path": ["C4", "C5", "C6"], "facing": "E", "end": "flying"}])
    assert common.YELLOW not in colours_in(flying, 6, "C6")  # still in flight: no impact


def test_a_missile_leaving_the_arena_points_out_of_it() -> None:
    """Past the edge cell A5, over the margin, the dashed arrow goes on (SB-10)."""
    view = view_of({})
    image = marked(view, [{"kind": "missile", "path": ["B5", "A5"], "facing": "NE", "end": "left_arena"}])
    beyond = at_angle(6, "A5", -60, layout_for(6).hex_size)
    assert common.BLACK in near(image, beyond, 3)
    assert common.BLACK not in near(board_image(view, 6).convert("RGB"), beyond, 3)


def test_explosions_and_shields() -> None:
    view = view_of({"red": ship("G7")})
    burst = marked(view, [{"kind": "burst", "at": "G7"}])
    assert common.VERMILLION in colours_in(burst, 6, "G7")
    shielded = marked(view, [{"kind": "shield", "at": "G7"}])
    ring = at_angle(6, "G7", 180, 1.3 * layout_for(6).ship_radius)
    assert common.SKY in near(shielded, ring) and common.SKY not in near(board_image(view, 6).convert("RGB"), ring)


def test_a_ship_destroyed_is_ghosted_as_it_faced_in_its_explosion() -> None:
    view = view_of({"red": ship(None, "SW"), "blue": ship("A1")})
    image = marked(view, [{"kind": "burst", "at": "G7", "ship": "red", "facing": "SW"}])
    nose = at_angle(6, "G7", ANGLES["SW"], 0.95 * layout_for(6).ship_radius)
    assert SHIP_COLOURS[0] in near(image, nose)


def test_leaving_the_arena_and_crashing_on_an_asteroid_are_drawn_apart() -> None:
    """SB-9 and SB-16 end a ship alike in the legend's count, not on the frame: an arrow out of the
    arena from its last cell, or an explosion round the asteroid it hit, each with its hollow dart."""
    view = view_of({"red": ship(None, "W", fate="left_arena"), "blue": ship(None, "E", fate="asteroid")},
                   asteroids=["K4"])
    left = marked(view, [{"kind": "left_arena", "at": "G1", "ship": "red", "facing": "W"}])
    crash = marked(view, [{"kind": "crash", "at": "K4", "ship": "blue", "facing": "E"}])
    size = layout_for(6).hex_size
    assert common.BLACK in near(left, at_angle(6, "G1", 180, 1.2 * size), 3)  # the arrow out
    assert SHIP_COLOURS[0] in colours_in(left, 6, "G1") and common.VERMILLION not in colours_in(left, 6, "G1")
    assert common.VERMILLION in colours_in(crash, 6, "K4") and SHIP_COLOURS[1] in colours_in(crash, 6, "K4")


def test_a_move_is_an_arrow_from_where_the_ship_stood_through_its_steps_to_where_it_ended() -> None:
    """SB-9: the shaft runs from beside the cell left to the ship's edge, its head on the ship's side;
    a move of two steps bends through the cell between."""
    view = view_of({"red": ship("G7")})
    size = layout_for(6).hex_size
    plain = board_image(view, 6).convert("RGB")
    moved = marked(view, [{"kind": "move", "ship": "red", "path": ["G6", "G7"]}])
    shaft = at_angle(6, "G6", 0, 0.6 * size)
    assert common.BLACK in near(moved, shaft) and common.BLACK not in near(plain, shaft)
    head = at_angle(6, "G7", 180, 0.6 * size)
    assert common.BLACK in near(moved, head)
    bent = marked(view, [{"kind": "move", "ship": "red", "path": ["F5", "G6", "G7"]}])
    assert common.BLACK in near(bent, layout_for(6).centre("G6"))  # through the step's cell
    assert common.BLACK in near(bent, at_angle(6, "F5", ANGLES["SE"], 0.6 * size))


@pytest.mark.parametrize(("mark", "named"), [
    ({"kind": "flash", "at": "G7"}, "flash"),
    ({"kind": "turn", "at": "Z9", "from": "E", "to": "SE", "steps": 1}, "Z9"),
    ({"kind": "turn", "at": "G7", "from": "E", "to": "SE", "steps": 0}, "steps"),
    ({"kind": "missile", "path": ["G7"], "facing": "E", "end": "bounced"}, "bounced"),
    ({"kind": "missile", "path": [], "facing": "E", "end": "hit"}, "path"),
    ({"kind": "left_arena", "at": "G1", "ship": "red"}, "facing"),
    ({"kind": "move", "ship": "red", "path": ["G7"]}, "move"),
    ({"kind": "move", "ship": "red", "path": ["G7", "Z1"]}, "Z1"),
])
def test_bad_marks_raise_value_error_naming_them(mark: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        board_image(view_of(), 6, marks=[mark])


#: the frames of a real turn that draw each kind of mark: (game, frame, what it shows)
ENGINE_FRAMES = (
    ("CLASH", "movement", "collision flashes, leaving the arena, crashing on an asteroid"),
    ("RAM", "rotation", "a turn's arc"),
    ("RAM", "mines", "a mine laid"),
    ("RAM", "movement", "a ram's flashes"),
    ("RAM", "firing", "a missile's line to its impact"),
    ("MISSILES", "movement", "a mine's explosion"),
    ("MISSILES", "missiles", "a shield, a missile in flight"),
    ("MISSILES", "firing", "a missile off the arena"),
    ("MISSILES", "damage", "a ship destroyed"),
    ("MOVES", "movement", "moves: a slip then a step, turbo's two steps"),
)


@functools.cache
def engine_turn(game: str, language: str) -> tuple[list[dict[str, Any]], int, tuple[str, ...], bytes, bytes]:
    """For a turn of `game` (tests/bot/spaceblast/test_animation.py) the engine resolved: the
    frames the presenter gave the animation, the arena's radius, every word drawn, the GIF posted
    and the same GIF with no marks (once per game: a GIF is a dozen boards)."""
    from bot.games.spaceblast import SPACEBLAST_PRESENTER
    from bot.service.scene import Scene
    from engine.spaceblast import SPACEBLAST
    from tests.bot.spaceblast import test_animation as games

    document, orders = getattr(games, game)
    state = SPACEBLAST.setup(document)
    for ident, text in orders.items():
        state = SPACEBLAST.apply_input(state, "order", ident, {"text": text}).state
    outcome = SPACEBLAST.apply_input(state, "resolve", None, {})
    given: dict[str, Any] = {}
    real = animation.render_turn_gif

    def spy(frames: list[dict[str, Any]], radius: int, **options: Any) -> bytes:
        bare = [{key: value for key, value in view.items() if key != "marks"} for view in frames]
        given.update(frames=frames, radius=radius, gif=real(frames, radius, **options),
                     bare=real(bare, radius, **options))
        return given["gif"]

    with common.recording_text() as said, patch("renders.spaceblast.animation.render_turn_gif", spy):
        SPACEBLAST_PRESENTER.images_for(SPACEBLAST, outcome.state, outcome.events, Scene("Nova", language))
    return given["frames"], given["radius"], tuple(said), given["gif"], given["bare"]


def gif_frame(gif: bytes, index: int) -> Image.Image:
    image = Image.open(io.BytesIO(gif))
    image.seek(index)
    return image.convert("RGB")


def around_marks(image: Image.Image, marks: list[dict[str, Any]], radius: int) -> Image.Image:
    """The part of a frame its marks are drawn in, a cell and a half round their cells: the golden
    of a mark is its close-up, where a mark a few hundred pixels big is well over the tolerance."""
    layout = layout_for(radius)
    cells = [cell for mark in marks for cell in (mark.get("at"), *(mark.get("ships") or ()),
                                                 *(mark.get("path") or ())) if cell]
    xs, ys = zip(*(layout.centre(cell) for cell in cells), strict=True)
    reach = round(1.5 * layout.hex_size)
    return image.crop((max(0, min(xs) - reach), max(0, min(ys) - reach), min(image.width, max(xs) + reach),
                       min(image.height, max(ys) + reach)))


@pytest.mark.parametrize(("game", "frame"), [(game, frame) for game, frame, _ in ENGINE_FRAMES],
                         ids=[f"{game.lower()}-{frame}" for game, frame, _ in ENGINE_FRAMES])
def test_engine_phase_frames_golden_french(game: str, frame: str, golden) -> None:
    """Each kind of mark as a French reader gets it: the close-up of the GIF's frame of a turn the
    engine resolved, through the presenter; its words all French (none of the English word list);
    and the golden can tell: the same frame without its marks is well beyond its tolerance."""
    from tests.bot.every_game.leaks import leaked_words, missing_lists
    from tests.renders.conftest import MAX_DIFFERING_RATIO, differing_ratio

    frames, radius, said, gif, bare = engine_turn(game, "fr")
    index = next(k for k, view in enumerate(frames) if view["frame"] == frame)
    marks = frames[index]["marks"]
    if not missing_lists():
        typed = {"Nova", "Ann", "Bob", "Cid", "Dee", "Eve"}
        assert not leaked_words(" ".join(w for w in said if w not in typed), "fr", typed)
    shown = around_marks(gif_frame(gif, index), marks, radius)
    unmarked = around_marks(gif_frame(bare, index), marks, radius)
    assert differing_ratio(shown, unmarked) > 3 * MAX_DIFFERING_RATIO
    out = io.BytesIO()
    shown.save(out, format="PNG")
    golden(f"spaceblast_{game.lower()}_{frame}_fr.png", out.getvalue())


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_frame_keys_the_marks_it_draws_and_only_those(language: str) -> None:
    """An impact, an explosion, a shield ring: their words join the key on a frame having them,
    all three on the key's one line, inside the margins."""
    labels = picture_labels(language)
    view = view_of({"red": ship("G6", "E"), "blue": ship("G8", "W")})
    marks = [{"kind": "clash", "at": "G7", "ships": ["G6", "G8"]}, {"kind": "burst", "at": "C3"},
             {"kind": "shield", "at": "G8"}]
    keyed = [labels[key] for key in ("key_impact", "key_explosion", "key_shield")]
    with common.recording_text() as said:
        image = drawn.board_image(view, 6, labels=labels, marks=marks).convert("RGB")
    assert set(keyed) <= set(said)
    key_rows = image.crop((WIDTH - drawn.MARGIN + 1, image.height - drawn.KEY_H - drawn.BOTTOM_PAD, WIDTH,
                           image.height))
    assert {colour for _, colour in key_rows.getcolors(1 << 16)} == {common.PAPER}
    with common.recording_text() as plain:
        drawn.board_image(view, 6, labels=labels, marks=[{"kind": "mine_laid", "at": "G6"}])
    assert not set(keyed) & set(plain)


# -- the still arena: the last turn drawn and told (issue 27) ------------------------------------------
@functools.cache
def still_arena(game: str, language: str) -> tuple[Image.Image, Image.Image, tuple[str, ...], list[dict[str, Any]]]:
    """The arena posted after a turn of `game` the engine resolved, through the presenter (its
    animation not drawn); the same arena with no last turn; every word drawn on it; its marks."""
    from bot.games.spaceblast import SPACEBLAST_PRESENTER, _last_turn, _title
    from bot.service.scene import Scene
    from engine.spaceblast import SPACEBLAST
    from tests.bot.spaceblast import test_animation as games

    document, orders = getattr(games, game)
    state = SPACEBLAST.setup(document)
    for ident, text in orders.items():
        state = SPACEBLAST.apply_input(state, "order", ident, {"text": text}).state
    outcome = SPACEBLAST.apply_input(state, "resolve", None, {})
    with common.recording_text() as said, patch("renders.spaceblast.animation.render_turn_gif", return_value=b""):
        files = SPACEBLAST_PRESENTER.images_for(SPACEBLAST, outcome.state, outcome.events, Scene("Nova", language))
    view = SPACEBLAST.view(outcome.state)
    bare = drawn.board_image(view, view["radius"], labels=picture_labels(language), title=_title(language, "Nova"))
    return decode(files[0].data), bare.convert("RGB"), tuple(said), _last_turn(outcome.events, language)[0]


@pytest.mark.parametrize("game", ["CLASH", "RAM", "MISSILES", "MOVES", "TURNS"])
def test_the_still_arena_draws_and_tells_the_last_turn_golden_french(game: str, golden) -> None:
    """The arena a player finds two days later: the turn's moves, rotations, clashes, missiles,
    explosions, shields and ships leaving drawn (a close-up, where the marks are well over the
    tolerance), a rotation's arc round the ship where it ended the turn, not where it turned; and
    told in French under the legend, wrapped inside the margins, never cut (its own golden)."""
    from tests.bot.every_game.leaks import leaked_words, missing_lists
    from tests.renders.conftest import MAX_DIFFERING_RATIO, differing_ratio

    image, bare, said, marks = still_arena(game, "fr")
    radius = 6
    assert any(mark["kind"] == "move" for mark in marks)
    turns = {mark["ship"]: mark["at"] for mark in marks if mark["kind"] == "turn"}
    assert set(turns) == {"RAM": {"Dee"}, "TURNS": {"Ann", "Bob"}}.get(game, set())  # on the still board too
    ends = {mark["ship"]: mark["path"][-1] for mark in marks if mark["kind"] == "move"}
    assert all(turns[ship] == ends[ship] for ship in turns if ship in ends)  # round the ship where it ended
    if not missing_lists():
        typed = {"Nova", "Ann", "Bob", "Cid", "Dee", "Eve"}
        assert not leaked_words(" ".join(w for w in said if w not in typed), "fr", typed)
    told = said[next(k for k, text in enumerate(said) if text.startswith("Dernier tour : ")):]
    assert all(common.font(16).getlength(line) <= WIDTH - 2 * drawn.MARGIN for line in told)
    assert " ".join(told).endswith(".")  # whole, to its last sentence
    shown, unmarked = around_marks(image, marks, radius), around_marks(bare, marks, radius)
    assert differing_ratio(shown, unmarked) > 3 * MAX_DIFFERING_RATIO
    out = io.BytesIO()
    shown.save(out, format="PNG")
    golden(f"spaceblast_still_{game.lower()}_fr.png", out.getvalue())


@pytest.mark.parametrize("game", ["CLASH", "MISSILES"])
def test_the_still_arenas_caption_golden_french(game: str, golden) -> None:
    """The last turn in words under the legend (the room the board grew by), as a French reader reads it."""
    image, bare, _, _ = still_arena(game, "fr")
    assert image.height > bare.height
    out = io.BytesIO()
    image.crop((0, bare.height, WIDTH, image.height)).save(out, format="PNG")
    golden(f"spaceblast_still_{game.lower()}_caption_fr.png", out.getvalue())


@pytest.mark.parametrize("kind", ["left_arena", "crash", "burst"])
def test_a_ship_gone_this_turn_keeps_its_tag_on_its_ghost(kind: str) -> None:
    """Issue 27's done-when: whoever sees only the picture tells whose hollow outline it is (the
    caption names the ship; the ghost says it where it stood, as a ship in play does)."""
    labels = picture_labels("en")
    view = view_of({"Ann": ship("G6", "E"), "Cid": ship(None, "NW")})
    mark = {"kind": kind, "at": "A1", "ship": "Cid", "facing": "NW"}
    with common.recording_text() as bare:
        drawn.board_image(view, 6, labels=labels)
    with common.recording_text() as said:
        drawn.board_image(view, 6, labels=labels, marks=[mark])
    assert said.count("Ci") == bare.count("Ci") + 1
