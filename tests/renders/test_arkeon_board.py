"""The Arkeon board (AK-1 board and notation, AK-2 directions, AK-4/AK-5 attack marks, AK-14 reserve),
drawn from the public view only."""

from __future__ import annotations

import copy
import io
import math
from typing import Any

import pytest
from PIL import Image

from bot.games.arkeon import picture_labels
from renders import common
from renders.arkeon import board as drawn
from renders.arkeon import layout_for
from renders.arkeon.board import BOARD, WIDTH
from renders.hexboard import ANGLES, HIGHLIGHT, SIDE_COLOURS
from renders.hexmarks import GHOST, IMPACT, PUSH, SHOT, TURN, Mark

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: the words every picture of these tests draws: the English catalog's (the bot's words for the board)
ENGLISH = picture_labels("en")


def render_board(view: dict[str, Any], **options: Any) -> bytes:
    return drawn.render_board(view, **{"labels": ENGLISH, **options})


def board_image(view: dict[str, Any], **options: Any) -> Image.Image:
    return drawn.board_image(view, **{"labels": ENGLISH, **options})
FACINGS = ("E", "NE", "NW", "W", "SW", "SE")
KINDS = ("base", "basic", "triple", "pacifier", "cw", "ccw", "repulsor")
ADVANCED = ["triple", "pacifier", "cw", "ccw", "repulsor"]


def piece(side: str, kind: str, facing: str | None = None) -> dict[str, Any]:
    return {"side": side, "kind": kind, "facing": facing}


def view_of(cells: dict[str, dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    """A running game; without `cells`, the AK-10 opening after the 3+3 placements."""
    if cells is None:
        cells = {
            "C2": piece("blue", "base"), "B2": piece("blue", "basic", "NE"), "C3": piece("blue", "basic", "E"),
            "D2": piece("blue", "basic", "SE"), "C6": piece("red", "base"), "B5": piece("red", "basic", "NW"),
            "C5": piece("red", "basic", "W"), "D5": piece("red", "basic", "SW"),
        }  # fmt: skip
    view = {
        "phase": "running",
        "to_move": "blue",
        "winner": None,
        "reason": None,
        "turn": 4,
        "players": {"blue": "alice", "red": "bob"},
        "cells": cells,
        "reserve": {side: {"basic": 9, "advanced": list(ADVANCED)} for side in ("blue", "red")},
    }
    view.update(extra)
    return view


def bases_and(cell: str, data: dict[str, Any]) -> dict[str, Any]:
    return view_of({"C2": piece("blue", "base"), "C6": piece("red", "base"), cell: data})


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def cell_crop(image: Image.Image, cell: str) -> bytes:
    """The pixels of the square inside `cell`'s hexagon (neighbours stay out of it)."""
    layout = layout_for()
    x, y = layout.centre(cell)
    half = int(layout.hex_size * 0.8)
    return image.crop((x - half, y - half, x + half, y + half)).tobytes()


def colours_in(image: Image.Image, cell: str) -> set[tuple[int, int, int]]:
    data = cell_crop(image, cell)
    return {tuple(data[i : i + 3]) for i in range(0, len(data), 3)}


def along(cell: str, angle: float, fraction: float) -> tuple[int, int]:
    layout = layout_for()
    x, y = layout.centre(cell)
    rad = math.radians(angle)
    return round(x + fraction * layout.hex_size * math.cos(rad)), round(
        y + fraction * layout.hex_size * math.sin(rad)
    )


# -- the picture ------------------------------------------------------------------------------------
def test_board_is_a_png_and_deterministic() -> None:
    view = view_of()
    first = render_board(view, title="Arkeon — turn 4", highlight=["C3"])
    assert first.startswith(PNG_SIGNATURE)
    assert render_board(copy.deepcopy(view), title="Arkeon — turn 4", highlight=["C3"]) == first
    shuffled = copy.deepcopy(view)  # cells in another order, advanced kinds are a set
    shuffled["cells"] = dict(reversed(list(shuffled["cells"].items())))
    shuffled["reserve"]["red"]["advanced"].reverse()
    assert render_board(shuffled, title="Arkeon — turn 4", highlight=["C3"]) == first


def test_ak1_layout_rows_from_the_top_cells_from_the_left_at_phone_width() -> None:
    layout = layout_for()
    assert layout.size[0] == WIDTH and layout.label_size >= 12  # no text under 12 px at 1,080 px
    a1, a5, c1, c4, c7, e1 = (layout.centre(cell) for cell in ("A1", "A5", "C1", "C4", "C7", "E1"))
    assert a1[1] < c4[1] < e1[1] and a1[1] == a5[1] and a1[0] < a5[0]
    assert c1[0] < c4[0] < c7[0] and c1[1] == c4[1] == c7[1]
    assert a1[0] == e1[0]
    for cell in BOARD:
        x, y = layout.hex_centre(cell)
        assert 0 < x < layout.panel_left and layout.board_top < y < layout.board_bottom


def test_an_empty_cell_is_floor_and_every_cell_is_labelled() -> None:
    image = decode(render_board(view_of({})))
    layout = layout_for()
    for cell in BOARD:
        assert image.getpixel(layout.centre(BOARD.format(cell))) == common.FLOOR
        assert common.MUTED in colours_in(image, BOARD.format(cell))  # its coordinates


@pytest.mark.parametrize("side", ["blue", "red"])
@pytest.mark.parametrize("kind", KINDS)
def test_each_piece_paints_its_side_colour_at_its_cell_centre(side: str, kind: str) -> None:
    facing = "SW" if kind in ("basic", "triple") else None
    image = decode(render_board(bases_and("C4", piece(side, kind, facing))))
    layout = layout_for()
    assert image.getpixel(layout.centre("C4")) == SIDE_COLOURS[side]
    assert image.getpixel(layout.centre("C2")) == SIDE_COLOURS["blue"]  # both bases
    assert image.getpixel(layout.centre("C6")) == SIDE_COLOURS["red"]


def test_the_opening_pieces_wear_their_sides_colours() -> None:
    view = view_of()
    image = decode(render_board(view))
    for cell, data in view["cells"].items():
        assert image.getpixel(layout_for().centre(cell)) == SIDE_COLOURS[data["side"]], cell


def test_every_kind_has_its_own_glyph() -> None:
    crops = {
        kind: cell_crop(decode(render_board(bases_and("C4", piece("red", kind, "E")))), "C4")
        for kind in KINDS
    }
    assert len(set(crops.values())) == len(KINDS)


@pytest.mark.parametrize("facing", FACINGS)
def test_ak4_a_basic_marks_the_one_cell_it_attacks(facing: str) -> None:
    """Out past the token towards the attacked cell is the side's colour; the other five ways, floor."""
    image = decode(render_board(bases_and("C4", piece("blue", "basic", facing))))
    for name, angle in ANGLES.items():
        colour = image.getpixel(along("C4", angle, 0.6))
        assert (colour == SIDE_COLOURS["blue"]) == (name == facing), name


@pytest.mark.parametrize("facing", FACINGS)
def test_ak5_a_triple_marks_the_three_cells_it_attacks(facing: str) -> None:
    image = decode(render_board(bases_and("C4", piece("red", "triple", facing))))
    centre = FACINGS.index(facing)
    attacked = {FACINGS[(centre + step) % 6] for step in (-1, 0, 1)}
    for name, angle in ANGLES.items():
        colour = image.getpixel(along("C4", angle, 0.6))
        assert (colour == SIDE_COLOURS["red"]) == (name in attacked), name


@pytest.mark.parametrize("kind", ["basic", "triple"])
def test_ak2_every_attack_direction_draws_a_different_picture(kind: str) -> None:
    crops = {cell_crop(decode(render_board(bases_and("C4", piece("blue", kind, f)))), "C4") for f in FACINGS}
    assert len(crops) == len(FACINGS)


def test_non_aggressive_pieces_ignore_a_facing() -> None:
    plain = render_board(bases_and("C4", piece("blue", "pacifier")))
    assert render_board(bases_and("C4", piece("blue", "pacifier", "NE"))) == plain


def test_highlight_outlines_the_last_move() -> None:
    plain = decode(render_board(view_of()))
    marked = decode(render_board(view_of(), highlight=["C3", "D4"]))
    for cell in ("C3", "D4"):
        assert cell_crop(marked, cell) != cell_crop(plain, cell)
        assert HIGHLIGHT in colours_in(marked, cell)
        x, y = layout_for().centre(cell)
        assert marked.getpixel((x, round(y + layout_for().hex_size) - 4)) == common.BLACK  # the outline
    assert cell_crop(marked, "B4") == cell_crop(plain, "B4")
    assert render_board(view_of(), highlight=["C3", "C3"]) == render_board(view_of(), highlight=["c3"])


@pytest.mark.parametrize(
    ("winner", "colour"), [("blue", common.BLUE), ("red", common.VERMILLION), ("draw", common.MUTED)]
)
def test_a_finished_view_shows_the_winners_banner(winner: str, colour: tuple[int, int, int]) -> None:
    playing = decode(render_board(view_of()))
    finished = decode(render_board(view_of(winner=winner, reason="base_destroyed")))
    header = (0, 0, WIDTH, layout_for().board_top)
    assert finished.crop(header).tobytes() != playing.crop(header).tobytes()
    assert playing.getpixel((WIDTH - 4, 59)) == common.PAPER
    assert finished.getpixel((WIDTH - 4, 59)) == colour  # the banner runs the whole width
    board = (0, layout_for().board_top, layout_for().panel_left, layout_for().board_bottom)
    assert finished.crop(board).tobytes() == playing.crop(board).tobytes()


def test_whose_move_title_and_reserve_change_the_picture() -> None:
    plain = render_board(view_of())
    assert render_board(view_of(to_move="red")) != plain
    assert render_board(view_of(), title="Game 3") != plain
    fewer = view_of()
    fewer["reserve"]["blue"]["basic"] = 4
    assert render_board(fewer) != plain
    removed = view_of()
    removed["reserve"]["red"]["advanced"] = ["cw"]  # AK-14: the others may not be placed now
    assert render_board(removed) != plain


def test_labels_translate_the_words() -> None:
    assert render_board(view_of(), labels=picture_labels("fr")) != render_board(view_of())


def test_every_word_drawn_is_given_a_missing_one_is_named() -> None:
    """The render has no words of its own: a label left out is an error, never an English default."""
    labels = {key: text for key, text in ENGLISH.items() if key != "reserve_basic"}
    with pytest.raises(ValueError, match="reserve_basic"):
        render_board(view_of(), labels=labels)


def test_a_lobby_view_without_pieces_or_reserve_renders() -> None:
    view = {"phase": "lobby", "to_move": None, "winner": None, "turn": 0, "cells": {}, "reserve": {}}
    assert render_board(view).startswith(PNG_SIGNATURE)


def test_the_engines_own_view_renders() -> None:
    """The view's shape is the engine's, not a guess of this test's: the opening renders as expected."""
    from engine.arkeon import ARKEON

    view = ARKEON.view(ARKEON.setup({}))
    image = decode(render_board(view, highlight=["C3"]))
    assert image.getpixel(layout_for().centre("C2")) == SIDE_COLOURS["blue"]
    assert image.getpixel(layout_for().centre("C5")) == SIDE_COLOURS["red"]


# -- bad input ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cells", "named"),
    [
        ({"Z9": piece("blue", "basic", "E")}, "Z9"),
        ({"A6": piece("blue", "basic", "E")}, "A6"),  # row A has 5 cells
        ({"F1": piece("red", "pacifier")}, "F1"),  # there is no row F
        ({"C4": piece("blue", "basic", "north")}, "north"),
        ({"C4": piece("blue", "triple", None)}, "None"),
        ({"C4": piece("blue", "queen")}, "queen"),
        ({"C4": piece("green", "basic", "E")}, "green"),
    ],
)
def test_a_view_that_does_not_fit_the_board_raises_value_error_naming_it(
    cells: dict[str, Any], named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        render_board(view_of(cells))


def test_bad_highlight_and_reserve_raise_value_error_naming_them() -> None:
    with pytest.raises(ValueError, match="C8"):
        render_board(view_of(), highlight=["C8"])
    view = view_of()
    view["reserve"]["blue"]["advanced"] = ["bishop"]
    with pytest.raises(ValueError, match="bishop"):
        render_board(view)


# -- the last move (issue 27) ---------------------------------------------------------------------------
def picture(view: dict[str, Any], **options: Any) -> Image.Image:
    return board_image(view, **options).convert("RGB")


def test_a_push_is_an_arrow_on_the_piece_it_moved_both_cells_outlined() -> None:
    view = bases_and("C5", piece("red", "basic", "W"))
    image = picture(view, marks=[Mark(PUSH, ("C4", "C5"))])
    x4, y = layout_for().centre("C4")
    x5, _ = layout_for().centre("C5")
    assert image.getpixel(((3 * x4 + x5) // 4, y)) == common.BLACK  # the shaft, from the cell left
    assert HIGHLIGHT in colours_in(image, "C4") and HIGHLIGHT in colours_in(image, "C5")
    assert HIGHLIGHT not in colours_in(picture(view), "C4")


def test_a_turned_piece_shows_its_old_attack_marks_hollow() -> None:
    view = bases_and("C4", piece("blue", "basic", "E"))
    turned = picture(view, marks=[Mark(TURN, ("C4",), side="blue", piece="basic", facings=("W", "E"))])
    outlined = picture(view, highlight=["C4"])
    layout = layout_for()
    x, y = along("C4", ANGLES["W"], 0.68)  # out past the token, where the old pointer was
    half = round(0.08 * layout.hex_size)

    def blue_near(image: Image.Image) -> bool:
        box = image.crop((x - half, y - half, x + half, y + half))
        return SIDE_COLOURS["blue"] in {colour for _, colour in box.getcolors(1 << 16)}

    assert blue_near(turned) and not blue_near(outlined)
    assert turned.getpixel(along("C4", ANGLES["W"], 0.5)) != SIDE_COLOURS["blue"]  # hollow, not a second pointer


def test_a_removed_piece_is_ghosted_where_it_stood_and_its_attacker_traced_to_it() -> None:
    view = bases_and("C3", piece("blue", "basic", "E"))
    plain = picture(view)
    taken = picture(view, marks=[Mark(SHOT, ("C3", "C4")), Mark(GHOST, ("C4",), side="red", piece="triple")])
    assert SIDE_COLOURS["red"] in colours_in(taken, "C4") and SIDE_COLOURS["red"] not in colours_in(plain, "C4")
    assert IMPACT in colours_in(taken, "C4")
    assert taken.getpixel(layout_for().centre("C4")) != SIDE_COLOURS["red"]  # hollow, not a piece standing


def test_the_two_rotators_carry_their_sign_on_opposite_halves() -> None:
    """AK-7's rotators told apart by where the sign sits, not by a small arrowhead: clockwise on the
    token's right, counter-clockwise on its left."""
    layout = layout_for()
    x, y = layout.centre("C4")
    r = round(0.36 * layout.hex_size)

    def ink(kind: str) -> tuple[int, int]:
        image = picture(bases_and("C4", piece("blue", kind)))
        left = image.crop((x - r, y - r, x, y + r))
        right = image.crop((x + 1, y - r, x + r + 1, y + r))
        count = lambda box: sum(n for n, colour in box.getcolors(1 << 16) if colour == common.WHITE)  # noqa: E731
        return count(left), count(right)

    cw_left, cw_right = ink("cw")
    ccw_left, ccw_right = ink("ccw")
    assert cw_right > 2 * cw_left and ccw_left > 2 * ccw_right


def test_the_caption_says_the_move_whole_under_the_board() -> None:
    told = "Last move: Blue places a repulsor on C4. " + "The repulsor on C4 pushes Red's base: C6 → C7. " * 4
    with common.recording_text() as drawn:
        image = picture(view_of(), caption=[told])
    lines = [text for text in drawn if "repulsor" in text or "C7." in text or "base" in text.lower()]
    assert " ".join(lines).split()[-len(told.split()):] == told.split()
    assert image.height > layout_for().size[1]


def test_bad_marks_raise_value_error_naming_them() -> None:
    with pytest.raises(ValueError, match="F1"):
        render_board(view_of(), marks=[Mark(PUSH, ("C4", "F1"))])
    with pytest.raises(ValueError, match="dragon"):
        render_board(view_of(), marks=[Mark(GHOST, ("C4",), side="red", piece="dragon")])


def test_last_move_golden_french(golden) -> None:
    """AK-8's repulsor, drawn and told as the bot posts it (the presenter's marks and caption from
    the engine's events): both bases pushed, the repulsor ghosted where it fell."""
    from bot.games.arkeon import caption, last_marks
    from tests.bot.arkeon.test_pictures import pushed

    state, events = pushed()
    from engine.arkeon import ARKEON

    placed, marks = last_marks(events)
    png = drawn.render_board(ARKEON.view(state), labels=picture_labels("fr"), title="Duel — Arkeon", highlight=placed,
                             marks=marks, caption=caption(events, "fr"))
    golden("arkeon_last_move_fr.png", png)
