"""The Discord client: runs service commands for interactions and posts their replies.

The service is synchronous (database, renders), so each command runs in a worker thread of the
interactions' own pool, bounded by a semaphore — never in asyncio's default pool, where the outbox
draws and sends every due post of a draw's fan-out; a reply that takes longer than Discord's patience
is preceded by a deferral.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import datetime as dt
import functools
import io
import logging
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import discord
import yarl
from discord import app_commands

from bot.config import Settings
from bot.discord_adapter.answers import (
    UPLOAD_SECONDS,
    ProgressEdits,
    downloaded,
    new_error_id,
    seconds_left,
    tell_failure,
)
from bot.discord_adapter.events import PlaceEvents
from bot.discord_adapter.payload import install_commands
from bot.discord_adapter.posts import ChannelPoster, chunks, drawing_executor
from bot.discord_adapter.status import StatusBoard
from bot.discord_adapter.sync import sync_commands
from bot.drivers import timer_handlers
from bot.i18n import alt_text, translate
from bot.lottery.scheduler import DrawScheduler
from bot.outbox import BOT_BURST, GM_ALERT, TURN_POST, RateLimiter, post_of, process_rate
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
    ServiceError,
    Visibility,
)
from bot.service.commands import Option, pack_options, table, unpack_options
from bot.service.computers import ThinkingPool
from bot.service.progress import PROGRESS_SECONDS
from bot.store.outbox import OutboxRecord, enqueue, noting_posts
from bot.store.repo import GameRecord
from bot.timers import TimerRunner, TimerScheduler

log = logging.getLogger("spacechess.discord")

CONTENT_LIMIT = 2000
#: Discord's code for a dead interaction token (its 15 minutes are over)
WEBHOOK_EXPIRED = 50027
#: the longest rate limit discord.py sleeps through inside a request (its minimum); a longer one raises
MAX_RATELIMIT_WAIT = 30.0
#: Discord's autocomplete answer: at most this many choices, each name and value this long at most
AUTOCOMPLETE_CHOICES, CHOICE_TEXT = 25, 100
CUSTOM_ID_LIMIT = 100
#: the channel types of a thread (a forum post is a public thread)
THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)
#: answer directly when the service is this quick; otherwise defer first (Discord allows 3 s)
DIRECT_REPLY_SECONDS = 2.0
#: threads for the interactions' service calls beyond the commands' own (`render.workers`): a language
#: or suggestions lookup never waits for a command to finish
SPARE_THREADS = 2

T = TypeVar("T")


def permission_names(permissions: discord.Permissions) -> frozenset[str]:
    """Every name a granted permission goes by: the API's (``view_channel``) and discord.py's own
    (``read_messages``), whose iteration yields only the latter."""
    return frozenset(name for name in discord.Permissions.VALID_FLAGS if getattr(permissions, name))


def context_of(interaction: discord.Interaction) -> Context:
    """Who acts, where, and with which rights. The roles are `Member.roles`: the member payload's role
    ids resolved against the guild discord.py caches from GUILD_CREATE (the guilds intent) and keeps
    current with GUILD_ROLE_CREATE/DELETE — public API only, so a discord.py upgrade cannot silently
    turn every GM role holder into a plain member."""
    user = interaction.user
    roles = frozenset(role.id for role in user.roles) if isinstance(user, discord.Member) else frozenset()
    perms = interaction.permissions
    channel_type = getattr(interaction.channel, "type", None)
    return Context(
        user_id=user.id,
        user_name=user.display_name,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        locale=str(interaction.locale) if interaction.locale else None,
        manage_server=bool(perms.manage_guild or perms.administrator),
        role_ids=roles,
        # the bot's own permissions here, as Discord resolved them for the interaction: the service decides
        bot_permissions=permission_names(interaction.app_permissions),
        in_thread=channel_type in THREAD_TYPES,
        interaction_id=interaction.id,
    )


def autocomplete_choices(values: list[str]) -> list[app_commands.Choice[str]]:
    """Suggestions as Discord takes them (it refuses the whole answer otherwise): at most 25, each name
    and value at most 100 characters. A longer value could not come back intact, so it is left out
    rather than cut into another value; the name a member reads is the value itself."""
    fitting = [value for value in values if len(value) <= CHOICE_TEXT][:AUTOCOMPLETE_CHOICES]
    return [app_commands.Choice(name=value, value=value) for value in fitting]


def discord_files(files: Sequence[Attachment], language: str) -> list[discord.File]:
    """Fresh file objects for one send (discord.py reads them, so they are never reused), each with
    its alt text in `language`, the language of the text it goes with."""
    return [discord.File(io.BytesIO(f.data), filename=f.filename,
                         description=alt_text(f.description, language) if f.description is not None else None)
            for f in files]


#: A reply ready to send: its text bodies, allowed mentions, send keywords (view, embeds), and the
#: language it is read in (its images' alt text is said in it).
Rendered = tuple[list[str], discord.AllowedMentions, dict[str, Any], str]

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
                    template=r"btn:(?P<member>[0-9a-z]+):(?P<path>[a-z -]+):(?P<packed>.*)"):
    """A persistent button: the member it was shown to, the command it runs and that command's options
    (packed by position) are in its custom id, so it survives restarts and acts for that member only."""

    def __init__(self, button: Button, label: str, *, out_of_date: str | None = None) -> None:
        #: a button of an older version of the bot (its command gone, its options changed): its custom
        #: id as posted, and it says it is out of date when clicked
        self.out_of_date = out_of_date
        style = {"danger": discord.ButtonStyle.danger, "secondary": discord.ButtonStyle.secondary}.get(
            button.style, discord.ButtonStyle.primary
        )
        custom_id = out_of_date or (f"btn:{member_code(button.shown_to, button.command)}:{button.command}:"
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
        options = unpack_options(match["path"], match["packed"])
        button = Button(label=None, command=match["path"],  # type: ignore[arg-type]
                        options=options or {}, shown_to=int(match["member"], 36))
        return cls(button, item.label or "", out_of_date=item.custom_id if options is None else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        if self.out_of_date:
            await client.answer_out_of_date(interaction)
            return
        await client.run_command(interaction, self.spec.command, dict(self.spec.options), shown_to=self.spec.shown_to)


class MenuSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"sel:(?P<member>[0-9a-z]+):(?P<path>[a-z -]+):(?P<option>[a-z_0-9]+):(?P<packed>.*)"):
    """A persistent select menu: the member it was shown to, the command, the option it fills and the
    options already chosen are in its custom id (packed by position), so a menu from before a restart
    still works, for that member only."""

    def __init__(self, select: Select, placeholder: str, labels: list[str], *, out_of_date: str | None = None) -> None:
        self.out_of_date = out_of_date  # as CommandButton's
        custom_id = out_of_date or (f"sel:{member_code(select.shown_to, select.command)}:{select.command}:"
                                    f"{select.option}:{pack_options(select.command, select.options)}")
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
        options = unpack_options(match["path"], match["packed"])
        select = Select(Message(""), match["path"], match["option"], choices, options=options or {},
                        min_values=item.min_values, max_values=item.max_values, shown_to=int(match["member"], 36))
        return cls(select, item.placeholder or "", [option.label for option in item.options],
                   out_of_date=item.custom_id if options is None else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        assert isinstance(client, GameBot)
        if self.out_of_date:
            await client.answer_out_of_date(interaction)
            return
        picked = ",".join(self.item.values)
        await client.run_command(interaction, self.spec.command, {**self.spec.options, self.spec.option: picked},
                                 shown_to=self.spec.shown_to)


class GameBot(PlaceEvents, discord.AutoShardedClient):
    """One process of the bot: it holds the gateway shards of `bot.shard_ids` (all of them by default),
    so Discord sends it the interactions of those shards' servers only. What is not tied to a server's
    gateway — draws, timers, the outbox — every process runs, claimed through the shared database."""

    def __init__(self, service: GameService, settings: Settings) -> None:
        # a long rate limit raises (`discord.RateLimited`) rather than sleeping inside a send: the outbox
        # puts that post off and its other channels go on; a sync at start retries later
        super().__init__(intents=discord.Intents(guilds=True), allowed_mentions=discord.AllowedMentions.none(),
                         shard_count=settings.bot.shard_count or None, shard_ids=settings.bot.shard_ids or None,
                         max_ratelimit_timeout=MAX_RATELIMIT_WAIT)
        self.service = service
        self.settings = settings
        self.tree = app_commands.CommandTree(self)
        self.workers = asyncio.Semaphore(settings.render.workers)
        #: the interactions' service calls: a pool of their own, so an answer never queues behind the
        #: fan-out's board drawing in asyncio's default pool (the outbox's, the status messages')
        self.interactions = ThreadPoolExecutor(settings.render.workers + SPARE_THREADS,
                                               thread_name_prefix="interactions")
        #: how long a command may run before the bot defers (an attribute so tests can force deferral)
        self.direct_reply_seconds = DIRECT_REPLY_SECONDS
        #: at most one progress edit of a deferred answer per this many seconds (tests set 0)
        self.progress_seconds = PROGRESS_SECONDS
        #: the bot's own requests (posts, status messages, pins) under Discord's rate, this process's share
        self.limiter = RateLimiter(process_rate(settings.bot.shard_count, settings.bot.shard_ids), burst=BOT_BURST)
        self.status_board = StatusBoard(self, service, settings.bot.status_debounce_seconds, self.limiter,
                                        on_gone=self.status_channel_gone)
        self._sync_retry: asyncio.Task[None] | None = None
        self.locked_told: set[int] = set()
        self.scheduler: DrawScheduler | None = None
        self.timers: TimerScheduler | None = None
        #: sends the outbox (turn posts, reminders, GM alerts) once connected (`on_connect`); each post sent refreshes the status
        self.poster = ChannelPoster(self, service, on_sent=self._posted, limiter=self.limiter,
                                    drawing=drawing_executor(settings.render.post_drawing),
                                    lease=dt.timedelta(seconds=settings.bot.outbox_lease_seconds))

    async def setup_hook(self) -> None:
        await self.install_commands()
        try:
            await self.sync_commands()
        except discord.RateLimited as limited:  # the gateway must not wait for it: the commands follow
            log.warning("the command sync is rate-limited for %.0f s: tried again then", limited.retry_after)
            self._sync_retry = asyncio.create_task(self._sync_after(limited.retry_after), name="command-sync")
        self.start_draws()

    async def _sync_after(self, seconds: float) -> None:
        """Sync the commands once a rate limit is over (again while Discord says to wait)."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await self.sync_commands()
                return
            except discord.RateLimited as limited:
                seconds = limited.retry_after

    def start_draws(self) -> None:
        """Poll the lottery on its calendar and run the games' timers (deadlines, clocks, reminders):
        draws published and timers fallen due while the bot was down are applied now."""
        self.scheduler = DrawScheduler.from_settings(self.service, self.settings.draws, hooks=self)
        self.scheduler.start()
        if self.settings.games.computer_thinking == "process" and self.service.thinking is None:
            self.service.thinking = ThinkingPool()
        runner = TimerRunner(self.service.store, timer_handlers(self.service, self), clock=self.service.clock)
        self.timers = TimerScheduler(runner, scheduler=self.scheduler.scheduler)
        self.service.timer_listeners.append(self.timers.wake)
        self.timers.start()

    async def close(self) -> None:
        if self._sync_retry is not None:
            self._sync_retry.cancel()
        if self.timers is not None:
            self.service.timer_listeners.remove(self.timers.wake)
            self.timers.shutdown()
        if self.scheduler is not None:
            self.scheduler.shutdown()
        if self.service.thinking is not None:
            self.service.thinking.shutdown(wait=False, cancel_futures=True)
            self.service.thinking = None
        await self.poster.close()
        await self.status_board.close()
        await super().close()
        self.interactions.shutdown(wait=False, cancel_futures=True)

    async def serve(self, func: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """`func(*args, **kwargs)` on the interactions' threads, its context copied as `asyncio.to_thread`
        copies it."""
        call = functools.partial(contextvars.copy_context().run, func, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self.interactions, call)

    # -- the bot's own channel posts (TurnHooks): they go through the outbox -----------------------
    def outbox_ready(self) -> None:
        """Posts were committed to the outbox (by any thread): the sender looks at it now."""
        self.loop.call_soon_threadsafe(self.poster.sender.wake)

    def on_turn_post(self, game: GameRecord, reply: Reply) -> None:
        """A post not written with a change (the drivers write theirs with it): queued, then sent."""
        self._post(game, reply, TURN_POST)

    def on_gm_alert(self, game: GameRecord, reply: Reply) -> None:
        self._post(game, reply, GM_ALERT)

    def _posted(self, post: OutboxRecord) -> None:
        if post.game_id is not None:
            self.status_board.touch(post.game_id, durable=False)

    def _post(self, game: GameRecord, reply: Reply, kind: str) -> None:
        if game.channel_id is not None:
            enqueue(self.service.store, [post_of(game, reply, kind)])
            self.outbox_ready()

    async def install_commands(self) -> None:
        """The translator, the command groups and the persistent buttons: everything but the network."""
        await install_commands(self.tree, self.run_command, self.complete)
        self.tree.error(self.on_app_command_error)
        self.add_dynamic_items(CommandButton, MenuSelect)

    async def sync_commands(self) -> None:
        """Publish the commands to each configured server (instant), else globally — only when they
        changed since the last sync this database remembers (`bot.discord_adapter.sync`)."""
        await sync_commands(self, self.tree, self.service.store, list(self.settings.bot.guild_ids))

    async def on_connect(self) -> None:
        """Connected to the gateway: the outbox is sent from now on — posting needs only the REST API,
        not READY, which discord.py holds back until the servers' stream has been quiet for
        `guild_ready_timeout` (2 s, all of a restart's fan-out waiting)."""
        self.poster.sender.start()

    async def on_ready(self) -> None:
        """Channels are known now: status messages whose refresh a stop interrupted are refreshed (the
        outbox's sender, started once connected, is started again if it had stopped). READY comes again after
        a reconnection: both are idempotent."""
        log.info("connected as %s to %d server(s) on shard(s) %s of %s", self.user, len(self.guilds),
                 sorted(self.shards), self.shard_count)
        self.poster.sender.start()
        await self.status_board.resume()
        self.status_board.start_sweeps()

    async def _call(self, ctx: Context, path: str, options: dict[str, Any], shown_to: int | None) -> Reply:
        # attachments are downloaded here, inside the deferral's clock: a slow CDN must not cost the answer
        command = table()[path]
        values = {k: await self._option(v, command.option(k)) for k, v in options.items()}
        async with self.workers:
            return await self.serve(self.service.handle, ctx, path, values, shown_to=shown_to)

    async def _safe_call(self, ctx: Context, path: str, options: dict[str, Any], shown_to: int | None) -> Reply:
        """The service's reply; an unexpected failure is logged and answered, never left in silence."""
        try:
            return await self._call(ctx, path, options, shown_to)
        except ServiceError as refused:  # an attachment refused before its download
            return Reply.refusal(refused.key, **refused.params)
        except Exception:
            error_id = new_error_id()
            log.exception("command %r by user %s failed [error %s]", path, ctx.user_id, error_id)
            return Reply.refusal("error.unexpected", id=error_id)

    async def run_command(self, interaction: discord.Interaction, path: str, options: dict[str, Any],
                          *, shown_to: int | None = None) -> None:
        """Run a command for a slash command or a component (button, menu: `shown_to` is the member it
        was shown to, whom the service checks is the one clicking) and answer it.

        A slow command is deferred first: a slash command shows "thinking", a component defers an
        update of its own message, so that a reply replacing the form can still edit it. The clock
        is Discord's: it started at the interaction's creation, and runs through the service, the
        rendering and (for a reply with files) the upload. If the answer cannot be sent, the member
        still gets a private notice with an error id (`answers.tell_failure`). Long work (a replay)
        shows its progress meanwhile by editing a slash command's "thinking…" (`ProgressEdits`).
        """
        ctx = context_of(interaction)
        component = shown_to is not None
        progress: ProgressEdits | None = None
        if not component:  # a component's deferral shows nothing to edit: its message is the form
            plain = ctx
            # "thinking…" is the channel's to read until the answer replaces it: in the server's language
            progress = ProgressEdits(interaction, asyncio.get_running_loop(),
                                     lambda: self.service.channel_language(plain), self.progress_seconds)
            ctx = dataclasses.replace(ctx, progress=progress.report)
        reply: Reply | None = None
        deferred = False
        # a command that answers its member alone thinks to them alone (a component's deferral shows nothing)
        hidden = not component and path in table() and table()[path].private
        if seconds_left(interaction, self.direct_reply_seconds) <= 0:
            # late already: deferred before any work, so that if Discord has let the interaction go
            # (10062: the member saw "did not respond" and may try again) nothing is done for it
            try:
                await interaction.response.defer(thinking=not component, ephemeral=hidden)
            except discord.NotFound:
                log.warning("%r by user %s arrived too late to be answered: not run", path, ctx.user_id)
                return
            deferred = True
        try:
            with noting_posts() as written:  # the task's context, copied now, notes the posts it writes
                task = asyncio.ensure_future(self._prepared(ctx, path, options, shown_to))
            if not deferred:
                try:
                    reply, rendered = await asyncio.wait_for(
                        asyncio.shield(task), timeout=seconds_left(interaction, self.direct_reply_seconds))
                    defer = bool(reply.files) and seconds_left(interaction, self.direct_reply_seconds) < UPLOAD_SECONDS
                except TimeoutError:
                    defer = True
                if defer:
                    await interaction.response.defer(thinking=not component, ephemeral=hidden)
                    deferred = True
            if deferred:
                if progress is not None:
                    progress.opened()
                reply, rendered = await task
            if progress is not None:
                await progress.settle()
            if component:
                await self.send_component_reply(interaction, ctx, reply, deferred, rendered)
            else:
                await self.send_reply(interaction, ctx, reply, deferred, rendered=rendered, hidden=hidden)
        except Exception as error:
            error_id = new_error_id()
            log.error("the answer to %r by user %s failed [error %s]: %s", path, ctx.user_id, error_id, error,
                      exc_info=error)
            if written.posts:  # its change stands, and so do the posts it owes
                self.poster.sender.wake()
            language = await self.serve(self.service.language, ctx)
            await tell_failure(interaction, language, changed=reply is not None and reply.ok, error_id=error_id)
            return
        if written.posts:  # what the command wrote to the outbox (a turn handed over, pinged) goes out after its reply
            self.poster.sender.wake()
        if reply.ok and reply.channel_game is not None:  # read by the service with the command's own reads
            self.status_board.touch(reply.channel_game)

    async def _prepared(self, ctx: Context, path: str, options: dict[str, Any], shown_to: int | None
                        ) -> tuple[Reply, Rendered]:
        """The reply, rendered in the reader's language: everything the answer needs but the network."""
        reply = await self._safe_call(ctx, path, options, shown_to)
        return reply, await self._render(ctx, reply)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """What escapes a command (an option discord.py could not convert...): logged and answered."""
        error_id = new_error_id()
        log.error("command %s failed [error %s]: %s", interaction.command and interaction.command.qualified_name,
                  error_id, error, exc_info=error)
        language = await self.serve(self.service.language, context_of(interaction))
        await tell_failure(interaction, language, changed=False, error_id=error_id)

    @staticmethod
    async def _option(value: Any, option: Option | None) -> Any:
        if isinstance(value, discord.Attachment):
            return await downloaded(value, option or Option("file", "attachment"))
        if isinstance(value, discord.abc.Snowflake) and not isinstance(value, int):
            return value.id  # members, users and roles travel as ids
        return value

    async def complete(
        self, interaction: discord.Interaction, path: str, option: str, current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggestions, or none when they would come too late: Discord drops an answer after 3 s."""
        filled = {key: value for key, value in interaction.namespace if value is not None}  # the options typed so far
        try:
            values = await asyncio.wait_for(
                self.serve(self.service.complete, context_of(interaction), path, option, current, filled),
                timeout=seconds_left(interaction, self.direct_reply_seconds))
        except TimeoutError:
            log.warning("suggestions for /%s %s were too slow: an empty list is answered", path, option)
            return []
        return autocomplete_choices(values)

    async def _render(self, ctx: Context, reply: Reply) -> Rendered:
        """The reply's text bodies, allowed mentions, and its components and embeds (as send
        keywords), all in its readers' language: the server's for a reply the channel reads, the
        member's own for an ephemeral one (`GameService.language`)."""
        language = reply.language or await self.serve(self.service.language, ctx, reply.visibility)
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
        return bodies, mentions, extra, language

    async def answer_out_of_date(self, interaction: discord.Interaction) -> None:
        """A button or menu of an older version of the bot: told privately, in the member's words,
        rather than run with options that mean something else now (or a command that is gone)."""
        ctx = context_of(interaction)
        reply = Reply.refusal("error.component_out_of_date")
        await self.send_reply(interaction, ctx, reply, False, rendered=await self._render(ctx, reply))

    async def send_component_reply(self, interaction: discord.Interaction, ctx: Context, reply: Reply,
                                   deferred: bool, rendered: Rendered | None = None) -> None:
        """A button's or menu's answer: it replaces the component's message when the reply says so
        (a form redrawn with the picks so far), else it is a message of its own."""
        if not (reply.update and reply.ok):
            # a component's deferral left no placeholder message: the answer is a follow-up
            await self.send_reply(interaction, ctx, reply, deferred, placeholder=False, rendered=rendered)
            return
        bodies, mentions, extra, language = rendered or await self._render(ctx, reply)
        edit = interaction.edit_original_response if deferred else interaction.response.edit_message
        await edit(content=bodies[0], attachments=discord_files(reply.files, language), allowed_mentions=mentions,
                   view=extra.get("view"), embeds=extra.get("embeds", []))
        await self._notify(interaction, reply, mentions)
        await self._rest(interaction, ctx, reply, bodies[1:], mentions)  # the form holds the first part only

    @staticmethod
    async def _notify(interaction: discord.Interaction, reply: Reply, mentions: discord.AllowedMentions) -> None:
        """After an answer that edited a message: Discord notifies nobody a message edit mentions, so
        the members the reply pings (a draw offer's opponent, a game's winners) are named again in
        a message of their own, which notifies them."""
        if reply.mentions:
            await interaction.followup.send(" ".join(f"<@{user}>" for user in reply.mentions),
                                            allowed_mentions=mentions)

    async def send_reply(self, interaction: discord.Interaction, ctx: Context, reply: Reply, deferred: bool,
                         *, placeholder: bool = True, rendered: Rendered | None = None, hidden: bool = False) -> None:
        """Answer an interaction: directly, or after a deferral — replacing its "thinking"
        `placeholder` when there is one (`hidden`: shown to the member alone) — then the rest of a
        long text as follow-ups."""
        bodies, mentions, extra, language = rendered or await self._render(ctx, reply)
        private = reply.visibility is Visibility.PRIVATE
        files = discord_files(reply.files, language)
        try:
            await self._answer(interaction, reply, deferred, placeholder, bodies, mentions, extra, files, hidden)
        except discord.HTTPException as err:
            if err.code != WEBHOOK_EXPIRED:
                raise
            # the work outlived the interaction's 15 minutes: the answer goes where it still can
            log.warning("the answer to user %s came after its interaction expired: sent by the bot itself",
                        ctx.user_id)
            await self._after_expiry(interaction, private, bodies, mentions, extra, discord_files(reply.files, language))
            return
        await self._rest(interaction, ctx, reply, bodies[1:], mentions)

    async def _answer(self, interaction: discord.Interaction, reply: Reply, deferred: bool, placeholder: bool,
                      bodies: list[str], mentions: discord.AllowedMentions, extra: dict[str, Any],
                      files: list[discord.File], hidden: bool = False) -> None:
        private = reply.visibility is Visibility.PRIVATE
        if not deferred:
            await interaction.response.send_message(bodies[0], ephemeral=private, files=files,
                                                    allowed_mentions=mentions, **extra)
        elif not placeholder:
            await interaction.followup.send(bodies[0], ephemeral=private, files=files, allowed_mentions=mentions,
                                            **extra)
        elif private != hidden:
            # the deferral was seen by others than the answer's readers: the answer replaces it
            await interaction.delete_original_response()
            await interaction.followup.send(bodies[0], ephemeral=private, files=files, allowed_mentions=mentions,
                                            **extra)
        else:
            await interaction.edit_original_response(content=bodies[0], attachments=files, allowed_mentions=mentions,
                                                     **extra)
            await self._notify(interaction, reply, mentions)

    async def _after_expiry(self, interaction: discord.Interaction, private: bool, bodies: list[str],
                            mentions: discord.AllowedMentions, extra: dict[str, Any], files: list[discord.File]) -> None:
        """The answer of an interaction Discord let go (15 minutes): a public one in its channel,
        naming its member; a private one by direct message (a refused one is only logged)."""
        kept = {key: value for key, value in extra.items() if key == "embeds"}  # buttons of a dead interaction
        if private:
            target: discord.abc.Messageable = interaction.user
            first = bodies[0]
        else:
            assert interaction.channel_id is not None
            target = self.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
            first = f"<@{interaction.user.id}> {bodies[0]}"[:CONTENT_LIMIT]
            mentions = mentions.merge(discord.AllowedMentions(users=[interaction.user]))
        try:
            await target.send(first, files=files, allowed_mentions=mentions, **kept)
            for body in bodies[1:]:
                await target.send(body, allowed_mentions=mentions)
        except discord.HTTPException as err:
            log.error("the late answer to user %s could not be sent either: %s", interaction.user.id, err)

    async def _rest(self, interaction: discord.Interaction, ctx: Context, reply: Reply, bodies: list[str],
                    mentions: discord.AllowedMentions) -> None:
        """The parts of a long answer after its first, then what only its member may read."""
        private = reply.visibility is Visibility.PRIVATE
        for body in bodies:
            await interaction.followup.send(body, ephemeral=private, allowed_mentions=mentions)
        if reply.aside:  # what only this member may read comes after the channel's answer, privately
            language = reply.aside_language or await self.serve(self.service.language, ctx)
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


def run_bot(settings: Settings) -> int:
    from bot.app import open_service

    if settings.bot.api_base:
        discord.http.Route.BASE = settings.bot.api_base.rstrip("/")  # test-only hook (a local fake Discord)
    if settings.bot.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.bot.gateway_url)  # test-only hook
    bot = GameBot(open_service(settings), settings)
    bot.run(settings.bot.token, log_handler=None)
    return 0
