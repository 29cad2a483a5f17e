"""No post lost, none posted twice (issue 13, points 8, 9 and 11), with the real bot process killed at
the worst moments: between a draw's commit and its turn post, between Discord taking the post and
the bot recording it; the pinned status message when its pin is refused or its refresh is cut by a
crash; and commands synced only when they changed."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bot.store import Store
from bot.store import outbox as rows
from bot.store.discord_state import dirty_games
from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.campaign import WAIT_TIMEOUT, header, pinned_status, turn_sends, wait_turn_post
from tests.e2e.conftest import OUTBOX_LEASE, add_gm, checked_fake
from tests.e2e.fdj_file import past_evenings
from tests.e2e.lobby import started, started_before
from tests.e2e.table import Table
from tests.fake_discord.clock import ManualClock

T = TypeVar("T")
COMMANDS, GUILD_COMMANDS = r"/applications/\d+/commands", r"/applications/\d+/guilds/\d+/commands"


def eventually(predicate: Callable[[], T], what: str, timeout: float = WAIT_TIMEOUT) -> T:
    """Poll something the bot writes to its database (the fake Discord is not told about it)."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} within {timeout:g} s")
        time.sleep(0.1)
    return value


def unsent(bot: BotProcess) -> list[rows.OutboxRecord]:
    store = Store(f"sqlite:///{bot.config.parent / 'bot.sqlite'}", migrate=False)
    try:
        return rows.unsent(store)
    finally:
        store.close()


def dirty(bot: BotProcess) -> dict:
    store = Store(f"sqlite:///{bot.config.parent / 'bot.sqlite'}", migrate=False)
    try:
        return dirty_games(store)
    finally:
        store.close()


def turn_messages(fake, table, draw) -> list[dict]:
    """The turn post of `draw` as the channel holds it (whatever the number of requests)."""
    return [m for m in fake.channel_messages(table.channel) if header(table, draw) in (m.get("content") or "")]


def owed_turn_post(campaign):
    """A running game with its status message pinned and a draw published while the bot is down."""
    fake, bot, table, gm = campaign.fake, campaign.bot, campaign.table, campaign.gm
    started(fake, table, gm)
    pinned_status(fake, table)  # from now on the channel's only POST is the turn post
    (evening,) = past_evenings(1)
    started_before(bot, evening)
    bot.kill()
    return campaign.fdj.publish(evening, template=1)


def test_a_post_committed_when_the_bot_dies_is_posted_once_after_the_restart(campaign):
    """Killed after the draw's commit, before its turn post reached Discord (held by a long 429): the
    draw and its post were committed together, so the restarted bot posts it — once."""
    fake, bot, table = campaign.fake, campaign.bot, campaign.table
    draw = owed_turn_post(campaign)
    route = rf"/channels/{table.channel.id}/messages"
    fake.fail("POST", route, status=429, times=1, retry_after=8)
    bot.start()
    fake.wait_until(lambda: fake.calls_to("POST", route), timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the held-back turn post")
    [owed] = eventually(lambda: unsent(bot), "the owed post in the outbox")
    assert owed.kind == "turn_post" and owed.channel_id == table.channel.id
    bot.kill()
    assert turn_messages(fake, table, draw) == [], "nothing reached the channel before the crash"

    bot.start()
    post = wait_turn_post(fake, table, draw)
    assert post.json["nonce"] == owed.nonce(0) and post.json["enforce_nonce"] is True
    eventually(lambda: not unsent(bot), "the post marked sent")
    assert len(turn_messages(fake, table, draw)) == 1


def test_a_post_discord_took_when_the_bot_died_is_not_posted_twice(campaign):
    """Killed after Discord made the message, before the bot read its answer and marked the post:
    the restart sends it again with the same nonce, and Discord answers with the message it has."""
    fake, bot, table = campaign.fake, campaign.bot, campaign.table
    draw = owed_turn_post(campaign)
    route = rf"/channels/{table.channel.id}/messages"
    fake.stall("POST", route, 60)
    bot.start()
    [first] = fake.wait_until(lambda: turn_messages(fake, table, draw), timeout=WAIT_TIMEOUT, abort=bot.died,
                              what="the turn post on Discord")
    bot.kill()
    fake.unstall()
    [owed] = unsent(bot)
    assert owed.message_ids == [], "the bot died before it learnt the message's id"

    bot.start()
    eventually(lambda: not unsent(bot), "the post marked sent", timeout=WAIT_TIMEOUT + OUTBOX_LEASE)
    assert turn_messages(fake, table, draw) == [first], "one message: the resend was recognised by its nonce"
    sends = turn_sends(fake, table, draw)
    assert len(sends) == 2 and {c.json["nonce"] for c in sends} == {owed.nonce(0)}


def test_a_refused_pin_never_makes_a_second_status_message(campaign):
    """The channel has 250 pins already: the pin is refused (30003), asked once, and every later
    change edits the same status message."""
    fake, bot, table, gm = campaign.fake, campaign.bot, campaign.table, campaign.gm
    fake.fill_pins(table.channel)
    started(fake, table, gm)
    pins = rf"/channels/{table.channel.id}/messages/pins/\d+"
    fake.wait_until(lambda: fake.calls_to("PUT", pins), timeout=WAIT_TIMEOUT, abort=bot.died, what="a pin attempt")
    for ap in (7, 8):
        table.ok(gm, "sc set", character="Cid", ap=ap, reason="pins")
        fake.wait_until(lambda ap=ap: [m for m in own_posts(fake, table) if f"· {ap} PA ·" in m["content"]],
                        timeout=WAIT_TIMEOUT, abort=bot.died, what=f"the status with {ap} AP")
    [status] = own_posts(fake, table)
    assert not status["pinned"]
    assert [c.status for c in fake.calls_to("PUT", pins)] == [400], "a refused pin is not asked again"


def own_posts(fake, table) -> list[dict]:
    """The bot's messages in the channel that answer no interaction (status, turn posts)."""
    return [m for m in fake.channel_messages(table.channel)
            if "interaction_metadata" not in m and m.get("content") != "pinned by a member"]


def test_a_status_refresh_cut_by_a_crash_is_done_after_the_restart(tmp_path: Path):
    """The change marks the status dirty in the database at once; killed within the (long) debounce,
    the restarted bot refreshes it as soon as it is READY, without waiting for another change."""
    with checked_fake() as fake:
        config = write_config(tmp_path, fake, status_debounce=120)
        with BotProcess(fake, config) as bot:
            table = Table(fake, bot, fake.add_channel("dirty"))
            gm = add_gm(fake)
            table.ok(gm, "sc new", name="Orion")
            eventually(lambda: dirty(bot), "the status marked dirty")
            bot.kill()
            assert own_posts(fake, table) == []
            bot.start()
            fake.wait_until(lambda: own_posts(fake, table), timeout=WAIT_TIMEOUT, abort=bot.died,
                            what="the status message posted at the restart")
            [status] = own_posts(fake, table)
            assert "Orion" in status["content"]


def test_commands_are_synced_only_when_changed_and_a_server_sync_empties_the_global_scope(tmp_path: Path):
    clock = ManualClock()  # Discord's clock, turned by hand: the switch to server commands comes a day later
    with checked_fake(clock=clock) as fake:
        bot = BotProcess(fake, write_config(tmp_path, fake))
        for _ in range(3):  # a start, then two restarts on the same database
            bot.start()
            bot.kill()
        assert len(fake.calls_to("PUT", COMMANDS)) == 1, "synced once, not at each start"
        assert fake.commands[None]

        clock.advance(24 * 3600)  # (the commands' rate limit of the first sync is long spent by then)
        bot.config = write_config(tmp_path, fake, guild_sync=True)
        for _ in range(2):
            bot.start()
            bot.kill()
        guild_puts = fake.calls_to("PUT", GUILD_COMMANDS)
        assert len(guild_puts) == 1 and guild_puts[0].json
        assert [c.json for c in fake.calls_to("PUT", COMMANDS)][1:] == [[]], "the global copies removed, once"
        assert fake.commands[None] == [] and fake.commands[fake.guild.id]
