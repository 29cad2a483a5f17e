"""Raw Discord gateway payloads for interactions, shaped like the ones discord.py 2.x parses.

Tests describe an interaction the way a person does it ("ann types /sc move to:L6") and these
builders produce the JSON Discord would send: snowflakes and permission sets as strings, options
nested under their subcommand with Discord's option type numbers, members/roles/attachments in
`resolved`. The option types come from the service's command table, so a payload can only carry
options the bot really declares. The objects' shapes are tests/discord_shapes.py's, shared with the
loopback fake Discord of the e2e tests.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.service.commands import Command, table
from tests.discord_shapes import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MANAGE_GUILD,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    OPTION_TYPES,
    channel_json,
    interaction_json,
    member_json,
    role_json,
    snowflake,
    timestamp,
    user_json,
)
from tests.fake_discord.interactions import component_data
from tests.fake_discord.payloads import attachment

#: What the adapter tests take from here; the shapes shared with the fake Discord are re-exported.
__all__ = [
    "ADMINISTRATOR", "APP_ID", "BOT_USER_ID", "CHANNEL_ID", "GUILD_ID", "MANAGE_GUILD", "MEMBER_PERMISSIONS",
    "MESSAGE_COMPONENT", "Member", "Role", "Upload", "autocomplete", "click", "slash", "snowflake", "timestamp",
    "user_json",
]

APP_ID = 900_000_000_000_000_001
BOT_USER_ID = 900_000_000_000_000_002
GUILD_ID = 900_000_000_000_000_010
CHANNEL_ID = 900_000_000_000_000_030


@dataclass(frozen=True)
class Role:
    id: int
    name: str

    def to_json(self) -> dict[str, Any]:
        return role_json(self.id, self.name, mentionable=True)


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
        return member_json(self.user_json() if with_user else None, permissions=self.permissions,
                           role_ids=[r.id for r in self.roles])


@dataclass(frozen=True)
class Upload:
    """A file a member attaches to an option; `url` is where the bot downloads it from. `size` is what
    Discord announces (the file's length unless a test claims more)."""

    filename: str
    data: bytes
    id: int = field(default_factory=snowflake)
    content_type: str = "text/plain; charset=utf-8"
    size: int | None = None

    @property
    def url(self) -> str:
        return f"https://cdn.discordapp.com/ephemeral-attachments/{CHANNEL_ID}/{self.id}/{self.filename}"

    def to_json(self) -> dict[str, Any]:
        shape = attachment(self.id, self.filename, self.data, self.url, self.content_type)
        return {**shape, "size": len(self.data) if self.size is None else self.size, "ephemeral": True}


def _interaction(kind: int, member: Member, data: dict[str, Any], channel_id: int,
                 guild_id: int, *, age: float = 0.0) -> dict[str, Any]:
    """`age`: how long ago Discord created the interaction (its id dates it)."""
    return interaction_json(
        kind, data, application_id=APP_ID, guild_id=guild_id, guild_locale="fr",
        channel=channel_json(channel_id, guild_id, "game"), member=member.to_json(), locale=member.locale,
        token=f"token-{snowflake()}", app_permissions=ALL_PERMISSIONS, size_limit=10 * 1024 * 1024,
        created=time.time() - age,
    )


def _option(cmd: Command, name: str, value: Any, resolved: dict[str, dict[str, Any]]) -> dict[str, Any]:
    opt = cmd.option(name)
    if opt is None or opt.internal:  # an internal option is not in the slash command: no client can send it
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
    elif opt.type == "channel":  # a text channel of the server, by its id: as Discord resolves it
        resolved.setdefault("channels", {})[str(value)] = {"id": str(value), "name": f"channel-{value}", "type": 0,
                                                          "permissions": str(ALL_PERMISSIONS)}
        value = str(value)
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
                            "options": [{"name": sub, "type": OPTION_TYPES["subcommand"], "options": values}]}
    if resolved:
        data["resolved"] = resolved
    return data


def slash(path: str, member: Member, options: Mapping[str, Any] | None = None, *,
          channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID, age: float = 0.0) -> dict[str, Any]:
    """`member` runs ``/<path>`` with `options` (Members, Roles and Uploads go to `resolved`)."""
    return _interaction(APPLICATION_COMMAND, member, _command_data(path, options or {}, None), channel_id, guild_id,
                        age=age)


def autocomplete(path: str, member: Member, option: str, typed: str, others: Mapping[str, Any] | None = None, *,
                 channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID, age: float = 0.0) -> dict[str, Any]:
    """`member` is typing `typed` into `option` of ``/<path>`` (type 4, the option marked focused)."""
    data = _command_data(path, {**(others or {}), option: typed}, option)
    return _interaction(AUTOCOMPLETE, member, data, channel_id, guild_id, age=age)


def click(message: Mapping[str, Any], custom_id: str, member: Member, *, channel_id: int = CHANNEL_ID,
          guild_id: int = GUILD_ID, values: list[str] | None = None) -> dict[str, Any]:
    """`member` clicks the button `custom_id` of `message` (a message payload the bot sent), or picks
    `values` in its menu `custom_id`: the same component data the loopback fake builds."""
    payload = _interaction(MESSAGE_COMPONENT, member, component_data(message, custom_id, values), channel_id, guild_id)
    payload["message"] = dict(message)
    return payload
