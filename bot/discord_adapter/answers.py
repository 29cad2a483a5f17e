"""What every interaction is owed: an answer within Discord's 3 s, and an answer even when things fail.

Discord counts its 3 s from the interaction's creation (its snowflake), not from when the bot's
handler starts: gateway latency and a busy event loop have already eaten part of them. So the time
left is measured from ``interaction.created_at``. When sending the answer fails (a file Discord
finds too large, a form it refuses, a server error after discord.py's retries), the member still
gets a private notice carrying an error id that is also in the log line, so a game master can find
what happened.
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime

import discord

from bot.i18n import translate
from bot.service import Attachment, ServiceError

log = logging.getLogger("spacechess.discord")

#: Uploads take time before Discord sees the answer: a reply with files is deferred this much earlier.
UPLOAD_SECONDS = 1.0
#: The largest attachment option the bot downloads (setups, exports and maps are small text files).
ATTACHMENT_MAX_BYTES = 1024 * 1024
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


async def downloaded(attachment: discord.Attachment) -> Attachment:
    """An attachment option's bytes, after checking its announced size and type: a file over the limit
    or of a binary type is refused before a byte is downloaded."""
    if attachment.size > ATTACHMENT_MAX_BYTES:
        raise ServiceError("error.attachment_too_large", name=attachment.filename,
                           size_kb=-(-attachment.size // 1024), limit_kb=ATTACHMENT_MAX_BYTES // 1024)
    content_type = (attachment.content_type or "").split(";")[0].strip().lower()
    if content_type and not content_type.startswith(TEXT_TYPES):
        raise ServiceError("error.attachment_type", name=attachment.filename, type=content_type)
    return Attachment(attachment.filename, await attachment.read())
