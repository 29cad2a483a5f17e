"""The real bot process playing Space Chess through a fake Discord: slash commands, buttons, images."""

from __future__ import annotations

from bot.i18n import Count
from bot.service import Message
from tests.discord_shapes import ADMINISTRATOR, MEMBER_PERMISSIONS
from tests.e2e.lobby import lobby
from tests.e2e.table import NO_GAME_HERE, Table


def test_commands_are_synced_at_start_with_french_localisations(fake, bot):
    """The PUT the bot sends before connecting: the gm, game and sc groups, localised in French."""
    (sync,) = [c for c in fake.calls_to("PUT", r"/applications/\d+/commands") if c.status == 200]
    groups = {command["name"]: command for command in sync.json}
    assert {"gm", "game", "sc"} <= set(groups)
    subcommands = {name: {sub["name"] for sub in group["options"]} for name, group in groups.items()}
    assert {"undo", "start"} <= subcommands["gm"] and "create" not in subcommands["gm"]
    assert {"info", "board", "rules"} <= subcommands["game"] and "join" not in subcommands["game"]
    assert {"new", "join", "order", "equip", "deploy", "move", "reach", "line", "set"} <= subcommands["sc"]
    new = next(sub for sub in groups["sc"]["options"] if sub["name"] == "new")
    assert new["name_localizations"]["fr"] == "nouvelle"
    assert new["description_localizations"]["fr"] == "Créer une partie dans ce salon"
    assert {option["name"] for option in new["options"]} >= {"name", "hp_soldier", "map", "setup"}
    rules = next(sub for sub in groups["game"]["options"] if sub["name"] == "rules")
    kind = next(option for option in rules["options"] if option["name"] == "game")
    assert kind["description_localizations"]["fr"] and kind["autocomplete"] is True and "choices" not in kind
    # every other text: test_command_payload checks the same payload offline


def test_kind_autocomplete_suggests_space_chess(table, gm):
    assert table.suggestions(gm, "game rules", "game", "spa") == ["spaceblast", "spacechess"]


def test_only_a_game_master_creates_a_game(fake, table, gm):
    """Without Manage Server the refusal is private (flag 64) and nothing is created."""
    member = fake.add_member("someone")
    table.refused(member, "sc new", "error.gm_only", name="Orion")
    table.refused(member, "game info", "error.no_game_here", NO_GAME_HERE)
    table.ok(gm, "sc new", name="Orion")
    info = table.ok(member, "game info")
    assert "**Orion**" in info.content


def test_a_role_holder_is_no_game_master_until_the_role_is_the_gm_role(fake, table, gm):
    """A role option travels as the role's id; holders of the configured GM role are game masters."""
    role = fake.add_role("Maîtres")
    holder = fake.add_member("holder", roles=[int(role["id"])])
    table.refused(holder, "sc new", "error.gm_only", name="Orion")
    settings = table.run(gm, "gm settings", gm_role=role)
    assert role["id"] in settings.content
    table.ok(holder, "sc new", name="Orion")


def test_a_game_from_lobby_to_a_confirmed_move_with_boards(fake, table, gm):
    players = lobby(fake, table, gm)
    table.refused(fake.add_member("late"), "sc join", "error.name_taken", {"name": "Ann"}, name="Ann", team="1",
                  role="soldier")
    table.refused(players["Cid"], "sc move", "error.not_allowed.not_started",
                  {"status": Message("status.value.setup"), "action": Message("action.order")}, to="L3")

    started = table.ok(gm, "gm start")
    assert table.text("gm.started.lottery", name="Orion") in started.content
    assert len(started.images()) == 1

    board = table.ok(players["Ann"], "game board")
    ((width, height),) = board.images()
    assert width >= 200 and height >= 200
    # each picture says what it shows (its alt text), in the reply's language, as Discord keeps it
    for reply in (started, board):
        (attachment,) = reply.message["attachments"]
        assert attachment["description"].startswith("Partie de Space Chess « Orion »"), attachment

    table.ok(gm, "sc set", character="Cid", ap=9, reason="test")
    preview = table.run(players["Cid"], "sc move", to="L6")
    assert preview.private and len(preview.buttons) == 1
    moved = table.click(players["Cid"], preview)
    assert not moved.private and "L6" in moved.content
    assert len(moved.images()) == 1
    stale = table.click(players["Cid"], preview)
    assert stale.private and stale.content == table.text("error.stale_confirmation")


def test_undo_asks_with_a_button_and_the_click_confirms(fake, table, gm):
    table.ok(gm, "sc new", name="Orion")
    alice = fake.add_member("alice")
    table.ok(alice, "sc join", name="Alice", team="1", role="general")
    table.refused(alice, "gm undo", "error.gm_only")

    ask = table.run(gm, "gm undo")
    assert ask.private and ask.content.startswith(table.text("gm.undo.confirm", n=Count(1, "word.actions")))
    assert [b["label"] for b in ask.buttons] == [table.text("button.confirm_undo", n=1)]
    done = table.click(gm, ask)
    assert done.content.startswith(table.text("gm.undo.done", n=Count(1, "word.actions")))
    assert "Alice" not in table.ok(alice, "game info").content
    table.ok(alice, "sc join", name="Alice", team="1", role="general")


def test_a_member_option_reaches_the_service_as_that_member(fake, table, gm):
    table.ok(gm, "sc new", name="Orion")
    bob = fake.add_member("bob")
    table.ok(bob, "sc join", name="Bob", team="2", role="general")
    ask = table.run(gm, "gm kick", user=bob)
    assert ask.private and ask.content == table.text("gm.kick.confirm", user=bob.user.id, name="Bob")
    kicked = table.click(gm, ask)
    assert kicked.content == table.text("gm.kicked", user=bob.user.id, name="Bob")


def test_a_setup_file_attachment_is_downloaded_from_the_cdn(fake, table, gm):
    setup = fake.host_attachment("setup.toml", b'phase = "setup"\nhp_soldier = 15\n')
    table.ok(gm, "sc new", name="Lyra", setup=setup)
    info = table.ok(gm, "game info")
    assert "**Lyra**" in info.content


def test_replies_follow_the_member_locale(fake, bot, gm):
    english = Table(fake, bot, fake.add_channel("english"), locale="en-US")
    refusal = english.refused(fake.add_member("visitor"), "game info", "error.no_game_here", NO_GAME_HERE)
    assert refusal.content.startswith("There is no game") and "`/sc new`" in refusal.content


def test_administrator_is_a_game_master_too(fake, table):
    """Discord's Administrator bit implies Manage Server."""
    admin = fake.add_member("admin", permissions=MEMBER_PERMISSIONS | ADMINISTRATOR)
    table.refused(fake.add_member("plain"), "sc new", "error.gm_only", name="Orion")
    table.ok(admin, "sc new", name="Orion")
