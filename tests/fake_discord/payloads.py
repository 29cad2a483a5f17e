"""Discord API objects as JSON, shaped like the real ones discord.py 2.x parses.

Only the fields discord.py reads are filled, with Discord's own types (snowflakes and permission
sets are strings). Keeping the shapes here lets the server and the tests build the same objects.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

#: Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
USE_APPLICATION_COMMANDS = 1 << 31
MEMBER = VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS

#: Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

#: Application command option types.
OPTION_TYPES = {"subcommand": 1, "group": 2, "string": 3, "integer": 4, "boolean": 5, "user": 6, "role": 8,
                "attachment": 11}

DISCORD_EPOCH_MS = 1_420_070_400_000
_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh id, increasing like Discord's (timestamp in the high bits, a counter in the low ones)."""
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    return ((now_ms - DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def timestamp() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class User:
    id: int
    name: str
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "flags": 0,
            "public_flags": 0,
        }


@dataclass(frozen=True)
class Member:
    """A server member as seen in an interaction: their user, roles and resolved channel permissions."""

    user: User
    permissions: int = MEMBER
    roles: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user.to_json(),
            "nick": None,
            "avatar": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "permissions": str(self.permissions),
        }


@dataclass(frozen=True)
class Channel:
    id: int
    name: str
    guild_id: int
    position: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    channels: list[Channel] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    roles: dict[int, str] = field(default_factory=dict)  # extra roles besides @everyone
    preferred_locale: str = "fr"

    def role_json(self, role_id: int, name: str, permissions: int) -> dict[str, Any]:
        return {
            "id": str(role_id),
            "name": name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0 if role_id == self.id else 1,
            "permissions": str(permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def to_json(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: everything a bot with the guilds intent is told."""
        roles = [self.role_json(self.id, "@everyone", MEMBER)]
        roles += [self.role_json(role_id, name, MEMBER) for role_id, name in self.roles.items()]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "member_count": len(self.members),
            "large": False,
            "features": [],
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "channels": [c.to_json() for c in self.channels],
            "threads": [],
            "members": [m.to_json() for m in self.members],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": self.preferred_locale,
            "premium_tier": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "system_channel_flags": 0,
            "joined_at": "2024-01-01T00:00:00+00:00",
        }

    def channel(self, channel_id: int) -> Channel:
        return next(c for c in self.channels if c.id == channel_id)


def message(
    message_id: int,
    channel_id: int,
    author: User,
    body: Mapping[str, Any],
    attachments: Sequence[Mapping[str, Any]],
    *,
    guild_id: int | None = None,
    interaction: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A message as Discord returns it after a post, from the JSON body the bot sent."""
    data: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author.to_json(),
        "content": body.get("content") or "",
        "timestamp": timestamp(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": list(attachments),
        "embeds": list(body.get("embeds") or []),
        "components": _with_ids(body.get("components") or []),
        "pinned": False,
        "type": 20 if interaction else 0,
        "flags": int(body.get("flags") or 0),
        "application_id": str(author.id),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if interaction:
        data["interaction_metadata"] = dict(interaction)
    return data


def _with_ids(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord numbers every component of a stored message; a client echoes them back."""
    numbers = itertools.count(1)

    def number(component: dict[str, Any]) -> dict[str, Any]:
        numbered = {**component, "id": component.get("id") or next(numbers)}
        if "components" in component:
            numbered["components"] = [number(child) for child in component["components"]]
        return numbered

    return [number(c) for c in components]


def attachment(attachment_id: int, filename: str, data: bytes, url: str, content_type: str | None) -> dict[str, Any]:
    return {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": url,
        "proxy_url": url,
        "content_type": content_type or "application/octet-stream",
    }


def buttons(message_data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every button of a message, whatever row it sits in."""
    found: list[dict[str, Any]] = []

    def walk(components: Sequence[Mapping[str, Any]]) -> None:
        for component in components:
            if component.get("type") == 2:
                found.append(dict(component))
            walk(component.get("components") or ())

    walk(message_data.get("components") or ())
    return found
