"""The bot's own posts in game channels (turn posts, reminders, GM alerts), and its direct messages
to members (`bot.service.dms`), sent from the outbox.

`bot.outbox.OutboxSender` decides what to send and when; this module says how on Discord: the post's
text in the server's language of the moment, cut into messages of at most 2,000 characters, a
game-master alert led by the GM role's ping, the images on the last part, each part sent with the
row's nonce (discord.py adds ``enforce_nonce``), and which failures are worth a retry.

A turn post's board is drawn as it is sent (`bot.outbox.Drawing`), on an executor of its own — a
thread or two, or processes that draw outside the interpreter answering interactions — never in
asyncio's default pool, where the outbox's and the status messages' database calls run.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass

import discord

from bot.games import presenter_for
from bot.i18n import alt_text, translate
from bot.outbox import (
    DM_REFUSED,
    FINAL,
    FIXABLE,
    GM_ALERT,
    LEASE,
    Failure,
    OutboxSender,
    RateLimiter,
    decode_reply,
)
from bot.service.channels import pause_channel_gone
from bot.service.core import GameService
from bot.service.dms import dm_language
from bot.service.replies import Attachment
from bot.store.outbox import OutboxRecord, recipient
from bot.worker_processes import spawned_pool
from engine import registry

log = logging.getLogger("spacechess.discord.posts")

CONTENT_LIMIT = 2000
#: how the boards of posts are drawn (`render.post_drawing`), and by how many workers: the sender
#: draws a few posts at a time (`bot.outbox.DRAWING_SLOTS`) at the pace Discord takes them
DRAWING_WORKERS = 2


def drawing_executor(kind: str = "thread", workers: int = DRAWING_WORKERS) -> Executor:
    """The posts' drawing workers: threads of their own, or ("process") processes started afresh
    (spawned: no copy of the event loop's threads), started now and loading the games' presenters
    while the bot connects, not when a draw's first board is due (a restart's fan-out starts then:
    its first post would wait for Pillow and the renderers to load). Threads share their modules:
    one loads them."""
    if kind != "process":
        pool: Executor = ThreadPoolExecutor(workers, thread_name_prefix="drawing")
        pool.submit(load_presenters)
        return pool
    pool = spawned_pool(workers)
    for _ in range(workers):
        pool.submit(load_presenters)
    return pool


def load_presenters() -> None:
    """Import every game's presenter (and Pillow with its renderers): a drawing process's warm-up."""
    for kind in registry.names():
        presenter_for(kind)


@dataclass(frozen=True)
class PostPart:
    """One Discord message of a post."""

    content: str
    mentions: discord.AllowedMentions
    files: tuple[Attachment, ...] = ()
    #: each file's alt text, in the language of the post's text (None: the file has none)
    alt: tuple[str | None, ...] = ()


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


#: Discord's JSON error codes of a refused post someone can fix (the post is kept), and of a channel
#: gone (the post is given up), as `bot.outbox.REFUSALS` names them
FIXABLE_CODES = {50013: "missing_permissions", 50001: "missing_access", 50083: "thread_locked",
                 40005: "file_too_large"}
FINAL_CODES = {10003: "unknown_channel"}
#: Discord's code of a direct message the member does not take from the bot (their privacy settings)
DM_REFUSED_CODE = 50007


def classify(err: Exception) -> Failure:
    """Rate limits, server errors, the network and a 401 (the token being reset): tried again later.
    A missing permission or access, an archived or locked thread, a file too large: kept, the GMs
    told what to fix. An unknown channel: given up, the GMs told. A direct message refused: the
    member pinged in the game's channel instead. Any other refusal (an invalid body:
    the bot's own fault) is given up and logged."""
    if isinstance(err, discord.RateLimited):
        return Failure(retry_after=err.retry_after)
    if isinstance(err, discord.HTTPException):
        if err.status == 429:
            return Failure(retry_after=_retry_after(err))
        if err.code == DM_REFUSED_CODE:
            return Failure(FINAL, cause=DM_REFUSED)
        if err.code in FIXABLE_CODES:
            return Failure(FIXABLE, cause=FIXABLE_CODES[err.code])
        if err.code in FINAL_CODES:
            return Failure(FINAL, cause=FINAL_CODES[err.code])
        if 400 <= err.status < 500 and err.status != 401:
            return Failure(FINAL)
    return Failure()


def _retry_after(err: discord.HTTPException) -> float | None:
    header = err.response.headers.get("Retry-After") if err.response is not None else None
    try:
        return float(header) if header is not None else None
    except ValueError:
        return None


class ChannelPoster:
    """The outbox sender of one bot: `start` it once connected (a channel not in
    the cache yet, before READY, is written to by its id)."""

    def __init__(self, client: discord.Client, service: GameService,
                 on_sent: Callable[[OutboxRecord], None] | None = None, limiter: RateLimiter | None = None,
                 drawing: Executor | None = None, lease: dt.timedelta = LEASE) -> None:
        self.client = client
        self.service = service
        self.drawing = drawing or drawing_executor()
        self._dm_channels: dict[int, int] = {}  # member → the id of the bot's direct-message channel with them
        self.sender: OutboxSender[PostPart] = OutboxSender(
            service.store, render=self.render, send_part=self.send_part, classify=classify,
            on_sent=on_sent or (lambda _post: None), limiter=limiter,
            on_gone=lambda game_id, channel_id: pause_channel_gone(service, game_id, channel_id), lease=lease,
        )

    async def render(self, post: OutboxRecord) -> list[PostPart]:
        """The post's messages in the server's language now; a GM alert pings the GM role first."""
        language = await asyncio.to_thread(self.service.server_language, post.guild_id)
        user = recipient(post)
        if user is not None:  # a direct message reads in its member's language
            language = await asyncio.to_thread(dm_language, self.service.store, user, language)
        if post.payload.get("drawing") is not None:  # its board is drawn now, in that language
            reply = await asyncio.get_running_loop().run_in_executor(self.drawing, decode_reply, post.payload, language)
        else:
            reply = decode_reply(post.payload, language)
        lines = [translate(m.key, language, m.params) for m in reply.messages]
        roles: list[discord.Object] = []
        if post.kind == GM_ALERT and post.guild_id is not None:
            settings = await asyncio.to_thread(self.service.store.guild_settings, post.guild_id)
            if settings.gm_role_id is not None:
                lines.insert(0, f"<@&{settings.gm_role_id}>")
                roles.append(discord.Object(id=settings.gm_role_id))
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in reply.mentions], roles=roles or False,
                                           everyone=False)
        bodies = chunks(lines)
        alt = tuple(alt_text(f.description, language) if f.description is not None else None for f in reply.files)
        return [PostPart(body, mentions, reply.files, alt) if index == len(bodies) - 1 else PostPart(body, mentions)
                for index, body in enumerate(bodies)]

    async def close(self) -> None:
        """Stop sending, and the drawing workers (a board being drawn is dropped: its post is sent again)."""
        await self.sender.close()
        self.drawing.shutdown(wait=False, cancel_futures=True)

    async def send_part(self, post: OutboxRecord, index: int, part: PostPart) -> int:
        assert post.channel_id is not None
        user = recipient(post)
        # a channel of another shard's server is not in this process's cache: written to as it is
        channel = (await self.dm_channel(user) if user is not None else self.client.get_channel(post.channel_id)
                   or self.client.get_partial_messageable(post.channel_id, guild_id=post.guild_id))
        assert isinstance(channel, discord.abc.Messageable)
        files = [discord.File(io.BytesIO(f.data), filename=f.filename, description=part.alt[i] if i < len(part.alt) else None)
                 for i, f in enumerate(part.files)]
        message = await channel.send(part.content, files=files, allowed_mentions=part.mentions,
                                     nonce=post.nonce(index))
        return message.id

    async def dm_channel(self, user: int) -> discord.PartialMessageable:
        """The bot's direct-message channel with `user`: opened once (``POST /users/@me/channels``), its
        id kept for the process's later messages."""
        if user not in self._dm_channels:
            data = await self.client.http.start_private_message(user)
            self._dm_channels[user] = int(data["id"])
        return self.client.get_partial_messageable(self._dm_channels[user], type=discord.ChannelType.private)
