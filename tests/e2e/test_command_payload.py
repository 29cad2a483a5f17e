"""`spacechess commands --json`: the payload the bot syncs, within Discord's limits, equal to the real sync."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from bot.discord_adapter.payload import command_payload
from tests.e2e.botproc import REPO_ROOT, BotProcess, write_config
from tests.e2e.discord_limits import LOCALES, is_valid_name, problems
from tests.e2e.table import NO_GAME_HERE, Table
from tests.fake_discord.server import FakeDiscord


@pytest.fixture(scope="module")
def payload() -> list[dict]:
    """What `spacechess commands --json` prints, from a fresh process: tests in this process may have
    registered throwaway commands of their own."""
    printed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "commands", "--json"], cwd=REPO_ROOT, capture_output=True, check=True,
        timeout=60,
    )
    return json.loads(printed.stdout)


def test_the_payload_is_within_discord_limits(payload):
    assert problems(payload) == []


def test_the_limits_are_checked_on_each_games_own_commands(payload):
    """Each game's ``new``, ``join`` and ``order`` (from its presenter's and driver's options) and
    its closer looks are in the checked payload, not only the shared groups."""
    subcommands = {group["name"]: {sub["name"]: sub for sub in group["options"]} for group in payload}
    assert {"new", "join", "order", "set", "pickup", "map", "reach", "line"} <= set(subcommands["sc"])
    assert "create" not in subcommands["gm"] and "join" not in subcommands["game"]
    assert [option["name"] for option in subcommands["sc"]["new"]["options"]] == [
        "name", "hp_soldier", "hp_general", "map", "draws", "limit_draws", "end_date", "setup", "replace"]


def test_the_test_games_commands_are_within_discord_limits_too():
    """The payload of this process, where the test-only games add their groups (``/tl``...): a game
    with more options (its driver's) must fit as well."""
    payload = command_payload()
    assert "tl" in {group["name"] for group in payload}
    assert problems(payload) == []


def test_only_gm_is_hidden_from_members_without_manage_server(payload):
    """``/gm`` carries Manage Server (0x20) as its ``default_member_permissions``, so a member without it
    does not see it until a server grants the group to its GM role; the groups players use carry
    none. (The request takes it as an integer, as Discord's OpenAPI description says; Discord
    answers it as a string.)"""
    hidden = {group["name"]: group.get("default_member_permissions") for group in payload}
    assert hidden.pop("gm") == 0x20
    assert hidden and set(hidden.values()) == {None}


def test_the_synced_gm_group_is_stored_with_manage_server(fake, bot):
    (sync,) = [c for c in fake.calls_to("PUT", r"/applications/\d+/commands") if c.status == 200]
    stored = {command["name"]: command["default_member_permissions"] for command in sync.answer}
    assert stored.pop("gm") == "32" and set(stored.values()) == {None}
    assert fake.invalid_answers == []


def test_every_description_has_its_french_localisation(payload):
    missing = []

    def walk(item: dict, where: str) -> None:
        if "fr" not in (item.get("description_localizations") or {}):
            missing.append(where)
        for option in item.get("options") or ():
            walk(option, f"{where} {option['name']}")

    for command in payload:
        walk(command, "/" + command["name"])
    assert missing == []


def test_discord_has_32_locales():
    assert len(LOCALES) == 32 and {"fr", "en-US", "en-GB"} <= LOCALES


@pytest.mark.parametrize("name", ["gm", "create", "hp_soldier", "l'ordre", "équipe", "x-1", "тест", "名前", "a" * 32])
def test_valid_names(name):
    assert is_valid_name(name)


@pytest.mark.parametrize("name", ["", "a" * 33, "Create", "two words", "emoji🚀", "a.b", "dollar$", "ÉQUIPE"])
def test_invalid_names(name):
    assert not is_valid_name(name)


def _bad(payload: list[dict], change) -> list[dict]:  # noqa: ANN001 - a mutation of the copy
    broken = copy.deepcopy(payload)
    change(broken)
    return broken


def _first_sub(p: list[dict]) -> dict:
    return p[0]["options"][0]


def _first_option(p: list[dict]) -> dict:
    return next(sub for sub in p[0]["options"] if sub.get("options"))["options"][0]


BREAKAGES = {
    "upper-case name": lambda p: p[0].update(name="Game"),
    "long description": lambda p: _first_sub(p).update(description="x" * 101),
    "empty description": lambda p: p[0].update(description=""),
    "unknown locale": lambda p: p[0]["description_localizations"].update({"fr-FR": "x"}),
    "long localised description": lambda p: p[0]["description_localizations"].update(fr="x" * 101),
    "bad localised name": lambda p: p[0].update(name_localizations={"fr": "Deux mots"}),
    "26 subcommands": lambda p: p[0]["options"].extend(
        {**_first_sub(p), "name": f"sub{i}"} for i in range(26 - len(p[0]["options"]))),
    "26 choices": lambda p: _first_option(p).update(
        type=3, autocomplete=False, choices=[{"name": str(i), "value": str(i)} for i in range(26)]),
    "101 commands": lambda p: p.extend({**p[0], "name": f"cmd{i}"} for i in range(101 - len(p))),
    "duplicate subcommand": lambda p: p[0]["options"].append(_first_sub(p)),
    "required after optional": lambda p: next(sub for sub in p[0]["options"] if sub.get("options"))[
        "options"].extend([{"type": 3, "name": "late1", "description": "d"},
                           {"type": 3, "name": "late2", "description": "d", "required": True}]),
    "too many characters": lambda p: p[0].update(options=[
        {"type": 1, "name": f"s{i}", "description": "x" * 100,
         "options": [{"type": 3, "name": f"o{j}", "description": "y" * 100} for j in range(3)]}
        for i in range(25)]),
}


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_the_limit_check_finds_each_breakage(payload, breakage):
    assert problems(_bad(payload, BREAKAGES[breakage])), breakage


def test_the_printed_payload_is_the_one_the_bot_synced(payload, fake, bot):
    """`spacechess commands --json` against the body of the PUT the real process sent at start."""
    (sync,) = [c for c in fake.calls_to("PUT", r"/applications/\d+/commands") if c.status == 200]
    assert payload == sync.json


def test_a_server_sync_sends_the_same_payload_to_the_server_route(payload, tmp_path):
    """With `guild_ids` the bot PUTs to /applications/{app}/guilds/{guild}/commands, and the server's
    commands then answer interactions."""
    with FakeDiscord() as fake, BotProcess(fake, write_config(tmp_path, fake, guild_sync=True)) as bot:
        (sync,) = fake.calls_to("PUT", rf"/applications/\d+/guilds/{fake.guild.id}/commands")
        assert sync.json == payload
        # and the global scope is emptied, so that no command shows twice (issue 13.11)
        assert [c.json for c in fake.calls_to("PUT", r"/applications/\d+/commands")] == [[]]
        table = Table(fake, bot, fake.add_channel("guild-commands"))
        table.refused(fake.add_member("visitor"), "game info", "error.no_game_here", NO_GAME_HERE)
