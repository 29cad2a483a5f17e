"""The recorder itself: it must see every kind of request the bot can make and refuse what Discord refuses,
or the adapter tests built on it would pass against a Discord that does not exist."""

from __future__ import annotations

import io

import discord
import pytest

from bot.discord_adapter.client import chunks, to_discord_embed
from bot.service import Embed, Message
from tests.bot.discord.harness import PNG_SIGNATURE, BotHarness, DiscordRecorder, DiscordRejects
from tests.bot.discord.lobby import GM
from tests.bot.discord.payloads import CHANNEL_ID, slash


async def test_a_channel_post_is_recorded_with_its_json_and_files(harness: BotHarness,
                                                                  recorder: DiscordRecorder) -> None:
    channel = harness.bot.get_partial_messageable(CHANNEL_ID)
    image = discord.File(io.BytesIO(PNG_SIGNATURE + b"board"), filename="board.png")
    sent = await channel.send("Turn 3", file=image, allowed_mentions=discord.AllowedMentions.none())
    call = recorder.calls[-1]
    assert (call.method, call.path) == ("POST", f"/channels/{CHANNEL_ID}/messages")
    assert call.content == "Turn 3" and call.files == [("board.png", PNG_SIGNATURE + b"board")]
    assert sent.id == int(call.response["id"]) and sent.attachments[0].filename == "board.png"


async def test_the_recorder_refuses_what_discord_refuses(harness: BotHarness, recorder: DiscordRecorder) -> None:
    """With what discord.py raises for Discord's answer: the status, the JSON code, the error tree."""
    channel = harness.bot.get_partial_messageable(CHANNEL_ID)
    with pytest.raises(discord.HTTPException, match="In content: Must be 2000 or fewer") as refused:
        await channel.send("x" * 2001)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    with pytest.raises(discord.NotFound) as unknown:
        await channel.fetch_message(1)
    assert unknown.value.code == 10008
    assert recorder.messages == {} and len(recorder.refusals()) == 2, "nothing stored, both refusals on record"


async def test_a_refusal_during_an_interaction_fails_the_test(harness: BotHarness) -> None:
    """The bot tells the member something went wrong; the harness makes that a failure of the test."""
    late = slash("game info", GM, age=3.5)  # Discord gave up before the bot heard of it
    with pytest.raises(DiscordRejects, match="404 POST /interactions/.*10062"):
        await harness.interact(late)


async def test_the_core_behind_the_harness_keeps_discords_rules(harness: BotHarness, recorder: DiscordRecorder
                                                                ) -> None:
    """One fake behind both kinds of tests: the deadline, the single response and the message store
    of the loopback server apply here too."""
    exchange = await harness.interact(slash("game info", GM))
    (answer,) = exchange.messages
    assert recorder.messages[int(answer.sent["id"])]["content"] == answer.content
    interaction = discord.Interaction(data=recorder.core.interactions[int(answer.sent["interaction_metadata"]["id"])]
                                      .payload, state=harness.bot._connection)
    with pytest.raises(discord.HTTPException, match="already been acknowledged") as twice:
        await interaction.response.send_message("again")
    assert twice.value.code == 40060


def test_reply_bodies_are_split_between_lines_and_never_exceed_the_limit() -> None:
    lines = [f"{n:03d} " + "y" * 296 for n in range(20)] + ["z" * 2500]
    bodies = chunks(lines)
    assert all(len(body) <= 2000 for body in bodies)
    assert [line for body in bodies for line in body.split("\n")][:20] == lines[:20]  # no line broken
    assert bodies[-1] == "z" * 2000  # a single line too long for a message is cut, not sent whole


def test_embeds_are_cut_to_discords_limits() -> None:
    embed = to_discord_embed(Embed(Message("game.info.winner", {"winner": "x" * 9000}),
                                   description=Message("game.info.winner", {"winner": "y" * 9000})), "en")
    assert len(embed.title) == 256 and len(embed.description) == 4096
    assert len(embed) <= 6000
