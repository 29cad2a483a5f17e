"""The console adapter: line grammar, sticky `in`/`as`, scripts, images, and the CLI entry."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.console import Console, LineError, parse_command, stable_id
from bot.i18n import translate
from bot.service import Attachment, GameService, Message, Reply

OUTPOST_MAP = Path(__file__).resolve().parents[2] / "bot" / "demo" / "outpost.map"


def test_parse_command_with_group_subcommand_and_quoted_options(tmp_path):
    parsed = parse_command('/tl new name:"Big game"', tmp_path)
    assert (parsed.command, parsed.options) == ("tl new", {"name": "Big game"})
    parsed = parse_command("/GAME info", tmp_path)
    assert parsed.command == "game info"


def test_attachment_options_read_a_file(tmp_path):
    (tmp_path / "setup.toml").write_text("goal = 3\n")
    parsed = parse_command("/tl new name:X setup:setup.toml", tmp_path)
    assert parsed.options["setup"] == Attachment("setup.toml", b"goal = 3\n")
    with pytest.raises(LineError) as err:
        parse_command("/tl new name:X setup:missing.toml", tmp_path)
    assert err.value.key == "console.cannot_read_file"
    said = translate(err.value.key, "fr", err.value.params)  # the reader's words, not the C library's
    assert said == "Impossible de lire le fichier `missing.toml` (fichier introuvable).", said
    with pytest.raises(LineError) as err:
        parse_command("/tl new name:X setup:.", tmp_path)
    assert translate(err.value.key, "en", err.value.params).endswith("(it is a folder).")


@pytest.mark.parametrize(
    ("line", "key"),
    [("hello", "console.expected_command"), ("/sc new name:'open", "console.bad_quotes"),
     ("/gm nothing", "error.unknown_command.group"), ("/game info stray", "console.expected_option")],
)
def test_bad_lines_are_refused_with_a_reason(tmp_path, line, key):
    with pytest.raises(LineError) as err:
        parse_command(line, tmp_path)
    assert err.value.key == key


def test_stable_ids_do_not_depend_on_case_or_session():
    assert stable_id("user", "Alice") == stable_id("user", "alice") != stable_id("channel", "alice")


@pytest.fixture
def console(sqlite_store, tmp_path):
    return Console(GameService(sqlite_store), out_dir=tmp_path / "out", stream=io.StringIO(), language="en",
                   base_dir=tmp_path)


def output(console: Console) -> str:
    return console.stream.getvalue()


def test_a_script_plays_with_sticky_channel_and_user(console):
    script = """
    # a comment, then a game
    in #table as gm /tl new name:Demo
    as alice /tl join name:Alice
    as bob
    /tl join name:Bob
    /game info
    """
    assert console.run_lines(script.splitlines()) == 0
    text = output(console)
    assert "Game **Demo** (tally) created in this channel" in text
    assert "@alice joins the game as **Alice**." in text
    assert "• **Bob** — @bob" in text
    assert (console.channel, console.user) == ("table", "bob")


def test_refused_lines_are_counted_and_marked(console):
    refused = console.run_lines(["/game info", "as alice /tl new name:X", "nonsense"])
    assert refused == 3
    lines = output(console).splitlines()
    assert lines[0].startswith("! There is no game in this channel.")
    assert lines[1] == "! Only game masters can use this command."
    assert lines[2].startswith("! ")


def test_buttons_print_the_command_they_run(console):
    console.run_lines(["/tl new name:Demo", "as alice /tl join name:Alice", "as gm /gm undo"])
    assert "[Undo 1] → /gm undo n:1 confirm:" in output(console)


def test_images_are_written_and_their_paths_printed(console, tmp_path):
    console.show(console.context(), Reply((Message("game.list.empty"),), files=(Attachment("board.png", b"\x89PNG..."),)))
    written = tmp_path / "out" / "0001-board.png"
    assert written.read_bytes() == b"\x89PNG..."
    assert str(written) in output(console)


def test_private_replies_are_marked(console):
    console.run_lines(["/tl new name:Demo", "as alice /tl join name:Alice"])
    console.run_line("as gm /gm undo")
    assert "(only you) Undo 1 action?" in output(console)


def test_cli_console_script_exit_status(tmp_path, monkeypatch, capsys):
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    good = tmp_path / "good.txt"
    good.write_text("/tl new name:Demo\nas alice /tl join name:Alice\n")
    assert main(["console", "--script", str(good), "--lang", "en"]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("/tl join name:Bob\n/tl new name:Again\n")
    assert main(["console", "--script", str(bad), "--lang", "en"]) == 1
    assert "This channel already has a game" in capsys.readouterr().out
    assert main(["console", "--script", str(tmp_path / "absent.txt")]) == 2


def test_cli_db_upgrade_and_missing_token(tmp_path, monkeypatch, capsys):
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SPACECHESS_TOKEN", raising=False)
    monkeypatch.setenv("SPACECHESS_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    assert main(["db", "upgrade"]) == 0
    assert Path(tmp_path / "db.sqlite").exists()
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "SPACECHESS_TOKEN" in err and "spacechess console" in err


def test_cli_reports_a_bad_config_file(tmp_path, capsys):
    from bot.cli import main

    config = tmp_path / "config.toml"
    config.write_text("[bot]\nlanguage = 'de'\n")
    assert main(["db", "upgrade", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert str(config) in err and "bot.language" in err


def test_click_presses_a_button_of_the_last_reply(console):
    console.run_lines(["/tl new name:Demo", "as alice /tl join name:Alice"])
    assert not console.run_line("as gm click")  # no button yet
    assert "no button 1 to click" in output(console)
    console.run_line("/gm undo")
    assert console.run_line("click 1")
    assert "Undone: 1 action." in output(console)
    assert not console.run_line("click 2")


def test_pick_chooses_in_a_menu_of_the_last_reply(sqlite_store, tmp_path):
    console = Console(GameService(sqlite_store), out_dir=tmp_path, stream=io.StringIO(), language="en")
    console.run_lines(["/sc new name:Menus", "as ann /sc join name:Ann team:1 role:general"])
    assert console.run_line("/sc loadout")
    assert "[Two draw cards] pick 1" in output(console)
    assert not console.run_line("pick 1 9,8")
    assert "Pick 2 of: 1, 2, 3, 4, 5, 6, 7" in output(console)
    assert not console.run_line("pick 2 1,2")
    assert console.run_line("pick 1 1,5")
    assert "Ann has their gear" in output(console)


@pytest.mark.parametrize("command", [["console", "--help"], ["scenario", "--help"], ["db", "upgrade", "--help"],
                                     ["draws", "import", "--help"], ["demo", "--help"], ["commands", "--help"]])
def test_every_cli_command_has_help(command, capsys):
    from bot.cli import main

    with pytest.raises(SystemExit) as exited:
        main(command)
    assert exited.value.code == 0
    assert "usage: spacechess" in capsys.readouterr().out


def test_a_repeated_option_is_refused_naming_it(console, tmp_path):
    """Issue 9 point 12: `to:K3 to:K4` kept the last value silently; Discord cannot send an option twice."""
    with pytest.raises(LineError) as err:
        parse_command("/sc move to:K3 to:K4", tmp_path)
    assert (err.value.key, err.value.params) == ("console.repeated_option", {"option": "to"})
    assert not console.run_line("/tl new name:Demo name:Other")
    assert output(console).strip() == "! Option `name` is given twice; give it once."
    assert console.service.store.game_in_channel(1, stable_id("channel", "general")) is None
    console.language = "fr"
    console.run_line("/tl new name:Demo name:Other")
    assert "L’option `name` est donnée deux fois" in output(console)


@pytest.mark.parametrize(
    ("line", "shown"),
    [("/sc nothing", "! Unknown command `/sc nothing`. The `/sc` commands are: /sc ability, /sc deploy"),
     ("/sc mvoe to:K3", "! Unknown command `/sc mvoe`. Did you mean `/sc move`?"),
     ("/sc to:K3", "! Unknown command `/sc`. The `/sc` commands are:"),
     ("/gmm start", "! Unknown command `/gmm start`. Did you mean `/gm start`?")],
)
def test_an_unknown_subcommand_is_named_with_the_closest_one(console, line, shown):
    """Issue 9 point 13: `/sc nothing` said `Unknown command /sc`."""
    assert not console.run_line(line)
    assert output(console).startswith(shown)


def test_a_button_clicked_by_another_member_is_refused_and_changes_nothing(console):
    """Issue 9 point 9: `as dee click` pressed Cid's move confirmation and moved Dee (the button ran
    `/sc move to:K8 confirm:…` as whoever clicked). It now answers Dee privately, naming Cid."""
    setup = f"""
    in #orion as gm /sc new name:Orion
    /sc map file:{OUTPOST_MAP}
    as ann /sc join name:Ann team:1 role:general
    as bob /sc join name:Bob team:2 role:general
    as cid /sc join name:Cid team:1 role:soldier
    as dee /sc join name:Dee team:2 role:soldier
    as ann /sc equip card1:1 card2:2
    as bob /sc equip card1:3 card2:4
    as cid /sc equip card1:5 card2:6 weapon:sniper armour:light item1:grenades item2:scope ability:rage
    as dee /sc equip card1:7 card2:1 weapon:bolter armour:light item1:jetpack item2:vigour ability:vehicle
    as ann /sc deploy cell:F1
    as bob /sc deploy cell:G16
    as cid /sc deploy cell:K2
    as dee /sc deploy cell:K15
    as gm /gm start
    /sc set character:Cid ap:9 reason:test
    /sc set character:Dee ap:9 reason:test
    as cid /sc move to:K8
    """
    assert console.run_lines(setup.splitlines()) == 0
    assert "(only you) Move to K8" in output(console)
    store = console.service.store
    before = store.game_in_channel(1, stable_id("channel", "orion"))
    assert not console.run_line("as dee click")  # Dee could reach K8 too: the click must not move him
    assert output(console).splitlines()[-1] == ("! This was shown to @cid: only they can use it. "
                                                "Run the command yourself if you need it.")
    after = store.game_in_channel(1, stable_id("channel", "orion"))
    assert (after.version, after.state, store.log(after.id)) == (before.version, before.state, store.log(before.id))
    assert console.run_line("as cid click")  # the member it was shown to still can
    assert "Cid moves K2 → K8" in output(console)


def test_what_only_the_player_may_read_is_marked_as_such(console):
    console.run_lines(["in #bids as gm /ts new name:Bids", "as ann /ts join name:Ann", "as bob /ts join name:Bob",
                       "as ann /ts order text:'add 4'"])
    last = output(console).splitlines()[-3:-1]  # the board file comes last
    assert last == ["Ann ✉", "(only you) Ann: 4"]


def test_roles_read_as_the_names_typed_for_them(console):
    console.run_line("as gm /gm settings gm_role:mods")
    assert "GM role: @mods" in output(console), output(console)


def test_channels_read_as_the_names_typed_for_them_and_a_game_moves_between_them(console):
    console.run_lines(["as gm /gm settings log_channel:#mj-log", "in #orion as gm /ts new name:Orion",
                       "in #orion-2 /gm move name:orion", "/game history"])
    shown = output(console)
    assert "GM log channel: #mj-log" in shown, shown
    assert "**Orion** now lives in this channel (it was in #orion)" in shown and "moved the game to #orion-2" in shown


def test_a_later_session_names_the_members_an_earlier_one_typed(sqlite_store, tmp_path):
    """Ids are hashes of names: the console keeps the names it made them from (issue 23.6)."""
    book = tmp_path / "state" / "console_names.json"

    def session() -> Console:
        return Console(GameService(sqlite_store), out_dir=tmp_path / "out", stream=io.StringIO(), language="en",
                       base_dir=tmp_path, names_file=book)

    first = session()
    first.run_lines(["/tl new name:Demo", "as alice /tl join name:Alice"])
    later = session()
    later.run_line("as bob /game info")
    assert "@alice" in output(later) and "<@" not in output(later), output(later)
    book.write_text("not json")  # a damaged book is a cache: the session starts without it
    damaged = session()
    damaged.run_line("as alice /game info")
    assert "@alice" in output(damaged)


@pytest.mark.parametrize(("line", "name"), [
    ("/tl join name:O'Brien", "O'Brien"),  # the guide allows `'` in names: no quotes needed
    ("/tl join name:'O'Brien'", "O'Brien"),
    ('/tl join name:"Jean-Luc O\'Neil"', "Jean-Luc O'Neil"),
    ("/tl join name:'Jean Luc'", "Jean Luc"),
    ("/tl join name:d'Artagnan", "d'Artagnan"),
])
def test_an_apostrophe_inside_a_value_is_a_letter_of_it(tmp_path, line, name):
    assert parse_command(line, tmp_path).options == {"name": name}


def test_a_name_with_an_apostrophe_plays_in_the_console(console):
    assert console.run_lines(["/tl new name:Demo", "as obrien /tl join name:O'Brien"]) == 0
    assert "O'Brien" in output(console)


def test_pick_takes_a_choice_by_the_label_the_menu_shows_in_either_language(sqlite_store, tmp_path):
    """Issue 24: a French reader's menu lists « viseur », not `scope (viseur)`, and takes what it lists."""
    console = Console(GameService(sqlite_store), out_dir=tmp_path, stream=io.StringIO(), language="fr")
    console.run_lines(["/sc nouvelle nom:Menus", "as ann /sc rejoindre nom:Ann équipe:1 rôle:soldat",
                       "as ann /sc équipement"])
    shown = output(console)
    assert "arme : aucune · armure : aucune" in shown and "{" not in shown, shown
    assert "viseur | munitions perforantes" in shown and "scope" not in shown, shown
    assert not console.run_line("as ann choisir 3 viseur,laser")  # a word no menu lists
    assert "Choisissez-en 2 parmi : grenades, jet pack, viseur" in output(console)
    assert console.run_line("as ann choisir 3 Viseur,munitions perforantes")
    assert "objets : viseur, munitions perforantes ·" in output(console), output(console)
