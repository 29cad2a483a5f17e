"""Issue 25 point 8: the fake Discord refuses what the real one refuses, so that the bot's tests can
see it — through discord.py, which raises for each what it raises on Discord: editing another
member's message (50005), components sharing a custom id (50035), an ephemeral answer reached
through its channel's routes (10008), and more than the day's command creations (30034)."""

from __future__ import annotations

import discord
import pytest

from tests.bot.discord.harness import BotHarness, DiscordRecorder
from tests.bot.discord.lobby import GM
from tests.bot.discord.payloads import CHANNEL_ID, slash
from tests.fake_discord.core import DAILY_COMMAND_CREATES
from tests.fake_discord.payloads import Member, User


async def test_a_member_message_cannot_be_edited_by_the_bot(harness: BotHarness, recorder: DiscordRecorder) -> None:
    channel = recorder.core.find_channel(CHANNEL_ID) or recorder.core.add_channel("game", channel_id=CHANNEL_ID)
    theirs = recorder.core.post_as(Member(User(GM.id, GM.name)), channel, "salut")
    message = harness.bot.get_partial_messageable(CHANNEL_ID).get_partial_message(int(theirs["id"]))
    with pytest.raises(discord.Forbidden) as refused:
        await message.edit(content="changed")
    assert refused.value.code == 50005 and recorder.core.message(int(theirs["id"]))["content"] == "salut"


async def test_components_with_one_custom_id_twice_are_refused(harness: BotHarness) -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="a", custom_id="same"))
    view.add_item(discord.ui.Button(label="b", custom_id="same"))
    with pytest.raises(discord.HTTPException) as refused:
        await harness.bot.get_partial_messageable(CHANNEL_ID).send("two buttons", view=view)
    assert (refused.value.status, refused.value.code) == (400, 50035)


async def test_an_ephemeral_answer_is_out_of_reach_of_the_channel_routes(harness: BotHarness) -> None:
    private = await harness.interact(slash("game settings", GM))
    answer = private.messages[-1]
    assert answer.ephemeral
    with pytest.raises(discord.NotFound) as unknown:
        await harness.bot.get_partial_messageable(CHANNEL_ID).fetch_message(int(answer.sent["id"]))
    assert unknown.value.code == 10008


def test_more_command_creations_than_a_day_allows_are_refused(recorder: DiscordRecorder) -> None:
    core = recorder.core

    def put(names: list[str]) -> int:
        body = [{"name": name, "description": "d", "type": 1} for name in names]
        return core.handle("PUT", f"/applications/{core.application_id}/commands", body).status

    half = DAILY_COMMAND_CREATES // 2  # a scope holds at most 100 commands
    assert put([f"c{i}" for i in range(half)]) == 200
    assert put([f"c{i}" for i in range(half)]) == 200, "the same commands again: no creation"
    assert put([f"d{i}" for i in range(half)]) == 200
    answer = core.handle("PUT", f"/applications/{core.application_id}/commands",
                         [{"name": "one-more", "description": "d", "type": 1}])
    assert (answer.status, answer.json["code"]) == (429, 30034)
    assert [c["name"] for c in core.commands[None]][:1] == ["d0"], "the commands stay as they were"
