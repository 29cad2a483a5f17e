"""Raw Discord gateway payloads for interactions, shaped like the ones discord.py 2.x parses.

Tests describe an interaction the way a person does it ("ann types /sc move to:L6") and these
builders produce the JSON Discord would send: snowflakes and permission sets as strings, options
nested under their subcommand with Discord's option type numbers, members/roles/attachments in
`resolved`. The option types come from the service's command table, so a payload can only carry
options the bot really declares.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.service.commands import Command, table

APP_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
GUILD_ID = 900_000_000_000_000_010
CHANNEL_ID = 900_000_000_000_000_030

#: Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
USE_APPLICATION_COMMANDS = 1 << 31
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | USE_APPLICATION_COMMANDS

#: Interaction types and the option types of the command table's option kinds.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE = 2, 3, 4
SUBCOMMAND = 1
OPTION_TYPES = {"string": 3, "integer": 4, "boolean": 5, "user": 6, "role": 8, "attachment": 11}
BUTTON = 2

_ids = itertools.count(1)
_DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake() -> int:
    """A fresh id that grows like Discord's (milliseconds since 2015 in the high bits)."""
    now_ms = int(datetime.now(UTC).timestamp() * 1000)
    return ((now_ms - _DISCORD_EPOCH_MS) << 22) | (next(_ids) & 0x3FFFFF)


def timestamp() -> str:
    return datetime.now(UTC).isoformat()


def user_json(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0", "avatar": None,
            "bot": bot, "public_flags": 0}


@dataclass(frozen=True)
class Role:
    id: int
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": str(self.id), "name": self.name, "color": 0, "hoist": False, "position": 1,
                "permissions": "0", "managed": False, "mentionable": True, "flags": 0}


@dataclass(frozen=True)
class Member:
    """Someone on the server: their resolved channel permissions, roles and client language."""

    id: int
    name: str
    permissions: int = MEMBER_PERMISSIONS
    roles: tuple[Role, ...] = ()
    locale: str = "en-US"

    def user_json(self) -> dict[str, Any]:
        return user_json(self.id, self.name)

    def to_json(self, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {"nick": None, "avatar": None, "roles": [str(r.id) for r in self.roles],
                                "joined_at": "2024-01-01T00:00:00+00:00", "premium_since": None, "deaf": False,
                                "mute": False, "pending": False, "flags": 0, "permissions": str(self.permissions)}
        if with_user:
            data["user"] = self.user_json()
        return data


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to an option; `url` is where the bot downloads it from."""

    filename: str
    data: bytes
    id: int = field(default_factory=snowflake)

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/ephemeral-attachments/{CHANNEL_ID}/{self.id}/{self.filename}"

    def to_json(self) -> dict[str, Any]:
        return {"id": str(self.id), "filename": self.filename, "size": len(self.data), "url": self.url,
                "proxy_url": self.url, "content_type": "application/octet-stream", "ephemeral": True}


def _interaction(kind: int, member: Member, data: dict[str, Any], channel_id: int,
                 guild_id: int) -> dict[str, Any]:
    return {
        "id": str(snowflake()),
        "application_id": str(APP_ID),
        "type": kind,
        "data": data,
        "guild_id": str(guild_id),
        "guild": {"id": str(guild_id), "locale": "fr", "features": []},
        "guild_locale": "fr",
        "channel_id": str(channel_id),
        "channel": {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": "game", "position": 0,
                    "permission_overwrites": [], "nsfw": False, "parent_id": None},
        "member": member.to_json(),
        "token": f"token-{snowflake()}",
        "version": 1,
        "locale": member.locale,
        "app_permissions": str(MEMBER_PERMISSIONS),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }


def _option(cmd: Command, name: str, value: Any, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
    opt = cmd.option(name)
    if opt is None:
        raise KeyError(f"/{cmd.path} has no option {name!r}")
    kind = OPTION_TYPES[opt.type]
    if isinstance(value, Member):
        resolved.setdefault("users", {})[str(value.id)] = value.user_json()
        resolved.setdefault("members", {})[str(value.id)] = value.to_json(with_user=False)
        value = str(value.id)
    elif isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_json()
        value = str(value.id)
    elif isinstance(value, Upload):
        resolved.setdefault("attachments", {})[str(value.id)] = value.to_json()
        value = str(value.id)
    return {"name": name, "type": kind, "value": value}


def _command_data(path: str, options: Mapping[str, Any], focused: str | None) -> dict[str, Any]:
    cmd = table()[path]
    group, _, sub = path.partition(" ")
    resolved: dict[str, dict[str, Any]] = {}
    values = [_option(cmd, name, value, resolved) for name, value in options.items()]
    for value in values:
        if value["name"] == focused:
            value["focused"] = True
            value["type"] = OPTION_TYPES["string"]  # what is typed so far is always text
    data: dict[str, Any] = {"id": str(snowflake()), "name": group, "type": 1,
                            "options": [{"name": sub, "type": SUBCOMMAND, "options": values}]}
    if resolved:
        data["resolved"] = resolved
    return data


def slash(path: str, member: Member, options: Mapping[str, Any] | None = None, *,
          channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID) -> dict[str, Any]:
    """`member` runs ``/<path>`` with `options` (Members, Roles and Uploads go to `resolved`)."""
    return _interaction(APPLICATION_COMMAND, member, _command_data(path, options or {}, None), channel_id, guild_id)


def autocomplete(path: str, member: Member, option: str, typed: str, others: Mapping[str, Any] | None = None, *,
                 channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID) -> dict[str, Any]:
    """`member` is typing `typed` into `option` of ``/<path>`` (type 4, the option marked focused)."""
    data = _command_data(path, {**(others or {}), option: typed}, option)
    return _interaction(AUTOCOMPLETE, member, data, channel_id, guild_id)


def click(message: Mapping[str, Any], custom_id: str, member: Member, *, channel_id: int = CHANNEL_ID,
          guild_id: int = GUILD_ID) -> dict[str, Any]:
    """`member` clicks the button `custom_id` of `message` (a message payload the bot sent)."""
    payload = _interaction(MESSAGE_COMPONENT, member, {"custom_id": custom_id, "component_type": BUTTON},
                           channel_id, guild_id)
    payload["message"] = dict(message)
    return payload
