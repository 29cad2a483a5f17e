"""The pinned status message of each game channel, edited in place and debounced.

Discord rate-limits message edits, and a busy game changes every few seconds; so a change only
marks the game as dirty, and one refresh per debounce period posts the latest text (skipped when
it did not change). What must survive a crash is in the database:

- the dirty mark: the game's `updated_at`, stamped by `Store.commit` in the change's own transaction
  and compared with how far the message shows the game, plus `status_dirty` rows (`touch`: a new game
  before its first message, what changes the status without a commit such as a post sent): a bot
  killed after the commit — before its reply, or within the debounce — refreshes the message when
  READY again; a game under way with no message at all (created just before the crash, its mark
  never written) gets its first one then too;
- the message id, stored as soon as Discord made the message and before it is pinned: a refused pin
  (too many pins, 30003; no permission, 50013; a server error) never leads to a new message per
  change — a refusal is remembered and not asked again, a server error is retried at the next refresh;
- a message older than an hour has a stricter edit limit (30046): the refresh is retried later with
  back-off, never replaced by a new message. Only a deleted message (404 / 10008) is posted anew;
- a forum post (a thread) archives itself after a few idle days, and Discord refuses edits there
  (50083) while a post would unarchive it: the bot unarchives the thread first, then edits. A locked
  thread it may not reopen is left alone until a moderator unlocks it (its GMs are told by
  `bot.discord_adapter.events`); a deleted channel (10003) pauses the game through the one path of
  changes and the message is not asked for again — no new post per refresh, none at each restart.

A draw changes every game at once: thousands of refreshes fall due together. Each request to Discord
waits its turn at the bot's rate limiter, shared with the outbox (`bot.outbox.process_rate`), so the
bot stays under Discord's 50 requests a second instead of collecting 429 answers by the thousand —
each of which counts towards the invalid requests for which Cloudflare bans a bot's address. A
channel of another shard's server is written to without being fetched first (a partial messageable).
The outbox's posts go first: while it is sending due posts (a fan-out), a refresh waits for it to end
(`RateLimiter.posting`) before it even reads the game, so the fan-out goes out at the whole rate and
each game's changes meanwhile make one edit after it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
from collections.abc import Callable

import discord

from bot.i18n import translate
from bot.outbox import RateLimiter
from bot.service.core import GameService
from bot.service.status import status_messages
from bot.store.discord_state import (
    clear_status_dirty,
    dirty_games,
    keep_status_message,
    mark_status_dirty,
    set_status_pin,
    status_pin,
)
from bot.store.repo import Store

log = logging.getLogger("spacechess.discord.status")

CONTENT_LIMIT = 2000
#: Discord's codes: the channel (or thread) is gone; the message is; the thread is archived or locked
UNKNOWN_CHANNEL, UNKNOWN_MESSAGE, THREAD_ARCHIVED = 10003, 10008, 50083
#: Discord's codes for a pin it will not take: too many pins in the channel, missing permission/access
PIN_REFUSALS = frozenset({30003, 50013, 50001})
#: first and longest wait before retrying a refresh Discord refused for now (an old message's edits, 5xx)
RETRY_FIRST, RETRY_MAX = 60.0, 900.0
#: the games whose channel shows a status message (a finished one keeps the one it has)
UNDER_WAY = ("setup", "running", "paused")
#: how often a process looks for the status refreshes another process owes its servers' games (a draw
#: applied there, a post sent there): only the process holding a server's shard writes its messages
SWEEP_SECONDS = 30.0


def status_nonce(game_id: int, channel_id: int, replaced: int | None) -> str:
    """The nonce of a game's first status message in a channel (at most 25 characters): the same for as
    long as that message is owed, whatever the game does meanwhile (a draw applied as the bot restarts,
    before it posts), so a post repeated after a crash is recognised as the same message; another in
    another channel (`/gm move`) or for a message that replaces a deleted one (`replaced`)."""
    digest = hashlib.blake2b(f"{channel_id}:{replaced or 0}".encode(), digest_size=6).hexdigest()
    return f"st{game_id}.{digest}"[:25]


class StatusBoard:
    def __init__(self, client: discord.Client, service: GameService, debounce_seconds: float,
                 limiter: RateLimiter,
                 on_gone: Callable[[int, int], object] = lambda _game_id, _channel_id: None) -> None:
        self.client = client
        #: the game's channel (game id, channel id) is gone (run in a thread): pause the game and tell
        #: its GMs, as a refused post does
        self.on_gone = on_gone
        self.service = service
        self.debounce_seconds = debounce_seconds
        self.limiter = limiter
        self.retry_first = RETRY_FIRST
        self._pending: dict[int, asyncio.Task[None]] = {}
        #: what each game's message shows, and where (a game moved by `/gm move` needs one in its new channel)
        self._posted: dict[int, tuple[int, str]] = {}
        self._failures: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._sweeps: asyncio.Task[None] | None = None
        #: `resume` failed (the database unreachable): the next sweep does it again
        self._resume_owed = False

    @property
    def store(self) -> Store:
        return self.service.store

    def touch(self, game_id: int, *, durable: bool = True) -> None:
        """Something changed in this game: mark it (durably) and refresh its status message soon,
        once per period. Not `durable`: a post of the game went out, which changes nothing the
        message shows that its commit did not already stamp (`Store.commit`'s `updated_at`, which
        the sweeps and the resume read): refreshed soon, no write (a fan-out sends a thousand)."""
        self._schedule(game_id, self.debounce_seconds, mark=durable)

    def start_sweeps(self) -> None:
        """Look for owed refreshes every `SWEEP_SECONDS` (another process's changes to our games)."""
        if self._sweeps is None or self._sweeps.done():
            self._sweeps = asyncio.create_task(self._sweep(), name="status-sweeps")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            if self._resume_owed:  # the database could not be read at READY: the whole look, now
                await self.resume()
                continue
            try:
                owed = await asyncio.to_thread(dirty_games, self.store, self._held_servers())
            except Exception:
                log.exception("looking for owed status refreshes failed: next look in %.0f s", SWEEP_SECONDS)
                continue
            for game_id in owed:
                self._schedule(game_id, 0.0, mark=False)

    async def resume(self) -> None:
        """Refresh every status message a previous run owed: marked or changed since it was posted,
        and not refreshed (the run stopped first) — or never posted, for a game of this process's
        servers created just before a crash, whose mark the stopped run never got to write. A database
        that cannot be read then (restarting) leaves it to the next sweep, not to the next restart."""
        held = self._held_servers()  # another shard's process posts the others'
        try:
            owed = set(await asyncio.to_thread(dirty_games, self.store, held))
            owed |= await asyncio.to_thread(self._unposted, held)
        except Exception:
            self._resume_owed = True
            log.exception("the owed status refreshes could not be read: looked for again in %.0f s", SWEEP_SECONDS)
            return
        self._resume_owed = False
        for game_id in sorted(owed):
            self._schedule(game_id, 0.0, mark=False)

    def _held_servers(self) -> set[int]:
        """The servers of this process's shards (their games' status messages are ours to write)."""
        return {guild.id for guild in self.client.guilds}

    def _unposted(self, guild_ids: set[int]) -> set[int]:
        """The games under way in these servers' channels that have no status message yet, read a page
        at a time (not one game and its message at a time); runs in a thread."""
        return set(self.store.unposted_games(statuses=UNDER_WAY, guild_ids=guild_ids))

    def _schedule(self, game_id: int, delay: float, *, mark: bool) -> None:
        # a refresh already planned reads the game after this change: its mark (written when it was
        # planned, or left by a failed refresh) covers this one until it succeeds
        task = self._pending.get(game_id)
        if task is None or task.done():
            self._pending[game_id] = asyncio.create_task(self._refresh_later(game_id, delay, mark))

    async def _refresh_later(self, game_id: int, delay: float, mark: bool) -> None:
        if mark:
            await asyncio.to_thread(mark_status_dirty, self.store, game_id)
        await asyncio.sleep(delay)
        self._pending.pop(game_id, None)  # a change from now on schedules the next refresh
        await self.refresh(game_id)

    def text(self, game_id: int) -> tuple[int, str] | None:
        """(channel id, content) of the game's status, in the server's language; runs
        in a thread."""
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

    def _held_here(self, game_id: int) -> bool:
        """Whether this process holds the game's server (its shard): the one writer of its status
        message — another process leaves the mark for it. Runs in a thread."""
        game = self.store.get_game(game_id)
        return game is None or game.guild_id is None or self.client.get_guild(game.guild_id) is not None

    async def _refresh(self, game_id: int) -> None:
        await self.limiter.quiet()  # after the posts being sent: read then, the game's latest in one edit
        if not await asyncio.to_thread(self._held_here, game_id):
            return  # its own process refreshes it (`_sweep`): two writers would post two messages
        seen = dt.datetime.now(dt.UTC)  # marks up to now are answered by the text read next
        found = await asyncio.to_thread(self.text, game_id)
        if found is not None and self._posted.get(game_id) != found:
            channel_id, content = found
            try:
                await self._post(game_id, channel_id, content, seen)
            except discord.HTTPException as err:
                if err.code != UNKNOWN_CHANNEL:
                    self._refused(game_id, err)
                    return
                # nothing to show any more: the mark is answered, so no restart asks for it again
                log.warning("the channel of game %s is gone (%s): game paused, no status message", game_id, err)
                await asyncio.to_thread(self.on_gone, game_id, channel_id)
                seen = dt.datetime.now(dt.UTC)  # the pause it made is answered too: nothing is shown
            except OSError as err:
                self._retry(game_id, err)
                return
            else:
                self._posted[game_id] = (channel_id, content)
        self._failures.pop(game_id, None)
        await asyncio.to_thread(clear_status_dirty, self.store, game_id, seen)

    def _refused(self, game_id: int, err: discord.HTTPException) -> None:
        """The bot may not see or write there, or may not reopen the locked thread: kept for a restart
        or the next change (a moderator's fix is a change nobody tells the bot of); else tried again."""
        if isinstance(err, discord.Forbidden) or err.code == THREAD_ARCHIVED:
            log.warning("status message of game %s not updated: %s", game_id, err)
        else:
            self._retry(game_id, err)

    def _retry(self, game_id: int, err: Exception) -> None:
        """Discord refused the edit for now (an old message's edit limit, a server error): try again
        later, each time waiting twice as long; the dirty mark stays meanwhile."""
        failures = self._failures.get(game_id, 0) + 1
        self._failures[game_id] = failures
        delay = min(RETRY_MAX, self.retry_first * 2 ** (failures - 1))
        log.warning("status message of game %s not updated (%s): retry in %.0f s", game_id, err, delay)
        self._schedule(game_id, delay, mark=False)

    async def _post(self, game_id: int, channel_id: int, content: str, seen: dt.datetime) -> None:
        channel = self.client.get_channel(channel_id) or self.client.get_partial_messageable(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        none = discord.AllowedMentions.none()
        message_id = await asyncio.to_thread(self.store.status_message, game_id, channel_id)
        # the message the new one replaces: a deleted one here, or the one of the channel it moved from
        replaced = message_id if message_id is not None else await asyncio.to_thread(self.store.status_message, game_id)
        if message_id is not None:
            message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
            try:
                await self._edit(channel_id, message, content)
            except discord.NotFound as err:
                if err.code == UNKNOWN_CHANNEL:
                    raise
                log.info("status message of game %s was deleted; posting a new one", game_id)
            else:
                if await asyncio.to_thread(status_pin, self.store, game_id) == "pending":
                    await self._pin(game_id, message)
                return
        await self.limiter.acquire(after_posts=True)
        # a bot killed after Discord made the message, before it was stored, posts it again at its
        # restart: with the same nonce, Discord answers with the first one
        message = await channel.send(content, allowed_mentions=none, nonce=status_nonce(game_id, channel_id, replaced))
        # stored before the pin: whatever happens to the pin, the next change edits this message
        await asyncio.to_thread(keep_status_message, self.store, game_id, channel_id, message.id, seen)
        await self._pin(game_id, message)

    async def _edit(self, channel_id: int, message: discord.PartialMessage, content: str) -> None:
        """Edit the message; in an archived thread, unarchive it first (an edit does not, a post
        would) and edit again. A locked thread refuses the unarchiving: that refusal is raised."""
        none = discord.AllowedMentions.none()
        await self.limiter.acquire(after_posts=True)
        try:
            await message.edit(content=content, allowed_mentions=none)
            return
        except discord.HTTPException as err:
            if err.code != THREAD_ARCHIVED:
                raise
        await self.limiter.acquire(after_posts=True)
        await self.client.http.edit_channel(channel_id, archived=False)
        await self.limiter.acquire(after_posts=True)
        await message.edit(content=content, allowed_mentions=none)

    async def _pin(self, game_id: int, message: discord.Message | discord.PartialMessage) -> None:
        """Pin it; a refusal is remembered (never asked again), a server error left for the next refresh."""
        try:
            await self.limiter.acquire(after_posts=True)
            await message.pin()
        except discord.HTTPException as err:
            if err.code in PIN_REFUSALS or isinstance(err, discord.Forbidden):
                log.warning("the status message of game %s cannot be pinned (%s): it stays unpinned", game_id, err)
                await asyncio.to_thread(set_status_pin, self.store, game_id, "refused")
            else:
                log.warning("pinning the status message of game %s failed (%s): tried again later", game_id, err)
            return
        await asyncio.to_thread(set_status_pin, self.store, game_id, "pinned")

    async def close(self) -> None:
        if self._sweeps is not None:
            self._sweeps.cancel()
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
