"""Reminders by direct message (issue 26 point 3) on Discord's side, through the real outbox sender
(`ChannelPoster`) against the fake Discord: a member's DM channel is opened once
(``POST /users/@me/channels``) and written to in their language; where their privacy settings refuse
the bot (403 / 50007), they are pinged in the game's channel instead, once."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.discord_adapter.posts import classify
from bot.outbox import DM_REFUSED, FINAL, OutboxSender
from bot.service import GameService, Message
from bot.service.dms import channel_link, dm_post
from bot.service.pings import your_turn
from bot.store import outbox as rows
from tests.bot.discord.harness import BotHarness, DiscordRecorder
from tests.bot.discord.lobby import running
from tests.bot.discord.payloads import CHANNEL_ID, GUILD_ID
from tests.bot.discord.test_refused_posts import http_error


def test_a_refused_dm_is_told_apart() -> None:
    failure = classify(http_error(403, 50007))
    assert (failure.kind, failure.cause) == (FINAL, DM_REFUSED)


@pytest.fixture
async def sender(harness: BotHarness) -> OutboxSender:
    await running(harness)
    return harness.bot.poster.sender


async def test_dms_open_the_channel_once_speak_the_members_language_and_fall_back_when_refused(
        sender: OutboxSender, recorder: DiscordRecorder, service: GameService) -> None:
    core, store = recorder.core, service.store
    game = store.game_in_channel(GUILD_ID, CHANNEL_ID)
    ann = core.add_member("ann")
    store.set_member_settings(ann.user.id, reminders="dm", language="fr")
    now = [dt.datetime.now(dt.UTC)]
    sender.clock = lambda: now[0]

    async def send_dm() -> rows.OutboxRecord:
        rows.enqueue(store, [dm_post(game, ann.user.id, Message("dm.your_turn", {"name": game.name,
                                                                                 "link": channel_link(game)}),
                                     your_turn((ann.user.id,)))])
        [post] = [p for p in rows.unsent(store) if p.kind == rows.DM]
        now[0] += dt.timedelta(minutes=10)
        await sender.drain()
        return rows.get_post(store, post.id)  # type: ignore[return-value]

    for _ in range(2):
        assert (await send_dm()).sent_at is not None
    texts = [m["content"] for m in core.dm_messages(ann)]
    assert texts == [f"🔔 À vous de jouer dans **{game.name}** : https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}"] * 2
    assert len(core.calls_to("POST", r"/users/@me/channels")) == 1  # the channel's id is kept
    before = len(core.channel_messages(core.find_channel(CHANNEL_ID)))
    core.refuse_dms(ann)
    refused = await send_dm()
    assert refused.sent_at is not None and refused.last_error.startswith("fell back")
    [fallback] = core.channel_messages(core.find_channel(CHANNEL_ID))[before:]
    assert f"<@{ann.user.id}>" in fallback["content"] and len(core.dm_messages(ann)) == 2
    posted = core.calls_to("POST", rf"/channels/{CHANNEL_ID}/messages")[-1]
    assert [int(u) for u in posted.json["allowed_mentions"]["users"]] == [ann.user.id]
    assert rows.unsent(store) == []
