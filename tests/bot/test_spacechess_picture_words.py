"""Every word drawn on a Space Chess picture is the reader's: the demo campaign played in French
draws French words only (boards, map key, close-ups, previews, the recap's charts, the replay, the
sheet card and the map loaded by `/sc map`), and in English English ones. Read where the words are
drawn (a spy on `Canvas.text`), not by looking at the pixels."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import bot.demo
from bot.console import Console
from bot.demo import script_lines
from bot.service import GameService
from bot.store.repo import Store
from renders import common
from renders.spacechess.board import KEY_TEXT_W, SIDEBAR_SMALL, wrapped

DEMO_DIR = Path(bot.demo.__file__).parent

#: English words a French picture must not hold (and the French ones an English picture must not)
FOREIGN = {
    "fr": re.compile(r"\b(Map key|deployment|rows|team|Turn|draws? applied|Next draw|Draw|Last action|Paris time|"
                     r"UTC|reachable|line of fire|blocks|wins|path|cells hit|Weapon|Armour|Items|Ability|Cards|"
                     r"around|where|DEAD|HP|AP|recap|Damage|dealt|taken|gained|each|Key moments|shoots|"
                     r"scope|sniper rifle|medium|light|general|soldier)\b"),
    "en": re.compile(r"(Légende|rangées|équipe|Tour |tirages? appliqués|Prochain|Tirage|Dernière|ligne de tir|"
                     r"bloque|gagne|chemin|cases touchées|Arme|Armure|Objets|Capacité|Cartes|autour|où |MORT|"
                     r"PV|PA\b|bilan|Dégâts|infligés|subis|gagnés|Moments|tire|viseur|moyenne|légère|"
                     r"général|soldat| à \d+ h)"),
}


def campaign(tmp_path: Path, language: str) -> Console:
    """The whole demo campaign (its last lines draw the recap and the replay), then a sheet."""
    store = Store(f"sqlite:///{tmp_path / 'game.sqlite'}")
    console = Console(GameService(store), out_dir=tmp_path / "out", stream=io.StringIO(), language=language,
                      base_dir=DEMO_DIR)
    assert console.run_lines([*script_lines(), "as cid /game sheet"]) == 0, console.stream.getvalue()
    store.close()
    return console


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_campaigns_pictures_speak_the_readers_language(tmp_path: Path, drawn: list[str], language: str) -> None:
    campaign(tmp_path, language)
    leaks = sorted({text for text in drawn if FOREIGN[language].search(text)})
    assert drawn and not leaks, leaks
    said = " | ".join(drawn)
    if language == "fr":
        for words in ("Légende", "Tour 3 (tirages appliqués : 3)", "rangées de départ de l’équipe 1",
                      "rangées de départ de l’équipe 2", "F6 : bloque la ligne", "Tirages saisis par les maîtres du jeu",
                      "PV à la fin de chaque tour", "L’équipe 1 gagne", "Arme"):
            assert words in said, words


@pytest.mark.parametrize(("words", "lines"), [
    ("rangées de départ de l’équipe 1", ("rangées de départ de l’équipe 1",)),
    ("deployment rows of team 2", ("deployment rows of team 2",)),
    ("une ligne de la légende bien trop longue pour tenir sur une ligne équipe 2", None),
])
def test_a_key_line_that_does_not_fit_wraps_and_keeps_its_end(words: str, lines: tuple[str, ...] | None) -> None:
    """The end of a key line tells two lines apart (team 1, team 2): it is never cut while a line is left."""
    shown = wrapped(words)
    if lines is not None:
        assert shown == lines
    else:
        assert len(shown) == 2 and shown[-1].startswith("…") and shown[-1].endswith("une ligne équipe 2")
    assert all(common.font(SIDEBAR_SMALL).getlength(line) <= KEY_TEXT_W for line in shown)
