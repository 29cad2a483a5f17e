"""Publishing the application commands only when they changed.

Discord allows 200 command creations a day per server, and every PUT of the commands re-creates
them in clients' caches; a bot restarted often (a crash loop, a deploy) must not republish an
unchanged list. The translated payload of each scope (global, or one server) is hashed and the hash
kept in the database (`command_syncs`): a start whose payload hashes the same sends nothing.

A scope the bot no longer publishes to gets an empty list once, so that no command shows twice: the
global copies when the bot now publishes per server (`guild_ids`), and the per-server copies of a
bot that went back to global commands.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.store.discord_state import set_synced_hash, synced_hash, synced_scopes
from bot.store.repo import Store

log = logging.getLogger("spacechess.discord.sync")

GLOBAL = "global"


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """The same for the same commands whatever the order of keys (sha256 of canonical JSON)."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def scope_key(application_id: int, guild_id: int | None) -> str:
    return f"{application_id}:{GLOBAL if guild_id is None else f'guild:{guild_id}'}"


async def command_payload(tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
    """What `tree.sync(guild=...)` would send: every command of the scope, translated."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


async def sync_commands(client: discord.Client, tree: app_commands.CommandTree[Any], store: Store,
                        guild_ids: list[int]) -> list[str]:
    """Publish the commands to each of `guild_ids` (instant), else globally, each scope only when
    its payload changed; empty the scopes no longer used. The scopes actually sent, for the log."""
    app_id = client.application_id
    assert app_id is not None, "sync after login: the application id comes with it"
    sent: list[str] = []
    targets: list[int | None] = list(guild_ids) if guild_ids else [None]
    for guild_id in targets:
        guild = discord.Object(id=guild_id) if guild_id is not None else None
        if guild is not None:
            tree.copy_global_to(guild=guild)
        digest = payload_hash(await command_payload(tree, guild))
        scope = scope_key(app_id, guild_id)
        if await asyncio.to_thread(synced_hash, store, scope) == digest:
            continue
        await tree.sync(guild=guild)
        await asyncio.to_thread(set_synced_hash, store, scope, digest)
        sent.append(scope)
    sent += await _empty_others(client, store, app_id, {scope_key(app_id, g) for g in targets})
    log.info("commands synced to %s", ", ".join(sent) if sent else "no scope (unchanged)")
    return sent


async def _empty_others(client: discord.Client, store: Store, app_id: int, targets: set[str]) -> list[str]:
    """PUT an empty list to every other scope that may still hold this application's commands: the
    global scope always counts (a bot may have published there before this database knew), a
    server only when this database remembers publishing there."""
    empty = payload_hash([])
    known = await asyncio.to_thread(synced_scopes, store, f"{app_id}:")
    others = {scope for scope in {scope_key(app_id, None), *known} if scope not in targets}
    sent = []
    for scope in sorted(others):
        if known.get(scope) == empty:
            continue
        if scope == scope_key(app_id, None):
            await client.http.bulk_upsert_global_commands(app_id, payload=[])
        else:
            await client.http.bulk_upsert_guild_commands(app_id, int(scope.rsplit(":", 1)[1]), payload=[])
        await asyncio.to_thread(set_synced_hash, store, scope, empty)
        sent.append(scope)
    return sent
