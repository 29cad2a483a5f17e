"""Sharded bot processes on one PostgreSQL database (README, "Deployment"): each server's commands
reach only the process holding its gateway shard, and the work that belongs to no server's gateway —
a draw's fan-out and the outbox of turn posts — is shared through database claims, so a process
killed in the middle of it leaves nothing undone and nothing done twice. The fake holds the answers
to the turn posts after the first few until the kill, so the process dies with posts Discord took and
it never heard of, however fast or slow the machine is.

The routing test needs no database: a raw gateway client identifies as one shard of the fake.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import func, select

from bot.i18n import translate
from bot.lottery.turn_post import draw_header
from bot.store.models import LogEntry, OutboxRow
from bot.store.repo import Store
from draws import FDJ_LOTO, Draw
from tests.bot.conftest import postgres_server_url, postgres_url  # noqa: F401  (the PostgreSQL fixtures)
from tests.bot.draws.games import make_running_game
from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.conftest import checked_fake
from tests.e2e.fdj_file import FdjFile, past_evenings
from tests.fake_discord.payloads import Channel, Guild
from tests.fake_discord.server import FakeDiscord

SHARDS = 3
GAMES_PER_GUILD = 24
#: turn posts answered before the fake holds its answers (of SHARDS * GAMES_PER_GUILD): the process
#: killed then has posts Discord took and it never heard of, however fast or slow the machine is
KILL_AFTER_POSTS = 6
TURN_POSTS = r"/channels/\d+/messages"
FAN_OUT_TIMEOUT = 90.0


def turn_post_text(draw: Draw) -> str:
    header = draw_header(draw)
    return translate(header.key, "fr", header.params)


def turn_posts(fake: FakeDiscord, channels: list[Channel], text: str) -> Counter[int]:
    """How many messages holding the draw's header each game channel shows (as its members see it)."""
    wanted = {str(channel.id) for channel in channels}
    with fake._cond:  # one consistent look at the fake's messages
        return Counter(int(m["channel_id"]) for m in fake.store.messages.values()
                       if m["channel_id"] in wanted and text in (m.get("content") or ""))


def turn_post_nonces(fake: FakeDiscord, text: str) -> Counter[str]:
    """How many times each turn post was sent (its nonce is the same at every attempt)."""
    return Counter(str(c.json["nonce"]) for c in fake.calls_to("POST", TURN_POSTS)
                   if text in ((c.json or {}).get("content") or ""))


def acknowledged_twice(fake: FakeDiscord) -> list[Any]:
    return [c for c in fake.calls_to("POST", r"/interactions/\d+/[^/]+/callback")
            if c.status == 400 and (c.answer or {}).get("code") == 40060]


def unsent_posts(url: str) -> int:
    """Outbox rows not marked sent: a row the killed process leased stays here until its lease runs
    out and a surviving process sends it again (with the same nonce)."""
    store = Store(url, migrate=False)
    try:
        with store.engine.connect() as connection:
            return connection.execute(select(func.count()).select_from(OutboxRow)
                                      .where(OutboxRow.sent_at.is_(None))).scalar_one()
    finally:
        store.close()


def seed_games(url: str, guilds: list[Guild], fake: FakeDiscord, evening: dt.date) -> list[Channel]:
    """GAMES_PER_GUILD running Space Chess games in each server, started before `evening`'s draw."""
    store = Store(url)  # migrates the database before any bot process starts
    channels = []
    try:
        for guild in guilds:
            for number in range(GAMES_PER_GUILD):
                channel = fake.add_channel(f"game-{number}", guild=guild)
                make_running_game(store, channel.id, per_team=2, guild_id=guild.id,
                                  started=FDJ_LOTO.at(evening) - dt.timedelta(days=1))
                channels.append(channel)
    finally:
        store.close()
    return channels


def draws_per_game(url: str) -> Counter[int]:
    store = Store(url, migrate=False)
    try:
        with store.engine.connect() as connection:
            rows = connection.execute(select(LogEntry.game_id, func.count()).where(LogEntry.kind == "draw")
                                      .group_by(LogEntry.game_id)).all()
    finally:
        store.close()
    return Counter({game_id: count for game_id, count in rows})


@pytest.mark.postgres
def test_three_shard_processes_answer_their_own_servers_and_finish_a_killed_ones_draw(
    postgres_url: str, tmp_path: Path,  # noqa: F811
) -> None:
    evening = past_evenings(1)[0]
    fdj = FdjFile(tmp_path / "loto.csv")
    fdj.create()
    draw = fdj.publish(evening, 1)
    with checked_fake(shards=SHARDS) as fake:
        guilds = [fake.add_guild(f"server {shard}", shard=shard) for shard in range(SHARDS)]
        channels = seed_games(postgres_url, guilds, fake, evening)
        processes = []
        for shard in range(SHARDS):
            folder = tmp_path / f"shard{shard}"
            folder.mkdir()
            config = write_config(folder, fake, draws_file=fdj.path, database_url=postgres_url,
                                  shard_count=SHARDS, shard_ids=[shard])
            processes.append(BotProcess(fake, config, shards=[shard]))
        text = turn_post_text(draw)
        fake.stall("POST", TURN_POSTS, after=KILL_AFTER_POSTS, content=text)  # until the kill
        try:
            processes[0].start()  # its draw poll at start begins the fan-out at once
            fake.wait_until(lambda: fake.held > 0, timeout=FAN_OUT_TIMEOUT, what="a turn post of the first process held",
                            abort=processes[0].died)
            for process in processes[1:]:
                process.start()
            assert fake.connected_shards() == list(range(SHARDS))
            # each server's command reaches the one process of its shard: answered once, never twice
            for guild in guilds:
                member = fake.add_member("player", guild=guild)
                interaction = fake.slash(member, "game help", channel=guild.channels[0])
                assert fake.reply(interaction, abort=processes[0].died)["content"]
            processes[0].kill()  # its held posts are on Discord; it never learnt their ids
            fake.unstall()
            fake.wait_until(lambda: len(turn_posts(fake, channels, text)) == len(channels),
                            timeout=FAN_OUT_TIMEOUT, what="a turn post in every game channel",
                            abort=processes[1].died)
            # every channel shows its post once the killed process's held posts are answered; its
            # rows are done only when a survivor has taken them over after their lease
            fake.wait_until(lambda: unsent_posts(postgres_url) == 0, timeout=FAN_OUT_TIMEOUT,
                            what="every owed post marked sent", abort=processes[1].died)
            # with the killed shard down its server has no gateway; restarted, it answers again
            with pytest.raises(AssertionError, match="no bot holds the gateway shard 0"):
                fake.slash(guilds[0].members[0], "game help", channel=guilds[0].channels[0])
            processes[0].start()
            again = fake.slash(guilds[0].members[-1], "game help", channel=guilds[0].channels[0])
            assert fake.reply(again, abort=processes[0].died)["content"]
        finally:
            for process in processes:
                process.stop()
        posts = turn_posts(fake, channels, text)
        assert set(posts.values()) == {1}, f"turn posts delivered more than once: {posts}"
        assert max(turn_post_nonces(fake, text).values()) > 1, "no post of the killed process was sent again"
        awarded = draws_per_game(postgres_url)
        assert len(awarded) == len(channels) and set(awarded.values()) == {1}, awarded
        assert acknowledged_twice(fake) == []
        # a process posting in another shard's server writes to the channel without fetching it first
        assert fake.calls_to("GET", r"/channels/\d+") == []


def test_each_server_reaches_only_the_gateway_session_of_its_shard() -> None:
    """A raw session identifying as shard 1 of 2 is told of shard 1's server only, gets its
    interactions only, and an out-of-range shard is closed with 4010."""
    with FakeDiscord(shards=2) as fake:
        ours = fake.add_guild("ours", shard=1)
        theirs = fake.add_guild("theirs", shard=0)
        fake.commands[None] = [{"id": "1", "name": "ping", "type": 1, "description": "ping",
                                "application_id": str(fake.application_id), "version": "1", "options": []}]
        asyncio.run(_shard_session(fake, ours, theirs))
        assert fake.invalid_answers == []


async def _shard_session(fake: FakeDiscord, ours: Guild, theirs: Guild) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.api_base}/gateway/bot", headers={"Authorization": "Bot x"}) as answer:
            gateway = await answer.json()
        assert gateway["shards"] == 2 and gateway["url"] == fake.gateway_url
        assert gateway["session_start_limit"]["max_concurrency"] == 1
        async with http.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()  # HELLO
            await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "properties": {}, "shard": [1, 2]}})
            ready = await ws.receive_json()
            expected = {str(g.id) for g in fake.guilds if (g.id >> 22) % 2 == 1}  # the first server falls anywhere
            assert str(ours.id) in expected and str(theirs.id) not in expected
            assert {g["id"] for g in ready["d"]["guilds"]} == expected
            created = [await ws.receive_json() for _ in expected]
            assert {(e["t"], e["d"]["id"]) for e in created} == {("GUILD_CREATE", guild) for guild in expected}
            member = fake.add_member("someone", guild=ours)
            with pytest.raises(AssertionError, match="no bot holds the gateway shard 0"):
                await asyncio.to_thread(fake.slash, member, "ping", channel=theirs.channels[0])
            await asyncio.to_thread(fake.slash, member, "ping", channel=ours.channels[0])
            event = await ws.receive_json()
            assert event["t"] == "INTERACTION_CREATE" and event["d"]["guild_id"] == str(ours.id)
        async with http.ws_connect(fake.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": "x", "intents": 1, "properties": {}, "shard": [2, 2]}})
            closing = await ws.receive()
            assert closing.type == aiohttp.WSMsgType.CLOSE and closing.data == 4010, json.dumps(str(closing))
