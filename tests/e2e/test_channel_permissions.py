"""Issue 25 point 2 through the real bot process: `/sc new` reads the bot's permissions in its channel
(the interaction's ``app_permissions``, as the fake Discord sends them) and refuses, listing what is
missing in the reader's words, where the bot could not post its turns; nothing is created."""

from __future__ import annotations

from bot.i18n import Listing
from bot.service import Message
from tests.discord_shapes import ALL_PERMISSIONS, ATTACH_FILES, PIN_MESSAGES
from tests.e2e.table import NO_GAME_HERE


def test_sc_new_in_a_channel_without_attach_files_is_refused_listing_it(fake, table, gm):
    fake.set_bot_permissions(table.channel, ALL_PERMISSIONS & ~ATTACH_FILES)
    reply = table.refused(gm, "sc new", "error.bot_missing_permissions",
                          {"permissions": Listing((Message("permission.attach_files"),))}, name="Orion")
    assert "Joindre des fichiers" in reply.content
    table.refused(gm, "game info", "error.no_game_here", NO_GAME_HERE)
    fake.set_bot_permissions(table.channel, ALL_PERMISSIONS & ~ATTACH_FILES & ~PIN_MESSAGES)
    reply = table.refused(gm, "sc new", "error.bot_missing_permissions",
                          {"permissions": Listing((Message("permission.attach_files"),
                                                   Message("permission.pin_messages")))}, name="Orion")
    assert "Épingler des messages" in reply.content


def test_sc_new_with_every_permission_creates_the_game(fake, table, gm):
    fake.set_bot_permissions(table.channel, ALL_PERMISSIONS)
    created = table.ok(gm, "sc new", name="Orion")
    assert "Orion" in created.content
    assert "**Orion**" in table.ok(gm, "game info").content
