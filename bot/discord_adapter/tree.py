"""Build discord.py app_commands from the service's command table.

discord.py reads a command's options from its callback's signature; the table is data, so each
callback is given a synthetic signature, then discord.py's public decorators (`rename`, `describe`,
`choices`, `autocomplete`) describe its options, as they would a hand-written command. Names,
descriptions and choice labels are `locale_str`s carrying their catalog key, which the translator
below turns into the French and English localisations at sync time. Internal options (a
confirmation's game version, which only a button fills) are left out of the slash command.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Optional

import discord
from discord import app_commands

from bot.i18n import catalog, choice_key, translate
from bot.service.commands import Command, Option, table

Runner = Callable[[discord.Interaction, str, dict[str, Any]], Awaitable[None]]
Completer = Callable[[discord.Interaction, str, str, str], Awaitable[list[app_commands.Choice[str]]]]

#: Discord locales served by each catalog.
DISCORD_LOCALES = {"fr": (discord.Locale.french,), "en": (discord.Locale.american_english, discord.Locale.british_english)}


def text(key: str) -> app_commands.locale_str:
    """The English text as Discord's default, with the key for the translator (a command the text
    names reads as each language's reader types it: `translate`)."""
    return app_commands.locale_str(translate(key, "en")[:100], key=key)


def name(kind: str, value: str) -> app_commands.locale_str:
    """A command, subcommand or option name, localised by its ``name.<kind>.<value>`` key (French
    players see ``/partie plateau``); the English name stays the one the bot dispatches on."""
    return app_commands.locale_str(value, key=f"name.{kind}.{value}")


def sub_name(group: str, sub: str) -> app_commands.locale_str:
    """A subcommand's name: its group's own ``name.sub.<group>.<sub>`` where the same English word
    means another thing there (HexArena's ``/hx board`` boards a cargo: not ``plateau``)."""
    own = f"name.sub.{group}.{sub}"
    return app_commands.locale_str(sub, key=own) if own in catalog("en") else name("sub", sub)


class CatalogTranslator(app_commands.Translator):
    """Localises descriptions (and names that have a ``name.`` key) from the bot's catalogs."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if key is None:
            return None
        for language, locales in DISCORD_LOCALES.items():
            if locale in locales:
                return translate(key, language)[:100] if key in catalog(language) else None
        return None


def choice_label(option: str, value: str, group: str = "") -> app_commands.locale_str:
    """A choice's label (French players pick "soldat", "général", "manuel"): its catalog key
    (`choice_key`, the words every refusal and the matcher use too), else the value itself."""
    key = choice_key(option, value, group)
    if key is None:
        return app_commands.locale_str(value)
    return app_commands.locale_str(translate(key, "en")[:100], key=key)


def _annotation(opt: Option) -> Any:
    base: Any
    if opt.choices:
        base = str  # the labelled choices are given by `app_commands.choices`
    elif opt.type == "integer":
        base = app_commands.Range[int, opt.min_value, opt.max_value] if (
            opt.min_value is not None or opt.max_value is not None) else int
    elif opt.type == "boolean":
        base = bool
    elif opt.type == "attachment":
        base = discord.Attachment
    elif opt.type == "user":
        base = discord.User
    elif opt.type == "role":
        base = discord.Role
    elif opt.type == "channel":
        base = discord.TextChannel  # a text channel of the server (the bot's cache has them all)
    else:
        base = app_commands.Range[str, 1, opt.max_length] if opt.max_length else str
    return base if opt.required else Optional[base]  # noqa: UP045 - discord.py inspects typing.Optional


def _callback(cmd: Command, run: Runner, complete: Completer) -> Callable[..., Awaitable[None]]:
    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await run(interaction, cmd.path, {k: v for k, v in values.items() if v is not None})

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    offered = [opt for opt in cmd.options if not opt.internal]
    ordered = sorted(offered, key=lambda o: not o.required)  # Discord wants required options first
    for opt in ordered:
        params.append(
            inspect.Parameter(
                opt.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=_annotation(opt),
                default=inspect.Parameter.empty if opt.required else None,
            )
        )
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    if not offered:
        return callback
    described = app_commands.rename(**{opt.name: name("option", opt.name) for opt in offered})(
        app_commands.describe(**{opt.name: text(cmd.option_key(opt)) for opt in offered})(
            callback))
    group = cmd.path.split()[0]
    labelled = {opt.name: [app_commands.Choice(name=choice_label(opt.name, value, group), value=value)
                           for value in opt.choices] for opt in offered if opt.choices}
    if labelled:
        described = app_commands.choices(**labelled)(described)
    completers = {opt.name: _completer(cmd.path, opt.name, complete) for opt in offered if opt.autocomplete}
    if completers:
        described = app_commands.autocomplete(**completers)(described)
    return described


def _completer(path: str, option: str, complete: Completer) -> Callable[..., Awaitable[list]]:
    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await complete(interaction, path, option, current)

    return autocomplete


#: who sees a group of GM commands only (``/gm``) until a server says otherwise: Manage Server, as
#: Discord's ``default_member_permissions`` has it; a server grants the group to its GM role in its
#: integration settings. Who may run each command is still the service's decision (`GameService.is_gm`).
GM_GROUP_PERMISSIONS = discord.Permissions(manage_guild=True)


def build_groups(run: Runner, complete: Completer) -> list[app_commands.Group]:
    """One group per first word of the table (``/gm``, ``/game``, ``/sc``...), each with its subcommands;
    a group whose every command is for GMs is hidden from other members by default."""
    groups: dict[str, app_commands.Group] = {}
    commands = table()
    players: set[str] = {path.split()[0] for path, cmd in commands.items() if not cmd.gm_only}
    for path in sorted(commands):
        cmd = commands[path]
        group_name, _, sub = path.partition(" ")
        group = groups.get(group_name)
        if group is None:
            group = groups[group_name] = app_commands.Group(
                name=name("group", group_name), description=text(f"cmd.{group_name}"),
                guild_only=True,  # games live in server channels
                default_permissions=None if group_name in players else GM_GROUP_PERMISSIONS,
            )
        group.add_command(
            app_commands.Command(name=sub_name(group_name, sub), description=text(cmd.description_key),
                                 callback=_callback(cmd, run, complete))
        )
    return list(groups.values())
