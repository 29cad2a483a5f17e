"""`/game settings`: a member's own settings, the same in every game on every server — pings on or
off (off: no game pings them, `bot.service.pings.may_ping`), where their reminders go (a mention in
the game's channel, or a direct message with a link to it: `bot.service.dms`; one Discord refuses
falls back to the channel) and the language of what only they read — their direct messages too (a
language of their own, or back to their Discord client's: `GameService.language`). What the channel
reads stays in the server's language. Without options it shows them; only they see it.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import ChoiceText, language_of
from bot.service.commands import Option, command
from bot.service.context import Context
from bot.service.core import GameService
from bot.service.replies import Message, Reply, Visibility
from bot.store.models import REMINDERS
from bot.store.repo import MemberSettingsRecord

#: the `language:` choice that gives up a language of one's own for the Discord client's
FOLLOW_DISCORD = "discord"


def settings_words(svc: GameService, ctx: Context, settings: MemberSettingsRecord) -> dict[str, Any]:
    """The member's settings as the reply names them: pings on or off, where reminders go, their
    language (or their Discord's, said with the language it gives them now)."""
    if settings.language is not None:
        language: Any = ChoiceText("language", settings.language)
    else:
        client = language_of(ctx.locale, svc.server_language(ctx.guild_id))
        language = Message("member.settings.follow", {"language": ChoiceText("language", client)})
    return {"pings": ChoiceText("pings", "off" if settings.mute_pings else "on"), "language": language,
            "reminders": ChoiceText("reminders", settings.reminders)}


@command(
    "game settings",
    Option("pings", choices=("on", "off")),
    Option("language", choices=("fr", "en", FOLLOW_DISCORD)),
    Option("reminders", choices=REMINDERS),
    private=True,
)
def game_settings(svc: GameService, ctx: Context, opts: dict[str, Any]) -> Reply:
    """The member's own settings, in every game on every server: shown, or changed by the options given."""
    changes: dict[str, Any] = {}
    if "pings" in opts:
        changes["mute_pings"] = opts["pings"] == "off"
    if "language" in opts:
        changes["language"] = None if opts["language"] == FOLLOW_DISCORD else opts["language"]
    if "reminders" in opts:
        changes["reminders"] = opts["reminders"]
    store = svc.store
    settings = store.set_member_settings(ctx.user_id, **changes) if changes else store.member_settings(ctx.user_id)
    key = "member.settings.saved" if changes else "member.settings.shown"
    return Reply((Message(key, settings_words(svc, ctx, settings)), Message("member.settings.how")),
                 visibility=Visibility.PRIVATE)
