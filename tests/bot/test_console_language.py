"""Issue 24, point 4: the console speaks one language — `--lang`, else the system locale's, else
English — in its banner, its replies, its own words (only you, menus, buttons with the reader's
command names), its times and the channel posts it shows."""

from __future__ import annotations

import datetime as dt
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import Console, banner, console_language
from bot.demo import run_demo
from bot.service import GameService

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("chosen", "environ", "language"), [
    ("fr", {"LANG": "en_GB.UTF-8"}, "fr"), (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
    (None, {"LANG": "C.UTF-8"}, "en"), (None, {}, "en"), (None, {"LANG": "de_DE.UTF-8"}, "en"),
])
def test_lang_then_the_system_locale_then_english(chosen: str | None, environ: dict[str, str], language: str) -> None:
    assert console_language(chosen, environ) == language


def test_a_c_locale_gets_banner_and_replies_in_english(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("LC_")}
    env.update(LANG="C.UTF-8", XDG_STATE_HOME=str(tmp_path / "state"), PYTHONPATH=str(ROOT),
               SPACECHESS_DATABASE_URL=f"sqlite:///{tmp_path / 'bot.sqlite'}")
    done = subprocess.run([sys.executable, "-m", "bot.cli", "console", "--out", str(tmp_path / "out")],
                          cwd=tmp_path, env=env, input="/game info\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(banner("en"))
    assert "! There is no game in this channel." in done.stdout


def test_the_french_banner_names_french_commands() -> None:
    assert "/partie aide" in banner("fr") and "cliquer N" in banner("fr")
    assert "/game help" in banner("en")


def session(store, language: str) -> Console:
    now = dt.datetime(2026, 12, 2, 13, 0, tzinfo=dt.UTC)
    return Console(GameService(store, clock=lambda: now), out_dir=Path("out"), stream=io.StringIO(),
                   language=language, zone=dt.UTC, now=lambda: now)


def test_the_console_words_are_french_in_french(sqlite_store, tmp_path: Path) -> None:
    console = session(sqlite_store, "fr")
    console.out_dir = tmp_path
    console.run_lines(["in #duel /ak nouvelle nom:Duel", "as ann /ak rejoindre nom:Ann",
                       "as bob /ak rejoindre nom:Bob", "as gm /mj lancer", "as ann /ak abandonner", "choisir 3 x",
                       "as gm /mj annuler"])
    text = console.stream.getvalue()
    assert "(vous seul) Abandonner **Duel** ?" in text and "(only you)" not in text
    assert "  [Abandonner Duel] → /ak abandonner confirmation:" in text  # the command as French players type it
    assert "/mj annuler n:1 confirmation:" in text
    assert "écrivez choisir N VALEUR" in text


def test_english_keeps_its_words(sqlite_store, tmp_path: Path) -> None:
    console = session(sqlite_store, "en")
    console.out_dir = tmp_path
    console.run_lines(["in #duel /ak new name:Duel", "as ann /ak join name:Ann", "as bob /ak join name:Bob",
                       "as gm /gm start", "as ann /ak resign", "cliquer"])
    text = console.stream.getvalue()
    assert "(only you) Resign **Duel**?" in text and "  [Resign Duel] → /ak resign confirm:" in text
    assert "Red wins" in text  # `cliquer` clicks in an English console too


def test_discord_timestamps_read_as_the_reader_writes_times(sqlite_store) -> None:
    console = session(sqlite_store, "fr")
    stamp = int(dt.datetime(2026, 12, 2, 19, 35, tzinfo=dt.UTC).timestamp())
    text = f"<t:{stamp}:F> (<t:{stamp}:R>) · <t:{stamp}:t> · <t:{stamp}:D>"
    assert console._names_for_ids(text, "fr") == "mercredi 2 décembre 2026 à 19 h 35 (dans 7 heures) · 19 h 35 · " \
                                                 "mercredi 2 décembre 2026"
    assert console._names_for_ids(text, "en").startswith("Wednesday 2 December 2026, 7:35 pm (in 7 hours)")


def test_the_demo_speaks_one_language_and_counts_its_images(tmp_path: Path) -> None:
    out = io.StringIO()
    run_demo(tmp_path, "fr", out, "arkeon")
    text = out.getvalue()
    assert f"images écrites dans {tmp_path.resolve()}" in text and "written" not in text
    out = io.StringIO()
    run_demo(tmp_path / "en", "en", out, "hexarena")
    assert "images written to" in out.getvalue()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_rules_pages_name_commands_as_their_reader_types_them(language: str) -> None:
    """`/game rules` in French names `/sb ordre texte:`, not `/sb order text:` (issue 24, point 4)."""
    import re

    from bot.compose import command_table
    from bot.games import games
    from bot.i18n import command_name, option_name, translate

    commands = command_table()
    typed = {command_name(path, language): path for path in commands}
    for entry in games():
        text = translate(f"rules.{entry.kind}", language)
        for command, options in re.findall(r"`/([\w-]+ [\w-]+)((?: [\w-]+:)*)", text):
            assert command in typed, (entry.kind, command)
            names = {option_name(opt.name, language) for opt in commands[typed[command]].options}
            assert set(re.findall(r"([\w-]+):", options)) <= names, (entry.kind, command, options)
