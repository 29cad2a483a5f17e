"""The status message: every character's HP, AP and equipment, and the next draw as a Discord timestamp."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.i18n import translate
from bot.service import Context, GameService
from bot.service.status import status_messages

GUILD, CHANNEL = 10, 40
GM = Context(user_id=1, user_name="gm", guild_id=GUILD, channel_id=CHANNEL, manage_server=True, locale="fr")

SETUP = b"""
map = "standard"
[[characters]]
id = "Ann"
team = 1
role = "general"
at = "A1"
cards = [1, 2]
[[characters]]
id = "Bob"
team = 2
role = "general"
at = "X44"
cards = [3, 4]
[[characters]]
id = "Cid"
team = 1
role = "soldier"
at = "C2"
weapon = "heavy_bolter"
armour = "heavy"
items = ["scope", "grenades"]
ability = "rage"
cards = [5, 6]
ap = 4
"""


@pytest.fixture
def svc(sqlite_store):
    from bot.service import Attachment

    service = GameService(sqlite_store)
    assert service.handle(GM, "sc new", {"name": "Vega",
                                            "setup": Attachment("setup.toml", SETUP)}).ok
    return service


def test_status_lists_every_character_in_team_order_and_the_next_draw(svc):
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    # Friday 4 December 2026, noon in Paris: the next draw is Saturday 5 December, 20:35 Paris (19:35 UTC)
    now = dt.datetime(2026, 12, 4, 11, 0, tzinfo=dt.UTC)
    lines = [translate(m.key, "fr", m.params) for m in status_messages(svc, game, now)]
    expected_draw = int(dt.datetime(2026, 12, 5, 19, 35, tzinfo=dt.UTC).timestamp())
    assert lines[0] == f"📋 **Vega** — tour 0 · prochain tirage : <t:{expected_draw}:F> (<t:{expected_draw}:R>)"
    assert lines[1].startswith("🔵 **Ann** (général) A1 · 30/30 PV · 0 PA")
    assert lines[2] == "🔵 **Cid** (soldat) C2 · 20/20 PV · 4 PA · bolter lourd, armure lourde · viseur, grenades"
    assert lines[3].startswith("🟧 **Bob**")


def test_dead_characters_and_finished_games(svc):
    ask = svc.handle(GM, "sc set", {"character": "Bob", "hp": 0, "reason": "test"})  # it ends the game: asks
    svc.handle(GM, ask.buttons[0].command, dict(ask.buttons[0].options))
    reply = svc.handle(GM, "game status", {})
    text = [translate(m.key, "en", m.params) for m in reply.messages]
    assert text[0] == "📋 **Vega** — finished, turn 0"
    assert "🟧 💀 ~~Bob~~" in text


def test_status_message_ids_are_stored_per_game(svc):
    game = svc.store.game_in_channel(GUILD, CHANNEL)
    assert svc.store.status_message(game.id) is None
    svc.store.set_status_message(game.id, CHANNEL, 555)
    svc.store.set_status_message(game.id, CHANNEL, 556)
    assert svc.store.status_message(game.id) == 556
