"""HexArena's pictures tell the last action (issue 27): the turn's post and `/game board` draw it
and say it under the board in the channel's language, ships numbered as their names; the sheet's
board outlines nothing, the outline meaning the last move."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games import presenter_for
from bot.i18n import translate
from bot.service import GameService
from bot.service.scene import Scene, scene_of
from renders import common
from renders.hexarena import layout_for
from renders.hexboard import HIGHLIGHT
from tests.bot.hexarena.test_play import ANN, RULES, game, started
from tests.support.clock import Clock


@pytest.fixture
def svc(sqlite_store) -> GameService:
    return GameService(sqlite_store, seed_source=lambda: 5, clock=Clock())


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def lit(image: Image.Image, cell: str) -> bool:
    """Whether `cell` wears the last move's pale yellow (it is plain floor otherwise)."""
    layout = layout_for()
    x, y = layout.centre(cell)
    half = int(layout.hex_size * 0.6)
    return HIGHLIGHT in {colour for _, colour in image.crop((x - half, y - half, x + half, y + half)).getcolors(1 << 16)}


def test_the_turn_post_and_game_board_draw_and_tell_the_last_move_in_french(svc: GameService) -> None:
    started(svc)
    played = svc.handle(ANN, "hx move", {"cell": "g3", "to": "g10"})
    posted = decode(played.files[0].data)
    assert lit(posted, "G10") and not lit(posted, "G6")  # the ends, not the cells crossed
    assert posted.getpixel(layout_for().centre("G6")) == common.BLACK  # the arrow's shaft
    record = game(svc)
    with common.recording_text() as drawn:
        board = presenter_for("hexarena").board_for(RULES, RULES.from_json(record.state), scene_of(svc, record, "fr"))
    assert decode(board[0].data).tobytes() != decode(
        presenter_for("hexarena").board_for(RULES, RULES.from_json(record.state), Scene("Arena", "fr"))[0].data
    ).tobytes()  # without a history, nothing to draw: the history is what /game board draws from
    assert lit(decode(board[0].data), "G10")
    assert "Dernier coup : Chasseur rouge 2 se déplace G3 → G10." in drawn
    assert {"1", "2", "3", "4"} <= set(drawn)  # Cargo rouge 4 is drawn a 4, as its name says
    assert not any("Last move" in text or "moves" in text for text in drawn)
    said = translate(board[0].description.key, "fr", board[0].description.params)
    assert "Chasseur rouge 2 se déplace G3 → G10." in said  # the alt text tells it too


def test_the_sheets_board_outlines_nothing(svc: GameService) -> None:
    started(svc)
    assert svc.handle(ANN, "hx move", {"cell": "g3", "to": "g10"}).ok
    sheet = svc.handle(ANN, "game sheet", {"character": "red"})
    image = decode(sheet.files[0].data)
    assert not any(lit(image, cell) for cell in ("G10", "G2", "E1", "A1"))


def test_the_start_is_told_but_not_called_a_move() -> None:
    from bot.games.hexarena import caption
    from engine.core.protocol import Event

    started = Event("started", {"first": "red", "drawn": False})
    moved = Event("moved", {"ship": "red_fighter2", "type": "fighter", "side": "red", "from": "G3", "to": "G10",
                            "path": ["G4"], "teleport": False, "passenger": None})
    assert caption([started], "fr") == ["La partie commence (HexArena, règles reconstituées) : Rouge joue en premier."]
    assert caption([moved, Event("turn_ended", {"side": "red", "actions": 1, "ap": None, "next": "blue"})], "en") == [
        "Last move: Red fighter 2 moves G3 → G10."]


def test_each_event_is_drawn_by_its_mark() -> None:
    """A teleport's mark names where it left and arrived, never the wrapped path; a ram both ships;
    what was destroyed is ghosted where it stood; a recycle the debris and the admiral's step."""
    from bot.games.hexarena import last_marks
    from engine.core.protocol import Event
    from renders.hexmarks import GHOST, JUMP, MOVE, RAM, TURN, Mark

    view = {"ships": {"red_fighter1": {"side": "red", "type": "fighter"}, "red_admiral1": {"side": "red", "type": "admiral"}}}
    events = [
        Event("moved", {"ship": "red_fighter1", "type": "fighter", "side": "red", "from": "G6", "to": "D3",
                        "path": ["F6", "E6", "M1", "L1", "D3"], "teleport": True, "passenger": None}),
        Event("rotated", {"ship": "red_fighter1", "at": "D3", "from": "NW", "to": "SE"}),
        Event("rammed", {"ship": "blue_patrol1", "at": "E10", "direction": "SE", "target": "red_cargo2",
                         "target_at": "F10"}),
        Event("destroyed", {"ship": "red_cargo2", "side": "red", "type": "cargo", "at": "F10", "by": "blue_patrol1",
                            "debris": False, "released": "red_admiral1", "reserve": 8}),
        Event("recycled", {"ship": "red_admiral1", "debris": "G3", "access": "indirect", "from": "G1", "to": "G2",
                           "reserve": 8}),
    ]
    assert last_marks(events, view) == [
        Mark(JUMP, ("G6", "D3")), Mark(TURN, ("D3",), side="red", piece="fighter", facings=("NW", "SE")),
        Mark(RAM, ("E10", "F10")), Mark(GHOST, ("F10",), side="red", piece="cargo"),
        Mark(GHOST, ("G3",), side="red", piece="debris"), Mark(MOVE, ("G1", "G2")),
    ]
