"""The turn's animation tells what happened (issue 27): each phase's frame names who did what, drawn
in the reader's words, from the events the engine emits."""

from __future__ import annotations

from unittest.mock import patch

from bot.games.spaceblast import SPACEBLAST_PRESENTER
from bot.service.scene import Scene
from engine.spaceblast import SPACEBLAST
from renders.common import recording_text
from renders.spaceblast.animation import render_turn_gif


def animated(document: dict, orders: dict[str, str], language: str = "en") -> tuple[list[str], list[dict]]:
    """The words drawn in the turn's animation after `orders` are resolved on the `document` position,
    and the frames the presenter gave the animation."""
    state = SPACEBLAST.setup(document)
    for ident, text in orders.items():
        state = SPACEBLAST.apply_input(state, "order", ident, {"text": text}).state
    outcome = SPACEBLAST.apply_input(state, "resolve", None, {})
    given: list[dict] = []

    def spy(frames, radius, **options):
        given.extend(frames)
        return render_turn_gif(frames, radius, **options)

    with recording_text() as drawn, patch("renders.spaceblast.animation.render_turn_gif", spy):
        files = SPACEBLAST_PRESENTER.images_for(SPACEBLAST, outcome.state, outcome.events, Scene("Nova", language))
    assert [f.filename for f in files] == ["arena.png", "resolution.gif"]
    return drawn, given


def told(document: dict, orders: dict[str, str], language: str = "en") -> list[str]:
    """The words drawn in the turn's animation (and the tinted cells of each frame, as ``tinted
    <frame> <cell>``)."""
    drawn, frames = animated(document, orders, language)
    return drawn + [f"tinted {frame['frame']} {cell}" for frame in frames for cell in frame.get("highlight", ())]


def marks(document: dict, orders: dict[str, str]) -> dict[str, list[dict]]:
    """The marks each frame draws, by frame name (the frames without any left out)."""
    return {frame["frame"]: frame["marks"] for frame in animated(document, orders)[1] if frame.get("marks")}


#: the collision game: Ann and Bob both go for G7, Cid flies off the arena, Dee into an asteroid
CLASH = ({"ships": [{"id": "Ann", "at": "G6", "facing": "E"}, {"id": "Bob", "at": "G8", "facing": "W"},
                    {"id": "Cid", "at": "A1", "facing": "NW"}, {"id": "Dee", "at": "K3", "facing": "E"}],
          "asteroids": ["K4"]}, {"Ann": "none", "Bob": "none", "Cid": "none", "Dee": "none"})
#: the ram game: Dee turns, Bob lays a mine, Ann rams him, Cid's missile hits Dee
RAM = ({"ships": [{"id": "Ann", "at": "G5", "facing": "E"}, {"id": "Bob", "at": "G6", "facing": "E"},
                  {"id": "Cid", "at": "C3", "facing": "E"}, {"id": "Dee", "at": "C7", "facing": "W"}]},
       {"Ann": "none", "Bob": "brake mine", "Cid": "missile", "Dee": "left brake"})
#: the missiles game: Cid flies onto Dee's mine, a missile in flight hits Eve's shield, another flies on,
#: Bob's new missile finishes Ann (destroyed in the damage phase), Dee's leaves the arena
MISSILES = ({"variants": ["powers"], "ships": [
    {"id": "Ann", "at": "D5", "facing": "E", "hits": 3}, {"id": "Bob", "at": "D2", "facing": "E"},
    {"id": "Cid", "at": "J5", "facing": "W"}, {"id": "Dee", "at": "B5", "facing": "NE"},
    {"id": "Eve", "at": "H9", "facing": "W", "powers": ["shield"]}],
    "mines": [{"owner": "Dee", "at": "J4", "active": True}],
    "missiles": [{"owner": "Dee", "at": "K2", "facing": "E"}, {"owner": "Bob", "at": "H6", "facing": "E"}]},
    {"Ann": "brake", "Bob": "missile", "Cid": "none", "Dee": "brake missile", "Eve": "brake power shield"})

#: the steps game: Ann slips to her front-left then steps ahead, Bob's turbo takes him two cells (SB-17)
MOVES = ({"variants": ["powers"], "ships": [{"id": "Ann", "at": "G5", "facing": "E", "powers": ["slip"]},
                                            {"id": "Bob", "at": "J2", "facing": "E", "powers": ["turbo"]}]},
         {"Ann": "left power slip", "Bob": "power turbo"})

#: the turning game: Ann turns left and steps ahead to F5, Bob turns right and steps to C3 (SB-7, SB-9)
TURNS = ({"ships": [{"id": "Ann", "at": "G5", "facing": "E"}, {"id": "Bob", "at": "D4", "facing": "W"}]},
         {"Ann": "left", "Bob": "right"})


def test_a_ships_move_is_one_arrow_through_its_steps_from_where_it_stood_to_where_it_ended() -> None:
    """SB-9, SB-17: a slip and the step after it, or turbo's two steps, are one move of the ship."""
    assert marks(*MOVES) == {"movement": [{"kind": "move", "ship": "Ann", "path": ["G5", "F5", "F6"]},
                                          {"kind": "move", "ship": "Bob", "path": ["J2", "J3", "J4"]}]}
    assert "Dernier tour : Ann se déplace G5 → F5 → F6. Bob se déplace J2 → J3 → J4." in told(*MOVES, "fr")


def test_each_phase_marks_what_it_did_from_the_engines_events() -> None:
    """Issue 27: the frames draw what their words tell, placed from the events and the phase's view."""
    assert marks(*CLASH) == {"movement": [
        {"kind": "clash", "at": "G7", "ships": ["G6", "G8"]},  # a flash on both ships
        {"kind": "left_arena", "at": "A1", "ship": "Cid", "facing": "NW"},  # its own arrow out, no move's
        {"kind": "move", "ship": "Dee", "path": ["K3", "K4"]},  # an arrow from where it stood to where it ended
        {"kind": "crash", "at": "K4", "ship": "Dee", "facing": "E"}]}  # once: the crash, not also destroyed
    assert marks(*RAM) == {
        "rotation": [{"kind": "turn", "at": "C7", "from": "W", "to": "SW", "steps": -1, "ship": "Dee"}],
        "mines": [{"kind": "mine_laid", "at": "G6"}],
        "movement": [{"kind": "clash", "at": "G6", "ships": ["G5", "G6"]},  # the rammer and the rammed
                     {"kind": "move", "ship": "Cid", "path": ["C3", "C4"]}],
        "firing": [{"kind": "missile", "path": ["C4", "C5", "C6", "C7"], "facing": "E", "end": "hit"}]}
    assert marks(*MISSILES) == {
        "movement": [{"kind": "move", "ship": "Bob", "path": ["D2", "D3"]},
                     {"kind": "move", "ship": "Cid", "path": ["J5", "J4"]},
                     {"kind": "burst", "at": "J4"}],  # the mine blew up under Cid
        "missiles": [{"kind": "missile", "path": ["K2", "K3", "K4", "K5"], "facing": "E", "end": "flying"},
                     {"kind": "missile", "path": ["H6", "H7", "H8", "H9"], "facing": "E", "end": "hit"},
                     {"kind": "shield", "at": "H9"}],
        "firing": [{"kind": "missile", "path": ["D3", "D4", "D5"], "facing": "E", "end": "hit"},
                   {"kind": "missile", "path": ["B5", "A5"], "facing": "NE", "end": "left_arena"}],
        "damage": [{"kind": "burst", "at": "D5", "ship": "Ann", "facing": "E"}]}


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


def test_a_missile_off_the_arena_and_one_broken_on_an_asteroid_are_told_apart() -> None:
    """The channel and the frame said "leaves play at A5" for both (SB-10, SB-16)."""
    from bot.i18n import translate
    from engine.core.protocol import Event

    drawn = told(*MISSILES, "fr")
    assert "Le missile de Dee sort de l’arène par A5" in drawn
    rock = ({"ships": [{"id": "Cid", "at": "C3", "facing": "E"}, {"id": "Dee", "at": "J3", "facing": "E"}],
             "asteroids": ["C6"]}, {"Cid": "missile", "Dee": "none"})
    assert "Le missile de Cid se brise sur l’astéroïde en C6" in told(*rock, "fr")
    assert marks(*rock)["firing"] == [{"kind": "missile", "path": ["C4", "C5", "C6"], "facing": "E",
                                       "end": "asteroid"}]
    said = [translate(m.key, "en", m.params) for m in SPACEBLAST_PRESENTER.describe(SPACEBLAST, [
        Event("missile_removed", {"owner": "Dee", "at": "A5", "reason": "left_arena"}),
        Event("missile_removed", {"owner": "Cid", "at": "C6", "reason": "asteroid"})])]
    assert said == ["A missile of **Dee** leaves the arena at A5.",
                    "A missile of **Cid** breaks up on the asteroid on C6."]
