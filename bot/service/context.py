"""Who runs a command, and where: everything the service needs from the chat platform."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.service.progress import Report


@dataclass(frozen=True)
class Context:
    user_id: int
    user_name: str
    guild_id: int | None = None
    channel_id: int | None = None
    locale: str | None = None  # the user's client locale, e.g. "fr" or "en-US"
    manage_server: bool = False  # the platform says this member may manage the server
    role_ids: frozenset[int] = field(default_factory=frozenset)
    #: the member is the only one reading the channel (the console): what the channel is shown is in
    #: their language too, not the server's (`GameService.language`)
    sole_reader: bool = False
    #: the bot's own permissions in this channel, by name (``"send_messages"``, as Discord's API
    #: names them, lower case); None: the platform lets the bot do everything (the console)
    bot_permissions: frozenset[str] | None = None
    #: the channel is a thread (a forum post): posting there takes Send Messages in Threads
    in_thread: bool = False
    #: where long work shows how far it is (`bot.service.progress`); None: the adapter shows nothing
    progress: Report | None = field(default=None, compare=False, repr=False)
    #: the platform's id of what gave this command (a Discord interaction): the changes it causes
    #: claim it (`bot.service.core`), so a redelivered interaction never acts twice
    interaction_id: int | None = None
