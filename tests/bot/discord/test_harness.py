"""The recorder itself: it must see every kind of request the bot can make and refuse what Discord refuses,
or the adapter tests built on it would pass against a Discord that does not exist."""

from __future__ import annotations

import io

import discord
import pytest

from bot.discord_adapter.client import chunks, to_discord_embed
from bot.service import Embed, Message
from tests.bot.discord.harness import PNG_SIGNATURE, BotHarness, DiscordRecorder, DiscordRejects
from tests.bot.discord.payloads import CHANNEL_ID


async def test_a_channel_post_is_recorded_with_its_json_and_files(harness: BotHarness,
                                                                  recorder: DiscordRecorder) -> None:
    channel = harness.bot.get_partial_messageable(CHANNEL_ID)
    image = discord.File(io.BytesIO(PNG_SIGNATURE + b"board"), filename="board.png")
    sent = await channel.send("Turn 3", file=image, allowed_mentions=discord.AllowedMentions.none())
    call = recorder.calls[-1]
    assert (call.method, call.path) == ("POST", f"/channels/{CHANNEL_ID}/messages")
    assert call.content == "Turn 3" and call.files == [("board.png", PNG_SIGNATURE + b"board")]
    assert sent.id == int(call.response["id"]) and sent.attachments[0].filename == "board.png"


async def test_the_recorder_refuses_what_discord_refuses(harness: BotHarness) -> None:
    channel = harness.bot.get_partial_messageable(CHANNEL_ID)
    with pytest.raises(DiscordRejects, match="more than 2000"):
        await channel.send("x" * 2001)
    with pytest.raises(DiscordRejects, match="does not know"):
        await channel.fetch_message(1)


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
