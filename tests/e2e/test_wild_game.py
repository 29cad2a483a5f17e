"""Issue 25's done-when as one story, through the real bot process on PostgreSQL and the loopback fake
Discord: a Space Chess game lives in a forum post, and survives with nothing lost and its GMs told —

- a PostgreSQL restart while a command commits (the commit happened, its answer was lost): the
  command acts once and answers that it did, a second delivery of it changes nothing;
- a command reaching the bot too late to be answered: not acted on;
- the post archived between turns, and the bot losing Attach Files there: the turn post is kept, the
  GMs told, and it goes out once fixed (reopening the post);
- a moderator locking the post: the GMs told in their log channel;
- the post deleted: the game paused, the GMs told;
- moved with `/gm move` and resumed, the process killed while Discord makes the new channel's status
  message: after the restart (which applies a draw first), one status message, not two;
- that draw's turn post refused as too large (40005): sent again without its image, saying so, the
  GMs told.

Space Chess, because its turn posts (the lottery's draws) are the bot's own posts with an image:
each draw is published in the bot's FDJ file while the bot is down, and read at its restart. At the
end every post the outbox owed is checked against the fake's request log: delivered, or given up
with its GMs told why.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from sqlalchemy import select

from bot.store import Store
from bot.store import outbox as rows
from bot.store.discord_state import dirty_games
from bot.store.models import LogEntry, StatusMessage
from tests.discord_shapes import ALL_PERMISSIONS, ATTACH_FILES, MANAGE_THREADS
from tests.e2e.botproc import BotProcess, write_config
from tests.e2e.campaign import WAIT_TIMEOUT, header, pinned_status
from tests.e2e.conftest import STATUS_DEBOUNCE, add_gm, checked_fake
from tests.e2e.fdj_file import FdjFile, past_evenings
from tests.e2e.lobby import started, started_before
from tests.e2e.pg_cluster import Cluster, missing_binaries
from tests.e2e.table import Table
from tests.e2e.test_deferral import interaction_calls
from tests.fake_discord.core import DEFAULT_SIZE_LIMIT
from tests.fake_discord.payloads import Channel
from tests.fake_discord.server import FakeDiscord

T = TypeVar("T")


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of this test's own: it restarts it, which the shared one must not be."""
    reason = missing_binaries()
    if reason:
        pytest.skip(reason)
    server = Cluster()
    try:
        server.start()
        yield server
    finally:
        server.close()


def eventually(predicate: Callable[[], T], what: str, timeout: float = WAIT_TIMEOUT) -> T:
    """Poll something only the database or PostgreSQL knows (the fake is not told of it)."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} within {timeout:g} s")
        time.sleep(0.05)
    return value


def posted(fake: FakeDiscord, channel: Channel) -> dict[int, dict]:
    """Every message the bot's own posts made in `channel` (not its answers to commands), by id, as
    the request log holds them: a deleted channel's messages are gone from the fake, not its log."""
    found: dict[int, dict] = {}
    for call in fake.calls_to("POST", rf"/channels/{channel.id}/messages"):
        if call.status == 200:
            found.setdefault(int(call.answer["id"]), call.answer)
    return found


def messages(fake: FakeDiscord, channel: Channel, text: str) -> list[dict]:
    """The channel's messages (as it shows them now) whose text holds `text`."""
    return [m for m in fake.channel_messages(channel) if text in (m.get("content") or "")]


def own_posts(fake: FakeDiscord, channel: Channel) -> list[dict]:
    return [m for m in fake.channel_messages(channel) if "interaction_metadata" not in m]


def settled(url: str) -> None:
    """Wait until the outbox owes nothing: every post so far is on Discord and recorded as such. A
    fault the story makes next then meets the game between two posts, not a post in flight (which
    `test_outbox` kills the bot in the middle of)."""
    eventually(lambda: all(p.sent_at is not None for p in outbox(url)), "outbox with nothing owed")


def writes_owed(url: str) -> bool:
    """Whether the bot still owes a write of its own: a post, a status refresh, the pin's outcome."""
    store = Store(url, migrate=False)
    try:
        with store.engine.connect() as connection:
            pinning = connection.execute(select(StatusMessage.pin).where(StatusMessage.pin == "pending")).first()
        return bool(rows.unsent(store) or dirty_games(store) or pinning)
    finally:
        store.close()


def gm_sets(url: str, reason: str) -> int:
    """How many `/sc set` of that reason the game's log holds."""
    store = Store(url, migrate=False)
    try:
        with store.engine.connect() as connection:
            found = connection.execute(select(LogEntry.payload).where(LogEntry.kind == "gm_set")).scalars().all()
        return sum(1 for payload in found if payload.get("reason") == reason)
    finally:
        store.close()


def outbox(url: str) -> list[rows.OutboxRecord]:
    store = Store(url, migrate=False)
    try:
        with store.engine.connect() as connection:
            ids = connection.execute(select(rows.OutboxRow.id)).scalars().all()
        return [post for post in (rows.get_post(store, i) for i in sorted(ids)) if post is not None]
    finally:
        store.close()


def test_a_forum_game_survives_the_wild(cluster: Cluster, tmp_path: Path) -> None:
    fdj = FdjFile(tmp_path / "loto.csv")
    fdj.create()
    first_evening, second_evening = past_evenings(2)
    with checked_fake() as fake:
        config = write_config(tmp_path, fake, draws_file=fdj.path, status_debounce=STATUS_DEBOUNCE,
                              database_url=cluster.url)
        with BotProcess(fake, config) as bot:
            story(fake, bot, cluster, fdj, first_evening, second_evening)


def story(fake: FakeDiscord, bot: BotProcess, cluster: Cluster, fdj: FdjFile, first_evening: dt.date,
          second_evening: dt.date) -> None:
    gm = add_gm(fake)
    log = fake.add_channel("mj-journal")
    post = fake.add_post(fake.add_forum("parties"), "Orion")
    table = Table(fake, bot, post)
    table.run(gm, "gm settings", log_channel=log)
    started(fake, table, gm)
    status = pinned_status(fake, table)
    bot.wait_for_log("connected as")  # READY handled: nothing of the start is left to meet the restart

    # PostgreSQL restarts as the command commits: the commit is kept, its answer lost with the connection
    eventually(lambda: not writes_owed(cluster.url), "the bot with nothing to write")  # the one commit: the command's
    cluster.hold_commits(True)
    command = fake.slash_payload(gm, "sc set", {"character": "Cid", "ap": 5, "reason": "restart"},
                                 channel=post, locale=table.locale)
    interaction = fake.deliver(command)
    eventually(cluster.waiting_commits, "commit waiting on PostgreSQL")
    cluster.hold_commits(False)
    cluster.stop()
    bot.wait_for_log("the database is unreachable", timeout=WAIT_TIMEOUT)  # it asks whether it committed
    cluster.start()
    answer = table.answer(interaction)
    assert not answer.private and "Cid : PA à 5 (restart)" in answer.content, answer.content  # done, once
    assert gm_sets(cluster.url, "restart") == 1
    fake.deliver(command)  # Discord delivers it again (a gateway resume): answered, not done twice
    fake.wait_until(lambda: [c for c in interaction_calls(fake, interaction) if c.status != 200], timeout=WAIT_TIMEOUT,
                    abort=bot.died, what="the second delivery's answer")
    assert gm_sets(cluster.url, "restart") == 1

    # a command arriving too late to be answered (Discord gave up on it): not acted on
    late = fake.slash(gm, "sc set", {"character": "Cid", "ap": 7, "reason": "late"}, channel=post,
                      locale=table.locale, age=3.5)
    fake.wait_until(lambda: fake.calls_to("POST", rf"/interactions/{late}/[^/]+/callback"), timeout=WAIT_TIMEOUT,
                    abort=bot.died, what="the late command's deferral")
    assert " · 5 PA · " in table.ok(gm, "game sheet", character="Cid").content
    assert gm_sets(cluster.url, "late") == 0

    # between turns the post archives itself, and the bot loses Attach Files there
    fake.archive_thread(post)
    fake.set_bot_permissions(post, ALL_PERMISSIONS & ~ATTACH_FILES)
    settled(cluster.url)
    bot.kill()
    started_before(bot, first_evening, database_url=cluster.url)
    first = fdj.publish(first_evening, template=1)
    bot.start()
    told = fake.wait_until(lambda: messages(fake, post, "**Joindre des fichiers**"), timeout=WAIT_TIMEOUT,
                           abort=bot.died, what="the GMs told of the missing permission")
    assert len(told) == 1 and "**Orion**" in told[0]["content"]
    assert not messages(fake, post, header(table, first)), "kept, not sent without its image"
    fake.set_bot_permissions(post, ALL_PERMISSIONS)  # a moderator gives it back: the kept post goes out
    turn = fake.wait_until(lambda: messages(fake, post, header(table, first)), timeout=WAIT_TIMEOUT,
                           abort=bot.died, what="the first turn post, once fixed")
    assert len(turn) == 1 and len(turn[0]["attachments"]) == 1 and turn[0]["attachments"][0]["description"]
    assert not fake.thread_state(post).archived, "posting reopened the post"
    settled(cluster.url)

    # a moderator locks the post, then deletes it
    fake.set_bot_permissions(post, ALL_PERMISSIONS & ~MANAGE_THREADS)
    fake.lock_thread(post)
    fake.wait_until(lambda: messages(fake, log, "verrouillé"), timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the GMs told the post is locked")
    fake.delete_channel(post)
    fake.wait_until(lambda: messages(fake, log, "n’existe plus"), timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the GMs told the post is gone")
    settled(cluster.url)

    # moved to a new channel and resumed; the process killed while Discord makes its status message
    home = Table(fake, bot, fake.add_channel("orion-suite"))
    fake.stall("POST", rf"/channels/{home.channel.id}/messages")
    home.ok(gm, "gm move", name="Orion")
    fake.wait_until(lambda: own_posts(fake, home.channel), timeout=WAIT_TIMEOUT, abort=bot.died,
                    what="the new channel's status message on Discord")
    home.ok(gm, "gm resume")
    bot.kill()
    fake.unstall()

    # the next turn's image is larger than the server allows now: the post goes without it, saying so
    second = fdj.publish(second_evening, template=2)
    fake.set_upload_limit(1024)
    bot.start()
    turn = fake.wait_until(lambda: messages(fake, home.channel, header(table, second)), timeout=WAIT_TIMEOUT,
                           abort=bot.died, what="the second turn post, without its image")
    assert len(turn) == 1 and turn[0]["attachments"] == []
    assert table.text("gm.post_refused.images_left_out", **{"/game board": "/partie plateau"}) in turn[0]["content"]
    fake.wait_until(lambda: messages(fake, home.channel, "dépassent la taille permise"), timeout=WAIT_TIMEOUT,
                    abort=bot.died, what="the GMs told the images were too large")
    fake.set_upload_limit(DEFAULT_SIZE_LIMIT)
    settled(cluster.url)
    fake.wait_until(lambda: fake.calls_to("PUT", rf"/channels/{home.channel.id}/messages/pins/\d+"),
                    timeout=WAIT_TIMEOUT, abort=bot.died, what="the status message pinned after the restart")
    statuses = [m for m in own_posts(fake, home.channel) if m["content"].startswith("📋")]
    assert len(statuses) == 1 and statuses[0]["pinned"], "one status message, not a second"

    # nothing lost: every post the game owed is on Discord (its request log: the post's channel is
    # gone), in the channel the outbox says, or was given up with its GMs told why
    sent = {channel.id: posted(fake, channel) for channel in (post, log, home.channel)}
    owed = outbox(cluster.url)
    assert {p.kind for p in owed} >= {"turn_post", "gm_alert"} and all(p.sent_at is not None for p in owed)
    for p in owed:
        if p.given_up:
            assert p.refused and any(a.owed_by == f"refused:{p.id}:{p.refused}" and a.message_ids for a in owed)
            continue
        delivered = [sent[p.channel_id].get(i) for i in p.message_ids]
        assert delivered and all(delivered), (p.id, p.kind, p.channel_id, p.message_ids, p.last_error)
    assert str(status) in {m["id"] for m in sent[post.id].values()}
