"""The bot under a rough Discord: rate limits, server errors, a slow database, SIGKILL mid-game."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.i18n import Count
from tests.discord_shapes import MANAGE_GUILD, MEMBER_PERMISSIONS
from tests.e2e.table import Table

CALLBACK = r"/interactions/\d+/[^/]+/callback"
EDIT_ORIGINAL = r"/webhooks/\d+/[^/]+/messages/@original"
DEFERRED = 5


@contextmanager
def write_lock(database: Path) -> Iterator[None]:
    """Hold SQLite's write lock, so the bot's next write waits (on its busy timeout) until we let go."""
    connection = sqlite3.connect(database, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        yield
        connection.execute("ROLLBACK")
    finally:
        connection.close()


def test_rate_limits_and_a_server_error_lose_no_reply(own_bot):
    """Two 429s and one 500 on interaction answers: each is retried, every command gets one reply."""
    fake = own_bot.fake
    table = Table(fake, own_bot, fake.add_channel("storm"))
    gm = fake.add_member("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    players = [fake.add_member(name) for name in ("ann", "bob", "cid")]
    fake.fail("POST", CALLBACK, status=429, times=2, retry_after=0.05)
    table.ok(gm, "sc new", name="Orion")
    # a 500 on a first attempt (discord.py waits 1 s, then 3 s after a second failure)
    fake.fail("POST", CALLBACK, status=500, times=1)
    for player, (name, team, role) in zip(players, [("Ann", "1", "general"), ("Bob", "2", "general"),
                                                    ("Cid", "1", "soldier")], strict=True):
        joined = table.ok(player, "sc join", name=name, team=team, role=role)
        assert f"**{name}**" in joined.content
    info = table.ok(gm, "game info")
    assert all(f"**{name}**" in info.content for name in ("Ann", "Bob", "Cid"))

    statuses = [call.status for call in fake.calls_to("POST", CALLBACK)]
    assert sorted(statuses) == [200] * 5 + [429, 429, 500]
    assert all(call.status < 400 or call.status in (429, 500) for call in fake.calls), "a refused API call"
    assert len(fake.channel_messages(table.channel)) == 5, "one message per command, none lost, none doubled"


def test_a_deferred_answer_survives_a_rate_limited_and_failed_edit(own_bot):
    """A command slower than Discord's 3 s is deferred, then its answer edits the "thinking" message;
    that edit meets a 500 and a 429 and still lands, once."""
    fake = own_bot.fake
    table = Table(fake, own_bot, fake.add_channel("slow"))
    gm, ann = fake.add_member("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD), fake.add_member("ann")
    table.ok(gm, "sc new", name="Orion")
    fake.fail("PATCH", EDIT_ORIGINAL, status=500, times=1)
    fake.fail("PATCH", EDIT_ORIGINAL, status=429, times=1, retry_after=0.05)

    with write_lock(own_bot.config.parent / "bot.sqlite"):
        interaction = fake.slash(ann, "sc join", {"name": "Ann", "team": "1", "role": "general"},
                                 channel=table.channel)
        fake.wait_until(lambda: fake.acknowledged(interaction) == DEFERRED, timeout=30, what="a deferral",
                        abort=own_bot.died)
    joined = table.answer(interaction)
    assert not joined.private and "**Ann**" in joined.content
    assert [c.status for c in fake.calls_to("PATCH", EDIT_ORIGINAL)] == [500, 429, 200]
    assert len(fake.channel_messages(table.channel)) == 2


def test_a_killed_bot_restarts_on_its_database_and_old_buttons_still_work(own_bot):
    """SIGKILL mid-game: the game continues from the database and the persistent undo button shown
    before the crash confirms after the restart."""
    fake = own_bot.fake
    table = Table(fake, own_bot, fake.add_channel("crash"))
    gm = fake.add_member("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    table.ok(gm, "sc new", name="Orion")
    table.ok(ann, "sc join", name="Ann", team="1", role="general")
    table.ok(bob, "sc join", name="Bob", team="2", role="general")
    ask = table.run(gm, "gm undo")
    assert ask.private and ask.buttons

    own_bot.kill()
    own_bot.start()
    assert len(fake.calls_to("PUT", r"/applications/\d+/commands")) == 1, "unchanged commands are not synced again"

    done = table.click(gm, ask)
    assert done.content.startswith(table.text("gm.undo.done", n=Count(1, "word.actions")))
    info = table.ok(gm, "game info")
    assert "**Ann**" in info.content and "**Bob**" not in info.content
    table.ok(bob, "sc join", name="Bob", team="2", role="general")


def test_a_command_in_flight_when_killed_is_all_or_nothing(own_bot):
    """Killed while a join may be committing: after the restart the player is seated exactly once,
    whether the join made it to the database or not."""
    fake = own_bot.fake
    table = Table(fake, own_bot, fake.add_channel("in-flight"))
    gm, cid = fake.add_member("gm", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD), fake.add_member("cid")
    table.ok(gm, "sc new", name="Orion")
    fake.slash(cid, "sc join", {"name": "Cid", "team": "1", "role": "soldier"}, channel=table.channel)
    own_bot.kill()
    own_bot.start()

    again = table.run(cid, "sc join", name="Cid", team="1", role="soldier")
    assert again.content == table.text("error.already_joined") if again.private else "**Cid**" in again.content
    info = table.ok(gm, "game info")
    assert info.content.count("**Cid**") == 1


def test_a_stopped_bot_is_off_the_gateway_when_stop_returns(own_bot):
    """What a restart (the load test's, between its phases) relies on: once `stop` is back, no
    session of the old process is left for an event — a channel created then meets no socket."""
    fake = own_bot.fake
    own_bot.stop()
    assert not fake.connected
    fake.add_channel("after the stop")
