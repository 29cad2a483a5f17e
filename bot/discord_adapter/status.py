"""The pinned status message of each game channel, edited in place and debounced.

Discord rate-limits message edits, and a busy game changes every few seconds; so a change only
marks the game as dirty, and one refresh per debounce period posts the latest text (skipped when
it did not change). The message id is stored, so a restarted bot edits the same message.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.i18n import translate
from bot.service.core import GameService
from bot.service.status import status_messages

log = logging.getLogger("spacechess.discord.status")

CONTENT_LIMIT = 2000


class StatusBoard:
    def __init__(self, client: discord.Client, service: GameService, debounce_seconds: float) -> None:
        self.client = client
        self.service = service
        self.debounce_seconds = debounce_seconds
        self._pending: dict[int, asyncio.Task[None]] = {}
        self._posted: dict[int, str] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def touch(self, game_id: int) -> None:
        """Something changed in this game: refresh its status message soon (once per period)."""
        task = self._pending.get(game_id)
        if task is None or task.done():
            self._pending[game_id] = asyncio.create_task(self._refresh_later(game_id))

    async def _refresh_later(self, game_id: int) -> None:
        await asyncio.sleep(self.debounce_seconds)
        self._pending.pop(game_id, None)  # a change from now on schedules the next refresh
        await self.refresh(game_id)

    def text(self, game_id: int) -> tuple[int, str] | None:
        """(channel id, content) of the game's status, in the server's language; runs in a thread."""
        game = self.service.store.get_game(game_id)
        if game is None or game.channel_id is None:
            return None
        language = self.service.server_language(game.guild_id)
        lines = [translate(m.key, language, m.params) for m in status_messages(self.service, game)]
        return game.channel_id, "\n".join(lines)[:CONTENT_LIMIT]

    async def refresh(self, game_id: int) -> None:
        # one refresh at a time per game: two overlapping ones would both post a first message
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            await self._refresh(game_id)

    async def _refresh(self, game_id: int) -> None:
        found = await asyncio.to_thread(self.text, game_id)
        if found is None:
            return
        channel_id, content = found
        if self._posted.get(game_id) == content:
            return
        try:
            await self._post(game_id, channel_id, content)
        except discord.HTTPException as err:
            log.warning("status message of game %s not updated: %s", game_id, err)
            return
        self._posted[game_id] = content

    async def _post(self, game_id: int, channel_id: int, content: str) -> None:
        channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        none = discord.AllowedMentions.none()
        message_id = await asyncio.to_thread(self.service.store.status_message, game_id)
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(content=content, allowed_mentions=none)  # type: ignore[attr-defined]
                return
            except discord.NotFound:
                log.info("status message of game %s was deleted; posting a new one", game_id)
        message = await channel.send(content, allowed_mentions=none)
        try:
            await message.pin()
        except discord.Forbidden:
            log.warning("cannot pin the status message of game %s: the bot lacks Manage Messages", game_id)
        await asyncio.to_thread(self.service.store.set_status_message, game_id, channel_id, message.id)

    async def close(self) -> None:
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
