"""Issue 25 point 2: a game is bound to a channel only where the bot can play it.

A slash command is answered through its interaction whatever the bot may do in the channel, so a game
set up where the bot cannot post would lose every turn post, reminder and status message. Every command
that binds a game to a channel (each game's ``new``, ``/gm import``) reads the bot's permissions there
(`Context.bot_permissions`, the platform's plain value) and refuses with what is missing, in the reader's
words, creating nothing. The console (no permissions given: it can do everything) is unaffected.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.i18n import translate
from bot.service import Attachment, Context, GameService, Visibility
from bot.service.commands import table
from bot.service.permissions import CHANNEL_NEEDS

GUILD, HERE, THERE = 10, 20, 21
EVERY = frozenset(CHANNEL_NEEDS) | {"send_messages_in_threads", "manage_messages", "add_reactions"}
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=HERE, manage_server=True, locale="fr",
             bot_permissions=EVERY)


@pytest.fixture
def svc(store) -> GameService:
    return GameService(store, seed_source=lambda: 1234)


def texts(svc: GameService, ctx: Context, reply) -> str:
    language = svc.language(ctx, reply.visibility)
    return "\n".join(translate(m.key, language, m.params) for m in reply.messages)


def binding_commands() -> list[str]:
    return sorted(path for path, cmd in table().items() if cmd.binds_channel)


def test_every_new_and_the_import_bind_a_channel() -> None:
    """The check is the table's, not each game's: every game's ``new`` is declared binding."""
    paths = binding_commands()
    assert "gm import" in paths
    news = {path for path in table() if path.endswith(" new")}
    assert news and news <= set(paths)


@pytest.mark.parametrize("path", binding_commands())
def test_a_channel_without_attach_files_is_refused_and_nothing_is_created(svc: GameService, path: str) -> None:
    ctx = replace(GM, bot_permissions=EVERY - {"attach_files"})
    options = {"file": Attachment("game.json", b"{}")} if path == "gm import" else {"name": "Orion"}
    reply = svc.handle(ctx, path, options)
    assert not reply.ok and reply.visibility is Visibility.PRIVATE
    assert [m.key for m in reply.messages] == ["error.bot_missing_permissions"]
    assert "Joindre des fichiers" in texts(svc, ctx, reply)
    assert svc.store.list_games() == [] and svc.store.game_in_channel(GUILD, HERE) is None


def test_every_missing_permission_is_listed_in_the_readers_words(svc: GameService) -> None:
    ctx = replace(GM, bot_permissions=frozenset({"view_channel", "embed_links", "read_message_history"}))
    french = texts(svc, ctx, svc.handle(ctx, "sc new", {"name": "Orion"}))
    for words in ("Envoyer des messages", "Joindre des fichiers", "Épingler des messages"):
        assert words in french
    assert "Voir le salon" not in french and "Intégrer des liens" not in french
    english = replace(ctx, locale="en-US")
    text = texts(svc, english, svc.handle(english, "sc new", {"name": "Orion"}))
    assert "Send Messages" in text and "Attach Files" in text and "Pin Messages" in text
    assert "Embed Links" not in text
    assert svc.store.list_games() == []


def test_a_thread_needs_send_messages_in_threads_not_send_messages(svc: GameService) -> None:
    """In a forum post, posting is Send Messages in Threads; Send Messages only posts in the channel."""
    thread = replace(GM, in_thread=True, bot_permissions=EVERY - {"send_messages_in_threads", "send_messages"})
    reply = svc.handle(thread, "sc new", {"name": "Orion"})
    assert [m.key for m in reply.messages] == ["error.bot_missing_permissions"]
    text = texts(svc, thread, reply)
    assert "Envoyer des messages dans les fils" in text and "Envoyer des messages," not in text
    assert svc.handle(replace(thread, bot_permissions=EVERY - {"send_messages"}), "sc new", {"name": "Orion"}).ok


def test_pinning_the_status_message_takes_pin_messages_not_manage_messages(svc: GameService) -> None:
    """Since 2026 Discord pins with Pin Messages only: Manage Messages alone no longer does it."""
    ctx = replace(GM, bot_permissions=EVERY - {"pin_messages"})
    assert "Épingler des messages" in texts(svc, ctx, svc.handle(ctx, "sc new", {"name": "Orion"}))
    assert svc.handle(replace(ctx, bot_permissions=EVERY - {"manage_messages"}), "sc new", {"name": "Orion"}).ok


def test_with_every_permission_and_in_the_console_the_game_is_created(svc: GameService) -> None:
    assert svc.handle(GM, "sc new", {"name": "Orion"}).ok
    console = replace(GM, channel_id=THERE, bot_permissions=None)  # the console can do everything
    assert svc.handle(console, "hx new", {"name": "Lyra"}).ok
    assert [g.name for g in svc.store.list_games()] == ["Orion", "Lyra"]


def test_commands_that_bind_nothing_ignore_the_bots_permissions(svc: GameService) -> None:
    assert svc.handle(GM, "sc new", {"name": "Orion"}).ok
    mute = replace(GM, bot_permissions=frozenset())
    assert svc.handle(mute, "game info").ok
