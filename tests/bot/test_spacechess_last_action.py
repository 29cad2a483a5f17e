"""The Space Chess board tells its last action (issue 27): powers name their target and effect in
words and on the board, moves are arrows from → to, shots tracers to their target, and the caption
that lists them wraps rather than cutting a batch's damage off."""

from __future__ import annotations

import pytest

from bot.games.spacechess import SPACECHESS_PRESENTER
from bot.games.spacechess.boards import board, marks_for
from bot.i18n import alt_text, translate
from bot.service.scene import Scene
from engine.core.squaregrid import parse_cell
from engine.spacechess import SPACECHESS
from engine.spacechess.combat import shot_limit
from renders import common as c
from renders.hexmarks import GHOST, JUMP, MOVE, PUSH, SHOT, Mark
from renders.spacechess.board import MARKER, Effect, board_image
from tests.engine.spacechess.conftest import build, general, play, soldier


def _told(events, language: str) -> list[str]:
    return [translate(m.key, language, m.params) for m in SPACECHESS_PRESENTER.describe(SPACECHESS, events)]


def _board_words(state, events, language: str, drawn: list[str]) -> str:
    describe = SPACECHESS_PRESENTER._describer(SPACECHESS)
    board(SPACECHESS, state, Scene("Orion", language), describe, events)
    return " ".join(drawn)


def test_intimidation_names_its_target_and_where_it_was_pushed(drawn: list[str]) -> None:
    state = build(general("Ann", 2, "E8", ap=9), soldier("Dee", 1, "E3"), soldier("Bo", 1, "E2"))
    outcome = play(state, "Ann", "intimidate Dee B3")
    assert _told(outcome.events, "fr")[0] == (
        "Ann utilise le pouvoir intimidation sur Dee, qui passe de E3 à B3 (2 PA ; reste 7 PA).")
    assert "Dee, who goes from E3 to B3" in _told(outcome.events, "en")[0]
    marks, _ = marks_for(outcome.events, SPACECHESS.view(outcome.state), "fr")
    assert marks == (Mark(PUSH, ("E3", "B3")),)
    said = _board_words(outcome.state, outcome.events, "fr", drawn)
    assert "qui passe de E3 à B3" in said and "poussée ou téléportation par un pouvoir" in said


def test_a_heal_shows_the_hp_gained_on_its_target_and_a_teleport_its_destination(drawn: list[str]) -> None:
    state = build(general("Ann", 1, "B2", ap=9), soldier("Dee", 1, "C2", hp=3))
    healed = play(state, "Ann", "heal Dee")
    gained = healed.events[0].params["healed"]
    assert f"sur Dee : +{gained} PV, soit {gained + 3} PV" in _told(healed.events, "fr")[0]
    assert marks_for(healed.events, SPACECHESS.view(healed.state), "fr")[1] == (Effect("C2", f"+{gained} PV"),)
    assert f"+{gained} PV" in _board_words(healed.state, healed.events, "fr", drawn)
    jumped = play(state, "Ann", "teleport Dee F6")
    assert marks_for(jumped.events, SPACECHESS.view(jumped.state), "en")[0] == (Mark(JUMP, ("C2", "F6")),)
    assert "Dee, who goes from C2 to F6" in _told(jumped.events, "en")[0]


def test_a_batch_is_drawn_move_by_move_and_shot_by_shot_with_its_damage_and_deaths() -> None:
    state = build(soldier("Ann", 1, "B2", ap=9, weapon="sniper"), soldier("Dee", 2, "B8", hp=2))
    outcome = play(state, "Ann", "move B3; shoot Dee")
    marks, effects = marks_for(outcome.events, SPACECHESS.view(outcome.state), "en")
    assert marks[:2] == (Mark(MOVE, ("B2", "B3")), Mark(SHOT, ("B3", "B8")))
    assert Mark(GHOST, ("B8",)) in marks
    damage = sum(e.params["amount"] for e in outcome.events if e.kind == "damaged")
    assert effects == (Effect("B8", f"-{damage} HP"),)


def test_the_arrow_is_drawn_between_the_cells_of_a_move() -> None:
    state = build(soldier("Ann", 1, "B2", ap=9))
    view = SPACECHESS.view(state)
    plain, layout = board_image(view, state.game_map)
    marked, _ = board_image(view, state.game_map, marks=(Mark(MOVE, ("B2", "F2")),))
    x0, _ = layout.centre(parse_cell("C2", state.game_map.width, state.game_map.height))
    x1, _ = layout.centre(parse_cell("E2", state.game_map.width, state.game_map.height))
    y = layout.cell_box(parse_cell("E2", state.game_map.width, state.game_map.height))[1] + MARKER // 2  # tokens' row
    before, after = plain.convert("RGB"), marked.convert("RGB")
    inked = [x for x in range(x0, x1) if after.getpixel((x, y)) == c.BLACK and before.getpixel((x, y)) != c.BLACK]
    assert len(inked) > (x1 - x0) * 0.8


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_caption_of_a_long_batch_wraps_and_keeps_its_last_damage(drawn: list[str], language: str) -> None:
    state = build(soldier("Ann", 1, "B2", ap=9), soldier("Dee", 2, "B6"))
    outcome = play(state, "Ann", "shoot Dee; shoot Dee")
    last = _told([e for e in outcome.events if e.kind == "damaged"][-1:], language)[0]
    said = " ".join(text for text in drawn if text)
    _board_words(outcome.state, outcome.events, language, drawn)
    said = " ".join(drawn)
    assert last in said, (last, drawn)
    assert not any(text.endswith("...") for text in drawn)


def _history(start, *steps):
    """A replayed log: the game as it was set up, then each outcome."""
    from bot.service.replaying import Step

    return lambda: (Step(0, "setup", None, (), start), *(Step(seq, "order", "x", tuple(outcome.events), outcome.state)
                                                         for seq, outcome in enumerate(steps, start=1)))


def test_the_recap_counts_no_damage_beyond_the_hp_there_was() -> None:
    from bot.games.spacechess.recap import recap_of

    state = build(soldier("Ann", 1, "B2", ap=9, weapon="heavy_bolter"), soldier("Dee", 2, "B6", hp=1))
    outcome = play(state, "Ann", "shoot Dee")
    assert sum(e.params["amount"] for e in outcome.events if e.kind == "damaged") > 1
    recap = recap_of(_history(state, outcome)(), SPACECHESS.view)
    by_id = {f.id: f for f in recap.fighters}
    assert (by_id["Dee"].taken, by_id["Ann"].dealt) == (1, 1)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_game_a_gm_ended_says_so_on_its_recap_and_board(drawn: list[str], language: str) -> None:
    from bot.games.spacechess.recap import recap_reply

    state = build(soldier("Ann", 1, "B2", ap=9), soldier("Dee", 2, "B6"))
    outcome = play(state, "Ann", "move B3")
    scene = Scene("Orion", language, history=_history(state, outcome), status="finished")
    reply = recap_reply(SPACECHESS, scene)
    said = [translate(m.key, language, m.params) for m in reply.messages]
    ended = translate("game.picture.gm_ended", language, {})
    assert ended in said[0] and "goes on" not in said[0] and "continue" not in said[0]
    assert translate("game.recap.moment.gm_end", language, {"turn": 0}) in said
    board(SPACECHESS, outcome.state, scene, SPACECHESS_PRESENTER._describer(SPACECHESS), outcome.events)
    assert ended in drawn
    drawn.clear()
    board(SPACECHESS, outcome.state, Scene("Orion", language, status="paused"),
          SPACECHESS_PRESENTER._describer(SPACECHESS), outcome.events)
    assert translate("game.picture.paused", language, {}) in drawn


def test_a_time_limit_end_shows_the_hp_totals_in_the_recap() -> None:
    from bot.games.spacechess.recap import recap_of
    from engine.core.protocol import Outcome
    from engine.spacechess.endings import hp_totals, time_limit

    state = build(soldier("Ann", 1, "B2"), soldier("Dee", 2, "B6", hp=5))
    ended, events = time_limit(state)
    recap = recap_of(_history(state, Outcome(ended, events))(), SPACECHESS.view)
    totals = [m for m in recap.moments if m.key == "game.recap.moment.totals"]
    assert len(totals) == 1
    said = translate(totals[0].key, "fr", totals[0].params)
    one, two = hp_totals(ended)[1], hp_totals(ended)[2]
    assert f"équipe 1 {one} PV, équipe 2 {two} PV" in said and one != two


def test_the_sheet_shows_the_grade_what_is_left_this_turn_and_an_active_ability(drawn: list[str]) -> None:
    state = build(soldier("Ann", 1, "B2", ap=9, ability="rage"), soldier("Dee", 2, "B6"))
    state = play(play(state, "Ann", "shoot Dee").state, "Ann", "rage").state
    SPACECHESS_PRESENTER.sheet(SPACECHESS, state, "Ann", "fr")
    said = " | ".join(drawn)
    limit = shot_limit(state.find("Ann"), state)
    for words in ("Tirs", f"reste {limit - 1} sur {limit} ce tour", "Grenade", "reste 1 sur 1 ce tour", "En cours",
                  "rage destructrice, jusqu’au prochain tirage"):
        assert words in said, (words, said)


def test_a_power_is_a_decisive_moment_of_the_recap() -> None:
    from bot.games.spacechess.recap import recap_of

    state = build(general("Ann", 2, "E8", ap=9), soldier("Dee", 1, "E3"))
    outcome = play(state, "Ann", "intimidate Dee B3")
    moments = recap_of(_history(state, outcome)(), SPACECHESS.view).moments
    assert [translate(m.key, "fr", m.params) for m in moments] == [
        "Tour 0 : Ann utilise le pouvoir intimidation sur Dee."]


def test_the_recap_shows_apart_the_ap_lost_to_the_cap_at_a_draw_and_from_a_friend(drawn: list[str]) -> None:
    """Ann (8 AP) draws 1, 2, 3 on her card 1 (+3) and keeps 1 of them; Bo gives her his 4 AP, all lost.
    The AP table still says what the draws gave; the losses are counted apart, in the text and drawn."""
    from bot.games.spacechess.recap import recap_of, recap_reply

    state = build(soldier("Ann", 1, "B2", ap=8), soldier("Bo", 1, "B3", cards=[5, 6], ap=2, ability="friendship"), soldier("Dee", 2, "B9"))
    drew = SPACECHESS.apply_input(state, "draw", None, {"numbers": [1, 2, 3, 40, 41]})
    given = play(drew.state, "Bo", "friendship Ann")
    history = _history(state, drew, given)
    recap = recap_of(history(), SPACECHESS.view)
    by_id = {f.id: f for f in recap.fighters}
    assert by_id["Ann"].ap == (3,) and by_id["Ann"].capped == (2 + 4,)
    assert by_id["Bo"].capped == () and by_id["Dee"].capped == ()
    reply = recap_reply(SPACECHESS, Scene("Orion", "fr", history=history))
    said = [translate(m.key, "fr", m.params) for m in reply.messages]
    assert said[-1] == "PA perdus au plafond : Ann 6 PA."
    assert "PA perdus au plafond de PA, tour par tour" in drawn
    for language, words in (("fr", "PA perdus au plafond tour par tour (Ann 6 PA)"),
                            ("en", "AP lost to the cap turn by turn (Ann 6 AP)")):  # the alt text has the table too
        picture = SPACECHESS_PRESENTER.recap(SPACECHESS, Scene("Orion", language, history=history)).files[0]
        assert words in alt_text(picture.description, language)
    untouched = _history(state, drew)  # Ann lost 2 AP at the draw: only her
    picture = SPACECHESS_PRESENTER.recap(SPACECHESS, Scene("Orion", "en", history=untouched)).files[0]
    assert "(Ann 2 AP)" in alt_text(picture.description, "en")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_logistics_discount_is_explained_in_the_reply_and_on_the_sheets(drawn: list[str], language: str) -> None:
    """SC-26: a power that costs less says why (who holds the tool, next to whom, the full price);
    the general's sheet says who lowers its powers' cost, the holder's what standing there does."""
    said = {"fr": ("Logistique : Bo tient l’outil logistique à côté d’Ann, le pouvoir coûte donc 1 PA de moins "
                   "(1 PA au lieu de 2).", "Bo à côté : pouvoirs à 1 PA de moins",
                   "pouvoirs à 1 PA de moins près de Bo", "près du général : pouvoirs à 1 PA de moins"),
            "en": ("Logistics: Bo holds the logistics tool next to Ann, so the power costs 1 AP less (1 AP instead "
                   "of 2).", "Bo next to you: powers 1 AP cheaper", "powers 1 AP cheaper beside Bo",
                   "next to the general: powers 1 AP cheaper")}[language]
    helped = build(general("Ann", 1, "B2", ap=9), soldier("Bo", 1, "B3", items=["logistics", "scope"]),
                   soldier("Cy", 1, "C2", hp=3))
    healed = play(helped, "Ann", "heal Cy")
    assert _told(healed.events, language)[-1] == said[0]
    alone = build(general("Ann", 1, "B2", ap=9), soldier("Bo", 1, "B5", items=["logistics", "scope"]),
                  soldier("Cy", 1, "C2", hp=3))
    assert not any("logisti" in line.lower() for line in _told(play(alone, "Ann", "heal Cy").events, language))
    for state, actor, words in ((helped, "Ann", said[1]), (alone, "Ann", said[2]), (helped, "Bo", said[3])):
        drawn.clear()
        SPACECHESS_PRESENTER.sheet(SPACECHESS, state, actor, language)
        assert words in drawn, (words, drawn)
    drawn.clear()
    SPACECHESS_PRESENTER.sheet(SPACECHESS, helped, "Cy", language)
    assert not any(words in drawn for words in said[1:])
