"""INTERACTION_CREATE payloads, built against the commands the bot synced.

A real Discord client can only send commands and options the bot registered, with values of the
registered types, within their limits and among their choices. Building test interactions from
the synced payload keeps that guarantee: a test cannot use an option the bot never declared.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from tests.discord_shapes import ALL_PERMISSIONS, BUTTON, OPTION_TYPES, interaction_json, snowflake
from tests.fake_discord.payloads import Channel, Guild, Member


class NotACommand(ValueError):
    """The test asked for something a Discord client could not send to this bot."""


def _named(items: Sequence[Mapping[str, Any]], name: str, what: str) -> Mapping[str, Any]:
    for item in items:
        if item["name"] == name:
            return item
    raise NotACommand(f"no {what} {name!r} (known: {', '.join(i['name'] for i in items)})")


def command_data(
    synced: Sequence[Mapping[str, Any]],
    path: str,
    options: Mapping[str, Any],
    *,
    guild_id: int,
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` of a slash command (or of its autocomplete when `focused` names an option).

    `path` is ``"group sub"``; attachment options take the dict returned by the fake's
    ``host_attachment``.
    """
    top_name, _, sub_name = path.partition(" ")
    top = _named(synced, top_name, "command")
    schema: Mapping[str, Any] = top
    if sub_name:
        schema = _named(top.get("options") or (), sub_name, f"subcommand of /{top_name}")
        if schema["type"] != OPTION_TYPES["subcommand"]:
            raise NotACommand(f"/{path} is not a subcommand")
    declared = schema.get("options") or []
    given: list[dict[str, Any]] = []
    resolved: dict[str, dict[str, Any]] = {}
    for name, value in options.items():
        spec = _named(declared, name, f"option of /{path}")
        option: dict[str, Any] = {"name": name, "type": spec["type"], "value": _checked(spec, value, path, focused)}
        if spec["type"] == OPTION_TYPES["attachment"]:
            resolved.setdefault("attachments", {})[value["id"]] = dict(value)
            option["value"] = value["id"]
        elif spec["type"] == OPTION_TYPES["user"]:
            member = value.to_json()
            user = member.pop("user")
            resolved.setdefault("users", {})[user["id"]] = user
            resolved.setdefault("members", {})[user["id"]] = member
            option["value"] = user["id"]
        elif spec["type"] == OPTION_TYPES["role"]:
            resolved.setdefault("roles", {})[value["id"]] = dict(value)
            option["value"] = value["id"]
        elif spec["type"] == OPTION_TYPES["channel"]:  # as Discord resolves it: a partial channel
            resolved.setdefault("channels", {})[str(value.id)] = {
                "id": str(value.id), "name": value.name, "type": value.kind, "permissions": str(ALL_PERMISSIONS)}
            option["value"] = str(value.id)
        if name == focused:
            option["focused"] = True
        given.append(option)
    if focused is None:
        missing = [o["name"] for o in declared if o.get("required") and o["name"] not in options]
        if missing:
            raise NotACommand(f"/{path} needs {', '.join(missing)}")
    elif not declared or not _named(declared, focused, f"option of /{path}").get("autocomplete"):
        raise NotACommand(f"/{path} {focused} has no autocomplete")
    inner = [{"name": sub_name, "type": OPTION_TYPES["subcommand"], "options": given}] if sub_name else given
    data: dict[str, Any] = {"id": top["id"], "name": top_name, "type": 1, "options": inner, "guild_id": str(guild_id)}
    if resolved:
        data["resolved"] = resolved
    return data


def _checked(spec: Mapping[str, Any], value: Any, path: str, focused: str | None) -> Any:
    """What the Discord client enforces before sending (an autocompleted value is free text)."""
    kind = spec["type"]
    where = f"/{path} {spec['name']}"
    if spec["name"] == focused:
        return str(value)
    if kind == OPTION_TYPES["integer"]:
        if isinstance(value, bool) or not isinstance(value, int):
            raise NotACommand(f"{where} takes an integer, not {value!r}")
        if ("min_value" in spec and value < spec["min_value"]) or ("max_value" in spec and value > spec["max_value"]):
            raise NotACommand(f"{where}: {value} is out of bounds")
    elif kind == OPTION_TYPES["boolean"]:
        if not isinstance(value, bool):
            raise NotACommand(f"{where} takes a boolean, not {value!r}")
    elif kind == OPTION_TYPES["string"]:
        if not isinstance(value, str):
            raise NotACommand(f"{where} takes a string, not {value!r}")
        choices = [c["value"] for c in spec.get("choices") or ()]
        if choices and value not in choices:
            raise NotACommand(f"{where}: {value!r} is not among {choices}")
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise NotACommand(f"{where}: {len(value)} characters is out of bounds")
    elif kind == OPTION_TYPES["attachment"]:
        if not (isinstance(value, Mapping) and "url" in value):
            raise NotACommand(f"{where} takes a hosted attachment")
    elif kind == OPTION_TYPES["user"]:
        if not isinstance(value, Member):
            raise NotACommand(f"{where} takes a server member")
    elif kind == OPTION_TYPES["role"]:
        if not (isinstance(value, Mapping) and "permissions" in value):
            raise NotACommand(f"{where} takes a role of the server")
    elif kind == OPTION_TYPES["channel"]:
        if not isinstance(value, Channel):
            raise NotACommand(f"{where} takes a channel of the server")
        if spec.get("channel_types") and value.kind not in spec["channel_types"]:
            raise NotACommand(f"{where}: a channel of type {value.kind} is not among {spec['channel_types']}")
    return value


def synced_command(command: Mapping[str, Any], application_id: int, guild_id: int | None) -> dict[str, Any]:
    """A command as Discord stores and returns it after a sync: ids and version given, the defaults
    of what the bot left out filled in (``integration_types``: installed on servers), and its
    ``default_member_permissions`` a string, as Discord answers every permission set."""
    stored = {key: value for key, value in command.items() if value is not None}
    permissions = command.get("default_member_permissions")
    stored.update(id=str(snowflake()), application_id=str(application_id), version=str(snowflake()),
                  type=command.get("type") or 1,
                  default_member_permissions=None if permissions is None else str(permissions),
                  integration_types=command.get("integration_types") or [0], nsfw=bool(command.get("nsfw")))
    if guild_id is not None:
        stored["guild_id"] = str(guild_id)
    return stored


def components(message: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every interactive component of a message (buttons, menus), whatever row it sits in."""
    found: list[dict[str, Any]] = []

    def walk(items: Sequence[Mapping[str, Any]]) -> None:
        for item in items:
            if "custom_id" in item:
                found.append(dict(item))
            walk(item.get("components") or ())

    walk(message.get("components") or ())
    return found


def component_data(message: Mapping[str, Any], custom_id: str, values: Sequence[str] | None = None) -> dict[str, Any]:
    """The ``data`` of a click on a button, or of a pick of `values` in a select menu: only a
    component of the message, and only options that menu offers, can be used."""
    present = {c["custom_id"]: c for c in components(message)}
    component = present.get(custom_id)
    if component is None:
        raise NotACommand(f"message {message['id']} has no component {custom_id!r} (it has {list(present)})")
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"], "id": component["id"]}
    if component["type"] == BUTTON:
        if values is not None:
            raise NotACommand(f"{custom_id!r} is a button: it has no values to pick")
        return data
    offered = [option["value"] for option in component.get("options") or ()]
    picked = list(values or ())
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(picked) <= high or not set(picked) <= set(offered):
        raise NotACommand(f"menu {custom_id!r} takes {low} to {high} of {offered}, not {picked}")
    return {**data, "values": picked}


def envelope(
    kind: int,
    data: Mapping[str, Any],
    *,
    application_id: int,
    guild: Guild,
    channel: Channel,
    member: Member,
    locale: str,
    size_limit: int,
    app_permissions: int,
    message: Mapping[str, Any] | None = None,
    created: float | None = None,
) -> dict[str, Any]:
    """The INTERACTION_CREATE event around `data`: `app_permissions` are the bot's in the channel, and
    the token is as unguessable as Discord's (a webhook call with another interaction's token is refused)."""
    payload = interaction_json(
        kind, data, application_id=application_id, guild_id=guild.id, guild_locale=guild.preferred_locale,
        channel=channel.to_json(), member=member.to_json(), locale=locale, token=secrets.token_urlsafe(48),
        app_permissions=app_permissions, size_limit=size_limit, created=created,
    )
    if message is not None:
        payload["message"] = dict(message)
    return payload
