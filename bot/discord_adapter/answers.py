"""What every interaction is owed: an answer within Discord's 3 s, and an answer even when things fail.

Discord counts its 3 s from the interaction's creation (its snowflake), not from when the bot's
handler starts: gateway latency and a busy event loop have already eaten part of them. So the time
left is measured from ``interaction.created_at``. When sending the answer fails (a file Discord
finds too large, a form it refuses, a server error after discord.py's retries), the member still
gets a private notice carrying an error id that is also in the log line, so a game master can find
what happened.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import threading
from collections.abc import Callable
from datetime import UTC, datetime

import discord

from bot.i18n import translate
from bot.service import Attachment, Message, ServiceError
from bot.service.commands import Option, check_attachment_size
from bot.service.progress import Throttle

log = logging.getLogger("spacechess.discord")

#: Uploads take time before Discord sees the answer: a reply with files is deferred this much earlier.
UPLOAD_SECONDS = 1.0
#: Content types an attachment option may have (Discord guesses it from the extension; none for some).
TEXT_TYPES = ("text/", "application/json", "application/octet-stream", "application/toml", "application/x-yaml")


def seconds_left(interaction: discord.Interaction, budget: float, *, now: datetime | None = None) -> float:
    """How long the bot may still work before its first response, to answer within `budget` seconds
    of the interaction's creation (never negative)."""
    elapsed = ((now or datetime.now(UTC)) - interaction.created_at).total_seconds()
    return max(0.0, budget - elapsed)


def new_error_id() -> str:
    """Short enough to read out, unique enough to find one log line."""
    return secrets.token_hex(4)


async def tell_failure(interaction: discord.Interaction, language: str, *, changed: bool, error_id: str) -> None:
    """The private notice of a failure: "nothing was changed", or — when the command went through
    but its answer could not be shown — that it did. A notice that fails too is only logged."""
    key = "error.answer_failed" if changed else "error.unexpected"
    text = translate(key, language, {"id": error_id})
    none = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=none)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=none)
    except discord.HTTPException as again:
        log.error("the failure notice of error %s could not be sent either: %s", error_id, again)


async def downloaded(attachment: discord.Attachment, option: Option) -> Attachment:
    """An attachment option's bytes, after checking its announced size and type: a file over the
    option's limit or of a binary type is refused before a byte is downloaded."""
    check_attachment_size(option, attachment.filename, attachment.size)
    content_type = (attachment.content_type or "").split(";")[0].strip().lower()
    if content_type and not content_type.startswith(TEXT_TYPES):
        raise ServiceError("error.attachment_type", name=attachment.filename, type=content_type)
    return Attachment(attachment.filename, await attachment.read())


class ProgressEdits:
    """A slow command's progress lines as edits of its deferred answer ("thinking…" becomes "frame 12
    of 80…"), at most one per `interval` seconds.

    `report` is the `Context.progress` the service calls from its worker thread; each line is put in
    the reader's `language` there (a database read, kept off the event loop) and edited in on
    `loop`. Before the deferral there is no answer to edit: the latest line waits and is shown as
    soon as `opened`. `settle` stops the edits and waits for those under way, so none lands over
    the final answer; an edit Discord refuses costs only that line.
    """

    def __init__(self, interaction: discord.Interaction, loop: asyncio.AbstractEventLoop,
                 language: Callable[[], str], interval: float) -> None:
        self.interaction = interaction
        self.loop = loop
        self.language = language
        self.throttle = Throttle(interval)
        self._lock = threading.Lock()
        self._open = self._closed = False
        self._waiting: str | None = None  # the latest line while there is nothing to edit yet
        self._edits: list[concurrent.futures.Future[object]] = []
        self._words: str | None = None

    def report(self, message: Message) -> None:
        with self._lock:
            if self._closed or (self._open and not self.throttle.due()):
                return
        text = translate(message.key, self._language(), message.params)
        with self._lock:
            if self._closed:
                return
            if self._open:
                self._edit(text)
            else:
                self._waiting = text

    def opened(self) -> None:
        """The answer is deferred: the line that waited for it is shown now, the next ones as they come."""
        with self._lock:
            self._open = True
            if self._waiting is not None and self.throttle.due():
                self._edit(self._waiting)
            self._waiting = None

    async def settle(self) -> None:
        with self._lock:
            self._closed = True
            edits, self._edits = self._edits, []
        for outcome in await asyncio.gather(*(asyncio.wrap_future(e) for e in edits), return_exceptions=True):
            if isinstance(outcome, Exception):
                log.warning("a progress line could not be shown: %s", outcome)

    def _language(self) -> str:
        if self._words is None:
            self._words = self.language()
        return self._words

    def _edit(self, text: str) -> None:
        """Edit the answer to `text` after the edits before it, so an older line never lands last."""
        before = self._edits[-1] if self._edits else None
        self._edits.append(asyncio.run_coroutine_threadsafe(self._edited(before, text), self.loop))

    async def _edited(self, before: concurrent.futures.Future[object] | None, text: str) -> object:
        if before is not None:
            await asyncio.wait([asyncio.wrap_future(before)])  # its failure is reported by `settle`
        return await self.interaction.edit_original_response(content=text,
                                                             allowed_mentions=discord.AllowedMentions.none())
