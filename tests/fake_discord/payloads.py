"""The fake's server, members, channels and messages, as the JSON discord.py 2.x parses.

The shapes themselves are tests/discord_shapes.py's, shared with the in-process adapter tests; here
they get the state a server keeps (its members, roles and channels), so the fake and the tests that
drive it build the same objects.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.discord_shapes import (
    BUTTON,
    FORUM_CHANNEL,
    MEMBER_PERMISSIONS,
    TEXT_CHANNEL,
    channel_json,
    member_json,
    role_json,
    thread_json,
    timestamp,
    user_json,
)


@dataclass(frozen=True)
class User:
    id: int
    name: str
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return user_json(self.id, self.name, bot=self.bot)


@dataclass(frozen=True)
class Member:
    """A server member as seen in an interaction: their user, roles and resolved channel permissions."""

    user: User
    permissions: int = MEMBER_PERMISSIONS
    roles: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return member_json(self.user.to_json(), permissions=self.permissions, role_ids=self.roles)


@dataclass(frozen=True)
class Channel:
    """A server channel: a text channel or a forum (`kind` 15). A thread is a :class:`Thread`."""

    id: int
    name: str
    guild_id: int
    position: int = 0
    kind: int = TEXT_CHANNEL

    def to_json(self) -> dict[str, Any]:
        data = channel_json(self.id, self.guild_id, self.name, position=self.position)
        if self.kind == FORUM_CHANNEL:
            # a forum holds posts, not messages: Discord gives it the forum's fields instead
            data.update(type=FORUM_CHANNEL, available_tags=[], default_reaction_emoji=None, default_sort_order=None,
                        default_forum_layout=0, default_thread_rate_limit_per_user=0)
            del data["last_message_id"]
        return data


@dataclass(frozen=True)
class Thread(Channel):
    """A post of a forum (a public thread): `parent_id` is the forum; its archived and locked state
    lives in the fake's core, which moves it (inactivity, a moderator, a post)."""

    parent_id: int = 0

    def to_json(self) -> dict[str, Any]:
        """As an open thread (the core's `channel_json` gives its state now)."""
        return thread_json(self.id, self.guild_id, self.parent_id, self.name, owner_id=self.guild_id,
                           archived=False, locked=False, auto_archive_duration=1440, archive_timestamp=None)


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
        """A role of this server; the @everyone role (the server's own id) comes first."""
        return role_json(role_id, name, permissions=permissions, position=0 if role_id == self.id else 1)

    def to_json(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: everything a bot with the guilds intent is told."""
        roles = [self.role_json(self.id, "@everyone", MEMBER_PERMISSIONS)]
        roles += [self.role_json(role_id, name, MEMBER_PERMISSIONS) for role_id, name in self.roles.items()]
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
            "channels": [c.to_json() for c in self.channels if not isinstance(c, Thread)],
            "threads": [c.to_json() for c in self.channels if isinstance(c, Thread)],
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
    interaction: Mapping[str, Any] | None = None,
    at: float | None = None,
) -> dict[str, Any]:
    """A message as Discord's REST API returns it after a post, from the JSON body the bot sent (no
    ``guild_id``: only the gateway's message events carry it)."""
    data: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author.to_json(),
        "content": body.get("content") or "",
        "timestamp": timestamp(at),
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


def attachment(attachment_id: int, filename: str, data: bytes, url: str, content_type: str | None,
               description: str | None = None) -> dict[str, Any]:
    """An attachment as Discord returns it: its CDN `url`, and a media proxy URL that serves the same
    file (discord.py's ``Attachment.read`` fetches `url`); its `description` (alt text) when it was
    sent one, as Discord keeps it."""
    proxy = url.replace("cdn.discordapp.com", "media.discordapp.net")
    found = {
        "id": str(attachment_id),
        "filename": filename,
        "size": len(data),
        "url": url,
        "proxy_url": proxy,
        "content_type": content_type or "application/octet-stream",
    }
    if description:
        found["description"] = description
    return found


def buttons(message_data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every button of a message, whatever row it sits in."""
    found: list[dict[str, Any]] = []

    def walk(components: Sequence[Mapping[str, Any]]) -> None:
        for component in components:
            if component.get("type") == BUTTON:
                found.append(dict(component))
            walk(component.get("components") or ())

    walk(message_data.get("components") or ())
    return found
