"""The command tree built from the service's table: valid for Discord, localised in French, synced.

Discord rejects the whole sync when a single name or description breaks its rules, so every node of
the payload the bot PUTs at login is checked here, with its French localisation from the translator.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from bot.config import Settings
from bot.discord_adapter.client import GameBot
from bot.discord_adapter.payload import translated_payload
from bot.i18n import catalog, translate
from bot.service import GameService
from bot.service.commands import table
from tests.bot.discord.harness import BotHarness, DiscordRecorder
from tests.bot.discord.payloads import APP_ID

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")  # Discord's chat-input rule, restricted to what we use
SUBCOMMAND = 1
LIMIT = 25  # options per command, subcommands per group, choices per option


def nodes(commands: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option of a sync payload, with the catalog key that describes
    it (the command table's: an option games share has one key for all)."""
    for group in commands:
        yield f"cmd.{group['name']}", group
        for sub in group["options"]:
            command = table()[f"{group['name']} {sub['name']}"]
            yield command.description_key, sub
            for option in sub["options"]:
                yield command.option_key(command.option(option["name"])), option


async def test_the_login_sync_puts_the_translated_tree(harness: BotHarness, recorder: DiscordRecorder) -> None:
    login = [(c.method, c.path) for c in recorder.calls[:3]]
    assert login == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me"),
                     ("PUT", f"/applications/{APP_ID}/commands")]
    assert recorder.calls[2].body == await translated_payload(harness.bot.tree)


async def test_every_command_of_the_table_is_in_the_tree_once(harness: BotHarness) -> None:
    payload = await translated_payload(harness.bot.tree)
    paths = [f"{group['name']} {sub['name']}" for group in payload for sub in group["options"]]
    assert sorted(paths) == sorted(table())
    assert all(sub["type"] == SUBCOMMAND for group in payload for sub in group["options"])


async def test_names_descriptions_and_options_are_valid_for_discord(harness: BotHarness) -> None:
    payload = await translated_payload(harness.bot.tree)
    for key, node in nodes(payload):
        assert NAME.match(node["name"]), key
        assert 1 <= len(node["description"]) <= 100, key
        options = node.get("options", [])
        assert len(options) <= LIMIT and len(node.get("choices", [])) <= LIMIT, key
        required = [o.get("required", False) for o in options]
        assert required == sorted(required, reverse=True), f"{key}: required options must come first"


async def test_every_command_and_option_has_its_french_localisation(harness: BotHarness) -> None:
    """The translator localises from the catalog keys; a missing key would leave English in French."""
    french = catalog("fr")
    for key, node in nodes(await translated_payload(harness.bot.tree)):
        assert key in french, key
        assert node["description_localizations"].get("fr") == translate(key, "fr")[:100], key
        assert node["description_localizations"].get("en-US") == node["description"], key


async def test_a_configured_server_list_syncs_each_server_instead_of_globally(
    service: GameService, recorder: DiscordRecorder
) -> None:
    settings = Settings.model_validate({"bot": {"guild_ids": [11, 12]}, "draws": {"source": "manual"}})  # no network
    async with BotHarness(service, recorder, settings) as harness:
        puts = {c.path: c.body for c in recorder.calls if c.method == "PUT"}
        guild_routes = [f"/applications/{APP_ID}/guilds/{g}/commands" for g in (11, 12)]
        global_route = f"/applications/{APP_ID}/commands"
        assert sorted(puts) == sorted([*guild_routes, global_route])
        payload = await translated_payload(harness.bot.tree)
        assert [puts[route] for route in guild_routes] == [payload, payload]
        assert puts[global_route] == []  # the global copies the server lists replace are removed


async def test_installing_the_commands_needs_no_network(service: GameService, recorder: DiscordRecorder) -> None:
    """`install_commands` is the offline half of the start: the tree and buttons, no request."""
    bot = GameBot(service, Settings())
    bot.http.request = recorder.http_request  # type: ignore[method-assign]
    async with bot:
        await bot.install_commands()
        assert recorder.calls == []
        assert sorted(f"{g.name} {c.name}" for g in bot.tree.get_commands() for c in g.commands) == sorted(table())
