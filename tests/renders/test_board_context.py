"""Issue 15, the pictures: a board's caption, banner and map key; the blocked line of fire; the
reach note; close-ups; text legible on a phone (no text under 12 px at 1,080 px wide)."""

from __future__ import annotations

import copy

import pytest

from engine.core.squaregrid import parse_cell
from engine.spacechess.maps import standard_map
from renders import charts, common
from renders.spacechess import board as board_module
from renders.spacechess.board import AP_BOX, Caption, Overlay, board_image, layout_for, render_board
from renders.spacechess.closeup import render_closeup, window
from renders.spacechess.recap import render_recap

PHONE_WIDTH = 1080
SMALLEST_TEXT = 12

CAPTIONS = {
    "en": (Caption("Orion — Space Chess", ("Turn 4 (draws applied: 4)", "Last: bob shoots dmitri",
                                           "Next draw: Wednesday 5 March, 20:35 Paris time"), "Team 1 wins", 1), {}),
    "fr": (Caption("Orion — Space Chess", ("Tour 4 (tirages appliqués : 4)", "Dernière action : bob tire sur dmitri",
                                           "Prochain tirage : mercredi 5 mars à 20 h 35"), "L’équipe 1 gagne", 1),
           {"legend": "Légende", "obstacle": "obstacle", "pickup_spot": "emplacement de bonus",
            "camp": "rangées de départ de l’équipe {team}", "shot": "ligne de tir", "blocked": "bloque la ligne",
            "hp": "PV", "ap": "PA", "at": "{cell} : {what}", "item_pickup": "objet", "jetpack": "jet pack"}),
}
BLOCKED = Overlay("shot", line=("E3", "D9"), blocked_at="D6")


def pixels(image, game_map, cell_text, header):
    box = layout_for(game_map, header).cell_box(parse_cell(cell_text))
    data = image.crop((box[0], box[1], box[2] + 1, box[3] + 1)).tobytes()
    return [tuple(data[i: i + 3]) for i in range(0, len(data), 3)]


@pytest.mark.parametrize("language", sorted(CAPTIONS))
def test_golden_board_with_its_context_in_both_languages(language, small_map, small_view, golden) -> None:
    caption, labels = CAPTIONS[language]
    small_view = copy.deepcopy(small_view)
    small_view["pickups"].append({"at": "B5", "kind": "item", "item": "jetpack"})
    golden(f"board_context_{language}.png", render_board(small_view, small_map, overlay=BLOCKED, caption=caption,
                                                         labels=labels))


def test_the_winner_banner_is_a_band_in_the_team_colour(small_map, small_view, decode) -> None:
    running = decode(render_board(small_view, small_map, caption=Caption("t", ("turn 4",))))
    won = decode(render_board(small_view, small_map, caption=Caption("t", ("turn 4",), "Team 2 wins", 2)))
    band = [won.getpixel((2, y)) for y in range(won.height // 3)]
    assert common.ORANGE in band
    assert common.ORANGE not in [running.getpixel((2, y)) for y in range(running.height // 3)]


def test_caption_lines_grow_the_header_and_push_the_board_down(small_map, small_view) -> None:
    plain, layout = board_image(small_view, small_map)
    captioned, moved = board_image(small_view, small_map, caption=Caption("t", ("a", "b", "c"), "won", 1, "note"))
    assert moved.top > layout.top and captioned.height > plain.height


def test_the_map_key_names_pickups_obstacles_and_the_overlay(small_map, small_view) -> None:
    words = {**board_module.SHEET_LABELS, **board_module.LEGEND_LABELS}
    view = copy.deepcopy(small_view)
    view["pickups"].append({"at": "B5", "kind": "item", "item": "jetpack"})
    texts = [text for _, text in board_module._key_lines(view, small_map, BLOCKED, None, words)]
    assert "F4: +2 AP" in texts and "B5: jet pack" in texts and "obstacle" in texts
    assert "line of fire" in texts and "D6: blocks the line" in texts
    reach_texts = [text for _, text in board_module._key_lines(view, small_map, Overlay("none"), {"C2": 1}, words)]
    assert "reachable, with its AP cost" in reach_texts and "line of fire" not in reach_texts


def test_a_blocked_line_marks_its_blocker_and_dims_the_rest(small_map, small_view, decode) -> None:
    clear = decode(render_board(small_view, small_map, overlay=Overlay("shot", line=("E3", "D9"))))
    blocked = decode(render_board(small_view, small_map, overlay=BLOCKED))
    header = board_module.TITLE_H
    assert common.VERMILLION in pixels(blocked, small_map, "D6", header)
    beyond = pixels(blocked, small_map, "D8", header)  # on the line, past the blocker
    assert common.VERMILLION not in beyond and common.VERMILLION in pixels(clear, small_map, "D8", header)


def test_the_line_of_fire_leaves_the_shooters_label_readable(small_map, small_view, decode) -> None:
    """The shooter's token (bob, E3) looks the same with and without the line drawn from it."""
    plain = decode(render_board(small_view, small_map))
    for overlay in (BLOCKED, Overlay("shot", line=("E3", "D9"))):
        shot = decode(render_board(small_view, small_map, overlay=overlay))
        box = layout_for(small_map).cell_box(parse_cell("E3"))
        cx = (box[0] + box[2]) // 2
        token = (cx - 8, box[1] + 5, cx + 8, box[1] + 17)  # the tag inside the token
        assert shot.crop(token).tobytes() == plain.crop(token).tobytes()


def test_the_reach_note_is_a_call_out_when_nothing_is_reachable(small_map, small_view, decode) -> None:
    without = decode(render_board(small_view, small_map, reach={}, caption=Caption("t")))
    noted = decode(render_board(small_view, small_map, reach={}, caption=Caption("t", note="cheapest step: 2 AP")))
    top = noted.crop((0, 0, noted.width, board_module.TITLE_H + board_module.NOTE_H))
    assert common.YELLOW in set(top.get_flattened_data())
    assert common.YELLOW not in set(without.crop((0, 0, without.width, board_module.TITLE_H)).get_flattened_data())


@pytest.mark.parametrize(("cells", "least", "expected"), [
    (["D5"], (5, 5), (1, 2, 5, 6)),
    (["A1"], (5, 5), (0, 0, 4, 4)),  # slid onto the map at a corner
    (["H10"], (11, 9), (0, 1, 7, 9)),  # cut to the map when it is smaller than the window
    (["B2", "C3", "E6"], (3, 3), (0, 0, 5, 6)),  # a path and its margin
])
def test_closeup_window(small_map, cells, least, expected) -> None:
    assert window(small_map, cells, least) == expected


def test_closeup_is_larger_than_the_board_and_shows_the_character(small_view, small_map, decode) -> None:
    full = standard_map()
    view = copy.deepcopy(small_view)
    close = decode(render_closeup(view, full, ["E3"], caption=Caption("around bob")))
    whole = decode(render_board(view, full))
    layout = layout_for(full)
    pitch = (close.width - 2 * 40) / 11  # 11 columns between the two rulers
    assert pitch >= 2 * board_module.CELL and close.width <= PHONE_WIDTH
    assert common.TEAM_COLOURS[1] in set(close.get_flattened_data())
    assert whole.width == layout.size[0]


def _sizes(monkeypatch) -> list[int]:
    sizes: list[int] = []
    original = common.Canvas.text

    def recording(self, xy, text, size, fill, anchor="la"):
        sizes.append(size)
        return original(self, xy, text, size, fill, anchor)

    monkeypatch.setattr(common.Canvas, "text", recording)
    return sizes


def _shown(size: float, width: int) -> float:
    """How tall a font size looks when an image `width` px wide is shown 1,080 px wide."""
    return size * PHONE_WIDTH / width


def test_no_text_under_12px_on_a_phone(monkeypatch, standard_view, small_map, small_view, decode) -> None:
    """Every text of the standard board (14 characters, caption, map key, reach), a close-up and the
    recap, measured against the image's own width at 1,080 px; the AP boxes too."""
    board_module._background.cache_clear()  # the rulers are drawn with the background
    sizes = _sizes(monkeypatch)
    standard_view["pickups"] = [{"at": "L20", "kind": "hp", "amount": 5}, {"at": "M25", "kind": "item", "item": "scope"}]
    reach = {"A5": 1, "B5": 9}
    pictures = [
        lambda: render_board(standard_view, standard_map(), reach=reach, caption=CAPTIONS["en"][0]),
        lambda: render_closeup(small_view, small_map, ["E3"], caption=CAPTIONS["fr"][0]),
        lambda: render_recap({"title": "t", "subtitle": "s", "moments": ["m"], "fighters": [
            {"id": "Ann", "team": 1, "max_hp": 30, "ap": [1, 2], "hp": [30, 20, 10], "dealt": 3, "taken": 4}]}),
    ]
    widths = []
    for draw in pictures:
        sizes.clear()
        width = decode(draw()).width
        widths.append(width)
        assert sizes and min(_shown(size, width) for size in sizes) >= SMALLEST_TEXT, (width, sorted(set(sizes)))
    assert _shown(AP_BOX, widths[0]) >= 10
    assert _shown(charts.TEXT, 980) >= SMALLEST_TEXT
