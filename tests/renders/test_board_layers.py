"""The board drawn from cached layers (the map, the key, roster rows, tokens) is pixel for pixel the
board drawn from scratch, in both languages, and a cache never hands one language's words to another."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PIL import Image

from bot.games.spacechess.pictures import picture_labels
from engine.spacechess.maps import GameMap, standard_map
from renders import common
from renders.hexmarks import GHOST, MOVE, PUSH, SHOT, Mark
from renders.spacechess import board as board_module
from renders.spacechess.board import Caption, Effect, Overlay, board_image

#: each kept drawing of the board, and the most it keeps
CACHES = {"_background": 16, "_tall_background": 16, "_KEYS": 64, "_ROSTER_ROWS": 512, "_TOKENS": 512}


def positions(small_view: dict[str, Any], standard_view: dict[str, Any]) -> list[tuple[dict, str, dict[str, Any]]]:
    """A game's boards one order after another (a move, a shot, a death), a reach, a finished game."""
    moved = copy.deepcopy(standard_view)
    moved["characters"]["player03"].update(at="Q3", ap=2)
    shot = copy.deepcopy(moved)
    shot["characters"]["player04"].update(hp=3)
    shot["characters"]["player06"].update(alive=False, at=None)
    shot["pickups"] = [{"at": "L20", "kind": "ap", "amount": 3}, {"at": "M25", "kind": "item", "item": "scope"}]
    return [
        (standard_view, "standard", {"overlay": Overlay("none"), "title": "Game — turn 1"}),
        (moved, "standard", {"overlay": Overlay("move", path=("P2", "Q2", "Q3")), "marks": (Mark(MOVE, ("P2", "Q3")),),
                             "caption": Caption(title="Game", lines=("Turn 1", "Last action: player03 moves"))}),
        (shot, "standard", {"marks": (Mark(SHOT, ("Q3", "K3")), Mark(GHOST, ("K3",)), Mark(PUSH, ("B2", "B5"))),
                            "effects": (Effect("Q3", "-8 HP"),), "overlay": Overlay("grenade", area=("C3", "C4")),
                            "caption": Caption(title="Game", lines=("Turn 2",), banner="Team 1 wins", banner_team=1)}),
        (shot, "standard", {"reach": {"R3": 1, "R4": 2}, "caption": Caption(title="Game", note="a note")}),
        (small_view, "small", {"overlay": Overlay("shot", line=("B2", "D9"), blocked_at="C4"), "title": "small"}),
    ]


def from_scratch(monkeypatch: pytest.MonkeyPatch, *args: Any, **kwargs: Any) -> Image.Image:
    with monkeypatch.context() as patched:
        patched.setattr(board_module, "_CACHED_LAYERS", False)
        return board_image(*args, **kwargs)[0]


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes() and a.getpalette() == b.getpalette()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_layered_boards_are_the_boards_drawn_from_scratch(monkeypatch: pytest.MonkeyPatch, language: str,
                                                          small_map: GameMap, small_view: dict[str, Any],
                                                          standard_view: dict[str, Any]) -> None:
    """Each board three times (drawn straight, then with its tokens stamped, then all pasted), after
    the one before (the caches hold its parts)."""
    maps = {"standard": standard_map(), "small": small_map}
    labels = picture_labels(language)
    for view, name, options in positions(small_view, standard_view):
        expected = from_scratch(monkeypatch, view, maps[name], labels=labels, **options)
        for _ in range(3):
            assert same_pixels(board_image(view, maps[name], labels=labels, **options)[0], expected), (name, options)


def test_a_language_never_reuses_another_ones_key(monkeypatch: pytest.MonkeyPatch,
                                                  standard_view: dict[str, Any]) -> None:
    """French then English: the English board has the English key (the key is cached by its words)."""
    game_map = standard_map()
    board_module._KEYS.cache_clear()
    french = board_image(standard_view, game_map, labels=picture_labels("fr"))[0]
    english = board_image(standard_view, game_map, labels=picture_labels("en"))[0]
    assert len(board_module._KEYS) == 2
    assert same_pixels(english, from_scratch(monkeypatch, standard_view, game_map, labels=picture_labels("en")))
    assert not same_pixels(english, french)


def test_the_layer_caches_are_bounded(standard_view: dict[str, Any]) -> None:
    """Kept drawings never grow with the games: each cache has its bound (the roster's is filled)."""
    for name, most in CACHES.items():
        kept = getattr(board_module, name)
        assert (kept.maxsize if isinstance(kept, board_module._Kept) else kept.cache_info().maxsize) == most, name
    board_module._ROSTER_ROWS.cache_clear()
    view = copy.deepcopy(standard_view)
    for hp in range(1 + CACHES["_ROSTER_ROWS"] // len(view["characters"])):
        for who in view["characters"].values():
            who["hp"] = hp
        board_image(view, standard_map())
    assert len(board_module._ROSTER_ROWS) == CACHES["_ROSTER_ROWS"]


def test_recording_text_forgets_the_kept_parts(standard_view: dict[str, Any]) -> None:
    """The language checks read the words where they are drawn: a kept roster row or key is drawn
    again while recording, so its words are seen."""
    board_image(standard_view, standard_map(), labels=picture_labels("en"))
    with common.recording_text() as drawn:
        board_image(standard_view, standard_map(), labels=picture_labels("en"))
    assert "player03" in drawn and picture_labels("en")["legend"] in drawn


def test_picture_labels_are_read_once_per_language_and_again_when_the_catalog_grows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole catalog is scanned for its ``label.*`` words once, not for each picture; a game's
    words added later (a catalog only grows) are seen."""
    from bot.games.spacechess import pictures

    words = {"label.scope": "viseur", "game.picture.legend.legend": "Légende", "other": "x"}
    monkeypatch.setattr(pictures, "catalog", lambda language: words)
    pictures._labels.cache_clear()
    first = pictures.picture_labels("fr")
    assert first is pictures.picture_labels("fr")
    assert dict(first) == {"scope": "viseur", "legend": "Légende"}
    words["label.jetpack"] = "réacteur dorsal"
    assert pictures.picture_labels("fr")["jetpack"] == "réacteur dorsal"
    pictures._labels.cache_clear()
