"""SB-15's two ships on the pictures: a player's ships share its colour and marker, carry their
number (on the glyph, after the tag) and are told apart on the board, in the legend and on the sheet."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.spaceblast.words import picture_labels
from engine.spaceblast import SPACEBLAST
from renders import common
from renders.spaceblast import layout_for, render_board, render_sheet
from renders.spaceblast.style import SHIP_COLOURS, draw_numbered_ship, ship_styles


def started_view() -> dict:
    state = SPACEBLAST.setup({"radius": 5, "variants": ["twoships"]}, 1)
    for name in ("Ann", "Bob", "Cid"):
        state = SPACEBLAST.apply_input(state, "join", name, {"id": name}).state
    return SPACEBLAST.view(SPACEBLAST.apply_input(state, "start", None, {}).state)


def test_a_players_ships_share_its_colour_and_carry_their_number() -> None:
    styles = ship_styles(started_view())
    assert styles["Ann 1"].colour == styles["Ann 2"].colour == SHIP_COLOURS[0]
    assert styles["Bob 1"].colour == styles["Bob 2"].colour == SHIP_COLOURS[1]
    assert styles["Ann 1"].marker == styles["Ann 2"].marker != styles["Cid 1"].marker
    assert [(styles[s].tag, styles[s].mark) for s in ("Ann 1", "Ann 2")] == [("An1", "1"), ("An2", "2")]
    assert [s.seat for s in styles.values()] == list(range(6))  # each ship keeps its line in the legend


def test_the_standard_game_keeps_one_colour_per_ship_and_no_number() -> None:
    view = started_view()
    plain = {**view, "ships": {ident: {k: v for k, v in ship.items() if k not in ("player", "mark")}
                               for ident, ship in view["ships"].items()}}
    styles = ship_styles(plain)
    assert [s.colour for s in styles.values()] == list(SHIP_COLOURS)
    assert all(s.mark == "" for s in styles.values())


def test_the_board_paints_both_ships_in_the_players_colour_and_numbers_them() -> None:
    view = started_view()
    image = Image.open(io.BytesIO(render_board(view, 5, labels=picture_labels("en")))).convert("RGB")
    layout = layout_for(5)
    for ident, ship in view["ships"].items():
        player = ["Ann", "Bob", "Cid"].index(ship["player"])
        assert image.getpixel(layout.centre(ship["at"])) == SHIP_COLOURS[player], ident
    styles = ship_styles(view)
    glyphs = []
    for ident in ("Ann 1", "Ann 2"):
        canvas = common.Canvas(Image.new("RGB", (60, 60), common.PAPER))
        draw_numbered_ship(canvas, (30, 30), 24, 0.0, styles[ident])
        glyphs.append(canvas.image.tobytes())
    assert glyphs[0] != glyphs[1]  # the number tells them apart
    english = picture_labels("en")
    assert render_sheet(view, "Ann 1", labels=english) != render_sheet(view, "Ann 2", labels=english)
