"""A member's roles as the bot reads them: `Member.roles`, public API, resolved against the server
discord.py cached from GUILD_CREATE (and keeps current with GUILD_ROLE_CREATE) — not the private
role-id list of the member payload."""

from __future__ import annotations

import discord

from bot.discord_adapter.client import context_of
from tests.bot.discord.harness import BotHarness
from tests.bot.discord.lobby import EVE, GM, GM_ROLE, ROLE_HOLDER, accepted, run
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID, Member, Role, slash

NEW_ROLE = Role(700_000_000_000_000_002, "Arbitres")
NEW_HOLDER = Member(100_000_000_000_000_008, "arbitre", roles=(NEW_ROLE,))


async def test_the_context_carries_the_cached_roles_of_the_member(harness: BotHarness) -> None:
    interaction = discord.Interaction(data=slash("game info", ROLE_HOLDER), state=harness.bot._connection)
    assert isinstance(interaction.user, discord.Member)
    # @everyone (the server's own id) is every member's role, as `Member.roles` says
    assert context_of(interaction).role_ids == {GM_ROLE.id, GUILD_ID}
    assert context_of(discord.Interaction(data=slash("game info", EVE), state=harness.bot._connection)
                      ).role_ids == {GUILD_ID}


async def test_the_gm_role_grants_gm_commands_and_a_member_without_it_is_refused(harness: BotHarness) -> None:
    settings = await run(harness, GM, "gm settings", gm_role=GM_ROLE, language="en")
    assert f"GM role: <@&{GM_ROLE.id}>" in settings.text
    store = harness.bot.service.store
    refused = await run(harness, EVE, "sc new", name="Orion")
    assert refused.refused and "Only game masters" in refused.text
    assert store.game_in_channel(GUILD_ID, CHANNEL_ID) is None  # nothing was created
    accepted(await run(harness, ROLE_HOLDER, "sc new", name="Orion"))
    game = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert game is not None and game.created_by == ROLE_HOLDER.id
    # a GM-only command of a game the holder did not create: the role, not authorship, grants it
    refused = await run(harness, EVE, "gm start")
    assert refused.refused and "Only game masters" in refused.text
    after = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    assert (after.version, after.state) == (game.version, game.state)


async def test_a_role_created_while_the_bot_runs_is_cached_and_grants_gm(harness: BotHarness) -> None:
    """GUILD_ROLE_CREATE reaches the cache: a role made after the bot connected is a role like any other."""
    harness.add_role(NEW_ROLE)
    assert (await run(harness, NEW_HOLDER, "sc new", name="Orion")).refused
    await run(harness, GM, "gm settings", gm_role=NEW_ROLE)
    accepted(await run(harness, NEW_HOLDER, "sc new", name="Orion"))


async def test_the_context_carries_the_bots_permissions_and_whether_the_channel_is_a_thread(
        harness: BotHarness) -> None:
    """The adapter passes the interaction's ``app_permissions`` on by name — the API's (view_channel)
    as well as discord.py's (read_messages) — and a thread as a thread; the service decides."""
    data = slash("game info", EVE)
    data["app_permissions"] = str((1 << 10) | (1 << 11) | (1 << 51))  # View Channel, Send Messages, Pin Messages
    ctx = context_of(discord.Interaction(data=data, state=harness.bot._connection))
    assert {"view_channel", "read_messages", "send_messages", "pin_messages"} == ctx.bot_permissions
    assert not ctx.in_thread
    thread = str(CHANNEL_ID + 1)  # a forum post of the game channel, which discord.py has not cached
    data["channel_id"] = thread
    data["channel"] = {**data["channel"], "id": thread, "type": 11, "parent_id": str(CHANNEL_ID),
                       "owner_id": str(EVE.id), "message_count": 0, "member_count": 1,
                       "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                           "archive_timestamp": "2024-01-01T00:00:00+00:00"}}
    assert context_of(discord.Interaction(data=data, state=harness.bot._connection)).in_thread
