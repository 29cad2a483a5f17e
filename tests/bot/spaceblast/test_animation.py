"""The turn's animation tells what happened (issue 27): each phase's frame names who did what, drawn
in the reader's words, from the events the engine emits."""

from __future__ import annotations

from unittest.mock import patch

from bot.games.spaceblast import SPACEBLAST_PRESENTER
from bot.service.scene import Scene
from engine.spaceblast import SPACEBLAST
from renders.common import recording_text
from renders.spaceblast.animation import render_turn_gif


def told(document: dict, orders: dict[str, str], language: str = "en") -> list[str]:
    """The words drawn in the turn's animation after `orders` are resolved on the `document` position
    (and the tinted cells of each frame, as ``tinted <frame> <cell>``)."""
    state = SPACEBLAST.setup(document)
    for ident, text in orders.items():
        state = SPACEBLAST.apply_input(state, "order", ident, {"text": text}).state
    outcome = SPACEBLAST.apply_input(state, "resolve", None, {})
    tinted: list[str] = []

    def spy(frames, radius, **options):
        tinted.extend(f"tinted {frame['frame']} {cell}" for frame in frames for cell in frame.get("highlight", ()))
        return render_turn_gif(frames, radius, **options)

    with recording_text() as drawn, patch("renders.spaceblast.animation.render_turn_gif", spy):
        files = SPACEBLAST_PRESENTER.images_for(SPACEBLAST, outcome.state, outcome.events, Scene("Nova", language))
    assert [f.filename for f in files] == ["arena.png", "resolution.gif"]
    return drawn + tinted


def test_a_collision_frame_names_both_ships_and_a_crash_is_not_a_departure() -> None:
    drawn = told({"ships": [{"id": "Ann", "at": "G6", "facing": "E"}, {"id": "Bob", "at": "G8", "facing": "W"},
                            {"id": "Cid", "at": "A1", "facing": "NW"}, {"id": "Dee", "at": "K3", "facing": "E"}],
                  "asteroids": ["K4"]}, {"Ann": "none", "Bob": "none", "Cid": "none", "Dee": "none"})
    assert "Collision at G7: Ann and Bob each lose 1" in drawn
    assert {"tinted movement G6", "tinted movement G7", "tinted movement G8"} <= set(drawn)  # both ships flash
    assert "Cid leaves the arena from A1: eliminated" in drawn
    assert "Dee crashes into the asteroid on K4: destroyed" in drawn
    assert not any(text.startswith("Dee is destroyed") for text in drawn)  # told once, as a crash
    assert {"crashed on an asteroid", "disqualified"} <= set(drawn)  # the legend tells them apart too


def test_rotations_mines_rams_and_missiles_are_told_in_french() -> None:
    drawn = told({"ships": [{"id": "Ann", "at": "G5", "facing": "E"}, {"id": "Bob", "at": "G6", "facing": "E"},
                            {"id": "Cid", "at": "C3", "facing": "E"}, {"id": "Dee", "at": "C7", "facing": "W"}]},
                 {"Ann": "none", "Bob": "frein mine", "Cid": "missile", "Dee": "gauche frein"}, "fr")
    assert "Ann éperonne Bob en G6 : chacun perd 1, Ann +1 point" in drawn
    assert "Bob pose une mine en G6" in drawn
    assert "Dee tourne O → SO" in drawn
    assert "Cid tire depuis C4 vers E" in drawn  # it moved first (SB-9 before SB-11)
    assert "Le missile de Cid touche Dee en C7" in drawn
    assert {"tinted firing C5", "tinted firing C6", "tinted firing C7"} <= set(drawn)  # along its path to the hit
