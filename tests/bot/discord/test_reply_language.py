"""Which language a reply speaks (issue 24, point 5), as Discord's idiom has it: what the channel
reads in the server's language, whoever asked — one channel never mixes languages — and what only
the member reads (an ephemeral refusal, an aside) in their client's language."""

from __future__ import annotations

from dataclasses import replace

from bot.service import Context, GameService, Visibility
from tests.bot.discord.harness import BotHarness
from tests.bot.discord.lobby import ANN, BOB, GM, accepted, run


async def french_server(harness: BotHarness) -> None:
    """The server's GM (an English client) sets the server's language to French."""
    settings = await run(harness, GM, "gm settings", language="fr")
    assert settings.calls[0].ephemeral and "Server settings" in settings.text, settings.text  # their own: English


async def test_an_english_member_on_a_french_server_gets_the_channel_reply_in_french(harness: BotHarness) -> None:
    await french_server(harness)
    created = accepted(await run(harness, GM, "sc new", name="Orion"))
    assert not created.calls[0].ephemeral and "Partie **Orion** (spacechess) créée" in created.text, created.text
    joined = accepted(await run(harness, ANN, "sc join", name="Ann", team="1", role="general"))
    assert not joined.calls[0].ephemeral and "rejoint" in joined.text, joined.text
    before = harness.bot.service.store.seats(1)
    refused = await run(harness, ANN, "sc join", name="Ann2", team="1", role="general")
    assert refused.refused and refused.calls[0].ephemeral
    assert "You" in refused.text and "Vous" not in refused.text, refused.text  # their own: English
    assert harness.bot.service.store.seats(1) == before  # a refusal changes nothing


async def test_a_french_member_on_an_english_server_reads_the_channel_in_english(harness: BotHarness) -> None:
    created = accepted(await run(harness, GM, "sc new", name="Orion"))
    assert "Game **Orion**" in created.text
    board = accepted(await run(harness, BOB, "game info"))
    assert not board.calls[0].ephemeral and "No player has joined yet." in board.text, board.text
    refused = await run(harness, BOB, "sc move", to="C3")
    assert refused.refused and refused.calls[0].ephemeral and "Vous ne jouez pas" in refused.text, refused.text
    assert "/sc rejoindre" in refused.text  # and the command as their Discord shows it


def test_the_service_picks_the_language_by_who_reads(sqlite_store) -> None:
    svc = GameService(sqlite_store, default_language="fr")
    english = Context(user_id=1, user_name="ann", guild_id=10, channel_id=20, locale="en-US")
    assert svc.language(english) == "en" == svc.language(english, Visibility.PRIVATE)
    assert svc.language(english, Visibility.PUBLIC) == "fr" == svc.channel_language(english)
    # the console's one reader reads the channel too: everything in their language
    assert svc.channel_language(replace(english, sole_reader=True)) == "en"


async def test_a_member_who_chose_french_reads_their_own_replies_in_french_and_the_channel_in_english(
        harness: BotHarness) -> None:
    """Issue 26, point 3: Ann's client is English, she chose French (`/game settings language:fr`):
    what only she reads is French, what the channel reads stays the server's (English)."""
    chosen = await run(harness, ANN, "game settings", language="fr")
    assert chosen.calls[0].ephemeral and "C’est noté. **Vos réglages**" in chosen.text, chosen.text
    created = accepted(await run(harness, GM, "sc new", name="Orion"))
    assert "Game **Orion**" in created.text
    joined = accepted(await run(harness, ANN, "sc join", name="Ann", team="1", role="general"))
    assert not joined.calls[0].ephemeral and "joins the game" in joined.text and "rejoint" not in joined.text, joined.text
    refused = await run(harness, ANN, "sc join", name="Ann2", team="1", role="general")
    assert refused.refused and refused.calls[0].ephemeral and "Vous" in refused.text, refused.text
    back = await run(harness, ANN, "game settings", language="discord")
    assert back.calls[0].ephemeral and "Saved. **Your settings**" in back.text, back.text
    again = await run(harness, ANN, "sc join", name="Ann2", team="1", role="general")
    assert again.refused and "You" in again.text and "Vous" not in again.text, again.text
