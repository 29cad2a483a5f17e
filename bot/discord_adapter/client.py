"""The Discord client: runs service commands for interactions and posts their replies.

The service is synchronous (database, renders), so each command runs in a worker thread, bounded
by a semaphore; a reply that takes longer than Discord's patience is preceded by a deferral.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from typing import Any

import discord
import yarl
from discord import app_commands

from bot.config import Settings
from bot.discord_adapter.payload import install_commands
from bot.i18n import translate
from bot.service import Attachment, Button, Context, GameService, Reply, Visibility

log = logging.getLogger("spacechess.discord")

CONTENT_LIMIT = 2000
CUSTOM_ID_LIMIT = 100
#: answer directly when the service is this quick; otherwise defer first (Discord allows 3 s)
DIRECT_REPLY_SECONDS = 2.0


def context_of(interaction: discord.Interaction) -> Context:
    user = interaction.user
    # The role ids of the interaction's own member payload: `Member.roles` keeps only the roles of a
    # cached guild, so a GM role holder would be refused while the guild is not (yet) cached.
    roles = frozenset(getattr(user, "_roles", ()))
    perms = interaction.permissions
    return Context(
        user_id=user.id,
        user_name=user.display_name,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        locale=str(interaction.locale) if interaction.locale else None,
        manage_server=bool(perms.manage_guild or perms.administrator),
        role_ids=roles,
    )


def chunks(lines: list[str], limit: int = CONTENT_LIMIT) -> list[str]:
    """Message bodies within Discord's limit, split between lines (a very long line is cut)."""
    bodies: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            bodies.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not bodies:
        bodies.append(current or "\u200b")
    return bodies


class CommandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"cmd:(?P<payload>\{.*\})"):
    """A persistent button: the command it runs is in its custom id, so it survives restarts."""

    def __init__(self, button: Button, label: str) -> None:
        payload = json.dumps({"c": button.command, "o": dict(button.options)}, separators=(",", ":"))
        style = {"danger": discord.ButtonStyle.danger, "secondary": discord.ButtonStyle.secondary}.get(
            button.style, discord.ButtonStyle.primary
        )
        custom_id = f"cmd:{payload}"
        if len(custom_id) > CUSTOM_ID_LIMIT:
            # cutting it would leave a button that matches no template: fail loudly instead
            raise ValueError(f"the button of /{button.command} needs a {len(custom_id)}-character custom id "
                             f"(Discord allows {CUSTOM_ID_LIMIT}): {custom_id}")
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=custom_id))
        self.spec = button

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> CommandButton:
        data = json.loads(match["payload"])
        return cls(Button(label=None, command=data["c"], options=data["o"]), item.label or "")  # type: ignore[arg-type]

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        await client.run_command(interaction, self.spec.command, dict(self.spec.options))


class GameBot(discord.Client):
    def __init__(self, service: GameService, settings: Settings) -> None:
        super().__init__(intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none())
        self.service = service
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.workers = asyncio.Semaphore(settings.render.workers)
        #: how long a command may run before the bot defers (an attribute so tests can force deferral)
        self.direct_reply_seconds = DIRECT_REPLY_SECONDS

    async def setup_hook(self) -> None:
        await self.install_commands()
        await self.sync_commands()

    async def install_commands(self) -> None:
        """The translator, the command groups and the persistent buttons: everything but the network."""
        await install_commands(self.tree, self.run_command, self.complete)
        self.add_dynamic_items(CommandButton)

    async def sync_commands(self) -> None:
        """Publish the commands: to each configured server (instant), else globally."""
        if self.settings.bot.guild_ids:
            for guild_id in self.settings.bot.guild_ids:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s)", self.user, len(self.guilds))

    async def _call(self, ctx: Context, path: str, options: dict[str, Any]) -> Reply:
        # attachments are downloaded here, inside the deferral's clock: a slow CDN must not cost the answer
        values = {k: await self._option(v) for k, v in options.items()}
        async with self.workers:
            return await asyncio.to_thread(self.service.handle, ctx, path, values)

    async def run_command(self, interaction: discord.Interaction, path: str, options: dict[str, Any]) -> None:
        ctx = context_of(interaction)
        task = asyncio.ensure_future(self._call(ctx, path, options))
        try:
            reply = await asyncio.wait_for(asyncio.shield(task), timeout=self.direct_reply_seconds)
            deferred = False
        except TimeoutError:
            await interaction.response.defer(thinking=True)
            reply = await task
            deferred = True
        await self.send_reply(interaction, ctx, reply, deferred)

    @staticmethod
    async def _option(value: Any) -> Any:
        if isinstance(value, discord.Attachment):
            return Attachment(value.filename, await value.read())
        if isinstance(value, discord.abc.Snowflake) and not isinstance(value, int):
            return value.id  # members, users and roles travel as ids
        return value

    async def complete(
        self, interaction: discord.Interaction, path: str, option: str, current: str
    ) -> list[app_commands.Choice[str]]:
        values = await asyncio.to_thread(self.service.complete, context_of(interaction), path, option, current)
        return [app_commands.Choice(name=v[:100], value=v[:100]) for v in values]

    async def send_reply(self, interaction: discord.Interaction, ctx: Context, reply: Reply, deferred: bool) -> None:
        language = await asyncio.to_thread(self.service.language, ctx)
        bodies = chunks([translate(m.key, language, m.params) for m in reply.messages])
        private = reply.visibility is Visibility.PRIVATE
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in reply.mentions], everyone=False,
                                           roles=False)
        view = discord.ui.View(timeout=None)
        for button in reply.buttons:
            view.add_item(CommandButton(button, translate(button.label.key, language, button.label.params)))
        files = [discord.File(io.BytesIO(f.data), filename=f.filename) for f in reply.files]
        extra: dict[str, Any] = {"view": view} if reply.buttons else {}
        if not deferred:
            await interaction.response.send_message(bodies[0], ephemeral=private, files=files,
                                                    allowed_mentions=mentions, **extra)
        elif private:
            # the deferral was public; a private answer replaces it
            await interaction.delete_original_response()
            await interaction.followup.send(bodies[0], ephemeral=True, files=files, allowed_mentions=mentions, **extra)
        else:
            await interaction.edit_original_response(content=bodies[0], attachments=files, allowed_mentions=mentions,
                                                     **extra)
        for body in bodies[1:]:
            await interaction.followup.send(body, ephemeral=private, allowed_mentions=mentions)


def run_bot(settings: Settings) -> int:
    from bot.app import open_service

    if settings.bot.api_base:
        discord.http.Route.BASE = settings.bot.api_base.rstrip("/")  # test-only hook (a local fake Discord)
    if settings.bot.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.bot.gateway_url)  # test-only hook
    bot = GameBot(open_service(settings), settings)
    bot.run(settings.bot.token, log_handler=None)
    return 0
