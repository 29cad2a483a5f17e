"""Issue 25's done-when, through the real bot process and the loopback fake's gateway: an Arkeon game
lives in a forum post. The post archives itself between turns (the status message unarchives it
and stays current), a moderator locks it (the GMs are told in their log channel), then deletes it
(the game is paused, the GMs told again); the GM moves the game to a new channel, where its status
message and its play go on. Gateway events (THREAD_UPDATE, THREAD_DELETE) reach the bot as Discord
sends them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.discord_shapes import ALL_PERMISSIONS, MANAGE_THREADS
from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.campaign import WAIT_TIMEOUT
from tests.e2e.conftest import STATUS_DEBOUNCE
from tests.e2e.table import Table
from tests.e2e.test_your_turn import move
from tests.fake_discord.server import FakeDiscord


@pytest.fixture(scope="module")
def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    """The module's bot, its status message following a change within a second."""
    config = write_config(tmp_path_factory.mktemp("bot"), fake, status_debounce=STATUS_DEBOUNCE)
    with BotProcess(fake, config) as process:
        yield process


def test_a_game_in_a_forum_post_survives_archiving_locking_deletion_and_a_move(fake, bot, gm):
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    log = fake.add_channel("mj-journal")
    forum = fake.add_forum("parties")
    post = fake.add_post(forum, "Duel")
    table = Table(fake, bot, post)
    table.run(gm, "gm settings", log_channel=log, pings="none")  # no turn ping: only the status edits here
    table.ok(gm, "ak new", name="Duel")
    table.ok(ann, "ak join", name="Ann")
    table.ok(bob, "ak join", name="Bob")
    table.ok(gm, "gm start")

    def status_in(channel) -> dict:
        return fake.wait_until(lambda: next((m for m in fake.channel_messages(channel) if m["pinned"]), None),
                               timeout=WAIT_TIMEOUT, abort=bot.died, what="the pinned status message")

    status = status_in(post)
    fake.archive_thread(post)  # idle between turns
    edits = len(fake.calls_to("PATCH", rf"/channels/{post.id}/messages/{status['id']}"))
    mover = next(who for who in (ann, bob) if "🔔" in table.run(who, "game mine").content)
    move(table, mover)
    fake.wait_until(lambda: len(fake.calls_to("PATCH", rf"/channels/{post.id}/messages/{status['id']}")) > edits
                    and not fake.thread_state(post).archived, timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the status edited in the reopened post")
    assert [c.json for c in fake.calls_to("PATCH", rf"/channels/{post.id}") if c.status == 200] == [{"archived": False}]

    fake.set_bot_permissions(post, ALL_PERMISSIONS & ~MANAGE_THREADS)
    fake.lock_thread(post)
    locked = fake.wait_until(lambda: fake.channel_messages(log), timeout=WAIT_TIMEOUT, abort=bot.died,
                             what="the GMs told the post is locked")
    assert f"<#{post.id}>" in locked[0]["content"] and "**Duel**" in locked[0]["content"]

    fake.delete_channel(post)
    fake.wait_until(lambda: len(fake.channel_messages(log)) == 2, timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the GMs told the post is gone")
    assert "`/mj déplacer`" in fake.channel_messages(log)[1]["content"]

    home = Table(fake, bot, fake.add_channel("duel-2"))
    assert "<#" in home.ok(gm, "gm move", name="duel").content
    home.ok(gm, "gm resume")
    status_in(home.channel)
    assert "**Duel**" in home.ok(ann, "game status").content
