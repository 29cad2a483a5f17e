"""A Space Chess board says how the game stands (issue 27, point 3): once over, how it ended — by its
rules (and why), by the time limit (after which draw, on which HP totals) or by a game master —
under the winner's banner, in French and in English."""

from __future__ import annotations

import pytest

from bot.games.spacechess import SPACECHESS_PRESENTER
from bot.games.spacechess.boards import board
from bot.service.replaying import Step
from bot.service.scene import Scene
from engine.core.protocol import Outcome
from engine.spacechess import SPACECHESS
from engine.spacechess.endings import time_limit
from tests.engine.spacechess.conftest import build, play, soldier

DESCRIBE = SPACECHESS_PRESENTER._describer(SPACECHESS)

SAID = {
    "fr": {"rules": "Partie terminée selon ses règles : l’équipe 2 n’a plus aucun soldat.",
           "limit": "Partie terminée par la limite de temps après le tirage 0, sur les PV des vivants : équipe 1 "
                    "50 PV, équipe 2 35 PV.",
           "gm": "Un maître du jeu a arrêté la partie au tour 0 : personne ne gagne.",
           "wins": "L’équipe 1 gagne"},
    "en": {"rules": "Ended by its rules: Team 2 has no soldier left.",
           "limit": "Ended by the time limit after draw 0, on the HP of the living: team 1 50 HP, team 2 35 HP.",
           "gm": "A game master ended the game at turn 0: nobody wins.",
           "wins": "Team 1 wins"},
}


def _words(drawn: list[str]) -> str:
    return " ".join(drawn)  # a wrapped caption line reads on in the next one


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_game_its_rules_ended_says_why_under_the_winner(drawn: list[str], language: str) -> None:
    state = build(soldier("Ann", 1, "B2", ap=9, weapon="heavy_bolter"), soldier("Dee", 2, "B4", hp=1))
    outcome = play(state, "Ann", "shoot Dee")
    assert SPACECHESS.view(outcome.state)["status"] == "finished"
    board(SPACECHESS, outcome.state, Scene("Orion", language), DESCRIBE, outcome.events)
    assert SAID[language]["wins"] in drawn and SAID[language]["rules"] in _words(drawn)
    assert _words(drawn).count(SAID[language]["rules"].split(": ")[-1].split(" : ")[-1]) == 1  # told once


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_game_the_time_limit_ended_says_so_with_the_hp_totals_even_later(drawn: list[str], language: str) -> None:
    """Drawn later (`/game board` after the end), the reason comes from the history's game-over."""
    state = build(soldier("Ann", 1, "B2"), soldier("Dee", 2, "B6", hp=5))
    ended, events = time_limit(state)
    history = (Step(0, "setup", None, (), state), Step(1, "limit_reached", None, tuple(events), ended))
    board(SPACECHESS, Outcome(ended, events).state, Scene("Orion", language, history=lambda: history), DESCRIBE)
    assert SAID[language]["wins"] in drawn and SAID[language]["limit"] in _words(drawn)


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_game_a_gm_ended_says_nobody_wins(drawn: list[str], language: str) -> None:
    state = build(soldier("Ann", 1, "B2", ap=9), soldier("Dee", 2, "B6"))
    outcome = play(state, "Ann", "move B3")
    board(SPACECHESS, outcome.state, Scene("Orion", language, status="finished"), DESCRIBE, outcome.events)
    assert SAID[language]["gm"] in _words(drawn)
    drawn.clear()
    board(SPACECHESS, outcome.state, Scene("Orion", language, status="running"), DESCRIBE, outcome.events)
    assert not any(SAID[language][key] in _words(drawn) for key in ("gm", "rules", "limit"))
