"""Issue 15, the console and the help: French command names, members by name, a folder of images
per game and run, the language of the system locale, no log line per command unless asked, the
help's options and examples, and option values written as the guides write them."""

from __future__ import annotations

import io
import logging
from dataclasses import replace
from pathlib import Path

import pytest

from bot.console import (
    Console,
    LineError,
    history_file,
    line_editing,
    parse_command,
    stable_id,
    system_language,
)
from bot.i18n import translate
from bot.service import GameService
from bot.service.commands import table
from engine import registry
from tests.bot.service.test_spacechess_commands import CID, GM, game, ok
from tests.support.help_pages import every_help_entry

#: the command group of each game the bot ships
SHIPPED = {"hx": "hexarena", "ak": "arkeon", "sb": "spaceblast", "sc": "spacechess"}


@pytest.mark.parametrize(("line", "path", "options"), [
    ("/partie plateau", "game board", {}),
    ("/game plateau", "game board", {}),
    ("/partie historique page:2", "game history", {"page": "2"}),
    ("/sc rejoindre nom:Ann équipe:1 rôle:soldier", "sc join", {"name": "Ann", "team": "1", "role": "soldier"}),
    ("/sc déplacer vers:E5", "sc move", {"to": "E5"}),
    ("/sc deplacer vers:E5", "sc move", {"to": "E5"}),  # accents may be left out, as on a keyboard without them
    ("/mj annuler n:2", "gm undo", {"n": "2"}),
])
def test_french_command_and_option_names_run_the_english_command(tmp_path: Path, line: str, path: str,
                                                                  options: dict[str, str]) -> None:
    parsed = parse_command(line, tmp_path)
    assert (parsed.command, parsed.options) == (path, options)


def test_an_unknown_french_word_is_still_refused(tmp_path: Path) -> None:
    with pytest.raises(LineError) as err:
        parse_command("/partie plateaux", tmp_path)
    assert err.value.key.startswith("error.unknown_command")


def test_members_are_named_with_or_without_at(tmp_path: Path) -> None:
    by_name = parse_command("/gm kick user:ann", tmp_path).options["user"]
    assert by_name == parse_command("/gm kick user:@ann", tmp_path).options["user"] == stable_id("user", "ann")
    assert parse_command("/gm kick user:123", tmp_path).options["user"] == "123"  # an id stays an id
    assert parse_command("/gm kick user:<@123>", tmp_path).options["user"] == "<@123>"


def console_in(store, out: Path, run: str) -> Console:
    return Console(GameService(store), out_dir=out, stream=io.StringIO(), language="en", per_run=True, run=run)


def test_images_go_to_a_folder_per_game_and_run_and_never_over_an_earlier_one(sqlite_store, tmp_path: Path) -> None:
    first = console_in(sqlite_store, tmp_path, "20250301-2035")
    assert first.run_lines(["in #orion /sc new name:Orion", "/game board", "/game board"]) == 0
    folder = tmp_path / "1-orion" / "20250301-2035"
    assert sorted(p.name for p in folder.iterdir()) == ["0001-board.png", "0002-board.png"]
    before = (folder / "0001-board.png").read_bytes()
    second = console_in(sqlite_store, tmp_path, "20250301-2035")  # same second: a new folder all the same
    assert second.run_lines(["in #orion /game board", "in #other /ak new name:Duel", "/game board"]) == 0
    assert (folder / "0001-board.png").read_bytes() == before and len(list(folder.iterdir())) == 2
    assert [p.name for p in (tmp_path / "1-orion" / "20250301-2035-2").iterdir()] == ["0001-board.png"]
    assert [p.name for p in (tmp_path / "2-duel" / "20250301-2035").iterdir()] == ["0001-arkeon.png"]
    assert f"🖼 {tmp_path / '2-duel' / '20250301-2035' / '0001-arkeon.png'}" in second.stream.getvalue()


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "en_GB.UTF-8"}, "en"), ({"LC_ALL": "en_US", "LANG": "fr_FR"}, "en"),
    ({"LC_MESSAGES": "fr_CA.UTF-8", "LANG": "en_US"}, "fr"), ({"LANG": "C.UTF-8"}, None), ({"LANG": "de_DE"}, None),
    ({}, None),
])
def test_the_language_follows_the_system_locale(environ: dict[str, str], language: str | None) -> None:
    assert system_language(environ) == language


def test_line_editing_keeps_a_history_across_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readline = pytest.importorskip("readline")
    saved = []
    monkeypatch.setattr("atexit.register", lambda func, *args: saved.append((func, args)))
    path = history_file({"XDG_STATE_HOME": str(tmp_path)})
    assert path == tmp_path / "spacechess" / "console_history"
    assert line_editing(path)
    readline.add_history("/game board")
    func, args = saved[0]
    func(*args)  # what the end of the session does
    readline.clear_history()
    assert line_editing(path) and readline.get_history_item(readline.get_current_history_length()) == "/game board"


def test_no_log_line_per_command_unless_verbose(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    script = tmp_path / "lines.txt"
    script.write_text("/game list\n")
    assert main(["console", "--script", str(script), "--lang", "en"]) == 0
    quiet = capsys.readouterr()
    assert "command='game list'" not in quiet.err and "No game" in quiet.out
    assert main(["console", "--script", str(script), "--lang", "en", "--verbose"]) == 0
    assert "command='game list'" in capsys.readouterr().err
    logging.getLogger().handlers.clear()  # the next test sets its own


# -- the help and the accepted values ---------------------------------------------------------------
def test_the_help_shows_each_commands_options_and_an_example_that_runs(sqlite_store, tmp_path: Path) -> None:
    svc = GameService(sqlite_store)
    entries = {m.params["command"]: m for m in every_help_entry(svc, CID)}  # no game here: every command
    assert set(entries) == {"/" + path for path in table()}
    move = translate(entries["/sc move"].key, "en", entries["/sc move"].params)
    assert move.startswith("• `/sc move` to: [drop:] — ") and move.endswith("e.g. `/sc move to:E5`")
    french = every_help_entry(svc, replace(CID, locale="fr"))  # a French Discord client
    local = {m.params["command"]: translate(m.key, "fr", m.params) for m in french}
    assert local["/partie plateau"].startswith("• `/partie plateau` [autour:] — ")
    assert local["/sc rejoindre"].endswith("ex. `/sc rejoindre nom:Ann équipe:1 rôle:soldat`")
    assert local["/ak défier"].endswith("ex. `/ak défier niveau:facile`")  # a choice as Discord lists it
    assert local["/mj réglages"].endswith("ex. `/mj réglages langue:français`")
    for command, text in local.items():  # the console takes the French names as Discord shows them
        line = text.split("ex. `")[-1].rstrip("`") if "ex. `" in text else command
        if "file:" not in line and "fichier:" not in line and "setup:" not in line and "config:" not in line:
            assert "/" + parse_command(line, tmp_path).command in entries, line
    for command, message in entries.items():
        if "example" not in message.params or message.key == "game.help.bare":
            continue
        example = message.params["example"]
        if "file:" in example or "setup:" in example:
            continue  # an attachment names a file of the reader's
        parsed = parse_command(example, tmp_path)  # every example is a line the console takes as it is
        assert "/" + parsed.command == command, example
        group, _, verb = parsed.command.partition(" ")
        if group not in (*SHIPPED, "game", "gm"):
            continue  # the test-only games served beside the bot's (tests/support) give no examples
        assert "…" not in example, example  # no placeholder: a value one may type as it is
        if verb == "order":  # an order its game reads (`/hx order text:…` said nothing one could type)
            assert registry.get(SHIPPED[group]).parse_orders(parsed.options["text"]), example


def test_a_weapon_is_accepted_as_the_guides_write_it_and_a_bad_one_changes_nothing(svc_game) -> None:
    svc = svc_game
    before = game(svc)
    refused = svc.handle(CID, "sc equip", {"card1": 1, "card2": 2, "weapon": "laser"})
    assert not refused.ok and refused.messages[0].key == "error.option_bad_choice"
    assert game(svc).version == before.version
    for weapon, kept in (("heavy bolter", "heavy_bolter"), ("Heavy-Bolter", "heavy_bolter"),
                         ("bolter lourd", "heavy_bolter"), ("heavy_bolter", "heavy_bolter")):
        done = ok(svc.handle(CID, "sc equip", {"card1": 1, "card2": 2, "weapon": weapon, "armour": "light",
                                               "item1": "jet pack", "item2": "perforating ammo", "ability": "rage"}))
        equipped = done.messages[0].params
        assert equipped["weapon"].key == f"label.{kept}"


@pytest.fixture
def svc_game(sqlite_store) -> GameService:
    svc = GameService(sqlite_store, seed_source=lambda: 99)
    ok(svc.handle(GM, "sc new", {"name": "Orion"}))
    ok(svc.handle(CID, "sc join", {"name": "Cid", "team": "1", "role": "soldier"}))
    return svc


def test_a_bonus_is_named_as_the_guides_name_it(svc_game) -> None:
    svc = svc_game
    placed = ok(svc.handle(GM, "sc pickup", {"cell": "E5", "kind": "weapon", "name": "heavy bolter"}))
    assert translate(placed.messages[0].key, "fr", placed.messages[0].params) == "Un bonus apparaît en E5 : bolter lourd."
