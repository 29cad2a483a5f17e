"""The Discord client: runs service commands for interactions and posts their replies.

The service is synchronous (database, renders), so each command runs in a worker thread, bounded
by a semaphore; a reply that takes longer than Discord's patience is preceded by a deferral.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import logging
import re
from collections.abc import Coroutine
from typing import Any

import discord
import yarl
from discord import app_commands

from bot.config import Settings
from bot.discord_adapter.payload import install_commands
from bot.discord_adapter.status import StatusBoard
from bot.drivers import timer_handlers
from bot.i18n import translate
from bot.lottery.scheduler import DrawScheduler
from bot.service import (
    Attachment,
    Button,
    Choice,
    Context,
    Embed,
    GameService,
    Message,
    Reply,
    Select,
    Visibility,
)
from bot.service.commands import pack_options, unpack_options
from bot.store.repo import GameRecord
from bot.timers import TimerRunner, TimerScheduler

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


def discord_files(reply: Reply) -> list[discord.File]:
    """Fresh file objects for one send: discord.py reads them, so they are never reused."""
    return [discord.File(io.BytesIO(f.data), filename=f.filename) for f in reply.files]


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


_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def member_code(user_id: int | None, path: str) -> str:
    """The member a button or menu was shown to, as its custom id carries it: in base 36, a snowflake
    takes 13 characters instead of 19 — room the loadout menus' picks need within Discord's 100."""
    if user_id is None:
        raise ValueError(f"a button or menu of /{path} shown to nobody would act for anyone who clicks it")
    code = ""
    while True:
        user_id, digit = divmod(user_id, 36)
        code = _BASE36[digit] + code
        if not user_id:
            return code


class CommandButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"btn:(?P<member>[0-9a-z]+):(?P<path>[a-z ]+):(?P<packed>.*)"):
    """A persistent button: the member it was shown to, the command it runs and that command's options
    (packed by position) are in its custom id, so it survives restarts and acts for that member only."""

    def __init__(self, button: Button, label: str) -> None:
        style = {"danger": discord.ButtonStyle.danger, "secondary": discord.ButtonStyle.secondary}.get(
            button.style, discord.ButtonStyle.primary
        )
        custom_id = (f"btn:{member_code(button.shown_to, button.command)}:{button.command}:"
                     f"{pack_options(button.command, button.options)}")
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
        button = Button(label=None, command=match["path"],  # type: ignore[arg-type]
                        options=unpack_options(match["path"], match["packed"]), shown_to=int(match["member"], 36))
        return cls(button, item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        await client.run_command(interaction, self.spec.command, dict(self.spec.options), shown_to=self.spec.shown_to)


class MenuSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"sel:(?P<member>[0-9a-z]+):(?P<path>[a-z ]+):(?P<option>[a-z_0-9]+):(?P<packed>.*)"):
    """A persistent select menu: the member it was shown to, the command, the option it fills and the
    options already chosen are in its custom id (packed by position), so a menu from before a restart
    still works, for that member only."""

    def __init__(self, select: Select, placeholder: str, labels: list[str]) -> None:
        custom_id = (f"sel:{member_code(select.shown_to, select.command)}:{select.command}:{select.option}:"
                     f"{pack_options(select.command, select.options)}")
        if len(custom_id) > CUSTOM_ID_LIMIT:
            raise ValueError(f"the menu of /{select.command} needs a {len(custom_id)}-character custom id")
        options = [discord.SelectOption(label=label[:100], value=choice.value)
                   for label, choice in zip(labels, select.choices, strict=True)]
        super().__init__(discord.ui.Select(custom_id=custom_id, placeholder=placeholder[:150], options=options,
                                           min_values=select.min_values, max_values=select.max_values))
        self.spec = select

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> MenuSelect:
        choices = tuple(Choice(Message(""), option.value) for option in item.options)
        select = Select(Message(""), match["path"], match["option"], choices,
                        options=unpack_options(match["path"], match["packed"]),
                        min_values=item.min_values, max_values=item.max_values, shown_to=int(match["member"], 36))
        return cls(select, item.placeholder or "", [option.label for option in item.options])

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        picked = ",".join(self.item.values)
        await client.run_command(interaction, self.spec.command, {**self.spec.options, self.spec.option: picked},
                                 shown_to=self.spec.shown_to)


class GameBot(discord.Client):
    def __init__(self, service: GameService, settings: Settings) -> None:
        super().__init__(intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none())
        self.service = service
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.workers = asyncio.Semaphore(settings.render.workers)
        #: how long a command may run before the bot defers (an attribute so tests can force deferral)
        self.direct_reply_seconds = DIRECT_REPLY_SECONDS
        self.status_board = StatusBoard(self, service, settings.bot.status_debounce_seconds)
        self.scheduler: DrawScheduler | None = None
        self.timers: TimerScheduler | None = None

    async def setup_hook(self) -> None:
        await self.install_commands()
        await self.sync_commands()
        self.start_draws()

    def start_draws(self) -> None:
        """Poll the lottery on its calendar and run the games' timers (deadlines, clocks, reminders):
        draws published and timers fallen due while the bot was down are applied now."""
        self.scheduler = DrawScheduler.from_settings(self.service, self.settings.draws, hooks=self)
        self.scheduler.start()
        runner = TimerRunner(self.service.store, timer_handlers(self.service, self), clock=self.service.clock)
        self.timers = TimerScheduler(runner, scheduler=self.scheduler.scheduler)
        self.service.timer_listeners.append(self.timers.wake)
        self.timers.start()

    async def close(self) -> None:
        if self.timers is not None:
            self.service.timer_listeners.remove(self.timers.wake)
            self.timers.shutdown()
        if self.scheduler is not None:
            self.scheduler.shutdown()
        await self.status_board.close()
        await super().close()

    # -- turn posts (TurnHooks): called from the scheduler's worker thread -----------------------
    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        self._from_thread(self.post_in_channel(game, reply))

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self._from_thread(self.post_in_channel(game, reply, ping_gm_role=True))

    def _from_thread(self, coroutine: Coroutine[Any, Any, None]) -> None:
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        future.add_done_callback(_log_failure)

    async def post_in_channel(self, game: GameRecord, reply: Reply, *, ping_gm_role: bool = False) -> None:
        """A post of the bot's own in a game channel (turn post, GM alert), then the status refresh."""
        if game.channel_id is None:
            return
        settings = await asyncio.to_thread(self.service.store.guild_settings, game.guild_id) if game.guild_id else None
        language = await asyncio.to_thread(self.service.server_language, game.guild_id)
        lines = [translate(m.key, language, m.params) for m in reply.messages]
        roles: list[discord.Object] = []
        if ping_gm_role and settings is not None and settings.gm_role_id is not None:
            lines.insert(0, f"<@&{settings.gm_role_id}>")
            roles.append(discord.Object(id=settings.gm_role_id))
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in reply.mentions], roles=roles or False,
                                           everyone=False)
        channel = self.get_channel(game.channel_id) or await self.fetch_channel(game.channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        bodies = chunks(lines)
        for index, body in enumerate(bodies):
            last = index == len(bodies) - 1
            files = discord_files(reply) if last else []
            await channel.send(body, files=files, allowed_mentions=mentions)
        self.status_board.touch(game.id)

    async def install_commands(self) -> None:
        """The translator, the command groups and the persistent buttons: everything but the network."""
        await install_commands(self.tree, self.run_command, self.complete)
        self.add_dynamic_items(CommandButton, MenuSelect)

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

    async def _call(self, ctx: Context, path: str, options: dict[str, Any], shown_to: int | None) -> Reply:
        # attachments are downloaded here, inside the deferral's clock: a slow CDN must not cost the answer
        values = {k: await self._option(v) for k, v in options.items()}
        async with self.workers:
            return await asyncio.to_thread(self.service.handle, ctx, path, values, shown_to=shown_to)

    async def _safe_call(self, ctx: Context, path: str, options: dict[str, Any], shown_to: int | None) -> Reply:
        """The service's reply; an unexpected failure is logged and answered, never left in silence."""
        try:
            return await self._call(ctx, path, options, shown_to)
        except Exception:
            log.exception("command %r by user %s failed", path, ctx.user_id)
            return Reply.refusal("error.internal")

    async def run_command(self, interaction: discord.Interaction, path: str, options: dict[str, Any],
                          *, shown_to: int | None = None) -> None:
        """Run a command for a slash command or a component (button, menu: `shown_to` is the member it
        was shown to, whom the service checks is the one clicking) and answer it.

        A slow command is deferred first: a slash command shows "thinking", a component defers an
        update of its own message, so that a reply replacing the form can still edit it.
        """
        ctx = context_of(interaction)
        component = shown_to is not None
        task = asyncio.ensure_future(self._safe_call(ctx, path, options, shown_to))
        try:
            reply = await asyncio.wait_for(asyncio.shield(task), timeout=self.direct_reply_seconds)
            deferred = False
        except TimeoutError:
            await interaction.response.defer(thinking=not component)
            reply = await task
            deferred = True
        if component:
            await self.send_component_reply(interaction, ctx, reply, deferred)
        else:
            await self.send_reply(interaction, ctx, reply, deferred)
        if reply.ok:
            game = await asyncio.to_thread(self.service.store.game_in_channel, ctx.guild_id, ctx.channel_id)
            if game is not None:
                self.status_board.touch(game.id)

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

    async def _render(self, ctx: Context, reply: Reply) -> tuple[list[str], discord.AllowedMentions, dict[str, Any]]:
        """The reply's text bodies, allowed mentions, and its components and embeds (as send
        keywords), all in the reader's language."""
        language = await asyncio.to_thread(self.service.language, ctx)
        bodies = chunks([translate(m.key, language, m.params) for m in reply.messages])
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in reply.mentions], everyone=False,
                                           roles=False)
        extra: dict[str, Any] = {}
        if reply.buttons or reply.selects:
            view = discord.ui.View(timeout=None)
            for select in reply.selects:
                labels = [translate(c.label.key, language, c.label.params) for c in select.choices]
                placeholder = translate(select.placeholder.key, language, select.placeholder.params)
                view.add_item(MenuSelect(select, placeholder, labels))
            for button in reply.buttons:
                view.add_item(CommandButton(button, translate(button.label.key, language, button.label.params)))
            extra["view"] = view
        if reply.embeds:
            extra["embeds"] = [to_discord_embed(embed, language) for embed in reply.embeds]
        return bodies, mentions, extra

    async def send_component_reply(self, interaction: discord.Interaction, ctx: Context, reply: Reply,
                                   deferred: bool) -> None:
        """A button's or menu's answer: it replaces the component's message when the reply says so
        (a form redrawn with the picks so far), else it is a message of its own."""
        if not (reply.update and reply.ok):
            # a component's deferral left no placeholder message: the answer is a follow-up
            await self.send_reply(interaction, ctx, reply, deferred, placeholder=False)
            return
        bodies, mentions, extra = await self._render(ctx, reply)
        edit = interaction.edit_original_response if deferred else interaction.response.edit_message
        await edit(content=bodies[0], attachments=discord_files(reply), allowed_mentions=mentions,
                   view=extra.get("view"), embeds=extra.get("embeds", []))

    async def send_reply(self, interaction: discord.Interaction, ctx: Context, reply: Reply, deferred: bool,
                         *, placeholder: bool = True) -> None:
        """Answer an interaction: directly, or after a deferral — replacing its "thinking"
        `placeholder` when there is one — then the rest of a long text as follow-ups."""
        bodies, mentions, extra = await self._render(ctx, reply)
        private = reply.visibility is Visibility.PRIVATE
        files = discord_files(reply)
        if not deferred:
            await interaction.response.send_message(bodies[0], ephemeral=private, files=files,
                                                    allowed_mentions=mentions, **extra)
        elif not placeholder:
            await interaction.followup.send(bodies[0], ephemeral=private, files=files, allowed_mentions=mentions,
                                            **extra)
        elif private:
            # the deferral was public; a private answer replaces it
            await interaction.delete_original_response()
            await interaction.followup.send(bodies[0], ephemeral=True, files=files, allowed_mentions=mentions, **extra)
        else:
            await interaction.edit_original_response(content=bodies[0], attachments=files, allowed_mentions=mentions,
                                                     **extra)
        for body in bodies[1:]:
            await interaction.followup.send(body, ephemeral=private, allowed_mentions=mentions)
        if reply.aside:  # what only this member may read comes after the channel's answer, privately
            language = await asyncio.to_thread(self.service.language, ctx)
            for body in chunks([translate(m.key, language, m.params) for m in reply.aside]):
                await interaction.followup.send(body, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


#: Discord's embed limits (title, description, the sum of an embed's texts)
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_TOTAL = 256, 4096, 6000


def to_discord_embed(embed: Embed, language: str) -> discord.Embed:
    """A service embed in the reader's language, cut to Discord's limits; its image is the reply's
    attachment of that name (``attachment://``)."""
    title = translate(embed.title.key, language, embed.title.params)[:EMBED_TITLE]
    description = None
    if embed.description is not None:
        text = translate(embed.description.key, language, embed.description.params)
        description = text[: min(EMBED_DESCRIPTION, EMBED_TOTAL - len(title))]
    result = discord.Embed(title=title, description=description, colour=embed.colour)
    if embed.image is not None:
        result.set_image(url=f"attachment://{embed.image}")
    return result


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    error = future.exception()
    if error is not None:
        log.error("a post in a game channel failed: %s", error, exc_info=error)


def run_bot(settings: Settings) -> int:
    from bot.app import open_service

    if settings.bot.api_base:
        discord.http.Route.BASE = settings.bot.api_base.rstrip("/")  # test-only hook (a local fake Discord)
    if settings.bot.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.bot.gateway_url)  # test-only hook
    bot = GameBot(open_service(settings), settings)
    bot.run(settings.bot.token, log_handler=None)
    return 0
