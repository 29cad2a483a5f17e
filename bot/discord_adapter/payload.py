"""The application commands exactly as the bot syncs them, computed without connecting to Discord.

Discord refuses a whole sync when one name or description breaks its limits, and only says so at
start-up in production. Building the payload offline lets `spacechess commands --json` print it and
a test check it. GameBot installs its tree through :func:`install_commands`, and
:func:`translated_payload` builds each command's payload with the discord.py calls that
`CommandTree.sync` makes; an end-to-end test compares the printed payload with the PUT body a real
bot process sends.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands

from bot.discord_adapter.tree import CatalogTranslator, Completer, Runner, build_groups


async def install_commands(tree: app_commands.CommandTree, run: Runner, complete: Completer) -> None:
    """Give `tree` the bot's translator and one group per command-table group."""
    await tree.set_translator(CatalogTranslator())
    for group in build_groups(run, complete):
        tree.add_command(group)


async def translated_payload(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None
) -> list[dict[str, Any]]:
    """The JSON body of `tree.sync(guild=guild)`: discord.py's own per-command translated payloads."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def _not_run(*_args: Any) -> Any:
    raise RuntimeError("the offline command tree only describes commands; it never runs them")


async def _offline_payload() -> list[dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    await install_commands(tree, _not_run, _not_run)
    return await translated_payload(tree)


def command_payload() -> list[dict[str, Any]]:
    """The global command payload the bot PUTs at start (a guild sync sends the same commands)."""
    return asyncio.run(_offline_payload())
