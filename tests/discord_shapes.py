"""Discord API objects as JSON, for both ways the tests feed discord.py: the in-process adapter tests
(tests/bot/discord/payloads.py) and the loopback fake Discord (tests/fake_discord/).

Only the fields discord.py 2.x reads, with Discord's own types (snowflakes and permission sets are
strings). One definition keeps the two harnesses from drifting apart: a shape fixed for one (a field
a new discord.py reads) is fixed for both.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

#: Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51
#: What an ordinary member may do in a game channel.
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS
#: Every permission Discord defines (up to Pin Messages and its neighbours): the bot's unless a test says less.
ALL_PERMISSIONS = (1 << 53) - 1

#: Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: Interaction types, the button component type and the application command option types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE = 2, 3, 4
BUTTON = 2
OPTION_TYPES = {"subcommand": 1, "group": 2, "string": 3, "integer": 4, "boolean": 5, "user": 6, "channel": 7,
                "role": 8, "attachment": 11}

DISCORD_EPOCH_MS = 1_420_070_400_000
_counter = itertools.count(1)


def snowflake(at: float | None = None) -> int:
    """A fresh id, increasing like Discord's (milliseconds since 2015 in the high bits, a counter in the
    low ones); `at` (Unix seconds) dates it, as an interaction's id dates its creation."""
    now_ms = int((datetime.now(UTC).timestamp() if at is None else at) * 1000)
    return ((now_ms - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_time(value: int | str) -> float:
    """When a snowflake was made, in Unix seconds."""
    return ((int(value) >> 22) + DISCORD_EPOCH_MS) / 1000


def timestamp(at: float | None = None) -> str:
    return (datetime.now(UTC) if at is None else datetime.fromtimestamp(at, UTC)).isoformat()


def user_json(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0", "avatar": None,
            "bot": bot, "flags": 0, "public_flags": 0, "primary_guild": None}


def member_json(user: Mapping[str, Any] | None, *, permissions: int, role_ids: Iterable[int]) -> dict[str, Any]:
    """A server member as an interaction carries it: `permissions` are the member's resolved permissions
    in the channel; `user` is left out where Discord puts it elsewhere (``resolved.users``)."""
    data: dict[str, Any] = {"nick": None, "avatar": None, "roles": [str(r) for r in role_ids],
                            "joined_at": "2024-01-01T00:00:00+00:00", "premium_since": None, "deaf": False,
                            "mute": False, "pending": False, "flags": 0, "permissions": str(permissions)}
    if user is not None:
        data["user"] = dict(user)
    return data


def role_json(role_id: int, name: str, *, permissions: int = 0, position: int = 1,
              mentionable: bool = False) -> dict[str, Any]:
    return {"id": str(role_id), "name": name, "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None}, "hoist": False,
            "icon": None, "unicode_emoji": None, "position": position, "permissions": str(permissions),
            "managed": False, "mentionable": mentionable, "flags": 0}


def channel_json(channel_id: int, guild_id: int, name: str, *, position: int = 0) -> dict[str, Any]:
    """A server text channel."""
    return {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": name, "position": position,
            "permission_overwrites": [], "parent_id": None, "nsfw": False, "topic": None, "last_message_id": None,
            "rate_limit_per_user": 0, "flags": 0}


#: Channel types: a server text channel, a thread (a forum's post), a forum channel.
TEXT_CHANNEL, PUBLIC_THREAD, FORUM_CHANNEL = 0, 11, 15


def thread_json(channel_id: int, guild_id: int, parent_id: int, name: str, *, owner_id: int, archived: bool,
                locked: bool, auto_archive_duration: int, archive_timestamp: str | None) -> dict[str, Any]:
    """A public thread (a forum post): what Discord sends for it, its archived and locked state in
    ``thread_metadata``."""
    return {"id": str(channel_id), "type": PUBLIC_THREAD, "guild_id": str(guild_id), "parent_id": str(parent_id),
            "name": name, "owner_id": str(owner_id), "flags": 0, "last_message_id": None, "rate_limit_per_user": 0,
            "message_count": 0, "member_count": 1, "total_message_sent": 0,
            "thread_metadata": {"archived": archived, "locked": locked,
                                "auto_archive_duration": auto_archive_duration,
                                "archive_timestamp": archive_timestamp}}


def interaction_json(
    kind: int,
    data: Mapping[str, Any],
    *,
    application_id: int,
    guild_id: int,
    guild_locale: str,
    channel: Mapping[str, Any],
    member: Mapping[str, Any],
    locale: str,
    token: str,
    app_permissions: int,
    size_limit: int,
    created: float | None = None,
) -> dict[str, Any]:
    """The INTERACTION_CREATE event around `data`, as Discord sends it for a server channel; its id
    dates it at `created` (Unix seconds, now by default), the instant Discord's 3 s start from."""
    return {
        "id": str(snowflake(created)),
        "application_id": str(application_id),
        "type": kind,
        "data": dict(data),
        "guild_id": str(guild_id),
        "guild": {"id": str(guild_id), "locale": guild_locale, "features": []},
        "guild_locale": guild_locale,
        "channel_id": channel["id"],
        "channel": dict(channel),
        "member": dict(member),
        "token": token,
        "version": 1,
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
        "attachment_size_limit": size_limit,
    }
