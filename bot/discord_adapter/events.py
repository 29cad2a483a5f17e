"""What the gateway says of the places games live in: a channel or thread deleted, a thread locked,
the bot removed from a server. Each is handed to `bot.service.channels`, which pauses the games
concerned and tells their GMs; this only reads the event. Without them a deleted channel would be
noticed at the game's next post only, and a locked thread never before a post is refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.service.channels import channels_gone, game_channel_gone, server_left, thread_locked
from bot.service.core import GameService

log = logging.getLogger("spacechess.discord.events")


class PlaceEvents:
    """The gateway handlers of `GameBot` for its games' channels (a mixin: discord.py calls a client's
    ``on_<event>`` methods)."""

    service: GameService
    get_guild: Callable[[int], discord.Guild | None]  # discord.Client's
    #: the locked threads whose GMs were told (by this process: a restart may tell them once more)
    locked_told: set[int]
    #: wakes the outbox sender, which sends what the service wrote (GameBot's; thread-safe)
    outbox_ready: Callable[[], None]

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel is deleted, and with it its threads (Discord sends no event of their own for them)."""
        threads = [thread.id for thread in channel.guild.threads if thread.parent_id == channel.id]
        await self._gone(channel.guild.id, [channel.id, *threads])

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread (a forum post) is deleted — the raw event: an archived thread is not in the cache."""
        await self._gone(payload.guild_id, [payload.thread_id])

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A moderator locked the thread, and the bot may not post in a locked thread (Manage Threads):
        its GMs are told now, once, not at the next refused post. The raw event: an archived thread (a
        forum post idle for days, the usual one to be locked) is not in discord.py's cache. Archiving
        alone needs nothing: the bot's next post reopens the thread, its status edit unarchives it."""
        locked = bool(payload.data.get("thread_metadata", {}).get("locked"))
        if not locked:
            self.locked_told.discard(payload.thread_id)
            return
        if payload.thread_id in self.locked_told or self._may_manage_threads(payload.guild_id, payload.parent_id):
            return
        self.locked_told.add(payload.thread_id)
        told = await asyncio.to_thread(thread_locked, self.service, payload.guild_id, payload.thread_id, self)
        if told:
            log.warning("the thread %s of a game was locked: its GMs are told", payload.thread_id)

    def _may_manage_threads(self, guild_id: int, parent_id: int) -> bool:
        """Whether the bot may still act in a locked thread of `parent_id` (Manage Threads there)."""
        guild = self.get_guild(guild_id)
        parent = guild.get_channel(parent_id) if guild is not None else None
        me = guild.me if guild is not None else None
        return parent is not None and me is not None and parent.permissions_for(me).manage_threads

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was kicked from (or left) a server: its running games are paused."""
        paused = await asyncio.to_thread(server_left, self.service, guild.id)
        log.warning("removed from server %s: %d running game(s) paused", guild.id, len(paused))

    def status_channel_gone(self, game_id: int, channel_id: int) -> None:
        """The status message found the game's channel gone (10003); runs in a thread."""
        game = self.service.store.get_game(game_id)
        if game is not None and game.channel_id == channel_id:
            game_channel_gone(self.service, game, channel_id, self)

    async def _gone(self, guild_id: int | None, channel_ids: list[int]) -> None:
        if guild_id is None:
            return
        games = await asyncio.to_thread(channels_gone, self.service, guild_id, channel_ids, self)
        if games:
            log.warning("channel(s) %s of server %s deleted: game(s) %s paused, their GMs told", channel_ids,
                        guild_id, games)
