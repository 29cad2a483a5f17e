"""What the bot must be allowed to do in a channel before a game is bound to it.

A slash command is answered through its interaction, whatever the bot may do in the channel: a game
set up where the bot cannot post would look fine, then lose every turn post, reminder and status
message. So every command that binds a game to a channel (each game's ``new``, ``/gm import``:
`Command.binds_channel`) is refused first, with the list of what is missing, in the reader's words.
"""

from __future__ import annotations

from bot.i18n import Listing
from bot.service.context import Context
from bot.service.replies import Message, ServiceError

#: What a game's channel needs, in the order Discord's channel settings list them: reading it, posting
#: turns (with their images and embeds), reading its history (replies to the bot's messages) and
#: pinning the status message — which since 2026 takes Pin Messages, no longer Manage Messages.
CHANNEL_NEEDS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
                 "pin_messages")
#: In a thread (a forum post), posting takes Send Messages in Threads instead: Send Messages lets a
#: member post in the channel itself and open threads, never post in one.
THREAD_POSTING = {"send_messages": "send_messages_in_threads"}


def missing_permissions(ctx: Context) -> list[str]:
    """The permissions the bot lacks in `ctx`'s channel for a game there; none where the platform
    grants everything (`Context.bot_permissions` is None)."""
    if ctx.bot_permissions is None:
        return []
    needed = [THREAD_POSTING.get(name, name) for name in CHANNEL_NEEDS] if ctx.in_thread else CHANNEL_NEEDS
    return [name for name in needed if name not in ctx.bot_permissions]


def require_channel_permissions(ctx: Context) -> None:
    """Refuse to bind a game to `ctx`'s channel while the bot lacks a permission it needs there."""
    missing = missing_permissions(ctx)
    if missing:
        raise ServiceError("error.bot_missing_permissions",
                           permissions=Listing(tuple(Message(f"permission.{name}") for name in missing)))
